import Foundation

// Key-value coding on animations, as Core Animation has it: every property
// by its key (`duration`, `keyPath`, `fromValue`, …), other keys stored on
// the animation and copied with it, and `defaultValue(forKey:)` consulted
// for the initial values and for keys never set.

extension CAAnimation {
  static let animationAccessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    typealias C = Convert
    return P.mediaTiming(CAAnimation.self) + [
      P.optional("timingFunction", .object, \CAAnimation.timingFunction) {
        $0 as? CAMediaTimingFunction
      },
      P.make(
        "isRemovedOnCompletion", .bool, \CAAnimation.isRemovedOnCompletion,
        aliases: ["removedOnCompletion"], C.bool),
      P.optional("delegate", .object, \CAAnimation.delegate, stored: false, copied: true) {
        $0 as? CAAnimationDelegate
      },
    ]
  }()

  static let propertyAccessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    return [
      P.optional("keyPath", .string, \CAPropertyAnimation.keyPath) { Convert.string($0) },
      P.make(
        "isAdditive", .bool, \CAPropertyAnimation.isAdditive, aliases: ["additive"], Convert.bool),
      P.make(
        "isCumulative", .bool, \CAPropertyAnimation.isCumulative, aliases: ["cumulative"],
        Convert.bool),
      P.optional("valueFunction", .object, \CAPropertyAnimation.valueFunction) {
        $0 as? CAValueFunction
      },
    ]
  }()

  static let basicAccessors: [PropertyAccessor] = [
    .optional("fromValue", .object, \CABasicAnimation.fromValue) { $0 },
    .optional("toValue", .object, \CABasicAnimation.toValue) { $0 },
    .optional("byValue", .object, \CABasicAnimation.byValue) { $0 },
  ]

  static let keyframeAccessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    return [
      P.optional("values", .object, \CAKeyframeAnimation.values) { $0 as? [Any] },
      P.optional("path", .path, \CAKeyframeAnimation.path) { $0 as? CGPath },
      P.optional("keyTimes", .numbers, \CAKeyframeAnimation.keyTimes) { Convert.nsNumbers($0) },
      P.optional("timingFunctions", .object, \CAKeyframeAnimation.timingFunctions) {
        $0 as? [CAMediaTimingFunction]
      },
      P.make(
        "calculationMode", .enumeration(CAAnimationCalculationMode.all.map(\.rawValue)),
        \CAKeyframeAnimation.calculationMode, Convert.enumeration(CAAnimationCalculationMode.self)),
      P.optional("tensionValues", .numbers, \CAKeyframeAnimation.tensionValues) {
        Convert.nsNumbers($0)
      },
      P.optional("continuityValues", .numbers, \CAKeyframeAnimation.continuityValues) {
        Convert.nsNumbers($0)
      },
      P.optional("biasValues", .numbers, \CAKeyframeAnimation.biasValues) {
        Convert.nsNumbers($0)
      },
      P.optional("rotationMode", .string, \CAKeyframeAnimation.rotationMode) {
        Convert.enumeration(CAAnimationRotationMode.self)($0)
      },
    ]
  }()

  static let springAccessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    return [
      P.make("mass", .number, \CASpringAnimation.mass, Convert.cgFloat),
      P.make("stiffness", .number, \CASpringAnimation.stiffness, Convert.cgFloat),
      P.make("damping", .number, \CASpringAnimation.damping, Convert.cgFloat),
      P.make("initialVelocity", .number, \CASpringAnimation.initialVelocity, Convert.cgFloat),
      P.make("allowsOverdamping", .bool, \CASpringAnimation.allowsOverdamping, Convert.bool),
    ]
  }()

  static let groupAccessors: [PropertyAccessor] = [
    .optional("animations", .object, \CAAnimationGroup.animations) { $0 as? [CAAnimation] }
  ]

  static let transitionAccessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    return [
      P.make("type", .string, \CATransition.type, Convert.enumeration(CATransitionType.self)),
      P.optional("subtype", .string, \CATransition.subtype) {
        Convert.enumeration(CATransitionSubtype.self)($0)
      },
      P.make("startProgress", .number, \CATransition.startProgress, Convert.float),
      P.make("endProgress", .number, \CATransition.endProgress, Convert.float),
      P.optional("filter", .object, \CATransition.filter) { $0 },
    ]
  }()

  /// The keys of the class, in declaration order (CAAnimation's first).
  public class var propertyKeys: [String] { animationTable.ordered.map(\.key) }

  static var animationTable: AccessorTable {
    let id = ObjectIdentifier(self)
    AnimationRegistry.lock.lock()
    if let table = AnimationRegistry.tables[id] {
      AnimationRegistry.lock.unlock()
      return table
    }
    AnimationRegistry.lock.unlock()
    let table = AccessorTable(accessors)
    AnimationRegistry.lock.lock()
    AnimationRegistry.tables[id] = table
    AnimationRegistry.lock.unlock()
    return table
  }

  func animationValue(forKey key: String) -> Any? {
    if let a = Self.animationTable.byKey[key] { return a.get(self) }
    if let v = attributes[key] { return v }
    return Self.defaultValue(forKey: key)
  }

  func setAnimationValue(_ value: Any?, forKey key: String) {
    if let a = Self.animationTable.byKey[key] {
      a.set(self, value)
    } else {
      attributes[key] = Convert.unwrap(value)
    }
  }

  func animationValue(forKeyPath keyPath: String) -> Any? {
    guard let dot = keyPath.firstIndex(of: "."), Self.animationTable.byKey[keyPath] == nil else {
      return value(forKey: keyPath)
    }
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    guard let base = value(forKey: head) else { return attributes[keyPath] }
    if let layer = base as? CALayer { return layer.value(forKeyPath: rest) }
    if let animation = base as? CAAnimation { return animation.value(forKeyPath: rest) }
    return StructPath.get(base, kind: .object, path: rest)
  }

  func setAnimationValue(_ value: Any?, forKeyPath keyPath: String) {
    guard let dot = keyPath.firstIndex(of: "."), Self.animationTable.byKey[keyPath] == nil else {
      return setValue(value, forKey: keyPath)
    }
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    guard let base = self.value(forKey: head) else {
      attributes[keyPath] = Convert.unwrap(value)
      return
    }
    if let animation = base as? CAAnimation {
      animation.setValue(value, forKeyPath: rest)
    } else if let updated = StructPath.set(base, kind: .object, path: rest, to: value) {
      setValue(updated, forKey: head)
    }
  }

  /// Sets the values of `defaultValue(forKey:)` overrides (computed once per
  /// class: the keys whose default differs from the property's initial value).
  func applyClassDefaults() {
    for (accessor, value) in AnimationRegistry.overrides(for: type(of: self)) {
      accessor.set(self, value)
    }
  }
}

/// Per-class caches of animation accessor tables and default overrides.
enum AnimationRegistry {
  static let lock = NSLock()
  nonisolated(unsafe) static var tables: [ObjectIdentifier: AccessorTable] = [:]
  nonisolated(unsafe) static var overrideLists: [ObjectIdentifier: [(PropertyAccessor, Any?)]] =
    [:]

  static func overrides(for cls: CAAnimation.Type) -> [(PropertyAccessor, Any?)] {
    let id = ObjectIdentifier(cls)
    lock.lock()
    if let list = overrideLists[id] {
      lock.unlock()
      return list
    }
    // Marked empty first: the prototype below runs this initializer again.
    overrideLists[id] = []
    lock.unlock()
    var list: [(PropertyAccessor, Any?)] = []
    let prototype = cls.laminaClass.makeInstance()
    for a in cls.animationTable.ordered where a.isStored {
      guard let value = cls.defaultValue(forKey: a.key) else { continue }
      if !Convert.same(value, a.get(prototype)) { list.append((a, value)) }
    }
    lock.lock()
    overrideLists[id] = list
    lock.unlock()
    return list
  }
}
