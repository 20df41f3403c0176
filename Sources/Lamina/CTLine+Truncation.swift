import CPango
import Foundation

/// Where `CTLineCreateTruncatedLine` shortens a line.
public enum CTLineTruncationType: UInt32, Sendable {
  /// The start of the line is left out.
  case start = 0
  /// The end of the line is left out.
  case end = 1
  /// The middle of the line is left out.
  case middle = 2
}

/// The line shortened to `width` points, an ellipsis ("…") where its text
/// was left out (`truncationType`); the line itself when it fits; nil when
/// the width is not positive (or not a number) or even the ellipsis is
/// wider. Pango draws the ellipsis, in the font of the text it replaces: a
/// token of other text is not used.
public func CTLineCreateTruncatedLine(
  _ line: CTLine, _ width: Double, _ truncationType: CTLineTruncationType,
  _ truncationToken: CTLine?
) -> CTLine? {
  guard width > 0 else { return nil }  // NaN too
  if CTLineGetTypographicBounds(line, nil, nil, nil) <= width { return line }
  let range = CTLineGetStringRange(line)
  let mode: PangoEllipsizeMode =
    switch truncationType {
    case .start: PANGO_ELLIPSIZE_START
    case .end: PANGO_ELLIPSIZE_END
    case .middle: PANGO_ELLIPSIZE_MIDDLE
    }
  // The text the line shows: all its layout's for a line laid out alone
  // (a typesetter's line separators are left out of the layout), its own
  // line's for a frame's line.
  let shown: NSRange
  if line.text.options.singleParagraph {
    shown = line.text.range
  } else {
    let start = line.text.utf16Offset(ofByte: line.box.startByte)
    let end = line.text.utf16Offset(ofByte: line.box.startByte + line.box.byteLength)
    shown = NSRange(location: start, length: end - start)
  }
  let text = TextLayout(
    line.text.string, range: shown, width: CGFloat(width),
    options: TextLayout.Options(ellipsize: mode, truncates: false, singleParagraph: true))
  let truncated = CTLine(firstLineOf: text, stringRange: range)
  // Pango keeps the ellipsis even where it does not fit.
  guard CTLineGetTypographicBounds(truncated, nil, nil, nil) <= width + 1 / PangoText.unit else {
    return nil
  }
  return truncated
}
