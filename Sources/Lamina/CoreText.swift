import CCairo
import CPango
import Foundation

// Core Text's lines and frames on Pango: an attributed string becomes a
// PangoLayout (runs of fonts, colors, kerning and underlines as Pango
// attributes, the paragraph style as the layout's alignment, wrapping and
// spacing); Pango shapes it (HarfBuzz) and breaks its lines. Core Text's
// coordinates have y up from the baseline; Pango's grow downward: the
// conversions are here.

/// A PangoLayout of (part of) an attributed string, owned.
final class TextLayout: @unchecked Sendable {
  let layout: OpaquePointer
  /// The attributed string and the UTF-16 range of it laid out.
  let string: NSAttributedString
  let range: NSRange
  /// UTF-8 byte offset (in the layout's text) of each UTF-16 offset of the
  /// range, and one past the end.
  let byteOffsets: [Int]
  let paragraph: CTParagraphStyle
  let options: Options
  /// How far every line is moved right for the paragraph's indents, in
  /// points (Pango indents only the first line, or only the others).
  let leftInset: CGFloat

  /// How a layout departs from what the paragraph style says.
  struct Options {
    /// Truncate each line to the width this way (nil: as the paragraph
    /// style's line break mode says).
    var ellipsize: PangoEllipsizeMode? = nil
    /// Whether the paragraph style's truncating line break modes truncate
    /// (a typesetter's line breaks never truncate).
    var truncates = true
    /// Break lines between any two characters, not only between words.
    var breaksCharacters = false
    /// One line: line separators start no new line.
    var singleParagraph = false
    /// Whether the paragraph style's indents apply (a frame's lines; not a
    /// typesetter's, which fill the width they are given).
    var appliesIndents = true
  }

  /// Lays out `range` of `string`; `width`: the line width to wrap at, in
  /// points (nil: no wrapping), `height`: the height truncation fits in.
  init?(
    _ string: NSAttributedString, range: NSRange, width: CGFloat?, height: CGFloat? = nil,
    options: Options = Options()
  ) {
    self.string = string
    self.range = range
    self.options = options
    var units = Array((string.string as NSString).substring(with: range).utf16)
    if options.singleParagraph {
      // One line: Pango would draw a box for each line separator; Core
      // Text draws none. A zero width space stands in for each (Pango
      // draws nothing for it), so the text keeps its UTF-16 length.
      for i in units.indices
      where [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(units[i]) {
        units[i] = 0x200B
      }
    }
    let text = String(decoding: units, as: UTF16.self)
    var offsets: [Int] = []
    offsets.reserveCapacity(range.length + 1)
    var bytes = 0
    for u in text.utf16 {
      // A low surrogate has no byte of its own: it maps to its scalar's start.
      if (0xDC00..<0xE000).contains(u), let start = offsets.last {
        offsets.append(start)
        continue
      }
      offsets.append(bytes)
      bytes += u < 0x80 ? 1 : u < 0x800 ? 2 : (0xD800..<0xDC00).contains(u) ? 4 : 3
    }
    offsets.append(bytes)
    byteOffsets = offsets
    paragraph =
      (range.length > 0
        ? string.attribute(
          NSAttributedString.Key(kCTParagraphStyleAttributeName as String), at: range.location,
          effectiveRange: nil) as? CTParagraphStyle : nil) ?? CTParagraphStyle()
    leftInset =
      width != nil && options.appliesIndents
      ? min(paragraph.headIndent, paragraph.firstLineHeadIndent) : 0
    guard
      let made = PangoText.locked({ () -> OpaquePointer? in
        guard let context = PangoText.context, let layout = pango_layout_new(context) else {
          return nil
        }
        pango_layout_set_text(layout, text, -1)
        return layout
      })
    else { return nil }
    layout = made
    PangoText.locked { configure(text: text, width: width, height: height) }
  }

  deinit {
    PangoText.locked { g_object_unref(UnsafeMutableRawPointer(layout)) }
  }

  /// The default font of Core Text's attributed strings: Helvetica 12.
  static let defaultFont = CTFont(familyName: "Helvetica", size: 12)

  private func configure(text: String, width: CGFloat?, height: CGFloat?) {
    if let description = Self.defaultFont.pango.description {
      pango_layout_set_font_description(layout, description)
    }
    guard let list = pango_attr_list_new() else { return }
    defer { pango_attr_list_unref(list) }
    func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ start: Int, _ end: Int) {
      guard let attribute else { return }
      attribute.pointee.start_index = guint(start)
      attribute.pointee.end_index = guint(end)
      pango_attr_list_insert(list, attribute)
    }
    func channel(_ value: CGFloat) -> guint16 { guint16(max(0, min(1, value)) * 65535) }
    // A word broken across lines gets no hyphen: Core Text inserts none.
    pango_attr_list_insert(list, pango_attr_insert_hyphens_new(0))
    let fontKey = NSAttributedString.Key(kCTFontAttributeName as String)
    let colorKey = NSAttributedString.Key(kCTForegroundColorAttributeName as String)
    let kernKey = NSAttributedString.Key(kCTKernAttributeName as String)
    let underlineKey = NSAttributedString.Key(kCTUnderlineStyleAttributeName as String)
    let underlineColorKey = NSAttributedString.Key(kCTUnderlineColorAttributeName as String)
    let backgroundKey = NSAttributedString.Key(kCTBackgroundColorAttributeName as String)
    let baselineKey = NSAttributedString.Key(kCTBaselineOffsetAttributeName as String)
    let superscriptKey = NSAttributedString.Key(kCTSuperscriptAttributeName as String)
    let ligatureKey = NSAttributedString.Key(kCTLigatureAttributeName as String)
    let strokeKey = NSAttributedString.Key(kCTStrokeWidthAttributeName as String)
    let fromContextKey = NSAttributedString.Key(
      kCTForegroundColorFromContextAttributeName as String)
    let style = paragraph
    string.enumerateAttributes(in: range, options: []) { attributes, runRange, _ in
      let start = byteOffsets[runRange.location - range.location]
      let end = byteOffsets[runRange.location - range.location + runRange.length]
      // A font for every run, the default one too: Pango then ends its
      // runs where the string's runs end, so that a run's glyphs share all
      // their attributes (a link's, say), as Core Text's do.
      let font = attributes[fontKey] as? CTFont ?? Self.defaultFont
      if style.setsLineHeight {
        // The run's font's natural line height, as the style sets it; a
        // line is as high as its highest run.
        let natural = CTFontGetAscent(font) + CTFontGetDescent(font) + CTFontGetLeading(font)
        insert(
          pango_attr_line_height_new_absolute(
            PangoText.units(Double(style.lineHeight(natural: natural)))), start, end)
      }
      if let description = font.pango.description {
        insert(pango_attr_font_desc_new(description), start, end)
      }
      // Black without a color; Cairo's source (the context's fill color)
      // for a run whose color is the context's.
      if Convert.bool(attributes[fromContextKey]) != true {
        let color = (attributes[colorKey] ?? attributes[.foregroundColor]) as? CGColor ?? .black
        insert(
          pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)),
          start, end)
        insert(pango_attr_foreground_alpha_new(channel(color.alpha)), start, end)
      }
      if let kern = Convert.double(attributes[kernKey]), kern != 0, kern.isFinite {
        insert(pango_attr_letter_spacing_new(PangoText.units(kern)), start, end)
      }
      if let raw = Convert.double(attributes[underlineKey]), raw.isFinite, raw != 0 {
        let style = CTUnderlineStyle(rawValue: Int32(clamping: Int(raw)))
        let pango = style.contains(.double) ? PANGO_UNDERLINE_DOUBLE : PANGO_UNDERLINE_SINGLE
        insert(pango_attr_underline_new(pango), start, end)
        if let color = attributes[underlineColorKey] as? CGColor {
          insert(
            pango_attr_underline_color_new(
              channel(color.red), channel(color.green), channel(color.blue)), start, end)
        }
      }
      if let color = attributes[backgroundKey] as? CGColor, color.alpha > 0 {
        insert(
          pango_attr_background_new(channel(color.red), channel(color.green), channel(color.blue)),
          start, end)
        insert(pango_attr_background_alpha_new(max(1, channel(color.alpha))), start, end)
      }
      // Up from the baseline, in points, in both.
      if let offset = Convert.double(attributes[baselineKey]), offset != 0, offset.isFinite {
        insert(pango_attr_rise_new(PangoText.units(offset)), start, end)
      }
      if let raw = Convert.double(attributes[superscriptKey]), raw.isFinite, raw != 0 {
        let up = raw > 0
        insert(
          pango_attr_baseline_shift_new(
            Int32(
              (up ? PANGO_BASELINE_SHIFT_SUPERSCRIPT : PANGO_BASELINE_SHIFT_SUBSCRIPT).rawValue)),
          start, end)
        insert(
          pango_attr_font_scale_new(up ? PANGO_FONT_SCALE_SUPERSCRIPT : PANGO_FONT_SCALE_SUBSCRIPT),
          start, end)
      }
      // 0: only the ligatures the script needs; 1 (the default): the
      // standard ones; 2: all (discretionary too).
      if let raw = Convert.double(attributes[ligatureKey]), raw.isFinite, raw != 1 {
        let features = raw <= 0 ? "liga=0,clig=0" : "dlig=1"
        insert(pango_attr_font_features_new(features), start, end)
      }
      // A positive stroke width strokes without filling: the glyphs' fill
      // is made invisible (Pango's alpha runs from 1, not 0).
      if let width = Convert.double(attributes[strokeKey]), width > 0, width.isFinite {
        insert(pango_attr_foreground_alpha_new(1), start, end)
      }
    }
    pango_layout_set_attributes(layout, list)
    PangoText.setCoreTextTabStops(layout, interval: style.defaultTabInterval)
    if options.singleParagraph { pango_layout_set_single_paragraph_mode(layout, 1) }

    if let width, width.isFinite, width > 0 {
      var lineWidth = width
      if options.appliesIndents {
        // Lines end at the tail indent (from the leading edge when
        // positive, else from the trailing edge) and start at the head
        // indents; Pango's indent is the first line's, from the others'.
        let end = style.tailIndent > 0 ? style.tailIndent : width + style.tailIndent
        lineWidth = max(end - leftInset, CGFloat(1 / PangoText.unit))
        let first = style.firstLineHeadIndent - style.headIndent
        if first != 0 { pango_layout_set_indent(layout, PangoText.units(Double(first))) }
      }
      pango_layout_set_width(layout, PangoText.units(Double(lineWidth)))
      if options.breaksCharacters || style.lineBreakMode == .byCharWrapping {
        pango_layout_set_wrap(layout, PANGO_WRAP_CHAR)
      } else {
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
      }
    }
    let truncation: PangoEllipsizeMode? =
      switch style.lineBreakMode {
      case .byTruncatingHead: PANGO_ELLIPSIZE_START
      case .byTruncatingMiddle: PANGO_ELLIPSIZE_MIDDLE
      case .byTruncatingTail: PANGO_ELLIPSIZE_END
      default: nil
      }
    let ellipsize = options.ellipsize ?? (options.truncates ? truncation : nil)
    if let ellipsize, width != nil {
      pango_layout_set_ellipsize(layout, ellipsize)
      if let height, height.isFinite {
        pango_layout_set_height(layout, PangoText.units(Double(height)))
      }
    }
    switch style.alignment {
    case .right:
      pango_layout_set_auto_dir(layout, 0)
      pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
    case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    case .justified:
      pango_layout_set_justify(layout, 1)
      pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .left:
      pango_layout_set_auto_dir(layout, 0)
      pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    case .natural: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
    }
    if style.lineSpacing > 0 {
      pango_layout_set_spacing(layout, PangoText.units(Double(style.lineSpacing)))
    }
  }

  /// The UTF-16 offset in the attributed string of a byte offset of the layout's text.
  func utf16Offset(ofByte byte: Int) -> Int {
    var low = 0
    var high = byteOffsets.count - 1
    while low < high {
      let mid = (low + high) / 2
      if byteOffsets[mid] < byte { low = mid + 1 } else { high = mid }
    }
    return range.location + low
  }

  /// The layout's lines: each line's start and length in bytes, its
  /// baseline from the layout's top and its logical x, in points.
  struct LineBox {
    var startByte: Int, byteLength: Int
    var baseline: CGFloat
    var x: CGFloat
    var top: CGFloat, bottom: CGFloat
  }

  func lineBoxes() -> [LineBox] {
    PangoText.locked {
      var boxes: [LineBox] = []
      guard let iter = pango_layout_get_iter(layout) else { return [] }
      defer { pango_layout_iter_free(iter) }
      repeat {
        guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
        var logical = PangoRectangle()
        pango_layout_iter_get_line_extents(iter, nil, &logical)
        var own = PangoRectangle()
        pango_layout_line_get_extents(line, nil, &own)
        let unit = PangoText.unit
        boxes.append(
          LineBox(
            startByte: Int(line.pointee.start_index), byteLength: Int(line.pointee.length),
            baseline: CGFloat(Double(pango_layout_iter_get_baseline(iter)) / unit),
            x: leftInset + CGFloat(Double(logical.x - own.x) / unit),
            top: CGFloat(Double(logical.y) / unit),
            bottom: CGFloat(Double(logical.y + logical.height) / unit)))
      } while pango_layout_iter_next_line(iter) != 0
      // The empty line Pango makes after a text's last line separator is
      // no line in Core Text: a frame of "a\n" has one line.
      if boxes.count > 1, let last = boxes.last, last.byteLength == 0,
        last.startByte >= byteOffsets.last ?? 0
      {
        boxes.removeLast()
      }
      // Paragraph spacing (Pango has none): each line that starts a
      // paragraph (after a paragraph separator; a line separator, U+2028,
      // ends no paragraph), after the first, moves down by the space after
      // the paragraph before it and before its own.
      let spacing = paragraph.paragraphSpacing + paragraph.paragraphSpacingBefore
      if spacing > 0 {
        let units = string.string as NSString
        var shift: CGFloat = 0
        for i in boxes.indices.dropFirst() {
          let at = utf16Offset(ofByte: boxes[i].startByte)
          if at > 0, at <= units.length,
            [0x0A, 0x0D, 0x2029].contains(units.character(at: at - 1))
          {
            shift += spacing
          }
          boxes[i].baseline += shift
          boxes[i].top += shift
          boxes[i].bottom += shift
        }
      }
      return boxes
    }
  }
}

// MARK: Lines

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

// MARK: Glyph runs

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

private func copy<T>(_ source: [T], _ range: CFRange, _ buffer: UnsafeMutablePointer<T>) {
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

// MARK: Framesetters and frames

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
