import Foundation

extension CALayer {
  /// Attaches `animation` under `key`, replacing any animation with that key
  /// (which keeps its place in the order); a nil key gets a unique one.
  /// The layer keeps a copy, as Core Animation does.
  ///
  /// On a live layer (one that existed at the last transaction commit, see
  /// `CATransaction`), a `beginTime` of 0 means now, as in Core Animation:
  /// the copy begins at `CACurrentMediaTime()` in the layer's time, and the
  /// current transaction tracks it for delegates and completion blocks.
  /// Layers being built (as the scene loader's) keep `beginTime` as given.
  public func add(_ animation: CAAnimation, forKey key: String?) {
    let copy = animation.animationCopy()
    if isLive {
      if copy.beginTime == 0 { copy.beginTime = convertTime(CACurrentMediaTime(), from: nil) }
      CATransaction.track(copy, on: self)
    }
    if let key, let i = storedAnimations.firstIndex(where: { $0.key == key }) {
      storedAnimations[i].animation = copy
      return
    }
    var name = key ?? ""
    if key == nil {
      var n = storedAnimations.count
      repeat {
        name = "animation-\(n)"
        n += 1
      } while storedAnimations.contains(where: { $0.key == name })
    }
    storedAnimations.append((name, copy))
  }

  /// The animation attached under `key`, or nil.
  public func animation(forKey key: String) -> CAAnimation? {
    storedAnimations.first { $0.key == key }?.animation
  }

  /// The keys of the attached animations in the order they were added, or
  /// nil when there are none.
  public func animationKeys() -> [String]? {
    storedAnimations.isEmpty ? nil : storedAnimations.map(\.key)
  }

  /// The attached animations in the order they were added.
  public var animations: [(key: String, animation: CAAnimation)] { storedAnimations }

  /// Detaches the animation under `key`.
  public func removeAnimation(forKey key: String) {
    storedAnimations.removeAll { $0.key == key }
  }

  /// Detaches every animation.
  public func removeAllAnimations() {
    storedAnimations.removeAll()
  }
}
