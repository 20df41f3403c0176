import CPango
import Foundation

// Core Text's typesetter on Pango: Pango breaks the lines (words, then
// characters, never truncating), a line separator ends a line, and a
// typesetter's line is laid out as `CTLineCreateWithAttributedString` lays
// out a whole string.

/// Breaks an attributed string into lines (`CTTypesetterSuggestLineBreak`)
/// and makes them (`CTTypesetterCreateLine`).
public final class CTTypesetter: @unchecked Sendable {
  let string: NSAttributedString
  init(string: NSAttributedString) { self.string = NSAttributedString(attributedString: string) }

  /// The line starts (UTF-16) of the paragraph laid out last, at one width:
  /// a program asks for a paragraph's breaks one line after another, and
  /// the lines from any of its line starts are the lines laid out already
  /// (breaking is greedy), so the paragraph is laid out once.
  private struct Breaks {
    var end: Int
    var width: Double?
    var characters: Bool
    var starts: [Int]
  }
  private var last: Breaks?
  private let lock = NSLock()

  /// The UTF-16 length of the line that starts at `start` and fits in
  /// `width` points: through the last word (or, `characters`, the last
  /// character) that fits, a line separator ending it; at least one
  /// character; 0 when `start` is not in the string.
  func suggestBreak(from start: CFIndex, width: Double, characters: Bool) -> CFIndex {
    let total = string.length
    guard start >= 0, start < total else { return 0 }
    let characters16 = string.string as NSString
    // The paragraph from `start`, through its separator: Core Text breaks
    // after a separator whatever the width.
    var end = start
    while end < total {
      let unit = characters16.character(at: end)
      end += 1
      if unit == 0x0D, end < total, characters16.character(at: end) == 0x0A { end += 1 }
      if TextLayout.lineBreaks.contains(unit) {
        break
      }
    }
    // Pango fits at least one character on a line, whatever the width.
    let fitted = width.isFinite ? max(width, 1.0 / PangoText.unit) : nil
    lock.lock()
    defer { lock.unlock() }
    if let last, last.end == end, last.width == fitted, last.characters == characters,
      let line = last.starts.firstIndex(of: start)
    {
      return (line + 1 < last.starts.count ? last.starts[line + 1] : end) - start
    }
    guard
      let text = TextLayout(
        string, range: NSRange(location: start, length: end - start),
        width: fitted.map { CGFloat($0) },
        options: TextLayout.Options(
          truncates: false, breaksCharacters: characters, appliesIndents: false))
    else { return end - start }
    let starts = text.lineBoxes().map { text.utf16Offset(ofByte: $0.startByte) }
    last = Breaks(end: end, width: fitted, characters: characters, starts: starts)
    return (starts.count > 1 ? starts[1] : end) - start
  }
}

/// A typesetter of `string` (copied).
public func CTTypesetterCreateWithAttributedString(_ string: NSAttributedString) -> CTTypesetter {
  CTTypesetter(string: string)
}

/// A typesetter of `string` (copied); the options are ignored.
public func CTTypesetterCreateWithAttributedStringAndOptions(
  _ string: NSAttributedString, _ options: NSDictionary?
) -> CTTypesetter? {
  CTTypesetter(string: string)
}

/// How many UTF-16 units of the string, from `startIndex`, fill a line
/// `width` points wide, broken between words (between characters when a
/// word alone is wider); a line separator ends the line and is counted in
/// it, as is the whitespace at its end.
public func CTTypesetterSuggestLineBreak(
  _ typesetter: CTTypesetter, _ startIndex: CFIndex, _ width: Double
) -> CFIndex {
  typesetter.suggestBreak(from: startIndex, width: width, characters: false)
}

/// As `CTTypesetterSuggestLineBreak`, broken between characters (grapheme
/// clusters) wherever the width ends.
public func CTTypesetterSuggestClusterBreak(
  _ typesetter: CTTypesetter, _ startIndex: CFIndex, _ width: Double
) -> CFIndex {
  typesetter.suggestBreak(from: startIndex, width: width, characters: true)
}

/// A line of `stringRange` of the string (length 0: to the end), unbroken;
/// line separators at its end are counted in its range but not drawn.
public func CTTypesetterCreateLine(_ typesetter: CTTypesetter, _ stringRange: CFRange) -> CTLine {
  let total = typesetter.string.length
  let start = max(0, min(stringRange.location, total))
  let end = stringRange.length <= 0 ? total : start + min(stringRange.length, total - start)
  let characters16 = typesetter.string.string as NSString
  var shown = end
  while shown > start,
    TextLayout.lineBreaks.contains(characters16.character(at: shown - 1))
  {
    shown -= 1
  }
  let text = TextLayout(
    typesetter.string, range: NSRange(location: start, length: shown - start), width: nil,
    options: TextLayout.Options(truncates: false, singleParagraph: true))
  return CTLine(firstLineOf: text, stringRange: CFRange(location: start, length: end - start))
}
