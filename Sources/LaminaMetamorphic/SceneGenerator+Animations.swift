import Foundation
import LaminaScene

// Animations of every class, on key paths of every value kind.
extension SceneGenerator {
  /// The kinds of value an animated key path holds.
  enum ValueKind {
    case number(ClosedRange<Double>)
    case point(Double, Double)
    case size(Double, Double)
    case rect(Double, Double)
    case color
    case transform
  }

  /// Key paths the layer can animate, with their value kinds.
  func animatableKeyPaths(_ cls: String, _ c: Context, width w: Double, height h: Double) -> [(
    String, ValueKind
  )] {
    var paths: [(String, ValueKind)] = [
      ("opacity", .number(0...1)),
      ("position", .point(c.width, c.height)),
      ("position.x", .number(0...c.width)),
      ("position.y", .number(0...c.height)),
      ("transform.rotation.z", .number(-3.2...3.2)),
      ("transform.scale", .number(0.5...1.5)),
      ("transform.translation.x", .number(-10...10)),
      ("transform", .transform),
      ("bounds", .rect(w, h)),
      ("bounds.size", .size(w, h)),
      ("bounds.size.width", .number(2...max(3, w * 1.5))),
      ("anchorPoint", .point(1, 1)),
      ("cornerRadius", .number(0...min(w, h) / 2)),
      ("borderWidth", .number(0...4)),
      ("backgroundColor", .color),
      ("borderColor", .color),
      ("shadowOpacity", .number(0...1)),
      ("shadowRadius", .number(0...6)),
      ("shadowOffset", .size(4, 4)),
      ("zPosition", .number(-20...20)),
      ("contentsRect", .rect(1, 1)),
    ]
    if c.perspective || c.inTransformLayer {
      paths += [
        ("transform.rotation.y", .number(-3.2...3.2)),
        ("transform.rotation.x", .number(-3.2...3.2)),
      ]
    }
    switch cls {
    case "CAShapeLayer":
      paths += [
        ("strokeEnd", .number(0...1)), ("strokeStart", .number(0...1)),
        ("lineWidth", .number(0...6)), ("fillColor", .color), ("strokeColor", .color),
        ("lineDashPhase", .number(0...8)),
      ]
    case "CAGradientLayer":
      paths += [("startPoint", .point(1, 1)), ("endPoint", .point(1, 1))]
    case "CATextLayer":
      paths += [("fontSize", .number(6...18)), ("foregroundColor", .color)]
    case "CAReplicatorLayer":
      paths += [("instanceColor", .color), ("instanceDelay", .number(0...0.5))]
    case "CAEmitterLayer":
      paths += [("birthRate", .number(0...2)), ("emitterPosition", .point(w, h))]
    case "CATransformLayer":
      paths += [("sublayerTransform", .transform)]
    default:
      paths += [("sublayerTransform", .transform)]
    }
    return paths
  }

  mutating func value(_ kind: ValueKind) -> JSON {
    switch kind {
    case .number(let range): return .number(random.number(range, step: 0.05))
    case .point(let w, let h):
      return .array(
        [random.number(0...w, step: 0.05), random.number(0...h, step: 0.05)].map(JSON.number))
    case .size(let w, let h):
      return .array(
        [random.number(-w...w, step: 0.5), random.number(-h...h, step: 0.5)].map(JSON.number))
    case .rect(let w, let h):
      return .array(
        [
          random.number(0...w / 4, step: 0.05), random.number(0...h / 4, step: 0.05),
          random.number(w / 2...max(w / 2, w), step: 0.05),
          random.number(h / 2...max(h / 2, h), step: 0.05),
        ].map(JSON.number))
    case .color: return color(translucent: 0.3)
    case .transform:
      return random.chance(0.5) ? transform2D().1.asTransformValue : steps3D()
    }
  }

  /// A delta for `isAdditive`/`byValue`: small, of the key path's kind.
  mutating func delta(_ kind: ValueKind) -> JSON? {
    switch kind {
    case .number(let range):
      let span = (range.upperBound - range.lowerBound) / 3
      return .number(random.number(-span...span, step: 0.05))
    case .point, .size:
      return .array(
        [random.number(-8...8, step: 0.5), random.number(-8...8, step: 0.5)].map(JSON.number))
    default: return nil
    }
  }

  /// One or two animations of random classes and timing.
  mutating func animations(_ cls: String, _ c: Context, width w: Double, height h: Double) -> JSON {
    var list: [JSON] = []
    let paths = animatableKeyPaths(cls, c, width: w, height: h)
    for _ in 0..<random.int(1...2) {
      let (keyPath, kind) = random.pick(paths)
      list.append(animation(keyPath, kind))
    }
    return .array(list)
  }

  mutating func animation(_ keyPath: String, _ kind: ValueKind) -> JSON {
    let numeric: Bool
    switch kind {
    case .number, .point: numeric = true
    default: numeric = false
    }
    let cls = random.weighted([
      ("CABasicAnimation", 5.0), ("CAKeyframeAnimation", 3), ("CASpringAnimation", numeric ? 2 : 0),
    ])
    var m: [(String, JSON)] = []
    if cls != "CABasicAnimation" || random.chance(0.2) { m.append(("class", .string(cls))) }
    m.append(("keyPath", .string(keyPath)))
    timing(&m, numeric: numeric)
    switch cls {
    case "CAKeyframeAnimation": keyframes(&m, keyPath, kind)
    case "CASpringAnimation":
      m.append(("fromValue", value(kind)))
      m.append(("toValue", value(kind)))
      if random.chance(0.6) { m.append(("mass", .number(random.number(0.5...2, step: 0.1)))) }
      if random.chance(0.6) { m.append(("stiffness", .number(random.number(20...300, step: 5)))) }
      if random.chance(0.6) { m.append(("damping", .number(random.number(0...20, step: 0.5)))) }
      if random.chance(0.4) {
        m.append(("initialVelocity", .number(random.number(-5...5, step: 0.5))))
      }
    default:
      switch random.int(0...3) {
      case 0:
        m.append(("fromValue", value(kind)))
        m.append(("toValue", value(kind)))
      case 1: m.append(("toValue", value(kind)))
      case 2:
        if let d = delta(kind) {
          m.append(("byValue", d))
        } else {
          m.append(("fromValue", value(kind)))
        }
      default:
        m.append(("fromValue", value(kind)))
        if let d = delta(kind) { m.append(("byValue", d)) }
      }
    }
    return .object(m)
  }

  /// The timing keys: duration, begin time, speed, offset, repeats, fills,
  /// additive and cumulative values, timing functions.
  mutating func timing(_ m: inout [(String, JSON)], numeric: Bool) {
    m.append(("duration", .number(random.chance(0.08) ? 0 : random.number(0.5...3, step: 0.25))))
    if random.chance(0.3) { m.append(("beginTime", .number(random.number(0...1.5, step: 0.25)))) }
    if random.chance(0.2) { m.append(("speed", .number(random.pick([0.5, 2, -1, 1.5])))) }
    if random.chance(0.15) { m.append(("timeOffset", .number(random.number(0...1, step: 0.25)))) }
    if random.chance(0.3) {
      m.append(
        (
          "repeatCount",
          random.chance(0.5) ? .string("infinity") : .number(random.number(0.5...3, step: 0.5))
        ))
    } else if random.chance(0.1) {
      m.append(("repeatDuration", .number(random.number(0.5...4, step: 0.5))))
    }
    if random.chance(0.2) { m.append(("autoreverses", .bool(true))) }
    if random.chance(0.5) { m.append(("fillMode", .string(random.pick(SpecKeys.fillModes)))) }
    if numeric, random.chance(0.15) { m.append(("isAdditive", .bool(true))) }
    if numeric, random.chance(0.1) { m.append(("isCumulative", .bool(true))) }
    if random.chance(0.4) {
      if random.chance(0.7) {
        m.append(("timingFunction", .string(random.pick(SpecKeys.timingFunctions))))
      } else {
        m.append(("timingFunction", controlPoints()))
      }
    }
  }

  mutating func controlPoints() -> JSON {
    .array(
      [
        random.number(0...1, step: 0.05), random.number(-0.5...1.5, step: 0.05),
        random.number(0...1, step: 0.05), random.number(-0.5...1.5, step: 0.05),
      ].map(JSON.number))
  }

  mutating func keyframes(_ m: inout [(String, JSON)], _ keyPath: String, _ kind: ValueKind) {
    if keyPath == "position", random.chance(0.35) {
      guard case .point(let w, let h) = kind else { return }
      m.append(("path", .string(svgPath(width: w, height: h))))
      if random.chance(0.6) {
        m.append(("rotationMode", .string(random.pick(SpecKeys.rotationModes))))
      }
      if random.chance(0.4) {
        m.append(("calculationMode", .string(random.pick(["linear", "paced", "cubicPaced"]))))
      }
      return
    }
    let count = random.int(2...4)
    m.append(("values", .array((0..<count).map { _ in value(kind) })))
    let mode = random.chance(0.5) ? random.pick(SpecKeys.calculationModes) : nil
    if let mode { m.append(("calculationMode", .string(mode))) }
    let paced = mode == "paced" || mode == "cubicPaced"
    if !paced, random.chance(0.5) {
      // Discrete keyframes take one more time than values.
      let n = count + (mode == "discrete" ? 1 : 0)
      var times = (0..<n).map { _ in random.number(0...1, step: 0.05) }.sorted()
      times[0] = 0
      times[n - 1] = 1
      m.append(("keyTimes", .array(times.map(JSON.number))))
    }
    if random.chance(0.25) {
      m.append(
        (
          "timingFunctions",
          .array(
            (0..<(count - 1)).map { _ in
              random.chance(0.7) ? .string(random.pick(SpecKeys.timingFunctions)) : controlPoints()
            })
        ))
    }
  }
}

extension JSON {
  /// A transform value as an animation value: a list of steps or 16
  /// numbers (a plain number from a key path becomes a z rotation).
  var asTransformValue: JSON {
    if case .number(let angle) = self {
      return .array([.object([("rotate", .array([angle, 0, 0, 1].map(JSON.number)))])])
    }
    return self
  }
}
