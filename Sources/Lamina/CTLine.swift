import CCairo
import CPango
import Foundation

/// One line of text: made from an attributed string (`CTLineCreateWithAttributedString`)
/// or one of a frame's lines. Its origin is the start of its baseline.
public final class CTLine: @unchecked Sendable {
  let text: TextLayout
  let index: Int
  let box: TextLayout.LineBox
  /// The range of the attributed string the line stands for, when it is
  /// not the range its glyphs show (a typesetter's or a frame's line ends
  /// with its line separator; a truncated line stands for all the text it
  /// shortens).
  var stringRange: CFRange?

  init(text: TextLayout, index: Int, box: TextLayout.LineBox, stringRange: CFRange? = nil) {
    self.text = text
    self.index = index
    self.box = box
    self.stringRange = stringRange
  }

  /// The first line of `text` (an empty line when it has none).
  convenience init(firstLineOf text: TextLayout?, stringRange: CFRange? = nil) {
    if let text, let box = text.lineBoxes().first {
      self.init(text: text, index: 0, box: box, stringRange: stringRange)
      return
    }
    let empty = TextLayout(
      NSAttributedString(string: ""), range: NSRange(location: 0, length: 0), width: nil)!
    self.init(
      text: empty, index: 0,
      box: TextLayout.LineBox(startByte: 0, byteLength: 0, baseline: 0, x: 0, top: 0, bottom: 0),
      stringRange: stringRange)
  }

  /// Runs `body` with the PangoLayoutLine, holding Pango's lock.
  func withLine<T>(_ empty: T, _ body: (UnsafeMutablePointer<PangoLayoutLine>) -> T) -> T {
    PangoText.locked {
      guard let line = pango_layout_get_line_readonly(text.layout, Int32(index)) else {
        return empty
      }
      return body(line)
    }
  }

  /// Pango's glyph items of the line, in visual order, each with the x it
  /// starts at (Pango units from the line's origin).
  static func glyphItems(_ line: UnsafeMutablePointer<PangoLayoutLine>)
    -> [(item: UnsafeMutablePointer<PangoGlyphItem>, x: Int)]
  {
    var items: [(UnsafeMutablePointer<PangoGlyphItem>, Int)] = []
    var x = 0
    var node = line.pointee.runs
    while let current = node {
      node = current.pointee.next
      guard let item = current.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self),
        item.pointee.item != nil, let glyphs = item.pointee.glyphs
      else { continue }
      items.append((item, x))
      x += Int(pango_glyph_string_get_width(glyphs))
    }
    return items
  }

  /// Moves Cairo's origin to `origin` (user space) and turns it into text
  /// space through `matrix`, y down as Pango draws (text space has y up).
  static func enterTextSpace(_ cr: OpaquePointer, at origin: CGPoint, _ m: CGAffineTransform) {
    cairo_translate(cr, origin.x, origin.y)
    var matrix = cairo_matrix_t(xx: m.a, yx: m.b, xy: m.c, yy: m.d, x0: m.tx, y0: m.ty)
    cairo_transform(cr, &matrix)
    cairo_scale(cr, 1, -1)
  }

  /// Paints glyphs as the text drawing mode says: `show` fills them (in
  /// the source set), `outline` appends their outlines to the path, which
  /// is stroked in the stroke color; the invisible and clip modes paint
  /// nothing. Each of `show` and `outline` moves to its glyphs' origin.
  static func paint(
    _ cr: OpaquePointer, _ paint: TextPaint, show: () -> Void, outline: () -> Void
  ) {
    if paint.mode.fills { show() }
    guard paint.mode.strokes else { return }
    cairo_save(cr)
    cairo_new_path(cr)
    outline()
    setSource(cr, paint.stroke)
    cairo_stroke(cr)
    cairo_restore(cr)
  }

  /// Whether `font` loads as the Pango font `used` (same face and size).
  /// Pango's lock is held.
  static func sameFace(_ font: CTFont, _ used: UnsafeMutablePointer<PangoFont>) -> Bool {
    guard let loaded = font.pango.font else { return false }
    if loaded == used { return true }
    guard let a = pango_font_describe_with_absolute_size(loaded),
      let b = pango_font_describe_with_absolute_size(used)
    else { return false }
    defer {
      pango_font_description_free(a)
      pango_font_description_free(b)
    }
    return pango_font_description_equal(a, b) != 0
  }

  /// Sets Cairo's source to `color`, black when nil.
  static func setSource(_ cr: OpaquePointer, _ color: CGColor?) {
    guard let color else { return cairo_set_source_rgba(cr, 0, 0, 0, 1) }
    cairo_set_source_rgba(
      cr, Double(color.red), Double(color.green), Double(color.blue), Double(color.alpha))
  }

  /// The line's extents from its baseline's start, in Pango units (y down).
  func extents() -> (ink: PangoRectangle, logical: PangoRectangle) {
    withLine((PangoRectangle(), PangoRectangle())) { line in
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_layout_line_get_extents(line, &ink, &logical)
      return (ink, logical)
    }
  }

  /// Draws the line with its origin at `origin` in `context`'s user space,
  /// through the context's text matrix (glyphs up along text space's y).
  func draw(in context: CGContext, at origin: CGPoint) {
    guard let drawing = context.cairoDrawing else { return }
    let m = context.textMatrix
    drawing { cr, paint in
      withLine(()) { line in
        // Cairo's source stays the fill color, for the runs drawn in it.
        CTLine.enterTextSpace(cr, at: origin, m)
        CTLine.paint(
          cr, paint,
          show: {
            cairo_move_to(cr, 0, 0)
            pango_cairo_show_layout_line(cr, line)
            strokeOutlines(cr, line)
          },
          outline: {
            cairo_move_to(cr, 0, 0)
            pango_cairo_layout_line_path(cr, line)
          })
      }
    }
  }

  /// Strokes the outlines of the runs with a stroke width
  /// (`kCTStrokeWidthAttributeName`), Cairo at the line's origin, y down.
  private func strokeOutlines(_ cr: OpaquePointer, _ line: UnsafeMutablePointer<PangoLayoutLine>) {
    let strokeKey = NSAttributedString.Key(kCTStrokeWidthAttributeName as String)
    let strokeColorKey = NSAttributedString.Key(kCTStrokeColorAttributeName as String)
    let colorKey = NSAttributedString.Key(kCTForegroundColorAttributeName as String)
    let unit = PangoText.unit
    for (item, start) in CTLine.glyphItems(line) {
      guard let pangoItem = item.pointee.item, let glyphs = item.pointee.glyphs,
        let font = pangoItem.pointee.analysis.font
      else { continue }
      let at = text.utf16Offset(ofByte: Int(pangoItem.pointee.offset))
      guard at < text.string.length else { continue }
      let attributes = text.string.attributes(at: at, effectiveRange: nil)
      guard let width = Convert.double(attributes[strokeKey]), width != 0, width.isFinite else {
        continue
      }
      let color =
        (attributes[strokeColorKey] ?? attributes[colorKey] ?? attributes[.foregroundColor])
        as? CGColor
      var size = 12.0
      if let description = pango_font_describe(font) {
        size = Double(pango_font_description_get_size(description)) / unit
        pango_font_description_free(description)
      }
      cairo_save(cr)
      cairo_new_path(cr)
      cairo_move_to(cr, Double(start) / unit, -Double(item.pointee.y_offset) / unit)
      pango_cairo_glyph_string_path(cr, font, glyphs)
      CTLine.setSource(cr, color)
      cairo_set_line_width(cr, abs(width) * size / 100)
      cairo_stroke(cr)
      cairo_restore(cr)
    }
  }
}

/// A line of the whole attributed string, unwrapped (a line break in the
/// string does not start a new line).
public func CTLineCreateWithAttributedString(_ attrString: NSAttributedString) -> CTLine {
  let range = NSRange(location: 0, length: attrString.length)
  return CTLine(
    firstLineOf: TextLayout(
      attrString, range: range, width: nil,
      options: TextLayout.Options(truncates: false, singleParagraph: true)))
}

/// The line's width (its advance, in points), and its ascent, descent and
/// leading when asked: the largest of its fonts'.
public func CTLineGetTypographicBounds(
  _ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
  _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
  let logical = line.extents().logical
  let unit = PangoText.unit
  ascent?.pointee = CGFloat(Double(-logical.y) / unit)
  descent?.pointee = CGFloat(Double(logical.height + logical.y) / unit)
  if let leading {
    var largest: CGFloat = 0
    for run in CTLineGetGlyphRuns(line) {
      if let font = run.font { largest = max(largest, CTFontGetLeading(font)) }
    }
    leading.pointee = largest
  }
  return Double(logical.width) / unit
}

/// The box the line's glyphs cover (ink), y up from the baseline, moved to
/// the context's text position (at the origin without a context).
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
  let ink = line.extents().ink
  let unit = PangoText.unit
  let position = context?.textPosition ?? .zero
  return CGRect(
    x: Double(ink.x) / unit + Double(position.x),
    y: -Double(ink.y + ink.height) / unit + Double(position.y),
    width: Double(ink.width) / unit, height: Double(ink.height) / unit)
}

/// The range of the attributed string the line shows (UTF-16).
public func CTLineGetStringRange(_ line: CTLine) -> CFRange {
  if let range = line.stringRange { return range }
  let start = line.text.utf16Offset(ofByte: line.box.startByte)
  let end = line.text.utf16Offset(ofByte: line.box.startByte + line.box.byteLength)
  return CFRange(location: start, length: end - start)
}

/// The number of glyphs in the line.
public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex {
  CTLineGetGlyphRuns(line).reduce(0) { $0 + $1.glyphs.count }
}

/// The layout's byte index of UTF-16 offset `index` of the attributed
/// string, clamped to the line's text.
private func byteIndex(_ line: CTLine, _ index: CFIndex) -> Int {
  let offsets = line.text.byteOffsets
  let i = max(0, min(index - line.text.range.location, offsets.count - 1))
  return offsets[i]
}

/// How far from the line's origin the caret before the character at
/// `charIndex` (UTF-16, in the attributed string) is; `secondaryOffset`
/// gets the same (Lamina does not split carets at direction changes).
public func CTLineGetOffsetForStringIndex(
  _ line: CTLine, _ charIndex: CFIndex, _ secondaryOffset: UnsafeMutablePointer<CGFloat>?
) -> CGFloat {
  let byte = byteIndex(line, charIndex)
  let x = line.withLine(Int32(0)) { pangoLine in
    var x: Int32 = 0
    pango_layout_line_index_to_x(pangoLine, Int32(clamping: byte), 0, &x)
    return x
  }
  let offset = CGFloat(Double(x) / PangoText.unit)
  secondaryOffset?.pointee = offset
  return offset
}

/// The UTF-16 index (in the attributed string) of the caret position
/// nearest to `position.x` from the line's origin.
public func CTLineGetStringIndexForPosition(_ line: CTLine, _ position: CGPoint) -> CFIndex {
  let text = line.text
  let (byte, trailing) = line.withLine((0, Int32(0))) { pangoLine in
    var index: Int32 = 0
    var trailing: Int32 = 0
    pango_layout_line_x_to_index(
      pangoLine, PangoText.units(Double(position.x)), &index, &trailing)
    return (Int(index), trailing)
  }
  var utf16 = text.utf16Offset(ofByte: byte)
  if trailing > 0 {
    // Past the middle of the character: the caret after it.
    let offsets = text.byteOffsets
    var i = utf16 - text.range.location
    while i + 1 < offsets.count && offsets[i + 1] == offsets[i] { i += 1 }
    utf16 = text.range.location + min(i + 1, offsets.count - 1)
  }
  return utf16
}

/// The width of the whitespace at the end of the line, in points.
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double {
  let range = CTLineGetStringRange(line)
  let string = line.text.string.string as NSString
  var end = range.location + range.length
  while end > range.location,
    let scalar = Unicode.Scalar(string.character(at: end - 1)),
    CharacterSet.whitespacesAndNewlines.contains(scalar)
  {
    end -= 1
  }
  let width = CTLineGetTypographicBounds(line, nil, nil, nil)
  return width - Double(CTLineGetOffsetForStringIndex(line, end, nil))
}

/// Where to start drawing the line to align it in `flushWidth` points:
/// `flushFactor` 0 flush left, 0.5 centered, 1 flush right (trailing
/// whitespace not counted); 0 when the line is wider.
public func CTLineGetPenOffsetForFlush(
  _ line: CTLine, _ flushFactor: CGFloat, _ flushWidth: Double
) -> Double {
  let width =
    CTLineGetTypographicBounds(line, nil, nil, nil) - CTLineGetTrailingWhitespaceWidth(line)
  let factor = Double(max(0, min(1, flushFactor)))
  return max(0, (flushWidth - width) * factor)
}

/// Draws the line with its origin at the context's `textPosition`, through
/// its `textMatrix` (as Core Text: flip the context's y first when it grows
/// downward, as a layer's does).
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
  line.draw(in: context, at: context.textPosition)
}
