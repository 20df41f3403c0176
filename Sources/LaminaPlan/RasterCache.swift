import Foundation
import LaminaFrame

/// Targets kept across frames by signature — rasterized subtrees
/// (`shouldRasterize`), and masks, masked content and blurred shadows —
/// evicted least recently used beyond `maxEntries` targets or `maxPixels`
/// pixels in all.
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

  func contains(_ key: Int) -> Bool { entries[key] != nil }

  /// The target for `key`, marking it used.
  func target(_ key: Int) -> RenderTarget? {
    guard var entry = entries[key] else { return nil }
    entry.lastUsed = frame
    entries[key] = entry
    return entry.target
  }

  /// Keeps `target` under `key`; returns the target the key held before
  /// (for the pool), if another.
  @discardableResult
  func insert(_ key: Int, _ target: RenderTarget) -> RenderTarget? {
    let old = entries.updateValue(Entry(target: target, lastUsed: frame), forKey: key)?.target
    return old === target ? nil : old
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
