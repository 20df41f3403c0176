import Foundation
import LaminaFrame

/// Targets kept across frames by signature — rasterized subtrees
/// (`shouldRasterize`), and masks, masked content and blurred shadows —
/// evicted least recently used beyond `maxEntries` targets or `maxBytes`
/// bytes in all (a share of the renderer's `RenderCaches` budget).
final class RasterCache {
  private struct Entry {
    var target: RenderTarget
    var lastUsed: Int
  }
  private var entries: [Int: Entry] = [:]
  private var frame = 0
  let maxEntries: Int
  let maxBytes: Int

  init(maxEntries: Int, maxBytes: Int) {
    self.maxEntries = maxEntries
    self.maxBytes = maxBytes
  }

  var count: Int { entries.count }
  /// Bytes of the targets held.
  var bytes: Int { entries.values.reduce(0) { $0 + $1.target.bytes } }

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
    var held = bytes
    if entries.count > maxEntries || held > maxBytes {
      for (key, entry) in entries.sorted(by: { $0.value.lastUsed < $1.value.lastUsed }) {
        guard entries.count > maxEntries || held > maxBytes, entry.lastUsed < frame else {
          break
        }
        held -= entry.target.bytes
        evicted.append(entry.target)
        entries[key] = nil
      }
    }
    frame += 1
    return evicted
  }
}
