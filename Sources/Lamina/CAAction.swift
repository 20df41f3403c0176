import Foundation

/// Something a layer runs when one of its properties changes: usually an
/// animation (implicit animations), or `NSNull` to do nothing.
public protocol CAAction: AnyObject {
  /// Runs the action for `event` (a key) on `anObject` (the layer).
  func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

/// `NSNull` as an action: found by the action search, it stops the search
/// and nothing runs (how `actions`, `style` and delegates disable an
/// implicit animation).
extension NSNull: CAAction {
  /// Does nothing.
  public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
  }
}

extension CAAnimation: CAAction {
  /// Adds a copy of the animation to the layer under `event`, as Core
  /// Animation does for an action: a property animation without a key path
  /// animates `event`; a basic animation with no values animates from the
  /// value the layer showed before the change to its new model value; a
  /// `beginTime` of 0 means now.
  public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
    guard let layer = anObject as? CALayer else { return }
    let copy = animationCopy()
    if let p = copy as? CAPropertyAnimation, p.keyPath == nil { p.keyPath = event }
    if let b = copy as? CABasicAnimation, b.fromValue == nil, b.toValue == nil, b.byValue == nil {
      b.fromValue = dict?[previousValueArgument] ?? layer.pendingPreviousValue
    }
    layer.add(copy, forKey: event)
  }
}

/// The argument under which a property change passes the value the layer
/// showed before it.
let previousValueArgument = "previousValue"

extension CALayer {
  func actionImpl(forKey event: String) -> CAAction? {
    if let delegate, let found = delegate.action(for: self, forKey: event) {
      return found is NSNull ? nil : found
    }
    if let found = actions?[event] {
      return found is NSNull ? nil : found
    }
    var style = self.style
    while let s = style {
      if let table = s[LayerKey.actions.rawValue] as? [String: Any], let found = table[event] {
        return (found as? NSNull) != nil ? nil : found as? CAAction
      }
      style = s[LayerKey.style.rawValue] as? [AnyHashable: Any]
    }
    // "If any of the above steps returns an instance of NSNull, it is
    // converted to nil" (Apple), the class's default action included.
    let found = type(of: self).defaultAction(forKey: event)
    return found is NSNull ? nil : found
  }

  static func defaultActionImpl(forKey event: String) -> CAAction? {
    let isFilterInput = event.hasPrefix("filters.") || event.hasPrefix("backgroundFilters.")
    guard implicitlyAnimatedKeys.contains(event) || isFilterInput,
      valueKind(forKeyPath: event) != nil
    else {
      return nil
    }
    let animation = CABasicAnimation(keyPath: event)
    animation.duration = CATransaction.animationDuration()
    animation.timingFunction = CATransaction.animationTimingFunction()
    return animation
  }

  /// Called by the property observers after a change (see `didChange`): on
  /// a live layer, with actions enabled, finds and runs the action for `key`.
  func propertyDidChange(_ key: String, from oldValue: Any?) {
    CATransaction.noteChange()
    guard !CATransaction.disableActions() else { return }
    // What showed before the change: the presentation value when something
    // animates the key, else the old model value.
    var previous = oldValue
    if storedAnimations.contains(where: { ($0.animation as? CAPropertyAnimation)?.keyPath == key })
    {
      let saved = value(forKeyPath: key)
      setValueWithoutActions(oldValue, forKeyPath: key)
      previous = presentationValue(forKeyPath: key)
      setValueWithoutActions(saved, forKeyPath: key)
    }
    guard let action = action(forKey: key) else { return }
    pendingPreviousValue = previous
    defer { pendingPreviousValue = nil }
    action.run(forKey: key, object: self, arguments: [previousValueArgument: previous as Any])
  }

  /// Runs the action for `kCAOnOrderIn` or `kCAOnOrderOut` (a live layer
  /// joining or leaving a tree; none by default, as in Core Animation).
  func runOrderAction(_ event: String) {
    guard isLive, !CATransaction.disableActions(), let action = action(forKey: event) else {
      return
    }
    action.run(forKey: event, object: self, arguments: nil)
  }

  /// The value of `keyPath` this layer shows at `CACurrentMediaTime()`.
  func presentationValue(forKeyPath keyPath: String) -> Any? {
    let copy = valueCopy()
    copy.createdGeneration = .max
    let parent = storedSuperlayer ?? maskOwner
    let now = CACurrentMediaTime()
    let time = timing.localTime(parent.map { $0.localTime(fromAbsolute: now) } ?? now)
    for (_, animation) in storedAnimations {
      CompiledAnimation(animation).apply(to: copy, at: time)
    }
    return copy.value(forKeyPath: keyPath)
  }

  func setValueWithoutActions(_ value: Any?, forKeyPath keyPath: String) {
    let saved = createdGeneration
    createdGeneration = .max
    setValue(value, forKeyPath: keyPath)
    createdGeneration = saved
  }

  /// Whether changes of this layer run actions: it is committed (it
  /// existed when an outermost transaction last committed, see
  /// `CATransaction`), and is not a presentation copy.
  @inline(__always)
  var isLive: Bool { createdGeneration < CATransaction.generation }

  /// The property observers' entry: counts the change, and runs the
  /// action when the layer is live (cheap when it is not).
  @inline(__always)
  func didChange<T>(_ key: LayerKey, _ oldValue: T) {
    valuesVersion &+= 1
    openTransaction()
    if redisplaysOnChange && modelLayer == nil
      && type(of: self).needsDisplay(forKey: key.rawValue)
    {
      setNeedsDisplay()
    }
    if createdGeneration < CATransaction.generation {
      propertyDidChange(key.event, from: oldValue)
    }
  }

  /// A change of this model layer opens the implicit transaction when no
  /// transaction is open, as in Core Animation (presentation layers and
  /// copies being made open none).
  @inline(__always)
  func openTransaction() {
    if CATransaction.stack.isEmpty && modelLayer == nil && createdGeneration != .max
      && CATransaction.copying == 0
    {
      CATransaction.noteChange()
    }
  }

  /// Records a model layer marked for layout or display for the next
  /// outermost commit's phases (presentation layers and copies being made
  /// are not recorded).
  @inline(__always)
  func noteInvalidated() {
    if modelLayer == nil && createdGeneration != .max && CATransaction.copying == 0 {
      CATransaction.noteInvalidated(self)
    }
  }

  /// The keys whose changes Core Animation animates implicitly: the
  /// events of the properties described with an implicit action
  /// (LayerProperty.swift).
  static var implicitlyAnimatedKeys: Set<String> { LayerProperty.implicitActionEvents }
}
