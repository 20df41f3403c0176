import CCairo
import CPango
import Foundation
import Lamina

/// A run of an attributed string with its own font or color: UTF-8 byte
/// offsets into the string, as Pango counts.
public struct TextRun: Hashable {
  public var start: Int, end: Int
  public var fontFamily: String?
  public var fontSize: CGFloat?
  public var color: CGColor?
  /// Extra space after each character, in points (`kCTKernAttributeName`).
  public var kern: CGFloat?
  /// `CTUnderlineStyle`'s raw value (`kCTUnderlineStyleAttributeName`).
  public var underline: Int32?
}

/// Everything that decides how a `CATextLayer` looks, as a value: the key
/// under which its rasterized bitmap is cached (with the scale).
public struct TextStyle: Hashable {
  public var string: String
  public var fontFamily: String?
  public var fontSize: CGFloat
  public var color: CGColor
  /// Runs of an attributed string (empty for a plain one).
  public var runs: [TextRun] = []
  public var alignment: CATextLayerAlignmentMode
  public var isWrapped: Bool
  public var truncation: CATextLayerTruncationMode
  /// The layer's bounds size, in points.
  public var size: CGSize

  /// The style of `layer`; nil when it draws nothing. As in Core Animation,
  /// an attributed string ignores the layer's `font`, `fontSize` and
  /// `foregroundColor`: runs without a font (`.font`, `kCTFontAttributeName`)
  /// are Helvetica 12, without a color (`.foregroundColor`,
  /// `kCTForegroundColorAttributeName`) black; a `CTParagraphStyle`
  /// (`kCTParagraphStyleAttributeName`) at the start sets the alignment.
  public init?(_ layer: CATextLayer) {
    guard layer.bounds.width > 0, layer.bounds.height > 0 else { return nil }
    alignment = layer.alignmentMode
    isWrapped = layer.isWrapped
    truncation = layer.truncationMode
    size = layer.bounds.size
    switch layer.string {
    case let attributed as NSAttributedString:
      string = attributed.string
      fontFamily = nil
      fontSize = 12
      color = .black
      runs = Self.runs(attributed)
      let styleKey = NSAttributedString.Key(kCTParagraphStyleAttributeName as String)
      if attributed.length > 0,
        let paragraph = attributed.attribute(styleKey, at: 0, effectiveRange: nil)
          as? CTParagraphStyle
      {
        alignment = Self.alignment(paragraph.alignment)
      }
    case let plain?:
      string = (plain as? String) ?? (plain as? Substring).map(String.init) ?? "\(plain)"
      fontFamily = (layer.font as? String) ?? (layer.font as? CTFont)?.familyName
      fontSize = layer.fontSize
      guard let foreground = layer.foregroundColor, foreground.alpha > 0, fontSize > 0 else {
        return nil
      }
      color = foreground
    case nil:
      return nil
    }
    guard !string.isEmpty else { return nil }
  }

  private static func alignment(_ value: CTTextAlignment) -> CATextLayerAlignmentMode {
    switch value {
    case .left: .left
    case .right: .right
    case .center: .center
    case .justified: .justified
    case .natural: .natural
    }
  }

  private static func runs(_ attributed: NSAttributedString) -> [TextRun] {
    let text = attributed.string
    var runs: [TextRun] = []
    let colorKey = NSAttributedString.Key(kCTForegroundColorAttributeName as String)
    let kernKey = NSAttributedString.Key(kCTKernAttributeName as String)
    let underlineKey = NSAttributedString.Key(kCTUnderlineStyleAttributeName as String)
    func number(_ value: Any?) -> Double? {
      switch value {
      case let n as NSNumber: n.doubleValue
      case let d as Double: d
      case let f as CGFloat: Double(f)
      case let i as Int: Double(i)
      case let i as Int32: Double(i)
      default: nil
      }
    }
    attributed.enumerateAttributes(
      in: NSRange(location: 0, length: attributed.length), options: []
    ) { attributes, range, _ in
      let font = attributes[.font] as? CTFont
      let color = (attributes[.foregroundColor] ?? attributes[colorKey]) as? CGColor
      let kern = number(attributes[kernKey]).flatMap { $0.isFinite && $0 != 0 ? CGFloat($0) : nil }
      let underline = number(attributes[underlineKey]).flatMap {
        $0.isFinite && $0 != 0 ? Int32(clamping: Int($0)) : nil
      }
      guard font != nil || color != nil || kern != nil || underline != nil,
        let r = Range(range, in: text)
      else { return }
      runs.append(
        TextRun(
          start: text.utf8.distance(from: text.startIndex, to: r.lowerBound),
          end: text.utf8.distance(from: text.startIndex, to: r.upperBound),
          fontFamily: font?.familyName, fontSize: font?.size, color: color, kern: kern,
          underline: underline))
    }
    return runs
  }
}

/// Lays text out with Pango (shaping by HarfBuzz, fonts found and fallen
/// back on by fontconfig) and draws it with Cairo into a bitmap of the
/// layer's bounds.
public enum TextRasterizer {
  /// The family used when a layer names none (Core Animation's is Helvetica).
  public static let defaultFamily = "Helvetica"

  /// Rasterizes `style` at `scale` pixels per point; nil when nothing shows.
  public static func rasterize(_ style: TextStyle, scale requested: CGFloat) -> Raster? {
    var scale = max(requested, 1e-3)
    let largest = max(style.size.width, style.size.height) * scale
    if largest > CGFloat(ShapeRasterizer.maxSide) {
      scale *= CGFloat(ShapeRasterizer.maxSide) / largest
    }
    let width = Int(clamping: style.size.width * scale, to: 0...(1 << 24), rounding: .up)
    let height = Int(clamping: style.size.height * scale, to: 0...(1 << 24), rounding: .up)
    guard let bitmap = CairoBitmap(width: width, height: height) else { return nil }
    let cr = bitmap.context
    cairo_scale(cr, scale, scale)
    show(style, in: cr)
    guard let image = bitmap.makeImage() else { return nil }
    return Raster(
      image: image,
      rect: CGRect(x: 0, y: 0, width: CGFloat(width) / scale, height: CGFloat(height) / scale))
  }

  /// Lays `style` out and draws it with its origin at user space (0, 0), the
  /// top left of the text's bounds.
  static func show(_ style: TextStyle, in cr: OpaquePointer, alpha: CGFloat = 1) {
    guard let layout = pango_cairo_create_layout(cr) else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    configure(layout, style)
    cairo_set_source_rgba(
      cr, style.color.red, style.color.green, style.color.blue, style.color.alpha * alpha)
    cairo_move_to(cr, xOffset(layout, style), 0)
    pango_cairo_show_layout(cr, layout)
  }

  /// A length in Pango units, rounded and clamped to Int32.
  static func pangoUnits(_ value: Double) -> Int32 {
    Int32(clamping: Int(saturating: value, rounding: .toNearestOrAwayFromZero))
  }

  static func configure(_ layout: OpaquePointer, _ style: TextStyle) {
    LibraryLog.install()
    let pangoScale = Double(LAMINA_PANGO_SCALE)
    pango_layout_set_text(layout, style.string, -1)
    var family = style.fontFamily ?? defaultFamily
    // A family list ended by a comma and followed by style words is a
    // Pango font description ("DejaVu Sans, Bold Italic"): the family with
    // its weight and slant. A plain name is a family, whatever its words.
    let description: OpaquePointer
    if family.contains(","), let parsed = pango_font_description_from_string(family) {
      description = parsed
      family = pango_font_description_get_family(parsed).map { String(cString: $0) } ?? family
    } else {
      description = pango_font_description_new()
      pango_font_description_set_family(description, family)
    }
    defer { pango_font_description_free(description) }
    // Sizes past FreeType's reach would fail the font file's face for
    // every later size: they are clamped (PangoText.maximumFontSize).
    pango_font_description_set_absolute_size(
      description, Double(PangoText.clampedSize(style.fontSize)) * pangoScale)
    pango_layout_set_font_description(layout, description)
    // Each new size makes fonts the thread's font map keeps: bounded there.
    PangoText.noteFontSizes([style.fontSize] + style.runs.compactMap(\.fontSize), of: layout)
    // Always: the list also turns Pango's hyphens off.
    setAttributes(layout, style.runs)
    PangoText.setCoreTextTabStops(layout)
    if style.fontFamily != nil { warnIfMissing(family, layout: layout, description: description) }

    // Pango units are Int32: sizes past its range are clamped (the limits keep real ones far inside).
    let width = pangoUnits(Double(style.size.width) * pangoScale)
    if style.isWrapped {
      pango_layout_set_width(layout, width)
      pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
      if style.truncation != .none {
        // Lines that fit in the bounds; the last one shows the ellipsis.
        pango_layout_set_height(layout, pangoUnits(Double(style.size.height) * pangoScale))
      }
    } else if style.truncation != .none {
      // One line per paragraph, ellipsized at the bounds' width.
      pango_layout_set_width(layout, width)
    }
    switch style.truncation {
    case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
    case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
    case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    default: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    }
    let alignment: CTTextAlignment =
      switch style.alignment {
      case .right: .right
      case .center: .center
      case .justified: .justified
      case .left: .left
      default: .natural
      }
    PangoText.setAlignment(layout, alignment)
  }

  /// Fonts, sizes and colors of an attributed string's runs, and no
  /// hyphens where a word is broken across lines (Core Text inserts none;
  /// Pango would).
  private static func setAttributes(_ layout: OpaquePointer, _ runs: [TextRun]) {
    guard let list = pango_attr_list_new() else { return }
    defer { pango_attr_list_unref(list) }
    pango_attr_list_insert(list, pango_attr_insert_hyphens_new(0))
    func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ run: TextRun) {
      guard let attribute else { return }
      attribute.pointee.start_index = guint(run.start)
      attribute.pointee.end_index = guint(run.end)
      pango_attr_list_insert(list, attribute)
    }
    func channel(_ value: CGFloat) -> guint16 { guint16(max(0, min(1, value)) * 65535) }
    for run in runs {
      if let family = run.fontFamily {
        // A Core Text font name: a family, or a PostScript name with its style.
        if let description = CTFont.pangoDescription(name: family, size: run.fontSize ?? 12) {
          insert(pango_attr_font_desc_new(description), run)
          pango_font_description_free(description)
        }
      }
      if let kern = run.kern {
        insert(
          pango_attr_letter_spacing_new(pangoUnits(Double(kern) * Double(LAMINA_PANGO_SCALE))), run)
      }
      if let underline = run.underline {
        let style = CTUnderlineStyle(rawValue: underline)
        insert(
          pango_attr_underline_new(
            style.contains(.double) ? PANGO_UNDERLINE_DOUBLE : PANGO_UNDERLINE_SINGLE), run)
      }
      if let size = run.fontSize, size > 0 {
        insert(
          pango_attr_size_new_absolute(
            pangoUnits(Double(PangoText.clampedSize(size)) * Double(LAMINA_PANGO_SCALE))),
          run)
      }
      if let color = run.color {
        insert(
          pango_attr_foreground_new(channel(color.red), channel(color.green), channel(color.blue)),
          run)
        insert(pango_attr_foreground_alpha_new(channel(color.alpha)), run)
      }
    }
    pango_layout_set_attributes(layout, list)
  }

  /// Without a layout width (unwrapped, untruncated text), Pango does not
  /// align: the lines are placed in the bounds here.
  static func xOffset(_ layout: OpaquePointer, _ style: TextStyle) -> Double {
    guard pango_layout_get_width(layout) < 0 else { return 0 }
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    let textWidth = Double(logical.width) / Double(LAMINA_PANGO_SCALE)
    let free = Double(style.size.width) - textWidth
    switch style.alignment {
    case .right: return free
    case .center: return free / 2
    case .natural:
      return pango_layout_get_direction(layout, 0) == PANGO_DIRECTION_RTL ? free : 0
    default: return 0
    }
  }

  nonisolated(unsafe) private static var checked: Set<String> = []
  private static let checkedLock = NSLock()

  /// Notes once per family (in `LibraryLog`, which `--verbose` prints)
  /// when fontconfig substituted another family.
  private static func warnIfMissing(
    _ family: String, layout: OpaquePointer, description: OpaquePointer?
  ) {
    checkedLock.lock()
    defer { checkedLock.unlock() }
    guard !checked.contains(family) else { return }
    checked.insert(family)
    guard let context = pango_layout_get_context(layout),
      let font = pango_context_load_font(context, description)
    else { return }
    defer { g_object_unref(UnsafeMutableRawPointer(font)) }
    guard let loaded = pango_font_describe(font) else { return }
    defer { pango_font_description_free(loaded) }
    guard let name = pango_font_description_get_family(loaded) else { return }
    let used = String(cString: name)
    if used.lowercased() != family.lowercased() {
      LibraryLog.note("font '\(family)' is not installed; using '\(used)' instead")
    }
  }

  /// Families already checked for substitution.
  static var checkedFamilies: Set<String> {
    checkedLock.lock()
    defer { checkedLock.unlock() }
    return checked
  }
}
