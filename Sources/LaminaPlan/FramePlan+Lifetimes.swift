import Foundation
import LaminaFrame

extension FramePlan {
  /// The targets a step reads or writes.
  static func targets(of step: PlanStep) -> [TargetID] {
    switch step {
    case .draw(let pass):
      var ids = [pass.target]
      for batch in pass.batches {
        if let t = batch.texture?.target { ids.append(t) }
        if let m = batch.mask?.target { ids.append(m) }
      }
      return ids
    case .copy(let copy): return [copy.source, copy.destination]
    case .effect(let effect): return effect.inputs + [effect.output]
    case .openGLLayer(let step): return [step.target]
    case .output: return [FramePlan.canvas]
    }
  }

  /// Bytes of GPU memory a target of this size holds (a multisampled one
  /// also holds its renderbuffer).
  package static func bytes(width: Int, height: Int, samples: Int) -> Int {
    width * height * 4 * (samples > 1 ? samples + 1 : 1)
  }

  /// Works out, for each pooled target, the step after which it goes back
  /// to the pool (its last use), and the most offscreen memory held at
  /// once: pooled targets from their first use to their last, new cache
  /// entries from their first use on.
  package mutating func computeLifetimes(samples: Int) {
    var first: [TargetID: Int] = [:]
    var last: [TargetID: Int] = [:]
    for (i, step) in steps.enumerated() {
      for id in Self.targets(of: step) {
        if first[id] == nil { first[id] = i }
        last[id] = i
      }
    }
    releases = Array(repeating: [], count: steps.count)
    var delta = [Int](repeating: 0, count: steps.count + 1)
    var count = [Int](repeating: 0, count: steps.count + 1)
    for target in targets where target.isAllocated {
      guard let start = first[target.id], let end = last[target.id] else { continue }
      let bytes = Self.bytes(width: target.width, height: target.height, samples: samples)
      let stop = target.role == .pooled ? end + 1 : steps.count
      delta[start] += bytes
      delta[stop] -= bytes
      count[start] += 1
      count[stop] -= 1
      if target.role == .pooled { releases[end].append(target.id) }
    }
    var bytes = 0
    var held = 0
    peakOffscreenBytes = 0
    peakOffscreenTargets = 0
    for i in 0..<steps.count {
      bytes += delta[i]
      held += count[i]
      if bytes > peakOffscreenBytes {
        peakOffscreenBytes = bytes
        peakOffscreenTargets = held
      }
    }
    for i in releases.indices { releases[i].sort() }
  }
}
