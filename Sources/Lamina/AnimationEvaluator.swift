import Foundation

/// An animation made ready for evaluation: its values converted once, its
/// key path resolved to a getter and setter. Built when a layer's
/// animations change, reused on every update after.
final class CompiledAnimation {
  let animation: CAAnimation
  let keyPath: String
  let property: AnimatedProperty?
  let from: LayerValue?, to: LayerValue?, by: LayerValue?
  /// Keyframe values (for `path`: empty, see `pathSegments`).
  let values: [LayerValue]
  let pathSegments: [PathSegment]
  let children: [CompiledAnimation]
  /// Keyframe times and the paced parametrization, computed once.
  let keyTimes: [Double]
  /// Whether `keyTimes` never fall (as Core Animation requires of them).
  let keyTimesAscend: Bool
  let pacedTables: [[Double]]
  let timing: TimingModel
  let removedOnCompletion: Bool
  let timingFunction: CAMediaTimingFunction?
  /// The property animation's value function, if any.
  let valueFunction: CAValueFunction?
  /// A from-to animation of numbers on a fast property: the common case.
  let fastNumbers: (from: Double, to: Double, set: (CALayer, Double) -> Void)?
  /// The fast property's getter, for `fastNumbers`.
  let fastGet: ((CALayer) -> Double)?
  /// Whether points are read as sizes (`transform.translation`).
  let pointsAreSizes: Bool
  /// A value the animation was given (from, to, by or the first keyframe),
  /// as given: the type a key of no property is written back as.
  let givenValue: Any?
  /// Whether restoring `property` from the model undoes the animation (no
  /// group, no path rotation, a fast property).
  let restorable: Bool

  /// - Parameter unsetDuration: what a `duration` of 0 means (the group's
  ///   duration for a group's child).
  init(_ animation: CAAnimation, unsetDuration: CFTimeInterval = defaultAnimationDuration) {
    self.animation = animation
    timing = TimingModel(animation, unsetDuration: unsetDuration)
    removedOnCompletion = animation.isRemovedOnCompletion
    timingFunction = animation.timingFunction
    let property = animation as? CAPropertyAnimation
    keyPath = property?.keyPath ?? ""
    valueFunction = property?.valueFunction
    self.property = property.flatMap { AnimatedProperty.named($0.keyPath ?? "") }
    let basic = animation as? CABasicAnimation
    // `transform.translation` takes a size; Core Animation reads the two
    // numbers of a point there as well (values, and a keyframe path's points).
    let pointsAreSizes = keyPath == "transform.translation"
    self.pointsAreSizes = pointsAreSizes
    func convert(_ value: Any) -> LayerValue {
      let v = LayerValue(value)
      return pointsAreSizes ? v.pointAsSize : v
    }
    givenValue =
      basic?.fromValue ?? basic?.toValue ?? basic?.byValue
      ?? (animation as? CAKeyframeAnimation)?.values?.first
    from = basic?.fromValue.map(convert)
    to = basic?.toValue.map(convert)
    by = basic?.byValue.map(convert)
    let keyframe = animation as? CAKeyframeAnimation
    if let path = keyframe?.path {
      pathSegments = PathSegment.segments(of: path)
      values = []
    } else {
      pathSegments = []
      values = (keyframe?.values ?? []).map(convert)
    }
    let groupDuration = timing.duration
    children =
      (animation as? CAAnimationGroup)?.animations?.map {
        CompiledAnimation($0, unsetDuration: groupDuration)
      } ?? []
    if let keyframe {
      (keyTimes, pacedTables) = Keyframes.timing(
        keyframe, values: values, pathSegments: pathSegments)
    } else {
      keyTimes = []
      pacedTables = []
    }
    keyTimesAscend = zip(keyTimes, keyTimes.dropFirst()).allSatisfy { $0 <= $1 }
    if case .number(let x)? = from, case .number(let y)? = to, by == nil,
      !(property?.isAdditive ?? true), !(property?.isCumulative ?? true),
      property?.valueFunction == nil,
      !(animation is CASpringAnimation), let p = self.property, case .number(let set) = p.setter
    {
      fastNumbers = (x, y, set)
      fastGet = p.number
    } else {
      fastNumbers = nil
      fastGet = nil
    }
    restorable =
      self.property != nil && children.isEmpty
      && (keyframe?.rotationMode == nil || keyframe?.path == nil)
  }

  /// The value of a `fastNumbers` animation at `time`, or nil when it
  /// does not apply then (not begun, or over, without a fill).
  func fastValue(at time: CFTimeInterval) -> Double? {
    guard let fast = fastNumbers else { return nil }
    if removedOnCompletion && timing.hasEnded(atParentTime: time) { return nil }
    guard let point = timing.point(atParentTime: time) else { return nil }
    let eased = timingFunction?.evaluate(at: point.progress) ?? point.progress
    return fast.from + (fast.to - fast.from) * eased
  }

  /// Applies the animation to `layer` (a presentation layer holding the
  /// model values and the animations applied so far) at `time`, the
  /// layer's local time (for a group's children: the group's).
  func apply(to layer: CALayer, at time: CFTimeInterval) {
    if removedOnCompletion && timing.hasEnded(atParentTime: time) { return }
    guard let point = timing.point(atParentTime: time) else { return }
    let eased = timingFunction?.evaluate(at: point.progress) ?? point.progress
    if let fast = fastNumbers {
      fast.set(layer, fast.from + (fast.to - fast.from) * eased)
      return
    }
    let a = animation
    if !children.isEmpty {
      let local = eased * timing.duration
      for child in children { child.apply(to: layer, at: local) }
      return
    }
    guard let prop = a as? CAPropertyAnimation, !keyPath.isEmpty else { return }
    if let spring = a as? CASpringAnimation {
      applyBasic(to: layer, fraction: spring.progress(at: eased * timing.duration), point, prop)
    } else if a is CABasicAnimation {
      applyBasic(to: layer, fraction: eased, point, prop)
    } else if let k = a as? CAKeyframeAnimation {
      applyKeyframe(k, to: layer, fraction: eased, point)
    }
  }

  /// Whether the animation (a group: one of its animations) animates a key
  /// `layer`'s class redraws for (`needsDisplay(forKey:)`).
  func redraws(_ layer: CALayer) -> Bool {
    layer.redrawsWhenAnimating(keyPath) || children.contains { $0.redraws(layer) }
  }

  /// Puts the model's value of the animated property back on `layer` (only
  /// when `restorable`).
  func restore(_ layer: CALayer, from model: CALayer) {
    guard let property else { return }
    // A component of the transform goes back with the whole transform: a
    // transform taken apart and put together again is not quite the same.
    if property.isTransformComponent {
      layer.transform = model.transform
    } else {
      _ = property.set(layer, property.get(model))
    }
  }

  /// An open span of parent times around `time` over which the animation
  /// sets the same value on the same layer values underneath, or nil when
  /// it cannot be told cheaply (it moves there, or its timing is not one
  /// plain iteration). Before its begin time and after its active period
  /// nothing moves; inside, a linear or discrete keyframe animation holds
  /// still within a segment whose two values are the same (a Lottie hold,
  /// a layer shown between its in and out points).
  func steadySpan(atParentTime time: CFTimeInterval) -> (lower: Double, upper: Double)? {
    let t = timing
    guard t.speed > 0, t.timeOffset == 0, children.isEmpty, t.active.isFinite else { return nil }
    let elapsed = (time - t.beginTime) * t.speed
    let end = t.beginTime + t.active / t.speed
    if elapsed < 0 { return (-.infinity, t.beginTime) }
    if elapsed >= t.active { return (end, .infinity) }
    guard !t.autoreverses, abs(t.active - t.duration) <= 1e-9 * max(1, t.duration),
      timingFunction == nil, let k = animation as? CAKeyframeAnimation, pathSegments.isEmpty,
      k.calculationMode == .linear || k.calculationMode == .discrete,
      values.count >= 2, keyTimes.count == values.count
    else { return nil }
    let p = elapsed / t.duration
    let scale = t.duration / t.speed
    let lower: Double
    let upper: Double
    if k.calculationMode == .discrete {
      // Value i from key time i to the next (the last to the period's end),
      // as `Keyframes.value` picks it.
      var i = 0
      while i < values.count - 1 && p >= keyTimes[i + 1] { i += 1 }
      lower = t.beginTime + keyTimes[i] * scale
      upper = i + 1 < keyTimes.count ? t.beginTime + keyTimes[i + 1] * scale : end
    } else {
      let i = Keyframes.segmentIndex(
        keyTimes, p, segments: values.count - 1, ascending: keyTimesAscend)
      guard values[i].isSame(as: values[i + 1]) else { return nil }
      lower = t.beginTime + keyTimes[i] * scale
      upper = t.beginTime + keyTimes[i + 1] * scale
    }
    // Only a span that holds `time` (key times out of order, or past the
    // last one, are not followed).
    guard keyTimesAscend, lower <= time, time < upper else { return nil }
    return (lower, upper)
  }

  /// The first component of the key path (`transform` of
  /// `transform.rotation.z`).
  var keyHead: String { String(keyPath.prefix { $0 != "." }) }

  /// What the animation sets on `layer`, as `PresentationTree` compares
  /// it before and after an update: the whole transform for one of its
  /// components (a component read back from a transform taken apart can
  /// stay while the transform moves).
  func presentedValue(of layer: CALayer) -> LayerValue {
    guard let property else { return .none }
    return property.isTransformComponent ? .transform(layer.transform) : property.get(layer)
  }

  /// The animated key path's current value on `layer`: typed through the
  /// property's description, or (a key of no property) by key-value coding.
  private func read(_ layer: CALayer) -> LayerValue {
    if let property { return property.get(layer) }
    return layer.layerValue(forKeyPath: keyPath) ?? LayerValue(layer.value(forKeyPath: keyPath))
  }

  private func write(_ value: LayerValue, to layer: CALayer) {
    if let property, property.set(layer, value) { return }
    if layer.setLayerValue(value, forKeyPath: keyPath) { return }
    // A key of no property (stored by `setValue(_:forKey:)`, or given by
    // `defaultValue(forKey:)`) keeps the type it had: `as? CGFloat` reads it.
    let custom = type(of: layer).accessorTable.byKey[keyPath] == nil && !keyPath.contains(".")
    let template =
      custom ? (layer.attributes[keyPath] ?? layer.value(forKey: keyPath) ?? givenValue) : nil
    layer.setValue(template.map { value.boxed(like: $0) } ?? value.boxed, forKeyPath: keyPath)
  }

  private func applyBasic(
    to layer: CALayer, fraction: Double, _ point: TimingPoint, _ prop: CAPropertyAnimation
  ) {
    // Apple's table: the two given values, or one of them relative to the
    // current (presentation) value. An additive animation's values are
    // offsets added to the current value, so the missing one is the zero
    // offset (a byValue-only additive animation runs from 0 to byValue on
    // top of the current value, not from the current value). With a value
    // function, the values are the function's numbers and the missing one
    // is its identity (angle 0, scale 1).
    let needsBase = from == nil || to == nil || prop.isAdditive
    let current = needsBase && valueFunction == nil ? read(layer) : .none
    let base: LayerValue
    if let valueFunction {
      base = valueFunction.identity(like: from ?? to ?? by)
    } else {
      base = prop.isAdditive ? current.zero : current
    }
    var start: LayerValue
    var end: LayerValue
    switch (from, to, by) {
    case (let f?, let t?, _): (start, end) = (f, t)
    case (let f?, nil, let b?): (start, end) = (f, LayerValue.add(f, b) ?? f)
    case (nil, let t?, let b?): (start, end) = (LayerValue.subtract(t, b) ?? t, t)
    case (let f?, nil, nil): (start, end) = (f, base)
    case (nil, let t?, nil): (start, end) = (base, t)
    case (nil, nil, let b?): (start, end) = (base, LayerValue.add(base, b) ?? base)
    case (nil, nil, nil): (start, end) = (base, base)
    }
    var value = LayerValue.interpolate(start, end, fraction)
    if prop.isCumulative, point.iteration > 0,
      let extra = LayerValue.multiply(end, point.iteration)
    {
      value = LayerValue.add(value, extra) ?? value
    }
    finish(value, additive: prop.isAdditive, current: current, on: layer)
  }

  /// Writes an animation's value: through the value function when there is
  /// one, added to the current value when additive.
  private func finish(
    _ value: LayerValue, additive: Bool, current: LayerValue?, on layer: CALayer
  ) {
    var value = pointsAreSizes ? value.pointAsSize : value
    if let valueFunction {
      guard let numbers = value.components, let t = valueFunction.transform(numbers) else { return }
      value = .transform(t)
    }
    if additive {
      let base = valueFunction == nil ? (current ?? read(layer)) : read(layer)
      value = LayerValue.add(base, value) ?? value
    }
    write(value, to: layer)
  }

  private func applyKeyframe(
    _ k: CAKeyframeAnimation, to layer: CALayer, fraction: Double, _ point: TimingPoint
  ) {
    var value: LayerValue
    var end: LayerValue
    var tangentAngle: Double?
    if !pathSegments.isEmpty {
      let (position, tangent) = Keyframes.pathPoint(self, k, fraction)
      value = .point(position)
      end = .point(pathSegments[pathSegments.count - 1].p3)
      if k.rotationMode != nil, tangent.x != 0 || tangent.y != 0 {
        tangentAngle =
          atan2(Double(tangent.y), Double(tangent.x))
          + (k.rotationMode == .autoReverse ? Double.pi : 0)
      }
    } else {
      guard let v = Keyframes.value(self, k, fraction), let last = values.last else { return }
      value = v
      end = last
    }
    if k.isCumulative, point.iteration > 0,
      let extra = LayerValue.multiply(end, point.iteration)
    {
      value = LayerValue.add(value, extra) ?? value
    }
    finish(value, additive: k.isAdditive, current: nil, on: layer)
    if let angle = tangentAngle {
      layer.transform = CATransform3DRotate(layer.transform, CGFloat(angle), 0, 0, 1)
    }
  }
}

extension CASpringAnimation {
  /// The spring's progress from 0 (from) toward 1 (to) at `t` seconds: the
  /// closed form of the damped harmonic oscillator m·x″ + c·x′ + k·x = 0
  /// released at distance 1 from rest with `initialVelocity`.
  public func progress(at t: CFTimeInterval) -> Double {
    guard mass > 0, stiffness > 0, damping >= 0 else { return 1 }
    let w0 = Double((stiffness / mass).squareRoot())
    let zeta = Double(damping / (2 * (stiffness * mass).squareRoot()))
    return springValue(max(0, t), w0: w0, zeta: zeta, v0: Double(initialVelocity))
  }
}

/// How an animation reads and writes its key path: a fast getter and setter
/// for the common properties, KVC for the rest.
struct AnimatedProperty {
  enum Setter {
    case number((CALayer, Double) -> Void)
    case value((CALayer, LayerValue) -> Bool)
  }
  let get: (CALayer) -> LayerValue
  let setter: Setter
  /// The getter of a number property.
  var number: ((CALayer) -> Double)? = nil
  /// True for `transform.rotation.z` and the other components of the
  /// transform (set on the transform taken apart, as KVC sets them).
  var isTransformComponent = false

  func set(_ layer: CALayer, _ value: LayerValue) -> Bool {
    switch setter {
    case .number(let s):
      guard case .number(let v) = value else { return false }
      s(layer, v)
      return true
    case .value(let s): return s(layer, value)
    }
  }

  static func named(_ keyPath: String) -> AnimatedProperty? { table[keyPath] }

  /// A number property's fast path: read and set as a Double.
  static func number(
    _ get: @escaping (CALayer) -> Double, _ set: @escaping (CALayer, Double) -> Void
  ) -> AnimatedProperty {
    AnimatedProperty(get: { .number(get($0)) }, setter: .number(set), number: get)
  }

  /// A property's fast path as a `LayerValue` (false: the value does not fit).
  static func value(
    _ get: @escaping (CALayer) -> LayerValue,
    _ set: @escaping (CALayer, LayerValue) -> Bool
  ) -> AnimatedProperty {
    AnimatedProperty(get: get, setter: .value(set))
  }

  /// A component of the transform, read and set as the `transform.*` key
  /// paths are (`CATransform3D.value(forComponent:)`, `setting(component:to:)`).
  private static func component(
    _ get: @escaping (CATransform3D.Components) -> CGFloat,
    _ set: @escaping (inout CATransform3D.Components, CGFloat) -> Void
  ) -> AnimatedProperty {
    var property = number(
      { Double(get($0.transform.components)) },
      { layer, value in
        let t = layer.transform
        var k = t.components
        set(&k, CGFloat(value))
        var recomposed = CATransform3D(components: k)
        (recomposed.m14, recomposed.m24, recomposed.m34, recomposed.m44) = (
          t.m14, t.m24, t.m34, t.m44
        )
        layer.transform = recomposed
      })
    property.isTransformComponent = true
    return property
  }

  /// The fast paths by key path: the components of the transform and of
  /// position and bounds, and the properties whose descriptions have one
  /// (LayerProperty.swift).
  static let table: [String: AnimatedProperty] = {
    let t = LayerKey.transform
    var table: [String: AnimatedProperty] = [
      t.path("rotation.x"): component({ $0.rotation.x }, { $0.rotation.x = $1 }),
      t.path("rotation.y"): component({ $0.rotation.y }, { $0.rotation.y = $1 }),
      t.path("rotation.z"): component({ $0.rotation.z }, { $0.rotation.z = $1 }),
      t.path("rotation"): component({ $0.rotation.z }, { $0.rotation.z = $1 }),
      t.path("scale.x"): component({ $0.scale.x }, { $0.scale.x = $1 }),
      t.path("scale.y"): component({ $0.scale.y }, { $0.scale.y = $1 }),
      t.path("scale.z"): component({ $0.scale.z }, { $0.scale.z = $1 }),
      t.path("scale"): component(
        { ($0.scale.x + $0.scale.y + $0.scale.z) / 3 }, { $0.scale = ($1, $1, $1) }),
      t.path("translation.x"): component({ $0.translation.x }, { $0.translation.x = $1 }),
      t.path("translation.y"): component({ $0.translation.y }, { $0.translation.y = $1 }),
      t.path("translation.z"): component({ $0.translation.z }, { $0.translation.z = $1 }),
      LayerKey.position.path("x"): number(
        { Double($0.position.x) }, { $0.position.x = CGFloat($1) }),
      LayerKey.position.path("y"): number(
        { Double($0.position.y) }, { $0.position.y = CGFloat($1) }),
      LayerKey.bounds.path("size.width"): number(
        { Double($0.bounds.size.width) }, { $0.bounds.size.width = CGFloat($1) }),
      LayerKey.bounds.path("size.height"): number(
        { Double($0.bounds.size.height) }, { $0.bounds.size.height = CGFloat($1) }),
    ]
    for p in CALayer.layerProperties {
      if let animation = p.animation { table[p.key.rawValue] = animation }
    }
    // (A subclass's own: a gradient's colors.)
    for p in LayerProperty.tables.dropFirst().joined() {
      if let animation = p.animation, table[p.key.rawValue] == nil {
        table[p.key.rawValue] = animation
      }
    }
    // Every other stored value of every class (a shape's `path`, its
    // colours and stroke ends, `hidden`, …), by key and by its Objective-C
    // spelling: read and written typed, so that restoring it from the
    // model undoes an animation without a copy of the layer's values.
    for p in LayerProperty.tables.joined() where p.accessor.isStored && p.isTypedAnimatable {
      let derived = AnimatedProperty.value(p.read) { p.write($0, $1) }
      for key in [p.key.rawValue] + p.key.aliases where table[key] == nil {
        table[key] = derived
      }
    }
    return table
  }()
}
