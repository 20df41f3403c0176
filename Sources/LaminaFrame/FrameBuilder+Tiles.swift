import Foundation
@_spi(Caches) import Lamina
import LaminaDraw

/// Drawn tiles of `CATiledLayer`s, kept across frames within the CPU
/// budget of a renderer's `RenderCaches` and dropped least recently used
/// first. A tile is the layer's by its serial (`CALayer.serial`), which no
/// later layer takes: a freed layer's tiles are never shown for another.
final class TileCache: Sendable {
  struct Key: Hashable {
    /// The model layer's `serial`.
    var layer: UInt64
    var generation: Int
    var level: Int
    var x: Int, y: Int
  }

  let entries: LRUCache<Key, CGImage>

  init(budget: CacheBudget) {
    entries = LRUCache(budget: budget) { $0.width * $0.height * 4 }
  }

  /// Tiles drawn since the cache was made (for tests and statistics).
  var drawnTiles: Int { entries.insertions }

  /// The tile `key`, drawn by `draw` when it is not held (a tile that
  /// cannot be drawn is not remembered).
  func image(_ key: Key, draw: () -> CGImage?) -> CGImage? {
    if let image = entries.value(forKey: key) { return image }
    guard let image = draw() else { return nil }
    entries.insert(image, forKey: key)
    return image
  }

  /// Tiles held now.
  var count: Int { entries.count }
}

extension FrameBuilder {
  /// A tiled layer's content: the tiles of the level of detail its scale
  /// on screen needs, only those that intersect what the target shows, each
  /// drawn once by the layer's `draw(in:)` and then taken from the cache.
  mutating func appendTiles(
    _ layer: CATiledLayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) {
    let bounds = layer.bounds
    guard bounds.width > 0, bounds.height > 0, layer.tileSize.width >= 1,
      layer.tileSize.height >= 1,
      let visible = visibleRect(of: bounds, toTarget)
    else { return }
    LaminaDraw.install()
    // Level ℓ draws at 2^−ℓ pixels per point: the coarsest level that is
    // still at least as fine as the screen, within the allowed levels.
    let onScreen = Self.pixelsPerUnit(toTarget, visible.midX, visible.midY)
    var level = onScreen > 0 ? Int(clamping: -log2(onScreen), to: -64...64, rounding: .down) : 0
    level = max(-layer.levelsOfDetailBias, min(max(layer.levelsOfDetail, 1) - 1, level))
    let scale = pow(2, -CGFloat(level))
    let tileW = layer.tileSize.width / scale, tileH = layer.tileSize.height / scale
    let tiles = -(1 << 30)...(1 << 30)
    let x0 = Int(clamping: (visible.minX - bounds.minX) / tileW, to: tiles, rounding: .down)
    let x1 = Int(clamping: (visible.maxX - bounds.minX) / tileW, to: tiles, rounding: .up)
    let y0 = Int(clamping: (visible.minY - bounds.minY) / tileH, to: tiles, rounding: .down)
    let y1 = Int(clamping: (visible.maxY - bounds.minY) / tileH, to: tiles, rounding: .up)
    guard x1 > x0, y1 > y0, (x1 - x0) * (y1 - y0) <= 4096 else { return }
    let model = layer.model()
    for ty in y0..<y1 {
      for tx in x0..<x1 {
        let rect = CGRect(
          x: bounds.minX + CGFloat(tx) * tileW, y: bounds.minY + CGFloat(ty) * tileH,
          width: tileW, height: tileH
        ).intersection(bounds)
        guard !rect.isNull, rect.width > 0, rect.height > 0 else { continue }
        let key = TileCache.Key(
          layer: model.serial, generation: layer.tileGeneration, level: level, x: tx, y: ty)
        let image = caches.tiles.image(key) {
          Self.drawTile(layer, rect: rect, scale: scale)
        }
        guard let image else { continue }
        // A tile drawn at one texel a pixel takes the magnification filter alone.
        let sampler = SamplerKey(
          minification: layer.minificationFilter, magnification: layer.magnificationFilter
        ).resolved(
          texelsPerPoint: SIMD2(
            Double(image.width) / Double(rect.width), Double(image.height) / Double(rect.height)),
          through: toTarget)
        guard
          var item = makeItem(
            .image(image, sampler), rect: rect, uv: (0, 0, 1, 1), toTarget: toTarget,
            color: SIMD4(repeating: 1), name: layer.name)
        else { continue }
        // Only the layer's own edges are antialiased; seams between tiles are not.
        item.edgeMask =
          (rect.minY <= bounds.minY ? 1 : 0) | (rect.maxX >= bounds.maxX ? 2 : 0)
          | (rect.maxY >= bounds.maxY ? 4 : 0) | (rect.minX <= bounds.minX ? 8 : 0)
        commands.append(.item(item))
      }
    }
  }

  /// One tile: `rect` of the layer drawn at `scale` pixels per point.
  static func drawTile(_ layer: CATiledLayer, rect: CGRect, scale: CGFloat) -> CGImage? {
    let width = max(1, Int(saturating: rect.width * scale, rounding: .up))
    let height = max(1, Int(saturating: rect.height * scale, rounding: .up))
    guard let context = CGContext.bitmap(width: width, height: height) else { return nil }
    context.scaleBy(x: scale, y: scale)
    context.translateBy(x: -rect.minX, y: -rect.minY)
    context.clip(to: rect)
    context.boundingBoxOfClipPath = rect
    // The model draws: a presentation copy of a subclass defined outside
    // Lamina is a plain CATiledLayer, without the subclass's `draw(in:)`.
    layer.model().draw(in: context)
    return context.makeImage()
  }

  /// The part of `bounds` (in the layer's space) that can land in the
  /// target: the target's corners mapped back onto the layer's plane.
  func visibleRect(of bounds: CGRect, _ toTarget: CATransform3D) -> CGRect? {
    let plane = Homography(toTarget)
    guard let inverse = plane.inverse else { return nil }
    var xs: [CGFloat] = [], ys: [CGFloat] = []
    let t = targetBounds
    for (x, y) in [(t.x, t.y), (t.maxX, t.y), (t.x, t.maxY), (t.maxX, t.maxY)] {
      guard let p = inverse.applyInFront(CGPoint(x: x, y: y), forward: plane) else { return bounds }
      xs.append(p.x)
      ys.append(p.y)
    }
    let seen = CGRect(
      x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    let visible = seen.intersection(bounds)
    return visible.isNull || visible.isEmpty ? nil : visible
  }
}
