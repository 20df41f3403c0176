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

/// The line shortened to `width` points where `truncationType` says; the
/// line itself when it fits; nil when the width is not positive (or not a
/// number) or nothing fits. With a `truncationToken`, an ellipsis ("…")
/// stands where text was left out: Pango draws it, in the font of the text
/// it replaces (a token of other text is drawn as the ellipsis too).
/// Without one the line is cut off, no token shown, as Core Text does.
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
  guard truncationToken != nil else {
    return cutOff(line.text.string, shown, width, truncationType, stringRange: range)
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

/// `shown` of `string` cut off to `width` points with no token: as many
/// whole characters (grapheme clusters) as fit kept at its start (`.end`),
/// at its end (`.start`) or at both, about half each (`.middle`: the runs
/// after the cut have the ranges of the string less the text cut out);
/// nil when not one fits.
private func cutOff(
  _ string: NSAttributedString, _ shown: NSRange, _ width: Double,
  _ type: CTLineTruncationType, stringRange: CFRange
) -> CTLine? {
  let units = string.string as NSString
  let end = shown.location + shown.length
  var bounds = [shown.location]
  while let last = bounds.last, last < end {
    let cluster = units.rangeOfComposedCharacterSequence(at: last)
    bounds.append(min(end, max(last + 1, cluster.location + cluster.length)))
  }
  let clusters = bounds.count - 1
  func line(_ text: NSAttributedString, _ range: NSRange) -> CTLine {
    CTLine(
      firstLineOf: TextLayout(
        text, range: range, width: nil,
        options: TextLayout.Options(truncates: false, singleParagraph: true)),
      stringRange: stringRange)
  }
  /// The line keeping `kept` clusters, as `type` says.
  func keeping(_ kept: Int) -> CTLine {
    switch type {
    case .end:
      return line(string, NSRange(location: shown.location, length: bounds[kept] - shown.location))
    case .start:
      return line(
        string, NSRange(location: bounds[clusters - kept], length: end - bounds[clusters - kept]))
    case .middle:
      let head = bounds[(kept + 1) / 2]
      let tail = bounds[clusters - kept / 2]
      let cut = NSMutableAttributedString(attributedString: string)
      cut.deleteCharacters(in: NSRange(location: head, length: tail - head))
      return line(cut, NSRange(location: shown.location, length: shown.length - (tail - head)))
    }
  }
  func fits(_ candidate: CTLine) -> Bool {
    CTLineGetTypographicBounds(candidate, nil, nil, nil) <= width + 1 / PangoText.unit
  }
  // The most clusters that fit (widths grow with the clusters kept).
  var low = 0
  var high = clusters
  var best: CTLine?
  while low < high {
    let mid = (low + high + 1) / 2
    let candidate = keeping(mid)
    if fits(candidate) {
      low = mid
      best = candidate
    } else {
      high = mid - 1
    }
  }
  return low > 0 ? best ?? keeping(low) : nil
}
