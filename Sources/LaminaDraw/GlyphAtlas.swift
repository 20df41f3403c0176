import CCairo
import CPango
import Foundation
import Lamina

/// One glyph of laid-out text, ready to draw: where it goes in the layer
/// (points from the bounds' origin), where it is in the atlas, its color.
public struct PlacedGlyph {
  public var rect: CGRect
  /// Texture coordinates of `rect`'s min and max corners in the atlas page.
  public var uv: (u0: Float, v0: Float, u1: Float, v1: Float)
  public var page: Int
  public var color: CGColor
}

/// Glyph bitmaps of every text layer of a renderer in shared pages (each
/// renderer's `RenderCaches` has an atlas of its own): each glyph of a
/// font, size, scale and quarter-pixel horizontal phase is rasterized once
/// (Pango and Cairo, white coverage) and placed on a shelf of a page.
/// Layers draw one quad per glyph from the page's image, so text that
/// changes reuses the glyphs it already had, and all text batches into few
/// draws. A page's image is made again only at the end of a frame that added
/// glyphs to it (`finishFrame`); until then items point at a placeholder.
public final class GlyphAtlas: @unchecked Sendable {
  /// Page side in pixels.
  public static let side = 1024
  /// Bytes of one page (RGBA).
  public static let pageBytes = side * side * 4
  /// Pages kept at most unless told otherwise.
  public static let defaultMaxPages = 4
  /// Pages kept at most; when full, everything starts over.
  public let maxPages: Int

  /// An empty atlas of at most `maxPages` pages (at least one).
  public init(maxPages: Int = GlyphAtlas.defaultMaxPages) {
    self.maxPages = max(1, maxPages)
  }

  /// Bytes of the pages held now.
  public var bytes: Int {
    lock.lock()
    defer { lock.unlock() }
    return pages.count * Self.pageBytes
  }

  private final class Page {
    var pixels = [UInt8](repeating: 0, count: GlyphAtlas.side * GlyphAtlas.side * 4)
    var shelves: [(y: Int, height: Int, x: Int)] = []
    var nextShelfY = 0
    var image: CGImage?
    var dirty = true
    let placeholder = CGImage(width: 1, height: 1, rgba: [0, 0, 0, 0])!

    /// A free spot of `width`×`height` pixels (one pixel apart), or nil.
    func allocate(_ width: Int, _ height: Int) -> (x: Int, y: Int)? {
      let w = width + 1
      let h = height + 1
      for i in shelves.indices where shelves[i].height >= h && shelves[i].height <= h + h / 2 + 2 {
        if shelves[i].x + w <= GlyphAtlas.side {
          defer { shelves[i].x += w }
          return (shelves[i].x, shelves[i].y)
        }
      }
      guard nextShelfY + h <= GlyphAtlas.side, w <= GlyphAtlas.side else { return nil }
      shelves.append((nextShelfY, h, w))
      defer { nextShelfY += h }
      return (0, nextShelfY)
    }
  }

  private struct GlyphKey: Hashable {
    var font: String
    var glyph: UInt32
    var phase: Int
    var scale: CGFloat
  }

  private struct Slot {
    var page: Int, x: Int, y: Int, width: Int, height: Int
    /// The bitmap's top-left, in pixels from the whole-pixel pen position.
    var left: Int, top: Int
  }

  private let lock = NSLock()
  private var pages: [Page] = []
  /// Pages dropped by the last reset, kept until the next `finishFrame`.
  private var retiredPages: [Page] = []
  private var slots: [GlyphKey: Slot?] = [:]
  private var layouts: [TextLayoutKey: (glyphs: [PlacedGlyph], lastUsed: Int)] = [:]
  private var frame = 0
  private var resetPending = false
  /// Glyphs rasterized since the atlas was made (tests count them).
  public private(set) var rasterizedGlyphs = 0

  private struct TextLayoutKey: Hashable {
    var style: TextStyle
    var scale: CGFloat
    var generation: Int
  }
  private var generation = 0

  /// The glyphs of `style` laid out at `scale` pixels per point (cached).
  public func glyphs(_ style: TextStyle, scale: CGFloat) -> [PlacedGlyph] {
    lock.lock()
    defer { lock.unlock() }
    let key = TextLayoutKey(style: style, scale: scale, generation: generation)
    if let cached = layouts[key] {
      layouts[key]?.lastUsed = frame
      return cached.glyphs
    }
    let glyphs = layOut(style, scale: scale)
    layouts[key] = (glyphs, frame)
    return glyphs
  }

  /// The image to draw page `page` with during frame building: the page's
  /// image (`final`) when no glyph was added to it since it was made, else
  /// a placeholder that `finishFrame` swaps for the page's new image.
  public func image(_ page: Int) -> (image: CGImage, final: Bool) {
    lock.lock()
    defer { lock.unlock() }
    let p = pages[page]
    if !p.dirty, let image = p.image { return (image, true) }
    return (p.placeholder, false)
  }

  /// Changes whenever a page's image is made again or the pages start
  /// over: items made before point at images no longer current.
  public var imagesVersion: Int {
    lock.lock()
    defer { lock.unlock() }
    return version
  }
  private var version = 0

  /// Ends a frame: remakes the images of pages that gained glyphs and
  /// returns placeholder → image for each of them.
  public func finishFrame() -> [ObjectIdentifier: CGImage] {
    lock.lock()
    defer { lock.unlock() }
    frame += 1
    retiredPages.removeAll()
    var map: [ObjectIdentifier: CGImage] = [:]
    for page in pages where page.dirty || page.image == nil {
      page.image = CGImage(width: GlyphAtlas.side, height: GlyphAtlas.side, rgba: page.pixels)
      page.dirty = false
      version += 1
      if let image = page.image { map[ObjectIdentifier(page.placeholder)] = image }
    }
    if resetPending {
      version += 1
      // Full: start over next frame (this frame's items still see their pages).
      // The pages (their placeholders) live until the next frame ends: the
      // map returned is keyed by the placeholders' identities.
      retiredPages = pages
      pages = []
      slots = [:]
      layouts = [:]
      generation += 1
      resetPending = false
    } else if frame % 60 == 0 {
      layouts = layouts.filter { frame - $0.value.lastUsed <= 120 }
    }
    if frame % 60 == 0 {
      recentSizes = recentSizes.compactMapValues { sizes in
        let kept = sizes.filter { frame - $0.value <= Self.sizeWindowFrames }
        return kept.isEmpty ? nil : kept
      }
    }
    return map
  }

  // MARK: Text whose size keeps changing

  /// Distinct pixel sizes of one text (its style but for the size) within
  /// `sizeWindowFrames` frames past which it counts as changing size.
  public static let maxRecentSizes = 8
  /// Frames a size counts as recent.
  public static let sizeWindowFrames = 120

  /// Per style with its font sizes taken out: each pixel size it was shown
  /// at in the last `sizeWindowFrames` frames, and the frame it was last.
  private var recentSizes: [TextStyle: [CGFloat: Int]] = [:]

  /// Whether text like `style`, shown at `scale`, keeps changing its font
  /// size: more than `maxRecentSizes` distinct pixel sizes in the last
  /// `sizeWindowFrames` frames (an animated `fontSize`). Its glyphs are new
  /// at every size, and a page that gains glyphs is uploaded again whole
  /// (4 MiB, a new texture kept while the texture cache holds it), so such
  /// text is better drawn as a bitmap of its own, in the budgeted caches
  /// (issue 41: an animated `fontSize` cost a page a frame). Each call
  /// counts this frame's size.
  public func changesSize(_ style: TextStyle, scale: CGFloat) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let size = style.runs.compactMap(\.fontSize).reduce(style.fontSize, max) * scale
    var key = style
    key.fontSize = 0
    for i in key.runs.indices { key.runs[i].fontSize = nil }
    var sizes = recentSizes[key] ?? [:]
    sizes[size] = frame
    if sizes.count > Self.maxRecentSizes {
      sizes = sizes.filter { frame - $0.value <= Self.sizeWindowFrames }
    }
    recentSizes[key] = sizes
    return sizes.count > Self.maxRecentSizes
  }

  /// Styles followed by `changesSize` now (tests count them).
  public var followedStyles: Int {
    lock.lock()
    defer { lock.unlock() }
    return recentSizes.count
  }

  // MARK: Layout

  private func layOut(_ style: TextStyle, scale: CGFloat) -> [PlacedGlyph] {
    LibraryLog.install()
    guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1) else { return [] }
    defer { cairo_surface_destroy(surface) }
    guard let cr = cairo_create(surface) else { return [] }
    defer { cairo_destroy(cr) }
    cairo_scale(cr, scale, scale)
    guard let layout = pango_cairo_create_layout(cr) else { return [] }
    defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
    TextRasterizer.configure(layout, style)
    let xOffset = TextRasterizer.xOffset(layout, style)
    let unit = Double(LAMINA_PANGO_SCALE)
    var placed: [PlacedGlyph] = []
    var fontKeys: [UnsafeMutablePointer<PangoFont>: String] = [:]
    guard let iter = pango_layout_get_iter(layout) else { return [] }
    defer { pango_layout_iter_free(iter) }
    let bounds = CGRect(origin: .zero, size: style.size)
    repeat {
      guard let run = pango_layout_iter_get_run_readonly(iter),
        let item = run.pointee.item, let font = item.pointee.analysis.font,
        let glyphString = run.pointee.glyphs
      else { continue }
      var logical = PangoRectangle()
      pango_layout_iter_get_run_extents(iter, nil, &logical)
      let baseline = Double(pango_layout_iter_get_baseline(iter)) / unit
      let fontKey: String
      if let known = fontKeys[font] {
        fontKey = known
      } else {
        let description = pango_font_describe_with_absolute_size(font)
        let text = pango_font_description_to_string(description)
        fontKey = text.map { String(cString: $0) } ?? "?"
        g_free(text)
        pango_font_description_free(description)
        fontKeys[font] = fontKey
      }
      var x = Double(logical.x) / unit + xOffset
      let count = Int(glyphString.pointee.num_glyphs)
      for i in 0..<count {
        let info = glyphString.pointee.glyphs[i]
        defer { x += Double(info.geometry.width) / unit }
        let glyph = info.glyph
        if glyph == 0x0FFF_FFFF { continue }  // PANGO_GLYPH_EMPTY
        let penX = (x + Double(info.geometry.x_offset) / unit) * scale
        let penY = ((baseline + Double(info.geometry.y_offset) / unit) * scale).rounded()
        let whole = penX.rounded(.down)
        let phase = min(3, Int(saturating: (penX - whole) * 4, rounding: .down))
        guard
          let slot = slot(
            GlyphKey(font: fontKey, glyph: glyph, phase: phase, scale: scale), font: font)
        else { continue }
        let byte = Int(item.pointee.offset) + Int(glyphString.pointee.log_clusters[i])
        let color =
          style.runs.last(where: { $0.color != nil && $0.start <= byte && byte < $0.end })?.color
          ?? style.color
        let left = (whole + Double(slot.left)) / scale
        let top = (penY + Double(slot.top)) / scale
        var rect = CGRect(
          x: left, y: top, width: Double(slot.width) / scale, height: Double(slot.height) / scale)
        var uv = Self.uv(slot)
        // Text beyond the bounds is cut off there, as a bitmap of the bounds would be.
        let visible = rect.intersection(bounds)
        if visible.isNull || visible.width <= 0 || visible.height <= 0 { continue }
        if visible != rect {
          uv = Self.crop(uv, from: rect, to: visible)
          rect = visible
        }
        placed.append(PlacedGlyph(rect: rect, uv: uv, page: slot.page, color: color))
      }
      // An underlined run (`kCTUnderlineStyleAttributeName`): a bar of the
      // solid block, where the font puts its underline.
      let start = Int(item.pointee.offset)
      if let run = style.runs.last(where: {
        $0.underline != nil && $0.start <= start && start < $0.end
      }),
        let bar = underline(
          font: font, x: Double(logical.x) / unit + xOffset, width: Double(logical.width) / unit,
          baseline: baseline,
          double: CTUnderlineStyle(rawValue: run.underline ?? 0).contains(.double),
          color: style.runs.last(where: { $0.color != nil && $0.start <= start && start < $0.end })?
            .color ?? style.color, bounds: bounds, scale: Double(scale))
      {
        placed += bar
      }
    } while pango_layout_iter_next_run(iter) != 0
    return placed
  }

  /// The bars of an underline under a run: one, or two for a double one.
  private func underline(
    font: UnsafeMutablePointer<PangoFont>, x: Double, width: Double, baseline: Double,
    double: Bool, color: CGColor, bounds: CGRect, scale: Double
  ) -> [PlacedGlyph]? {
    guard width > 0, let solid = solidSlot(), let metrics = pango_font_get_metrics(font, nil)
    else { return nil }
    defer { pango_font_metrics_unref(metrics) }
    let unit = Double(LAMINA_PANGO_SCALE)
    // Pango's position is the underline's top above the baseline.
    // Whole pixels, as the glyphs are placed: at least one pixel thick.
    let top =
      ((baseline - Double(pango_font_metrics_get_underline_position(metrics)) / unit) * scale)
      .rounded() / scale
    let thickness =
      max(1, (Double(pango_font_metrics_get_underline_thickness(metrics)) / unit * scale).rounded())
      / scale
    // One texel in the middle of the solid block: the same color all over.
    let side = Float(GlyphAtlas.side)
    let u = (Float(solid.x) + Float(solid.width) / 2) / side
    let v = (Float(solid.y) + Float(solid.height) / 2) / side
    var bars: [PlacedGlyph] = []
    for i in 0..<(double ? 2 : 1) {
      let rect = CGRect(x: x, y: top + Double(i) * 2 * thickness, width: width, height: thickness)
        .intersection(bounds)
      if rect.isNull || rect.width <= 0 || rect.height <= 0 { continue }
      bars.append(PlacedGlyph(rect: rect, uv: (u, v, u, v), page: solid.page, color: color))
    }
    return bars
  }

  /// A small white block in a page, for bars (underlines).
  private func solidSlot() -> Slot? {
    let key = GlyphKey(font: "", glyph: 0, phase: 0, scale: 0)
    if let known = slots[key] { return known }
    let size = 4
    guard let (pageIndex, x, y) = place(size, size) else { return nil }
    let page = pages[pageIndex]
    for row in 0..<size {
      for column in 0..<size {
        let i = ((y + row) * GlyphAtlas.side + x + column) * 4
        for c in 0..<4 { page.pixels[i + c] = 255 }
      }
    }
    page.dirty = true
    let slot = Slot(page: pageIndex, x: x, y: y, width: size, height: size, left: 0, top: 0)
    slots[key] = slot
    return slot
  }

  private static func uv(_ slot: Slot) -> (Float, Float, Float, Float) {
    let side = Float(GlyphAtlas.side)
    let u0 = Float(slot.x) / side
    let v0 = Float(slot.y) / side
    let u1 = Float(slot.x + slot.width) / side
    let v1 = Float(slot.y + slot.height) / side
    return (u0, v0, u1, v1)
  }

  /// Texture coordinates of `part` of `rect`, whose corners map to `uv`.
  private static func crop(
    _ uv: (Float, Float, Float, Float), from rect: CGRect, to part: CGRect
  ) -> (Float, Float, Float, Float) {
    let du = (uv.2 - uv.0) / Float(rect.width)
    let dv = (uv.3 - uv.1) / Float(rect.height)
    let u0: Float = uv.0 + Float(part.minX - rect.minX) * du
    let v0: Float = uv.1 + Float(part.minY - rect.minY) * dv
    let u1: Float = uv.2 - Float(rect.maxX - part.maxX) * du
    let v1: Float = uv.3 - Float(rect.maxY - part.maxY) * dv
    return (u0, v0, u1, v1)
  }

  // MARK: Glyph bitmaps

  private func slot(_ key: GlyphKey, font: UnsafeMutablePointer<PangoFont>) -> Slot? {
    if let known = slots[key] { return known }
    let slot = rasterize(key, font: font)
    slots[key] = slot
    return slot
  }

  private func rasterize(_ key: GlyphKey, font: UnsafeMutablePointer<PangoFont>) -> Slot? {
    var ink = PangoRectangle()
    pango_font_get_glyph_extents(font, key.glyph, &ink, nil)
    guard ink.width > 0, ink.height > 0 else { return nil }
    let unit = Double(LAMINA_PANGO_SCALE)
    let s = Double(key.scale)
    let phase = Double(key.phase) / 4
    let x0 = Int(clamping: Double(ink.x) / unit * s + phase, to: -(1 << 24)...(1 << 24), rounding: .down) - 1
    let y0 = Int(clamping: Double(ink.y) / unit * s, to: -(1 << 24)...(1 << 24), rounding: .down) - 1
    let x1 = Int(clamping: Double(ink.x + ink.width) / unit * s + phase, to: -(1 << 24)...(1 << 24), rounding: .up) + 1
    let y1 = Int(clamping: Double(ink.y + ink.height) / unit * s, to: -(1 << 24)...(1 << 24), rounding: .up) + 1
    let width = x1 - x0
    let height = y1 - y0
    guard width > 0, height > 0, width < GlyphAtlas.side / 4, height < GlyphAtlas.side / 4,
      let bitmap = CairoBitmap(width: width, height: height)
    else { return nil }
    let cr = bitmap.context
    cairo_translate(cr, Double(-x0) + phase, Double(-y0))
    cairo_scale(cr, s, s)
    cairo_set_source_rgba(cr, 1, 1, 1, 1)
    guard let glyphs = pango_glyph_string_new() else { return nil }
    defer { pango_glyph_string_free(glyphs) }
    pango_glyph_string_set_size(glyphs, 1)
    glyphs.pointee.glyphs[0].glyph = key.glyph
    glyphs.pointee.glyphs[0].geometry = PangoGlyphGeometry(width: 0, x_offset: 0, y_offset: 0)
    glyphs.pointee.log_clusters[0] = 0
    cairo_move_to(cr, 0, 0)
    pango_cairo_show_glyph_string(cr, font, glyphs)
    guard let image = bitmap.makeImage() else { return nil }
    guard let (pageIndex, x, y) = place(width, height) else { return nil }
    let page = pages[pageIndex]
    page.pixels.withUnsafeMutableBufferPointer { out in
      image.pixels.withUnsafeBufferPointer { source in
        for row in 0..<height {
          let from = row * width * 4
          let to = ((y + row) * GlyphAtlas.side + x) * 4
          for i in 0..<(width * 4) { out[to + i] = source[from + i] }
        }
      }
    }
    page.dirty = true
    rasterizedGlyphs += 1
    return Slot(page: pageIndex, x: x, y: y, width: width, height: height, left: x0, top: y0)
  }

  private func place(_ width: Int, _ height: Int) -> (Int, Int, Int)? {
    for (index, page) in pages.enumerated() {
      if let spot = page.allocate(width, height) { return (index, spot.x, spot.y) }
    }
    guard pages.count < maxPages else {
      resetPending = true
      return nil
    }
    pages.append(Page())
    guard let spot = pages[pages.count - 1].allocate(width, height) else { return nil }
    return (pages.count - 1, spot.x, spot.y)
  }
}
