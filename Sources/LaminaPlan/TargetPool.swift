import Foundation
import LaminaFrame

/// Idle offscreen targets, kept for reuse by later passes of the same frame
/// and by later frames: a pass takes one of the size it needs (or a new
/// one), and gives it back after the last pass that reads it. At most
/// `limit` idle targets and `byteBudget` bytes are kept; beyond that the
/// least recently returned go.
package final class TargetPool {
  /// Idle targets kept at most (0: none; every pass makes its own).
  package var limit: Int { didSet { trim() } }
  /// Bytes of idle targets kept at most.
  package var byteBudget: Int { didSet { trim() } }
  /// Oldest first.
  private var idle: [RenderTarget] = []
  /// Targets kept for reuse.
  var idleCount: Int { idle.count }
  /// Targets made since the pool was created (the rest were reused).
  private(set) var made = 0

  package init(limit: Int, byteBudget: Int) {
    self.limit = limit
    self.byteBudget = byteBudget
  }

  var count: Int { idle.count }
  var idleBytes: Int { idle.reduce(0) { $0 + $1.bytes } }

  /// An idle target of exactly this size (its content is whatever it held),
  /// or a new one.
  func take(width: Int, height: Int, samples: Int, device: any GPUDevice) throws -> RenderTarget {
    if let i = idle.lastIndex(where: {
      $0.width == width && $0.height == height && $0.samples == samples && $0.device === device
    }) {
      return idle.remove(at: i)
    }
    made += 1
    return try RenderTarget(width: width, height: height, samples: samples, device: device)
  }

  /// Takes `target` back for reuse.
  func give(_ target: RenderTarget) {
    idle.append(target)
    trim()
  }

  func give(_ targets: [RenderTarget]) {
    idle += targets
    trim()
  }

  /// Deletes every idle target.
  package func drain() { idle.removeAll() }

  private func trim() {
    var bytes = idleBytes
    while !idle.isEmpty && (idle.count > max(limit, 0) || bytes > byteBudget) {
      bytes -= idle.removeFirst().bytes
    }
  }
}
