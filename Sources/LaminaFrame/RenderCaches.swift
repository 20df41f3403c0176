import Foundation
@_spi(Caches) import Lamina
import LaminaDraw

/// Everything a renderer keeps from one frame to the next on the CPU, and
/// the shares of one byte budget that its GPU caches get. A `Renderer`
/// owns one and hands it to the frame builders it makes; two renderers
/// share nothing mutable.
///
/// `maxBytes` (`Limits.maxCacheBytes` by default) is split:
/// - a quarter for the CPU caches together, one least-recently-used order
///   across them: bitmaps of shape and text layers (`DrawnContentCache`),
///   fill and stroke meshes of paths (`PathGeometryCache`), tiles of
///   `CATiledLayer`s (`TileCache`);
/// - two thirds for GPU textures (images, glyph pages, gradient ramps);
/// - a twelfth for GPU targets and buffers kept across frames: rasterized
///   subtrees (half of it), masks and shadows (a quarter), path meshes'
///   vertex buffers (a quarter).
///
/// The glyph atlas (`glyphs`) comes on top: up to four pages of 4 MiB, as
/// many as a sixty-fourth of the budget holds and at least one; it starts
/// over when they are full.
///
/// Keys never outlive what they name: contents by value (styles, paths,
/// stops), layers by `CALayer.serial`, images by `CGImage.identifier`,
/// meshes by `PathMesh.serial`; never by an object's address.
///
/// ```swift
/// let caches = RenderCaches(maxBytes: 256 << 20)
/// var builder = FrameBuilder(size: size, scale: 2, caches: caches)
/// ```
public final class RenderCaches: @unchecked Sendable {
  /// The byte budget of all the caches together.
  public let maxBytes: Int
  /// The glyph atlas of text layers.
  public let glyphs: GlyphAtlas
  /// Bitmaps of shape and text layers drawn on the CPU.
  let drawn: DrawnContentCache
  /// Fill and stroke meshes of shape layers.
  let paths: PathGeometryCache
  /// Tiles of `CATiledLayer`s.
  let tiles: TileCache
  /// The CPU caches' shared budget (`cpuBytes`).
  let budget: CacheBudget

  /// Caches within `maxBytes` (`Limits.maxCacheBytes` by default).
  public init(maxBytes: Int = Limits.maxCacheBytes) {
    self.maxBytes = max(0, maxBytes)
    budget = CacheBudget(limit: self.maxBytes / 4)
    drawn = DrawnContentCache(budget: budget)
    paths = PathGeometryCache(budget: budget)
    tiles = TileCache(budget: budget)
    let pages = self.maxBytes / 64 / GlyphAtlas.pageBytes
    glyphs = GlyphAtlas(maxPages: min(max(pages, 1), GlyphAtlas.defaultMaxPages))
  }

  /// Whether builders using these caches leave fills untessellated until
  /// they are drawn on the GPU (`PathGeometryCache.defersFills`): set by a
  /// renderer that draws paths on the CPU.
  package var defersFills: Bool {
    get { paths.defersFills.load(ordering: .relaxed) }
    set { paths.defersFills.store(newValue, ordering: .relaxed) }
  }

  /// The CPU caches' share: a quarter of `maxBytes`.
  public var cpuBytes: Int { budget.limit }
  /// The GPU textures' share: two thirds of `maxBytes`.
  public var textureBytes: Int { maxBytes / 3 * 2 }
  /// The share of rasterized subtrees' targets: a twenty-fourth.
  public var rasterBytes: Int { maxBytes / 24 }
  /// The share of cached masks' and shadows' targets: a forty-eighth.
  public var maskBytes: Int { maxBytes / 48 }
  /// The share of path meshes' GPU buffers: a forty-eighth.
  public var pathBufferBytes: Int { maxBytes / 48 }

  /// Starts a frame: entries unused for 120 frames are dropped (checked
  /// every 30 frames). Frame builders call it.
  func beginFrame() { budget.beginFrame() }

  /// What the CPU caches hold now, and what they did since they were made.
  public var usage: Usage {
    Usage(
      drawnBytes: drawn.entries.bytes, drawnCount: drawn.entries.count,
      pathBytes: paths.entries.bytes, pathCount: paths.entries.count,
      tileBytes: tiles.entries.bytes, tileCount: tiles.entries.count,
      glyphBytes: glyphs.bytes,
      evictions: drawn.entries.evictions + paths.entries.evictions + tiles.entries.evictions)
  }

  /// The CPU caches' bytes and entries.
  public struct Usage: Equatable, Sendable {
    public var drawnBytes = 0, drawnCount = 0
    public var pathBytes = 0, pathCount = 0
    public var tileBytes = 0, tileCount = 0
    /// The glyph atlas's pages.
    public var glyphBytes = 0
    /// Entries dropped, for the budget or for going unused.
    public var evictions = 0
    /// Bytes of the caches that share the CPU budget (the glyph pages aside).
    public var budgetedBytes: Int { drawnBytes + pathBytes + tileBytes }

    public init() {}

    init(
      drawnBytes: Int, drawnCount: Int, pathBytes: Int, pathCount: Int, tileBytes: Int,
      tileCount: Int, glyphBytes: Int, evictions: Int
    ) {
      (self.drawnBytes, self.drawnCount) = (drawnBytes, drawnCount)
      (self.pathBytes, self.pathCount) = (pathBytes, pathCount)
      (self.tileBytes, self.tileCount) = (tileBytes, tileCount)
      self.glyphBytes = glyphBytes
      self.evictions = evictions
    }
  }
}
