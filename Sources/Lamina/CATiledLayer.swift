import Foundation

/// A layer whose content is drawn in tiles, only where it shows, at the
/// level of detail its on-screen scale needs: for very large content (maps,
/// documents, giant images) that could never be one bitmap. The content
/// comes from `draw(in:)` (or the delegate's `draw(_:in:)`), called once per
/// tile with a context whose space is the layer's bounds space; the renderer
/// keeps drawn tiles in a cache bounded in memory.
///
/// ```swift
/// final class Checkerboard: CATiledLayer {
///   override func draw(in ctx: CGContext) { … }
/// }
/// let map = Checkerboard()
/// map.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
/// ```
open class CATiledLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CATiledLayer.self }
  override package class func makeInstance() -> CALayer { CATiledLayer() }

  /// A tile's size in pixels.
  @exclusivity(unchecked) open var tileSize = CGSize(width: 256, height: 256) {
    didSet { didChange(.tileSize, oldValue) }
  }
  /// How many levels of detail below full scale (each half the one before)
  /// are drawn when the layer is shown smaller.
  @exclusivity(unchecked) open var levelsOfDetail = 1 {
    didSet { didChange(.levelsOfDetail, oldValue) }
  }
  /// How many levels above full scale (each twice the one before) are drawn
  /// when the layer is shown larger.
  @exclusivity(unchecked) open var levelsOfDetailBias = 0 {
    didSet { didChange(.levelsOfDetailBias, oldValue) }
  }
  /// Bumped by `setNeedsDisplay()`: tiles drawn before are stale.
  public private(set) var tileGeneration = 0

  /// How long newly drawn tiles fade in, in Core Animation (Lamina draws
  /// tiles in the frame that needs them, so they do not fade).
  open class func fadeDuration() -> CFTimeInterval { 0.25 }

  /// Tiles draw themselves; the layer has no backing store of its own.
  open override func display() {
    tileGeneration &+= 1
  }

  /// The descriptions of the tiled layer's own properties (LayerProperty.swift).
  static let tiledProperties: [LayerProperty] = [
    LayerProperty.make(.tileSize, .size, \CATiledLayer.tileSize, Convert.size),
    LayerProperty.make(.levelsOfDetail, .integer, \CATiledLayer.levelsOfDetail, Convert.int),
    LayerProperty.make(
      .levelsOfDetailBias, .integer, \CATiledLayer.levelsOfDetailBias, Convert.int),
  ]

  override class var properties: [LayerProperty] { super.properties + tiledProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    if let t = other as? CATiledLayer {
      tileSize = t.tileSize
      levelsOfDetail = t.levelsOfDetail
      levelsOfDetailBias = t.levelsOfDetailBias
      tileGeneration = t.tileGeneration
    }
  }
}
