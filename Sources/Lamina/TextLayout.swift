import CCairo
import CPango
import Foundation

// Core Text's lines and frames on Pango: an attributed string becomes a
// PangoLayout (runs of fonts, colors, kerning, underlines and the rest as
// Pango attributes, the paragraph style as the layout's alignment,
// wrapping, indents and spacing); Pango shapes it (HarfBuzz) and breaks its
// lines. Core Text's coordinates have y up from the baseline; Pango's grow
// downward: the conversions are in CTLine.swift, CTRun.swift and
// CTFramesetter.swift.

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

  /// The UTF-16 units that end a line whatever the width (Unicode's
  /// mandatory breaks: LF, VT, FF, CR, NEL, LS, PS), and those of them
  /// that also end a paragraph.
  static let lineBreaks: Set<UInt16> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]
  static let paragraphBreaks: Set<UInt16> = [0x0A, 0x0D, 0x2029]
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
      where Self.lineBreaks.contains(units[i]) {
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
    PangoText.setAlignment(layout, style.alignment)
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
            Self.paragraphBreaks.contains(units.character(at: at - 1))
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
