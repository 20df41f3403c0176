import Foundation

extension CALayer {
  /// The time, in this layer's parent's time (scene time for a root),
  /// after which nothing in the layer tree changes by itself: the end of
  /// the last animation (and of the last delayed replicator instance).
  /// Nil when the tree never settles or when that cannot be known cheaply:
  /// an animation that repeats forever or runs backward, an emitter that
  /// emits, a `CAOpenGLLayer` redrawn every frame, a layer with a duration
  /// of its own. A display loop stops drawing once a frame past this time
  /// is on screen.
  ///
  ///     root.settledTime()   // 2.5 for a tree whose last animation ends at 2.5 s
  public func settledTime() -> CFTimeInterval? {
    var end = -CFTimeInterval.infinity
    if let emitter = self as? CAEmitterLayer, emitter.birthRate > 0,
      !(emitter.emitterCells ?? []).isEmpty
    {
      return nil
    }
    if let gl = self as? CAOpenGLLayer, gl.isAsynchronous { return nil }
    for (_, animation) in animations {
      guard animation.speed >= 0 else { return nil }
      guard animation.speed > 0 else { continue }  // frozen: one value throughout
      let active = animation.activeDuration
      guard active.isFinite else { return nil }
      end = max(end, animation.beginTime + (active + abs(animation.timeOffset)) / Double(animation.speed))
    }
    var children = sublayers ?? []
    if let mask { children.append(mask) }
    for child in children {
      guard let childEnd = child.settledTime() else { return nil }
      end = max(end, childEnd)
    }
    if let replicator = self as? CAReplicatorLayer, replicator.instanceDelay != 0 {
      end += abs(replicator.instanceDelay) * Double(max(replicator.instanceCount - 1, 0))
    }
    // Local time to parent time.
    guard end > -.infinity else { return end }
    guard timing.duration <= 0, timing.speed > 0 else { return nil }
    return (end - timing.timeOffset) / Double(timing.speed) + timing.beginTime
  }
}
