import Foundation
import Lamina

// Animations per the spec's Animations section.
extension SceneDecoder {
  static let animationClasses = ["CABasicAnimation", "CAKeyframeAnimation", "CASpringAnimation"]

  static let timingKeys: Set<String> = [
    "class", "keyPath", "beginTime", "duration", "speed", "timeOffset", "repeatCount",
    "repeatDuration", "autoreverses", "fillMode", "isAdditive", "isCumulative", "timingFunction",
  ]
  static let basicKeys: Set<String> = ["fromValue", "toValue", "byValue"]
  static let springKeys: Set<String> = ["mass", "stiffness", "damping", "initialVelocity"]
  static let keyframeKeys: Set<String> = [
    "values", "keyTimes", "timingFunctions", "calculationMode", "path", "rotationMode",
  ]

  func animation(_ json: JSON, at path: String, layerType: CALayer.Type, className: String)
    throws -> CAAnimation
  {
    let m = try members(json, path, "an animation object")
    var name = "CABasicAnimation"
    if let c = json["class"] {
      name = try string(c, "\(path).class")
      guard Self.animationClasses.contains(name) else {
        throw SceneError.unknownClass(
          file: file, path: "\(path).class", name: name, allowed: Self.animationClasses)
      }
    }
    var allowed = Self.timingKeys
    switch name {
    case "CAKeyframeAnimation": allowed.formUnion(Self.keyframeKeys)
    case "CASpringAnimation": allowed.formUnion(Self.basicKeys.union(Self.springKeys))
    default: allowed.formUnion(Self.basicKeys)
    }
    for (key, _) in m where !allowed.contains(key) {
      throw SceneError.unknownKey(file: file, path: path, key: key, owner: name)
    }
    guard let keyPathJSON = json["keyPath"] else {
      throw SceneError.missingKey(file: file, path: path, key: "keyPath")
    }
    let keyPath = try string(keyPathJSON, "\(path).keyPath")
    guard let kind = layerType.valueKind(forKeyPath: keyPath), Self.isAnimatable(kind) else {
      throw SceneError.unknownAnimationKeyPath(
        file: file, path: "\(path).keyPath", keyPath: keyPath, className: className)
    }
    let animation: CAPropertyAnimation
    switch name {
    case "CAKeyframeAnimation": animation = CAKeyframeAnimation()
    case "CASpringAnimation": animation = CASpringAnimation()
    default: animation = CABasicAnimation()
    }
    animation.keyPath = keyPath
    // Scene files are stateless in time: animations are never removed.
    animation.isRemovedOnCompletion = false
    for (key, value) in m where key != "class" && key != "keyPath" {
      try set(key, value, on: animation, kind: kind, at: "\(path).\(key)")
    }
    if let k = animation as? CAKeyframeAnimation, let times = k.keyTimes, let values = k.values {
      // As in Core Animation, discrete keyframes take one more time than values.
      let expected = values.count + (k.calculationMode == .discrete ? 1 : 0)
      if times.count != expected {
        throw SceneError.invalidValue(
          file: file, path: "\(path).keyTimes",
          message:
            "has \(times.count) key times for \(values.count) values; expected \(expected) for calculationMode '\(k.calculationMode.rawValue)'"
        )
      }
    }
    return animation
  }

  static func isAnimatable(_ kind: CAValueKind) -> Bool {
    switch kind {
    case .layer, .layers, .object, .emitterCells: return false
    default: return true
    }
  }

  func nonNegative(_ json: JSON, _ path: String, magnitude: Double = Limits.maxMagnitude) throws
    -> CGFloat
  {
    let v = try number(json, path, magnitude: magnitude)
    guard v >= 0 else {
      throw SceneError.outOfRange(
        file: file, path: path, expected: "a number ≥ 0", found: format(Double(v)))
    }
    return v
  }

  func timingFunction(_ json: JSON, _ path: String) throws -> CAMediaTimingFunction {
    if case .array = json {
      let v = try numbers(json, path, count: 4)
      return CAMediaTimingFunction(
        controlPoints: Float(v[0]), Float(v[1]), Float(v[2]), Float(v[3]))
    }
    let names = CAMediaTimingFunctionName.all.map(\.rawValue)
    guard case .string = json else {
      throw wrongType(path, "a timing function name or 4 control-point numbers", json)
    }
    let name = try enumeration(json, path, names)
    return CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: name))
  }

  func set(
    _ key: String, _ json: JSON, on a: CAPropertyAnimation, kind: CAValueKind, at path: String
  )
    throws
  {
    let basic = a as? CABasicAnimation
    let spring = a as? CASpringAnimation
    let keyframe = a as? CAKeyframeAnimation
    switch key {
    case "beginTime": a.beginTime = Double(try number(json, path))
    case "duration": a.duration = Double(try nonNegative(json, path))
    case "speed": a.speed = Float(try number(json, path))
    case "timeOffset": a.timeOffset = Double(try number(json, path))
    case "repeatCount":
      if case .string(let s) = json {
        guard s == "infinity" else {
          throw SceneError.wrongType(
            file: file, path: path, expected: "a number or \"infinity\"", found: "\"\(s)\"")
        }
        a.repeatCount = .infinity
      } else {
        guard case .number = json else {
          throw wrongType(path, "a number or \"infinity\"", json)
        }
        // Past Float's range a count is "for ever", as `infinity` says.
        a.repeatCount = Float(try nonNegative(json, path, magnitude: .infinity))
      }
    case "repeatDuration": a.repeatDuration = Double(try nonNegative(json, path))
    case "autoreverses": a.autoreverses = try bool(json, path)
    case "fillMode":
      a.fillMode = CAMediaTimingFillMode(
        rawValue: try enumeration(json, path, CAMediaTimingFillMode.all.map(\.rawValue)))
    case "isAdditive": a.isAdditive = try bool(json, path)
    case "isCumulative": a.isCumulative = try bool(json, path)
    case "timingFunction": a.timingFunction = try timingFunction(json, path)
    case "fromValue": basic?.fromValue = try animationValue(json, kind, path, keyPath: a.keyPath)
    case "toValue": basic?.toValue = try animationValue(json, kind, path, keyPath: a.keyPath)
    case "byValue": basic?.byValue = try animationValue(json, kind, path, keyPath: a.keyPath)
    case "mass": spring?.mass = try positive(json, path)
    case "stiffness": spring?.stiffness = try positive(json, path)
    case "damping": spring?.damping = try nonNegative(json, path)
    case "initialVelocity": spring?.initialVelocity = try number(json, path)
    case "values":
      guard case .array(let items) = json else { throw wrongType(path, "a list of values", json) }
      try checkCount(
        items, path, limit: Limits.maxKeyframes, name: "maxKeyframes",
        what: "values of one keyframe animation")
      keyframe?.values = try items.enumerated().map { i, item -> Any in
        let v = try value(item, kind: kind, at: "\(path)[\(i)]")
        guard let object = v.boxed else { throw wrongType("\(path)[\(i)]", "a value", item) }
        try checkRanges(a.keyPath ?? "", v, at: "\(path)[\(i)]")
        return object
      }
    case "keyTimes":
      let times = try numbers(json, path)
      for (i, t) in times.enumerated() where t < 0 || t > 1 || (i > 0 && t < times[i - 1]) {
        throw SceneError.outOfRange(
          file: file, path: "\(path)[\(i)]",
          expected: "key times from 0 to 1 in increasing order", found: format(Double(t)))
      }
      keyframe?.keyTimes = times.map { NSNumber(value: Double($0)) }
    case "timingFunctions":
      guard case .array(let items) = json else {
        throw wrongType(path, "a list of timing functions", json)
      }
      try checkCount(
        items, path, limit: Limits.maxKeyframes, name: "maxKeyframes",
        what: "timing functions of one keyframe animation")
      keyframe?.timingFunctions = try items.enumerated().map { i, item in
        try timingFunction(item, "\(path)[\(i)]")
      }
    case "calculationMode":
      keyframe?.calculationMode = CAAnimationCalculationMode(
        rawValue: try enumeration(json, path, CAAnimationCalculationMode.all.map(\.rawValue)))
    case "path":
      keyframe?.path = try self.path(json, path)
    case "rotationMode":
      keyframe?.rotationMode =
        json == .null
        ? nil
        : CAAnimationRotationMode(
          rawValue: try enumeration(json, path, CAAnimationRotationMode.all.map(\.rawValue)))
    default:
      break
    }
  }

  func bool(_ json: JSON, _ path: String) throws -> Bool {
    guard case .bool(let b) = json else { throw wrongType(path, "true or false", json) }
    return b
  }

  func positive(_ json: JSON, _ path: String) throws -> CGFloat {
    let v = try number(json, path)
    guard v > 0 else {
      throw SceneError.outOfRange(
        file: file, path: path, expected: "a number > 0", found: format(Double(v)))
    }
    return v
  }

  /// A from/to/by value decoded by the key path's kind (and held to its
  /// range), as the animation's `Any` property holds it (`LayerValue.boxed`:
  /// numbers as CGFloat, corner lists as the mask); null means unset.
  func animationValue(_ json: JSON, _ kind: CAValueKind, _ path: String, keyPath: String?)
    throws -> Any?
  {
    if json == .null { return nil }
    let v = try value(json, kind: kind, at: path)
    try checkRanges(keyPath ?? "", v, at: path)
    return v.boxed
  }
}
