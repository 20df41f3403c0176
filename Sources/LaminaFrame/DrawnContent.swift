import Foundation
@_spi(Caches) import Lamina
import LaminaDraw

/// Bitmaps drawn on the CPU (shape and text layers), cached by everything
/// that decides their pixels, the scale included. A layer whose parameters
/// do not change reuses its bitmap (and so its texture) from frame to
/// frame; one whose `strokeEnd` or `path` animates is drawn again alone.
/// Keyed by content rather than by layer object, so the presentation
/// copies that animations make hit the same entries. One of a renderer's
/// `RenderCaches`, within their CPU budget.
final class DrawnContentCache: Sendable {
  enum Key: Hashable {
    case shape(ShapeStyle, scale: CGFloat)
    case text(TextStyle, scale: CGFloat)
  }

  /// The bitmaps (nil: the content covers nothing, remembered as such).
  let entries: LRUCache<Key, Raster?>

  init(budget: CacheBudget) {
    entries = LRUCache(budget: budget) { raster in
      guard let image = raster?.image else { return 0 }
      return image.width * image.height * 4
    }
  }

  /// Bitmaps drawn since the cache was made (tests count them).
  var rasterizations: Int { entries.insertions }

  /// The bitmap for `key`, drawn by `make` when it is not cached.
  func raster(_ key: Key, make: () -> Raster?) -> Raster? {
    entries.value(forKey: key, make: make)
  }

  /// The cached bitmap for `key` (`.some(nil)` when it covers nothing), or
  /// nil when it is not cached.
  func cached(_ key: Key) -> Raster?? { entries.value(forKey: key) }

  /// Stores a bitmap drawn elsewhere (a frame's batch).
  func insert(_ key: Key, _ raster: Raster?) { entries.insert(raster, forKey: key) }

  var count: Int { entries.count }
}

extension FrameBuilder {
  /// The most pixels per point a drawn layer is rasterized at.
  static let maxDrawnScale: CGFloat = 16

  /// Pixels per point at which `rect` of a layer shows through `toTarget`:
  /// the largest stretch of the projection at the rect's corners, rounded
  /// up to a quarter octave so that a slowly zooming layer is not redrawn
  /// every frame, and capped.
  static func shownScale(_ m: CATransform3D, _ rect: CGRect) -> CGFloat {
    let largest = largestStretch(m, rect)
    guard largest.isFinite, largest > 0 else { return 1 }
    let quantized = pow(2, (log2(largest) * 4).rounded(.up) / 4)
    // Whole scales stay exact (1, 2, 3 …) instead of the next quarter octave.
    let exact = largest.rounded()
    let scale = abs(largest - exact) < 1e-3 ? exact : quantized
    return min(max(scale, 1 / 64), maxDrawnScale)
  }

  /// The largest stretch, in pixels per point, of the projection `m` at
  /// the corners of `rect` (0 when every corner is behind the eye).
  static func largestStretch(_ m: CATransform3D, _ rect: CGRect) -> CGFloat {
    // No perspective, and values small enough that no product overflows:
    // every corner gives the same w (m44) and the same derivatives (the
    // terms of m14 and m24 are zeros), so the loop's value, found once.
    let bound: CGFloat = 1e100
    if m.m14 == 0 && m.m24 == 0,
      max(abs(rect.minX), abs(rect.minY), abs(rect.maxX), abs(rect.maxY)) < bound,
      max(abs(m.m11), abs(m.m12), abs(m.m21), abs(m.m22), abs(m.m31), abs(m.m32)) < bound,
      max(abs(m.m34), abs(m.m41), abs(m.m42), abs(m.m44)) < bound
    {
      let w = m.m44
      guard w > EdgeGeometry.nearW else { return 0 }
      let w2 = w * w
      return max(hypot(m.m11 * w / w2, m.m12 * w / w2), hypot(m.m21 * w / w2, m.m22 * w / w2))
    }
    var largest: CGFloat = 0
    for p in EdgeGeometry.corners(rect) {
      let q = m.apply(p.x, p.y)
      guard q.w > EdgeGeometry.nearW else { continue }
      // Derivatives of (X/W, Y/W) along the layer's x and y.
      let w2 = q.w * q.w
      let dxx = (m.m11 * q.w - q.x * m.m14) / w2
      let dyx = (m.m12 * q.w - q.y * m.m14) / w2
      let dxy = (m.m21 * q.w - q.x * m.m24) / w2
      let dyy = (m.m22 * q.w - q.y * m.m24) / w2
      largest = max(largest, hypot(dxx, dyx), hypot(dxy, dyy))
    }
    return largest
  }

  /// Lets a layer that asked for it (`setNeedsDisplay()`) draw its contents
  /// before they are read, as Core Animation does when a transaction commits.
  /// A presentation layer's model draws (its class's `display()` and
  /// `draw(in:)` run, subclasses' overrides included), and the presentation
  /// takes the new contents.
  func displayIfNeeded(_ layer: CALayer) {
    let model = layer.model()
    // A text layer subclass draws its text into its contents (as on iOS)
    // as soon as it has none, and again when its text changes.
    let textToDraw =
      (model as? CATextLayer)?.drawsTextIntoContents == true && model.contents == nil
    if model.needsDisplay() || textToDraw {
      LaminaDraw.install()
      if textToDraw { model.setNeedsDisplay() }
      model.displayIfNeeded()
      if model !== layer { layer.contents = model.contents }
    }
    // A presentation copy drawing an animated key of its class (see
    // `PresentationCopyable`) draws itself: its `draw(in:)` reads the value
    // of the moment.
    if model !== layer, layer.needsDisplay() {
      LaminaDraw.install()
      layer.displayIfNeeded()
    }
  }

  /// The content a shape or text layer draws: a shape's fill and stroke as
  /// path items drawn by the GPU (`PathItems.swift`), or, when the GPU path
  /// cannot take it, as a bitmap drawn by Cairo; text as image items.
  func appendDrawnItems(
    _ layer: CALayer, toTarget: CATransform3D, flipped: Bool, into commands: inout [DrawCommand]
  ) {
    if let shape = layer as? CAShapeLayer {
      if drawsShapesOnGPU, appendPathItems(shape, toTarget: toTarget, into: &commands) { return }
      if let item = shapeItem(shape, toTarget: toTarget) { commands.append(.item(item)) }
    } else if let text = layer as? CATextLayer,
      (text.model() as CALayer as? CATextLayer)?.drawsTextIntoContents != true
    {
      // (A subclass's text is in its contents, drawn by its `draw(in:)`.)
      appendText(text, toTarget: toTarget, flipped: flipped, into: &commands)
    }
  }

  /// Glyphs larger than this many pixels make a bitmap of their own layer
  /// instead of going into the shared atlas.
  static let largestAtlasGlyph: CGFloat = 96

  /// A `CATextLayer`'s text, laid out in its bounds at the scale it is shown
  /// at (so it stays crisp under zoom): one quad per glyph from the shared
  /// glyph atlas, or, for very large text and text whose font size keeps
  /// changing (`GlyphAtlas.changesSize`), one bitmap of the bounds. Like
  /// contents, text stays upright in a flipped superlayer.
  func appendText(
    _ layer: CATextLayer, toTarget: CATransform3D, flipped: Bool,
    into commands: inout [DrawCommand]
  ) {
    guard let style = TextStyle(layer) else { return }
    let scale = Self.shownScale(toTarget, layer.bounds)
    let largestSize = style.runs.compactMap(\.fontSize).reduce(style.fontSize, max)
    let origin = layer.bounds.origin
    // Text whose font size changes every frame would add glyphs (and upload
    // a whole atlas page) every frame: it is drawn as one bitmap instead.
    guard largestSize * scale <= Self.largestAtlasGlyph,
      !caches.glyphs.changesSize(style, scale: scale)
    else {
      guard
        let raster = caches.drawn.raster(
          .text(style, scale: scale), make: { TextRasterizer.rasterize(style, scale: scale) })
      else { return }
      let placed = Raster(
        image: raster.image, rect: raster.rect.offsetBy(dx: origin.x, dy: origin.y))
      if let item = drawnItem(placed, toTarget: toTarget, name: layer.name, flipped: flipped) {
        commands.append(.item(item))
      }
      return
    }
    let atlas = caches.glyphs
    let sampler = SamplerKey(minification: .linear, magnification: .linear)
    let height = layer.bounds.height
    log.texts += 1
    let glyphs = atlas.glyphs(style, scale: scale)
    // The pages' images as they are now; a page that gains glyphs this
    // frame shows a placeholder until `finishGlyphs`.
    var pages: [Int: (image: CGImage, final: Bool)] = [:]
    for glyph in glyphs {
      var rect = glyph.rect
      var uv = glyph.uv
      if flipped {
        rect.origin.y = height - rect.maxY
        uv = (uv.u0, uv.v1, uv.u1, uv.v0)
      }
      // Glyph quads need no edge antialiasing: their bitmaps have a clear margin.
      let page: (image: CGImage, final: Bool)
      if let known = pages[glyph.page] {
        page = known
      } else {
        page = atlas.image(glyph.page)
        pages[glyph.page] = page
      }
      if !page.final { log.placeholders += 1 }
      if var item = makeItem(
        .image(page.image, sampler),
        rect: rect.offsetBy(dx: origin.x, dy: origin.y),
        uv: uv, toTarget: toTarget, color: premultiplied(glyph.color, opacity: 1), name: layer.name)
      {
        item.antialiased = false
        commands.append(.item(item))
      }
    }
  }

  /// Points the frame's glyph items at the atlas pages as they are at the
  /// end of the frame (glyphs added while building it included); returns
  /// the placeholders replaced.
  func finishGlyphs(_ commands: inout [DrawCommand]) -> [ObjectIdentifier: CGImage] {
    let pages = caches.glyphs.finishFrame()
    guard !pages.isEmpty else { return [:] }
    PendingShapes.replace(pages, in: &commands)
    return pages
  }

  /// A `CAShapeLayer`'s fill and stroke, rasterized at the scale it is shown
  /// at and drawn as an image over the area they cover.
  func shapeItem(_ layer: CAShapeLayer, toTarget: CATransform3D) -> DrawItem? {
    guard let style = ShapeStyle(layer) else { return nil }
    let scale = Self.shownScale(
      toTarget, layer.bounds.isEmpty ? style.path.boundingBox : layer.bounds)
    let key = DrawnContentCache.Key.shape(style, scale: scale)
    let raster: Raster?
    if let cached = caches.drawn.cached(key) {
      raster = cached
    } else if let pendingShapes {
      // Not drawn yet: placed now, drawn with the frame's other new shapes
      // on every core when the walk ends.
      guard let plan = ShapeRasterizer.plan(style, scale: scale) else {
        caches.drawn.insert(key, nil)  // covers nothing: remembered as such
        return nil
      }
      raster = Raster(image: pendingShapes.placeholder(for: key, plan), rect: plan.rect)
      log.placeholders += 1
    } else {
      raster = caches.drawn.raster(key) {
        ShapeRasterizer.rasterize(style, scale: scale)
      }
    }
    guard let raster else { return nil }
    return drawnItem(raster, toTarget: toTarget, name: layer.name, flipped: false)
  }

  func drawnItem(_ raster: Raster, toTarget: CATransform3D, name: String?, flipped: Bool)
    -> DrawItem?
  {
    let sampler = SamplerKey(minification: .linear, magnification: .linear)
    return makeItem(
      .image(raster.image, sampler), rect: raster.rect, uv: flipped ? (0, 1, 1, 0) : (0, 0, 1, 1),
      toTarget: toTarget, color: SIMD4(repeating: 1), name: name)
  }
}

/// The shape bitmaps a frame needs that are not cached: each is placed with
/// a placeholder image during the walk, then all are drawn at once, in
/// parallel, and the frame's items are pointed at them.
final class PendingShapes: @unchecked Sendable {
  private var order: [DrawnContentCache.Key] = []
  private var jobs: [DrawnContentCache.Key: (plan: ShapeRasterizer.Plan, placeholder: CGImage)] =
    [:]
  /// The last frame's placeholders, alive until the next frame ends: the
  /// map `finish` returns is keyed by their identities, which must not be
  /// reused by images made before the frame's replacements are all done
  /// (the render tree replaces in its nodes after the atlas makes pages).
  private var retired: [CGImage] = []

  var isEmpty: Bool { order.isEmpty }

  /// The placeholder standing for `key`'s bitmap this frame (one per key).
  func placeholder(for key: DrawnContentCache.Key, _ plan: ShapeRasterizer.Plan) -> CGImage {
    if let job = jobs[key] { return job.placeholder }
    let placeholder = CGImage(width: 1, height: 1, rgba: [0, 0, 0, 0])!
    jobs[key] = (plan, placeholder)
    order.append(key)
    return placeholder
  }

  /// Draws every pending bitmap, caches it in `cache`, and replaces the placeholders
  /// in `commands` (masks and groups included); returns the placeholders
  /// replaced.
  @discardableResult
  func finish(_ commands: inout [DrawCommand], caching cache: DrawnContentCache)
    -> [ObjectIdentifier: CGImage]
  {
    retired.removeAll()
    guard !order.isEmpty else { return [:] }
    let plans = order.map { jobs[$0]!.plan }
    let results = UnsafeMutableBufferPointer<Raster?>.allocate(capacity: plans.count)
    results.initialize(repeating: nil)
    defer { results.deallocate() }
    DispatchQueue.concurrentPerform(iterations: plans.count) { i in
      results[i] = ShapeRasterizer.rasterize(plans[i])
    }
    var images: [ObjectIdentifier: CGImage] = [:]
    for (i, key) in order.enumerated() {
      cache.insert(key, results[i])
      if let image = results[i]?.image { images[ObjectIdentifier(jobs[key]!.placeholder)] = image }
    }
    retired = jobs.values.map(\.placeholder)
    order.removeAll()
    jobs.removeAll()
    Self.replace(images, in: &commands)
    return images
  }

  /// Replaces the placeholder images in `commands` (groups and masks
  /// included) by those `images` maps them to. Each group is visited once:
  /// a group drawn from several places (nested shadows each draw their
  /// subtree) would make the walk exponential in the nesting.
  static func replace(
    _ images: [ObjectIdentifier: CGImage], in commands: inout [DrawCommand]
  ) {
    var visited: Set<ObjectIdentifier> = []
    replace(images, in: &commands, visited: &visited)
  }

  private static func replace(
    _ images: [ObjectIdentifier: CGImage], in commands: inout [DrawCommand],
    visited: inout Set<ObjectIdentifier>
  ) {
    for i in commands.indices {
      switch commands[i] {
      case .item(var item):
        if case .raster(let pass) = item.material { replace(images, in: &pass.commands) }
        if case .image(let image, let sampler) = item.material,
          let drawn = images[ObjectIdentifier(image)]
        {
          // The item is the one derived, its image now drawn: same serial.
          let serial = item.serial
          item.material = .image(drawn, sampler)
          item.serial = serial
          commands[i] = .item(item)
        }
      case .group(let group):
        guard visited.insert(ObjectIdentifier(group)).inserted else { continue }
        replace(images, in: &group.commands, visited: &visited)
        if let mask = group.mask, visited.insert(ObjectIdentifier(mask)).inserted {
          replace(images, in: &mask.commands, visited: &visited)
        }
      }
    }
  }
}
