import Foundation
import Lamina
import LaminaDraw
import XCTest

/// Typesetters (line breaks an iOS program asks for one line at a time)
/// and truncated lines, written as iOS code would be.
final class TypesetterTests: XCTestCase {
  let font = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)

  override func setUp() { LaminaDraw.install() }

  func attributed(_ text: String) -> NSAttributedString {
    NSAttributedString(
      string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
  }

  func width(_ text: String) -> Double {
    CTLineGetTypographicBounds(CTLineCreateWithAttributedString(attributed(text)), nil, nil, nil)
  }

  func testALineBreaksAfterTheLastWordThatFits() {
    let typesetter = CTTypesetterCreateWithAttributedString(attributed("aaa bbb ccc ddd"))
    // "aaa bbb" fits, "aaa bbb c" does not: the break is after "bbb ", its
    // space counted in the line.
    let room = width("aaa bbb") + 0.5
    XCTAssertLessThan(room, width("aaa bbb c"))
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, room), 8)
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 8, room), 7, "the rest: ccc ddd")
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 15, room), 0, "past the end")
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, 10_000), 15)
  }

  func testAWordWiderThanTheLineBreaksBetweenCharacters() {
    let typesetter = CTTypesetterCreateWithAttributedString(attributed("ab cdefgh"))
    let room = width("ab cd") + 0.5
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, room), 3, "after the word that fits")
    XCTAssertEqual(CTTypesetterSuggestClusterBreak(typesetter, 0, room), 5, "where the width ends")
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 3, width("cde") + 0.5), 3)
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 3, 0.1), 1, "one character at least")
  }

  func testALineSeparatorEndsTheLineAndIsCountedInIt() {
    let typesetter = CTTypesetterCreateWithAttributedString(attributed("one\ntwo\r\nthree"))
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, 10_000), 4)
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 4, 10_000), 5, "CR LF is one break")
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 9, 10_000), 5)
    let line = CTTypesetterCreateLine(typesetter, CFRangeMake(0, 4))
    XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(0, 4))
    XCTAssertEqual(CTLineGetGlyphCount(line), 3, "the separator is not drawn")
    XCTAssertEqual(
      CTLineGetTypographicBounds(line, nil, nil, nil), width("one"), accuracy: 0.01)
  }

  /// Core Text makes no empty line after a text's last line separator
  /// (Pango does): a frame of "abc\n" has one line, as tall as "abc"'s.
  func testATrailingLineSeparatorMakesNoEmptyLine() {
    let box = CGPath(rect: CGRect(x: 0, y: 0, width: 300, height: 300), transform: nil)
    func frame(_ text: String) -> CTFrame {
      CTFramesetterCreateFrame(
        CTFramesetterCreateWithAttributedString(attributed(text)), CFRangeMake(0, 0), box, nil)
    }
    XCTAssertEqual(CTFrameGetLines(frame("abc\n")).count, 1)
    XCTAssertEqual(CTFrameGetLines(frame("abc\n\n")).count, 2, "an empty paragraph is a line")
    XCTAssertEqual(CTFrameGetLines(frame("abc")).count, 1)
    XCTAssertEqual(CTFrameGetVisibleStringRange(frame("abc\n")), CFRangeMake(0, 4))
    func size(_ text: String) -> CGSize {
      CTFramesetterSuggestFrameSizeWithConstraints(
        CTFramesetterCreateWithAttributedString(attributed(text)), CFRangeMake(0, 0), nil,
        CGSize(width: 300, height: CGFloat.greatestFiniteMagnitude), nil)
    }
    XCTAssertEqual(size("abc\n").height, size("abc").height)
  }

  /// Tab stops every 28 points, as Core Text's defaults, whatever font the
  /// text before them is in (Pango's default follows the first font).
  func testTabStopsAreEvery28Points() {
    let large = CTFontCreateWithName("DejaVu Serif" as CFString, 40, nil)
    let text = NSMutableAttributedString(
      string: "W\n", attributes: [NSAttributedString.Key(kCTFontAttributeName as String): large])
    text.append(attributed("a\tb\tc"))
    let frame = CTFramesetterCreateFrame(
      CTFramesetterCreateWithAttributedString(text), CFRangeMake(0, 0),
      CGPath(rect: CGRect(x: 0, y: 0, width: 300, height: 300), transform: nil), nil)
    let line = CTFrameGetLines(frame)[1]
    XCTAssertEqual(Double(CTLineGetOffsetForStringIndex(line, 4, nil)), 28, accuracy: 0.01, "b")
    XCTAssertEqual(Double(CTLineGetOffsetForStringIndex(line, 6, nil)), 56, accuracy: 0.01, "c")
    let alone = CTLineCreateWithAttributedString(attributed("a\tb"))
    XCTAssertEqual(Double(CTLineGetOffsetForStringIndex(alone, 2, nil)), 28, accuracy: 0.01)
  }

  /// The loop iOS text code writes; its lines are the framesetter's.
  func testTheTypesetterLoopMakesTheFramesLines() {
    let text = attributed(
      "Core Animation commits layer trees; Core Text sets the words of a paragraph in a frame.")
    let framesetter = CTFramesetterCreateWithAttributedString(text)
    let typesetter = CTFramesetterGetTypesetter(framesetter)
    var ranges: [CFRange] = []
    var start = 0
    while start < text.length {
      let count = CTTypesetterSuggestLineBreak(typesetter, start, 220)
      XCTAssertGreaterThan(count, 0)
      let line = CTTypesetterCreateLine(typesetter, CFRangeMake(start, count))
      let trailing = CTLineGetTrailingWhitespaceWidth(line)
      XCTAssertLessThanOrEqual(CTLineGetTypographicBounds(line, nil, nil, nil) - trailing, 220)
      ranges.append(CTLineGetStringRange(line))
      start += count
    }
    let box = CGPath(rect: CGRect(x: 0, y: 0, width: 220, height: 1000), transform: nil)
    let frame = CTFramesetterCreateFrame(framesetter, CFRangeMake(0, 0), box, nil)
    XCTAssertEqual(ranges, CTFrameGetLines(frame).map(CTLineGetStringRange))
    XCTAssertGreaterThanOrEqual(ranges.count, 3)
    let again = CTFramesetterCreateWithTypesetter(typesetter)
    XCTAssertTrue(CTFramesetterGetTypesetter(again) === typesetter)
  }

  func ellipsis() -> CGGlyph {
    var units: [UniChar] = [0x2026]
    var glyphs: [CGGlyph] = [0]
    CTFontGetGlyphsForCharacters(font, &units, &glyphs, 1)
    return glyphs[0]
  }

  func glyphs(_ line: CTLine) -> [CGGlyph] { CTLineGetGlyphRuns(line).flatMap(\.glyphs) }

  func testATruncatedLineFitsAndShowsTheEllipsisWhereTextWasLeftOut() throws {
    let line = CTLineCreateWithAttributedString(attributed("The quick brown fox jumps"))
    let whole = glyphs(line)
    // The token iOS code passes for an ellipsis (nil: the line is cut off).
    let token = CTLineCreateWithAttributedString(attributed("\u{2026}"))
    XCTAssertTrue(CTLineCreateTruncatedLine(line, 10_000, .end, token) === line, "it fits already")
    let end = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .end, token))
    let truncatedWidth = CTLineGetTypographicBounds(end, nil, nil, nil)
    XCTAssertLessThanOrEqual(truncatedWidth, 120)
    XCTAssertGreaterThan(truncatedWidth, 120 - width("w…"), "as much text as fits")
    let cut = glyphs(end)
    XCTAssertEqual(cut.last, ellipsis())
    XCTAssertEqual(Array(cut.dropLast()), Array(whole.prefix(cut.count - 1)))
    XCTAssertEqual(CTLineGetStringRange(end), CTLineGetStringRange(line))

    let start = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .start, token))
    XCTAssertEqual(glyphs(start).first, ellipsis())
    XCTAssertEqual(Array(glyphs(start).dropFirst()), Array(whole.suffix(glyphs(start).count - 1)))
    let middle = try XCTUnwrap(CTLineCreateTruncatedLine(line, 120, .middle, token))
    let m = glyphs(middle)
    XCTAssertEqual(m.first, whole.first)
    XCTAssertEqual(m.last, whole.last)
    XCTAssertTrue(m.contains(ellipsis()))

    XCTAssertNil(CTLineCreateTruncatedLine(line, 0, .end, token))
    XCTAssertNil(CTLineCreateTruncatedLine(line, 2, .end, token), "not even the ellipsis fits")
  }
}

/// Odd arguments answer sensibly, without trapping.
final class TypesetterEdgeTests: XCTestCase {
  let font = CTFontCreateWithName("DejaVu Sans" as CFString, 20, nil)

  func attributed(_ text: String) -> NSAttributedString {
    NSAttributedString(
      string: text, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): font])
  }

  /// A paragraph's breaks asked one line after another (laid out once and
  /// reused) are those of a fresh typesetter for each line.
  func testBreaksReusedAlongAParagraphAreTheFreshOnes() {
    let text = attributed(
      String(repeating: "lorem ipsum dolor sit amet ", count: 12) + "\nend of it all")
    func breaks(fresh: Bool, characters: Bool) -> [Int] {
      let shared = CTTypesetterCreateWithAttributedString(text)
      var start = 0
      var ends: [Int] = []
      while start < text.length {
        let typesetter = fresh ? CTTypesetterCreateWithAttributedString(text) : shared
        start +=
          characters
          ? CTTypesetterSuggestClusterBreak(typesetter, start, 90)
          : CTTypesetterSuggestLineBreak(typesetter, start, 90)
        ends.append(start)
      }
      return ends
    }
    for characters in [false, true] {
      let reused = breaks(fresh: false, characters: characters)
      XCTAssertGreaterThan(reused.count, 20)
      XCTAssertEqual(reused, breaks(fresh: true, characters: characters))
    }
    // Another width, or a start inside a line, is laid out anew.
    let typesetter = CTTypesetterCreateWithAttributedString(text)
    let first = CTTypesetterSuggestLineBreak(typesetter, 0, 90)
    XCTAssertEqual(
      CTTypesetterSuggestLineBreak(typesetter, 0, 200),
      CTTypesetterSuggestLineBreak(CTTypesetterCreateWithAttributedString(text), 0, 200))
    XCTAssertEqual(
      CTTypesetterSuggestLineBreak(typesetter, 2, 90),
      CTTypesetterSuggestLineBreak(CTTypesetterCreateWithAttributedString(text), 2, 90))
    XCTAssertGreaterThan(first, 0)
  }

  func testEmptyStringsNegativeIndexesAndOddWidths() {
    let empty = CTTypesetterCreateWithAttributedString(attributed(""))
    XCTAssertEqual(CTTypesetterSuggestLineBreak(empty, 0, 100), 0)
    XCTAssertEqual(CTLineGetGlyphCount(CTTypesetterCreateLine(empty, CFRangeMake(0, 0))), 0)
    let typesetter = CTTypesetterCreateWithAttributedString(attributed("ab cd"))
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, -3, 100), 0)
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, .nan), 5, "no width: no break")
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, .infinity), 5)
    XCTAssertEqual(CTTypesetterSuggestLineBreak(typesetter, 0, -10), 1)
    let line = CTTypesetterCreateLine(typesetter, CFRangeMake(-4, 100))
    XCTAssertEqual(CTLineGetStringRange(line), CFRangeMake(0, 5), "clamped to the string")
    XCTAssertNil(CTLineCreateTruncatedLine(line, .nan, .end, nil))
    XCTAssertTrue(CTLineCreateTruncatedLine(line, .infinity, .end, nil) === line, "it fits")
  }

  /// A pair of UTF-16 units (an emoji) is never split, and ranges count UTF-16.
  func testSurrogatePairsAreNotSplit() throws {
    let text = "a😀b😀c😀d"
    let typesetter = CTTypesetterCreateWithAttributedString(attributed(text))
    var start = 0
    var ends: [Int] = []
    while start < text.utf16.count {
      let count = CTTypesetterSuggestClusterBreak(typesetter, start, 1)
      XCTAssertGreaterThan(count, 0)
      start += count
      ends.append(start)
    }
    XCTAssertEqual(ends, [1, 3, 4, 6, 7, 9, 10], "one character (one or two units) a line")
    let line = CTLineCreateWithAttributedString(attributed(text))
    let truncated = try XCTUnwrap(CTLineCreateTruncatedLine(line, 40, .middle, nil))
    XCTAssertEqual(CTLineGetStringRange(truncated), CFRangeMake(0, text.utf16.count))
  }
}
