import CCairo
import CHarfBuzz
import CPango
import Foundation

/// Core Text's measuring and laying out, done by Pango (shaping by
/// HarfBuzz, fonts found by fontconfig) on one private font map and
/// context, under one lock (Pango objects are not thread-safe). Metrics are
/// unhinted, as Core Text's are: the context's font options turn hinting
/// of metrics and outlines off.
package enum PangoText {
  static let lock = NSRecursiveLock()
  /// Pango units per point.
  static let unit = Double(LAMINA_PANGO_SCALE)

  /// The font map and the context every Core Text layout is made in.
  nonisolated(unsafe) static let context: OpaquePointer? = {
    guard let map = pango_cairo_font_map_new(),
      let context = pango_font_map_create_context(map)
    else { return nil }
    if let options = cairo_font_options_create() {
      cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
      cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
      pango_cairo_context_set_font_options(context, options)
      cairo_font_options_destroy(options)
    }
    // Core Text places glyphs at fractional positions.
    pango_context_set_round_glyph_positions(context, 0)
    return context
  }()

  /// Runs `body` holding the lock.
  static func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  /// Sets Core Text's default tab stops on a layout in points: every 28
  /// points, or every `interval` (Pango's default depends on the font at
  /// the layout's start, so the same paragraph's tabs would move with the
  /// text before it).
  package static func setCoreTextTabStops(_ layout: OpaquePointer, interval: CGFloat = 28) {
    guard let tabs = pango_tab_array_new(1, 0) else { return }
    // One stop: Pango repeats its distance from the start.
    let every = interval > 0 && interval.isFinite ? Double(interval) : 28
    pango_tab_array_set_tab(tabs, 0, PANGO_TAB_LEFT, units(every))
    pango_layout_set_tabs(layout, tabs)
    pango_tab_array_free(tabs)
  }

  /// Aligns a layout's lines as Core Text aligns a paragraph: left and
  /// right whatever the text's direction, natural as the paragraph's
  /// direction says (Pango flips a right-to-left paragraph's alignment),
  /// justified lines filling the width but the last.
  package static func setAlignment(_ layout: OpaquePointer, _ alignment: CTTextAlignment) {
    switch alignment {
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
  }

  /// A length in Pango units, rounded and clamped to Int32.
  static func units(_ points: Double) -> Int32 {
    guard points.isFinite else { return points > 0 ? Int32.max : Int32.min }
    return Int32(clamping: Int(saturating: points * unit, rounding: .toNearestOrAwayFromZero))
  }

  /// A Pango font description of `name` at `size` points: a family name
  /// ("Helvetica"), a fontconfig-style name with its style ("DejaVu Sans
  /// Bold") or a PostScript name ("Helvetica-BoldOblique": the part after
  /// the hyphen is read as the style).
  static func description(name: String, size: CGFloat) -> OpaquePointer? {
    var words = name
    // A name with a comma is a Pango description, whose style words may
    // have hyphens ("DejaVu Sans, Ultra-Light Italic"): no PostScript name.
    if !name.contains(","), let dash = name.lastIndex(of: "-"), dash != name.startIndex {
      let style = name[name.index(after: dash)...]
      let spaced = style.replacingOccurrences(
        of: "([a-z])([A-Z])", with: "$1 $2", options: .regularExpression)
      words = name[..<dash] + " " + spaced
    }
    // Style words ("Bold", "Oblique") are read as the style; a trailing
    // number would be read as a size: then a comma ends the family list.
    guard var description = pango_font_description_from_string(words) else { return nil }
    if pango_font_description_get_size(description) != 0 {
      pango_font_description_free(description)
      guard let whole = pango_font_description_from_string(words + ",") else { return nil }
      description = whole
    }
    if pango_font_description_get_family(description) == nil {
      pango_font_description_set_family(description, name)
    }
    pango_font_description_set_absolute_size(description, Double(clampedSize(size)) * unit)
    return description
  }

  /// The largest font size Pango is given, in points. FreeType cannot
  /// make glyphs of 65,536 pixels per em and more, and Cairo then marks
  /// the font file's face as failed: every later font of that file, at
  /// any size, would have no glyphs or metrics. Larger sizes are laid out
  /// at this one.
  package static let maximumFontSize: CGFloat = 16384

  /// `size` within 0...`maximumFontSize` (0 for NaN).
  package static func clampedSize(_ size: CGFloat) -> CGFloat {
    size > 0 ? min(size, maximumFontSize) : 0
  }

  // MARK: What a font map keeps per size

  /// How many distinct font sizes (each size at each scale) a font map
  /// makes fonts for before its caches are cleared. Pango's fontconfig
  /// font map keeps a font, a fontset and a pattern for every size it was
  /// asked for as long as the map lives (about 16 KiB a size, measured):
  /// text whose size keeps changing (an animated `fontSize`, a kiosk fed
  /// new sizes) grew the process without bound. Clearing costs the next
  /// layouts their fonts' loading again, once per this many new sizes.
  package static let maxFontSizesPerMap = 64

  /// The sizes each font map (by address) made fonts for since its caches
  /// were last cleared. Maps of threads that ended stay until there are
  /// more than `maxTrackedMaps`, then all are forgotten.
  nonisolated(unsafe) private static var sizesByMap: [UInt: Set<Int>] = [:]
  private static let maxTrackedMaps = 64
  /// How many times a font map's caches were cleared (for tests).
  nonisolated(unsafe) package private(set) static var fontMapClears = 0

  /// Notes that `layout` is about to load fonts of `sizes` (points) at its
  /// context's scale; once its font map has made fonts for more than
  /// `maxFontSizesPerMap` distinct ones, the map's caches are cleared
  /// first. Call before the layout loads any font (a font already loaded
  /// is kept by the layout's own reference either way).
  package static func noteFontSizes(_ sizes: [CGFloat], of layout: OpaquePointer) {
    guard let context = pango_layout_get_context(layout),
      let map = pango_context_get_font_map(context)
    else { return }
    var hasher = Hasher()
    for size in sizes { hasher.combine(clampedSize(size)) }
    if let m = pango_context_get_matrix(context)?.pointee {
      hasher.combine(m.xx)
      hasher.combine(m.xy)
      hasher.combine(m.yx)
      hasher.combine(m.yy)
    }
    let key = hasher.finalize()
    let address = UInt(bitPattern: UnsafeMutableRawPointer(map))
    locked {
      if sizesByMap[address] == nil, sizesByMap.count >= maxTrackedMaps { sizesByMap = [:] }
      var seen = sizesByMap[address, default: []]
      guard seen.insert(key).inserted else { return }
      if seen.count > maxFontSizesPerMap {
        if lamina_pango_font_map_cache_clear(map) != 0 { fontMapClears += 1 }
        seen = [key]
      }
      sizesByMap[address] = seen
    }
  }
}

/// What Pango knows of one `CTFont`: the loaded font and its HarfBuzz font.
final class PangoFontHandle: @unchecked Sendable {
  /// The `PangoFont`, owned.
  let font: UnsafeMutablePointer<PangoFont>?
  /// Its description (family, style, size), owned.
  let description: OpaquePointer?
  let size: CGFloat

  /// The font Pango loaded for `font`, kept (a reference is taken).
  init(font: UnsafeMutablePointer<PangoFont>, size: CGFloat) {
    self.size = size
    self.font = PangoText.locked {
      g_object_ref(UnsafeMutableRawPointer(font))
      return font
    }
    description = PangoText.locked { pango_font_describe_with_absolute_size(font) }
  }

  init(name: String, size: CGFloat) {
    self.size = size
    let description = PangoText.description(name: name, size: size)
    self.description = description
    font = PangoText.locked {
      guard let context = PangoText.context, let description else { return nil }
      return pango_context_load_font(context, description)
    }
  }

  deinit {
    // The last reference to a font takes it out of the font map's cache:
    // under the lock, as every use of the font map.
    PangoText.locked {
      if let font { g_object_unref(UnsafeMutableRawPointer(font)) }
      if let description { pango_font_description_free(description) }
    }
  }

  /// The family of the font's name (its style words and PostScript
  /// suffix left out).
  var familyName: String? {
    guard let description else { return nil }
    return pango_font_description_get_family(description).map { String(cString: $0) }
  }

  /// Pango's metrics: ascent, descent and the line height, in points.
  var lineMetrics: (ascent: CGFloat, descent: CGFloat, height: CGFloat) {
    PangoText.locked {
      guard let font, let metrics = pango_font_get_metrics(font, nil) else { return (0, 0, 0) }
      defer { pango_font_metrics_unref(metrics) }
      let unit = PangoText.unit
      return (
        CGFloat(Double(pango_font_metrics_get_ascent(metrics)) / unit),
        CGFloat(Double(pango_font_metrics_get_descent(metrics)) / unit),
        CGFloat(Double(pango_font_metrics_get_height(metrics)) / unit)
      )
    }
  }

  /// Runs `body` with the font's HarfBuzz font and the points per unit of
  /// its scale (horizontal, vertical).
  func withHarfBuzz<T>(
    _ empty: T, _ body: (OpaquePointer, _ perUnitX: Double, _ perUnitY: Double) -> T
  ) -> T {
    PangoText.locked {
      guard let font, let hb = pango_font_get_hb_font(font) else { return empty }
      var xScale: Int32 = 0
      var yScale: Int32 = 0
      hb_font_get_scale(hb, &xScale, &yScale)
      guard xScale != 0, yScale != 0 else { return empty }
      // A HarfBuzz font's scale is its em: the font's size in points.
      return body(hb, Double(size) / Double(xScale), Double(size) / Double(yScale))
    }
  }
}
