import CGLES3
import Foundation

/// Textures of rasterized subtrees, by signature, evicted least recently
/// used beyond `maxEntries` textures or `maxPixels` pixels in all.
final class RasterCache {
  private struct Entry {
    var target: RenderTarget
    var lastUsed: Int
  }
  private var entries: [Int: Entry] = [:]
  private var frame = 0
  let maxEntries: Int
  let maxPixels: Int

  init(maxEntries: Int = 64, maxPixels: Int = 16 << 20) {
    self.maxEntries = maxEntries
    self.maxPixels = maxPixels
  }

  var count: Int { entries.count }

  /// The texture for `key`, marking it used; 0 when absent.
  func texture(_ key: Int) -> GLuint {
    guard var entry = entries[key] else { return 0 }
    entry.lastUsed = frame
    entries[key] = entry
    return entry.target.texture
  }

  func contains(_ key: Int) -> Bool { entries[key] != nil }

  /// The target for `key`, marking it used.
  func target(_ key: Int) -> RenderTarget? {
    guard var entry = entries[key] else { return nil }
    entry.lastUsed = frame
    entries[key] = entry
    return entry.target
  }

  func insert(_ key: Int, _ target: RenderTarget) {
    entries[key] = Entry(target: target, lastUsed: frame)
  }

  /// Evicts the least recently used entries over the bounds (never those
  /// used in the frame that just ended); returns their targets.
  @discardableResult
  func endFrame() -> [RenderTarget] {
    var evicted: [RenderTarget] = []
    var pixels = entries.values.reduce(0) { $0 + $1.target.width * $1.target.height }
    if entries.count > maxEntries || pixels > maxPixels {
      for (key, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
        guard entries.count > maxEntries || pixels > maxPixels, entry.lastUsed < frame else {
          break
        }
        pixels -= entry.target.width * entry.target.height
        evicted.append(entry.target)
        entries[key] = nil
      }
    }
    frame += 1
    return evicted
  }
}

extension Renderer {
  /// Draws a rasterized subtree into its cached texture unless the cache
  /// holds its signature already.
  func prepareRaster(_ pass: RasterPass) throws {
    if rasterCache.contains(pass.key) {
      _ = rasterCache.texture(pass.key)
      return
    }
    let region = pass.region
    try prepareGroups(pass.commands, region: region)
    let target = try RenderTarget(width: region.width, height: region.height, samples: samples)
    debugGroup("raster \(region)")
    defer { debugGroupEnd() }
    device.bindFramebuffer(target.drawFramebuffer)
    device.setViewport(0, 0, region.width, region.height)
    device.clear(.zero)
    try drawCommands(pass.commands, region: region, targetSize: (region.width, region.height))
    target.resolve(device: device)
    rasterCache.insert(pass.key, target)
    device.counters.offscreenPasses += 1
    device.counters.rasterizations += 1
  }
}
