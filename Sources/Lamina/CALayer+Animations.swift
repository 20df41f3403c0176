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
  ///
  /// A property animation of a key path the layer does not have (and has
  /// no value for) would do nothing, as in Core Animation: Lamina says so in
  /// a warning (see `Diagnostics`), naming the layer, the key and the path.
  func addImpl(_ animation: CAAnimation, forKey key: String?) {
    warnAboutKeyPaths(of: animation, key: key)
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
  func animationImpl(forKey key: String) -> CAAnimation? {
    storedAnimations.first { $0.key == key }?.animation
  }

  /// The keys of the attached animations in the order they were added, or
  /// nil when there are none.
  func animationKeysImpl() -> [String]? {
    storedAnimations.isEmpty ? nil : storedAnimations.map(\.key)
  }

  /// The attached animations in the order they were added.
  public var animations: [(key: String, animation: CAAnimation)] { storedAnimations }

  /// Detaches the animation under `key`.
  func removeAnimationImpl(forKey key: String) {
    storedAnimations.removeAll { $0.key == key }
  }

  /// Detaches every animation.
  func removeAllAnimationsImpl() {
    storedAnimations.removeAll()
  }
}

extension CALayer {
  /// Whether an animation of `keyPath` changes something on this layer: a
  /// key path of its class (properties, their members, transform
  /// components, filter inputs, emitter cells, the mask's key paths), or a
  /// key the layer holds a value for (one set by `setValue(_:forKey:)`, or
  /// given by `defaultValue(forKey:)`).
  public func animates(keyPath: String) -> Bool {
    if type(of: self).valueKind(forKeyPath: keyPath) != nil { return true }
    return value(forKeyPath: keyPath) != nil
  }

  /// Warns about the property animations in `animation` (a group's
  /// included) that would animate nothing.
  func warnAboutKeyPaths(of animation: CAAnimation, key: String?) {
    if let group = animation as? CAAnimationGroup {
      for child in group.animations ?? [] { warnAboutKeyPaths(of: child, key: key) }
      return
    }
    guard let property = animation as? CAPropertyAnimation else { return }
    let kind = String(describing: type(of: animation))
    let named = key.map { " '\($0)'" } ?? ""
    guard let keyPath = property.keyPath, !keyPath.isEmpty else {
      Diagnostics.warn("\(kind)\(named) added to \(self) has no keyPath; it animates nothing")
      return
    }
    // A key the class redraws for is one of its own (`needsDisplay(forKey:)`).
    guard !animates(keyPath: keyPath), !redrawsWhenAnimating(keyPath) else { return }
    let owner = String(describing: type(of: self).laminaClass)
    Diagnostics.warn(
      "\(kind)\(named) added to \(self): '\(keyPath)' is not a key path \(owner) animates; "
        + "the animation does nothing")
  }
}
