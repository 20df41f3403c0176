import CCairo
import CPango
import Foundation

/// Lays out an attributed string in frames (`CTFramesetterCreateFrame`).
public final class CTFramesetter: @unchecked Sendable {
  let typesetter: CTTypesetter
  var string: NSAttributedString { typesetter.string }
  init(typesetter: CTTypesetter) { self.typesetter = typesetter }

  func nsRange(_ range: CFRange) -> NSRange {
    let total = string.length
    let start = max(0, min(range.location, total))
    let length = range.length <= 0 ? total - start : min(range.length, total - start)
    return NSRange(location: start, length: length)
  }
}

/// A framesetter of `attrString` (copied).
public func CTFramesetterCreateWithAttributedString(_ attrString: NSAttributedString)
  -> CTFramesetter
{
  CTFramesetter(typesetter: CTTypesetter(string: attrString))
}

/// A framesetter of the typesetter's string.
public func CTFramesetterCreateWithTypesetter(_ typesetter: CTTypesetter) -> CTFramesetter {
  CTFramesetter(typesetter: typesetter)
}

/// The typesetter the framesetter breaks its lines with.
public func CTFramesetterGetTypesetter(_ framesetter: CTFramesetter) -> CTTypesetter {
  framesetter.typesetter
}

/// Lines of text laid out in a path's bounding box (Lamina lays out in the
/// box of any path), top to bottom, as many as fit.
public final class CTFrame: @unchecked Sendable {
  let text: TextLayout
  let path: CGPath
  let rect: CGRect
  /// The lines that fit and their origins (y up from the box's bottom).
  let lines: [CTLine]
  let origins: [CGPoint]

  init(text: TextLayout, path: CGPath) {
    self.text = text
    self.path = path
    rect = path.boundingBox
    var lines: [CTLine] = []
    var origins: [CGPoint] = []
    let boxes = text.lineBoxes()
    for (i, box) in boxes.enumerated() {
      // A line that does not fit in the box ends the frame, as in Core Text.
      if box.bottom > rect.height + 0.5 { break }
      // A line's range runs to the next line's start: its line separator
      // is in it, as in a typesetter's line (Pango's line leaves it out).
      let start = text.utf16Offset(ofByte: box.startByte)
      let end =
        i + 1 < boxes.count
        ? text.utf16Offset(ofByte: boxes[i + 1].startByte) : text.range.location + text.range.length
      lines.append(
        CTLine(
          text: text, index: i, box: box,
          stringRange: CFRange(location: start, length: max(0, end - start))))
      origins.append(CGPoint(x: box.x, y: rect.height - box.baseline))
    }
    self.lines = lines
    self.origins = origins
  }
}

/// A frame of `range` of the framesetter's string (length 0: to the end)
/// in `path`; the frame attributes are ignored.
public func CTFramesetterCreateFrame(
  _ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath,
  _ frameAttributes: NSDictionary?
) -> CTFrame {
  let range = framesetter.nsRange(stringRange)
  let box = path.boundingBox
  let text =
    TextLayout(framesetter.string, range: range, width: box.width, height: box.height)
    ?? TextLayout(
      NSAttributedString(string: ""), range: NSRange(location: 0, length: 0), width: nil)!
  return CTFrame(text: text, path: path)
}

/// The size the text of `range` takes laid out within `constraints`
/// (`CGFloat.greatestFiniteMagnitude` for no limit); `fitRange` gets the
/// range that fits.
public func CTFramesetterSuggestFrameSizeWithConstraints(
  _ framesetter: CTFramesetter, _ stringRange: CFRange, _ frameAttributes: NSDictionary?,
  _ constraints: CGSize, _ fitRange: UnsafeMutablePointer<CFRange>?
) -> CGSize {
  let range = framesetter.nsRange(stringRange)
  let width: CGFloat? = constraints.width > 0 && constraints.width < 1e7 ? constraints.width : nil
  guard let text = TextLayout(framesetter.string, range: range, width: width) else {
    fitRange?.pointee = CFRange(location: range.location, length: 0)
    return .zero
  }
  let boxes = text.lineBoxes()
  let limit = constraints.height > 0 && constraints.height < 1e7 ? constraints.height : .infinity
  var height: CGFloat = 0
  var widest: CGFloat = 0
  var endByte = 0
  var lines: [CTLine] = []
  for (i, box) in boxes.enumerated() {
    if box.bottom > limit + 0.5 { break }
    height = box.bottom
    // Through the line's separator: the next line's start.
    endByte = i + 1 < boxes.count ? boxes[i + 1].startByte : box.startByte + box.byteLength
    lines.append(CTLine(text: text, index: i, box: box))
  }
  // The lines' widths with their indents: where a line starts is its
  // indent when the text is aligned to the leading edge (elsewhere the
  // alignment moves it: the larger indent is counted).
  let style = text.paragraph
  let leading = [.left, .natural, .justified].contains(style.alignment)
  let indent = max(style.headIndent, style.firstLineHeadIndent)
  for line in lines {
    let width = CGFloat(Double(line.extents().logical.width) / PangoText.unit)
    widest = max(widest, leading ? line.box.x + width : indent + width)
  }
  if lines.count == boxes.count { endByte = text.byteOffsets.last ?? endByte }
  let end = text.utf16Offset(ofByte: endByte)
  fitRange?.pointee = CFRange(location: range.location, length: end - range.location)
  return CGSize(width: widest.rounded(.up), height: height.rounded(.up))
}

/// The attributes the frame was made with: none are kept (nil).
public func CTFrameGetFrameAttributes(_ frame: CTFrame) -> NSDictionary? { nil }

/// The frame's lines, top to bottom.
public func CTFrameGetLines(_ frame: CTFrame) -> [CTLine] { frame.lines }

/// Copies the origins of `range` of the frame's lines (length 0: to the
/// end): each line's baseline start, from the bottom left of the path's
/// bounding box, y up.
public func CTFrameGetLineOrigins(
  _ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>
) {
  copy(frame.origins, range, origins)
}

/// The range of the string the frame was made for.
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange {
  CFRange(location: frame.text.range.location, length: frame.text.range.length)
}

/// The range of the string the frame's lines show.
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange {
  guard let last = frame.lines.last else {
    return CFRange(location: frame.text.range.location, length: 0)
  }
  let end = CTLineGetStringRange(last)
  let start = frame.text.range.location
  let lastLine = frame.lines.count == frame.text.lineBoxes().count
  let stop =
    lastLine ? frame.text.range.location + frame.text.range.length : end.location + end.length
  return CFRange(location: start, length: stop - start)
}

/// The path the frame was laid out in.
public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }

/// Draws the frame's lines at their origins (from the path's bounding box),
/// through the context's text matrix.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
  for (line, origin) in zip(frame.lines, frame.origins) {
    line.draw(
      in: context, at: CGPoint(x: frame.rect.minX + origin.x, y: frame.rect.minY + origin.y))
  }
}
