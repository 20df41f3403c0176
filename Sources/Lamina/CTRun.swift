import CCairo
import CPango
import Foundation

/// Glyphs of one font and one set of attributes, in a line.
public final class CTRun: @unchecked Sendable {
  public let glyphs: [CGGlyph]
  /// Each glyph's origin relative to the line's origin, y up.
  public let positions: [CGPoint]
  public let advances: [CGSize]
  let range: CFRange
  let attributes: [NSAttributedString.Key: Any]
  let font: CTFont?
  let ascent: CGFloat, descent: CGFloat
  /// The line the run is of, and its place among the line's runs (what
  /// `CTRunDraw` draws from).
  let line: CTLine
  let index: Int

  init(
    glyphs: [CGGlyph], positions: [CGPoint], advances: [CGSize], range: CFRange,
    attributes: [NSAttributedString.Key: Any], ascent: CGFloat, descent: CGFloat,
    line: CTLine, index: Int
  ) {
    self.line = line
    self.index = index
    self.glyphs = glyphs
    self.positions = positions
    self.advances = advances
    self.range = range
    self.attributes = attributes
    font = attributes[NSAttributedString.Key(kCTFontAttributeName as String)] as? CTFont
    self.ascent = ascent
    self.descent = descent
  }
}

/// The line's runs of glyphs, in visual order, as Pango shaped them.
public func CTLineGetGlyphRuns(_ line: CTLine) -> [CTRun] {
  let text = line.text
  return line.withLine([CTRun]()) { pangoLine in
    var runs: [CTRun] = []
    let unit = PangoText.unit
    for (index, (item, start)) in CTLine.glyphItems(pangoLine).enumerated() {
      guard let pangoItem = item.pointee.item, let string = item.pointee.glyphs else { continue }
      var x = Double(start) / unit
      var glyphs: [CGGlyph] = []
      var positions: [CGPoint] = []
      var advances: [CGSize] = []
      let count = Int(string.pointee.num_glyphs)
      var ink = PangoRectangle()
      var logical = PangoRectangle()
      pango_glyph_string_extents(string, pangoItem.pointee.analysis.font, &ink, &logical)
      for i in 0..<count {
        let info = string.pointee.glyphs[i]
        let glyph = info.glyph
        glyphs.append(glyph >= 0x0FFF_FFFF || glyph > UInt32(UInt16.max) ? 0 : CGGlyph(glyph))
        let width = Double(info.geometry.width) / unit
        // y up: the run's baseline shift (Pango's y_offset is up) less
        // the glyph's own offset (down).
        positions.append(
          CGPoint(
            x: x + Double(info.geometry.x_offset) / unit,
            y: Double(item.pointee.y_offset - info.geometry.y_offset) / unit))
        advances.append(CGSize(width: width, height: 0))
        x += width
      }
      let start = Int(pangoItem.pointee.offset)
      let from = text.utf16Offset(ofByte: start)
      let to = text.utf16Offset(ofByte: start + Int(pangoItem.pointee.length))
      var attributes: [NSAttributedString.Key: Any] = [:]
      if from < text.string.length {
        attributes = text.string.attributes(at: from, effectiveRange: nil)
      }
      // As Core Text, a run's font is the one its glyphs are of: the
      // string's, the default one for a run without a font, or the one
      // that stood in for characters the run's font lacks.
      if let used = pangoItem.pointee.analysis.font {
        let fontKey = NSAttributedString.Key(kCTFontAttributeName as String)
        let named = (attributes[fontKey] ?? attributes[.font]) as? CTFont ?? TextLayout.defaultFont
        attributes[fontKey] = CTLine.sameFace(named, used) ? named : CTFont(pangoFont: used)
      }
      runs.append(
        CTRun(
          glyphs: glyphs, positions: positions, advances: advances,
          range: CFRange(location: from, length: to - from), attributes: attributes,
          ascent: CGFloat(Double(-logical.y) / unit),
          descent: CGFloat(Double(logical.height + logical.y) / unit), line: line,
          index: index))
    }
    return runs
  }
}

/// Draws the glyphs of `range` of the run (length 0: to the end) where
/// they sit in their line, the line's origin at the context's
/// `textPosition`, through its `textMatrix`, in the run's color (black
/// without one). Underlines and outlines are the line's: `CTLineDraw`
/// draws them.
public func CTRunDraw(_ run: CTRun, _ context: CGContext, _ range: CFRange) {
  let count = run.glyphs.count
  let start = max(0, min(range.location, count))
  let end = range.length <= 0 ? count : start + min(range.length, count - start)
  guard start < end, let drawing = context.cairoDrawing else { return }
  let colorKey = NSAttributedString.Key(kCTForegroundColorAttributeName as String)
  let fromContextKey = NSAttributedString.Key(kCTForegroundColorFromContextAttributeName as String)
  // nil: the context's fill color (Cairo's source).
  let color: CGColor? =
    Convert.bool(run.attributes[fromContextKey]) == true
    ? nil : (run.attributes[colorKey] ?? run.attributes[.foregroundColor]) as? CGColor ?? .black
  let origin = context.textPosition
  let m = context.textMatrix
  let unit = PangoText.unit
  drawing { cr, paint in
    run.line.withLine(()) { pangoLine in
      let items = CTLine.glyphItems(pangoLine)
      guard run.index < items.count else { return }
      var (item, x) = items[run.index]
      guard let font = item.pointee.item?.pointee.analysis.font, let glyphs = item.pointee.glyphs,
        Int(glyphs.pointee.num_glyphs) == count, let part = pango_glyph_string_new()
      else { return }
      defer { pango_glyph_string_free(part) }
      pango_glyph_string_set_size(part, Int32(end - start))
      for i in start..<end {
        part.pointee.glyphs[i - start] = glyphs.pointee.glyphs[i]
        part.pointee.log_clusters[i - start] = glyphs.pointee.log_clusters[i]
      }
      for i in 0..<start { x += Int(glyphs.pointee.glyphs[i].geometry.width) }
      CTLine.enterTextSpace(cr, at: origin, m)
      if let color { CTLine.setSource(cr, color) }
      let y = -Double(item.pointee.y_offset) / unit
      CTLine.paint(
        cr, paint,
        show: {
          cairo_move_to(cr, Double(x) / unit, y)
          pango_cairo_show_glyph_string(cr, font, part)
        },
        outline: {
          cairo_move_to(cr, Double(x) / unit, y)
          pango_cairo_glyph_string_path(cr, font, part)
        })
    }
  }
}

/// The number of glyphs in the run.
public func CTRunGetGlyphCount(_ run: CTRun) -> CFIndex { run.glyphs.count }

/// The attributes of the run's characters.
public func CTRunGetAttributes(_ run: CTRun) -> [NSAttributedString.Key: Any] { run.attributes }

/// The range of the attributed string the run shows (UTF-16).
public func CTRunGetStringRange(_ run: CTRun) -> CFRange { run.range }

/// Copies `range` of `source` (length 0: to the end) into `buffer`, as
/// Core Text's getters of runs and frames do.
func copy<T>(_ source: [T], _ range: CFRange, _ buffer: UnsafeMutablePointer<T>) {
  let start = max(0, min(range.location, source.count))
  let length =
    range.length == 0 ? source.count - start : max(0, min(range.length, source.count - start))
  for i in 0..<length { buffer[i] = source[start + i] }
}

/// Copies the glyphs of `range` of the run (length 0: to the end).
public func CTRunGetGlyphs(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGGlyph>)
{
  copy(run.glyphs, range, buffer)
}

/// Copies the positions (from the line's origin, y up) of `range` of the run.
public func CTRunGetPositions(
  _ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGPoint>
) {
  copy(run.positions, range, buffer)
}

/// Copies the advances of `range` of the run.
public func CTRunGetAdvances(_ run: CTRun, _ range: CFRange, _ buffer: UnsafeMutablePointer<CGSize>)
{
  copy(run.advances, range, buffer)
}

/// The width of `range` of the run (length 0: to the end), and the run's
/// ascent and descent, and its font's leading, when asked.
public func CTRunGetTypographicBounds(
  _ run: CTRun, _ range: CFRange, _ ascent: UnsafeMutablePointer<CGFloat>?,
  _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?
) -> Double {
  ascent?.pointee = run.ascent
  descent?.pointee = run.descent
  leading?.pointee = run.font.map(CTFontGetLeading) ?? 0
  let count = run.advances.count
  let start = max(0, min(range.location, count))
  let end = range.length <= 0 ? count : start + min(range.length, count - start)
  return run.advances[start..<max(start, end)].reduce(0) { $0 + Double($1.width) }
}
