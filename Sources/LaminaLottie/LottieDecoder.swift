import Foundation
import Lamina
import LaminaScene

/// Decodes a Lottie document's JSON into the typed model the builder
/// reads: properties with their keyframes, expression values and JSON
/// paths (`Property`), shapes (`ShapeModel+Decoding.swift`), effects
/// (`EffectModel.swift`), compositions and layers (`LayerModel.swift`).
/// It makes no layer and needs no renderer; what it decodes is kept by
/// JSON path, so every use of a precomposition shares one decoding. Errors
/// name the file and JSON path; the limits on what one value asks for
/// (keyframes, vertices, stops) are checked here, before any work.
final class Decoder {
  let file: String
  let options: LottieOptions
  var limits: LottieLimits { options.limits }
  /// What each expression gave, by the JSON path of its property (set
  /// before layers are decoded; empty when none ran).
  var expressionOutcomes: [String: ExpressionOutcome] = [:]
  let reports: ImportReports
  /// The document's fonts and glyph shapes.
  var fonts = FontTable()
  /// The document's assets by id (the first of each id), and each once decoded.
  var assets: [String: Node] = [:]
  var decodedAssets: [String: Asset] = [:]
  /// Each composition's layers, each layer's transform and content, by JSON path.
  var compositionModels: [String: CompositionModel] = [:]
  var layerTransforms: [String: (TransformSpec, [LottieUnsupported])] = [:]
  var layerContents: [String: LayerContent] = [:]

  init(file: String, options: LottieOptions, reports: ImportReports = ImportReports()) {
    self.file = file
    self.options = options
    self.reports = reports
  }

  func report(_ feature: String, _ path: String) { reports.report(feature, path) }

  /// `body`'s result, the reports made while it ran put in `notes` (held
  /// back from `unsupported`: the builder reports them when it builds what
  /// they are of, in building order).
  func collectingReports<T>(into notes: inout [LottieUnsupported], _ body: () throws -> T) rethrows
    -> T
  {
    try reports.collecting(into: &notes, body)
  }

  func limit(_ node: Node, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    try self.limit(at: node.path, what, found, limit, name)
  }

  /// Throws `limitExceeded` at the JSON path `path` when `found` is over `limit`.
  func limit(at path: String, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    if found > limit {
      throw LottieError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(what: what, found: found, limit: limit, name: name))
    }
  }

  // MARK: Properties

  /// An animatable property (`{"a": 0|1, "k": …}`), with `defaultValue`
  /// when absent: the values its expression gives when it has one that
  /// was evaluated, else its keyframed values.
  func property(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    if let node, case .string? = node.child("x")?.json,
      let p = try fallingBack(node, { try expressionProperty(node, defaultValue) })
    {
      return p
    }
    return try keyframedProperty(node, defaultValue)
  }

  /// A property's keyframed values (what an expression reads as `value`).
  func keyframedProperty(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    guard let node else { return Property(constant: defaultValue) }
    let expression = node.has("x")
    // A bare number or array stands for a static value.
    guard node.isObject else {
      var p = Property(constant: try finite(node.numbers(), node), path: node.path)
      if p.first.isEmpty { p = Property(constant: defaultValue, path: node.path) }
      return p.map { v in v.count >= defaultValue.count ? v : v + defaultValue[v.count...] }
    }
    let k = try node.required("k")
    var p: Property
    if let frames = k.items, let first = frames.first, first.isObject {
      p = Property(keyframes: try keyframes(frames, k) { try $0.numbers() }, path: node.path)
    } else {
      let value = try finite(k.numbers(), k)
      p = Property(constant: value.isEmpty ? defaultValue : value, path: node.path)
    }
    p.expression = expression
    // Pad short values (a 2D value where 3 are expected), every keyframe's.
    p = p.map { v in v.count >= defaultValue.count ? v : v + defaultValue[v.count...] }
    return p
  }

  /// Numbers within `Limits.maxMagnitude`.
  func finite(_ values: [Double], _ node: Node) throws -> [Double] {
    for x in values where !(x.isFinite && abs(x) <= Limits.maxMagnitude) {
      throw node.invalid("\(x) is out of range (at most \(Int(Limits.maxMagnitude)) in magnitude)")
    }
    return values
  }

  func keyframes(_ frames: [Node], _ k: Node, value: (Node) throws -> [Double]) throws -> [Keyframe]
  {
    try limit(k, "keyframes of one property", frames.count, limits.maxKeyframes, "maxKeyframes")
    var out: [Keyframe] = []
    for f in frames {
      guard f.isObject else { throw f.wrongType("a keyframe object") }
      let t = try f.required("t").number()
      guard t.isFinite, abs(t) <= Limits.maxMagnitude else {
        throw f.invalid("keyframe time \(t) is out of range")
      }
      if let last = out.last, t < last.t {
        throw f.child("t")!.invalid("keyframe times must not decrease (\(t) after \(last.t))")
      }
      var kf = Keyframe(t: t, value: [])
      if let s = f.child("s") {
        kf.value = try value(s)
      } else if let last = out.last {
        kf.value = last.end ?? last.value
      } else {
        throw LottieError.missingKey(file: file, path: f.path, key: "s")
      }
      if let e = f.child("e") { kf.end = try value(e) }
      kf.hold = f.bool("h")
      if let o = f.child("o"), let i = f.child("i") {
        kf.easeOut = try ease(o)
        kf.easeIn = try ease(i)
      }
      if let to = f.child("to") { kf.to = try to.numbers() }
      if let ti = f.child("ti") { kf.ti = try ti.numbers() }
      out.append(kf)
    }
    guard !out.isEmpty else { throw k.invalid("no keyframes") }
    for v in out.map(\.value) + out.compactMap(\.end) {
      for x in v where !(x.isFinite && abs(x) <= Limits.maxMagnitude) {
        throw k.invalid("value \(x) is out of range")
      }
    }
    return out
  }

  func ease(_ n: Node) throws -> Ease {
    Ease(x: try n.child("x")?.numbers() ?? [0], y: try n.child("y")?.numbers() ?? [0])
  }

  /// A path property (`sh.ks`, a mask's `pt`): values are shape vectors
  /// (the values its expression gives when it has one that was evaluated).
  func pathProperty(_ node: Node) throws -> Property {
    let keyframed = try keyframedPathProperty(node)
    if case .string? = node.child("x")?.json,
      let p = try fallingBack(node, { try expressionPath(node, closed: keyframed.closed) })
    {
      return p
    }
    return keyframed
  }

  /// A path's keyframed shape vectors: vertices, in and out tangents.
  func keyframedPathProperty(_ node: Node) throws -> Property {
    // (Evaluated, an expression on a path is reported by evaluateExpressions.)
    if node.has("x"), options.expressions == .keyframed { report("expression", node.path + ".x") }
    let k = try node.required("k")
    var closed = false
    func shapeVector(_ n: Node) throws -> [Double] {
      var s = n
      if let items = n.items {
        guard let first = items.first else { return [] }
        s = first
      }
      guard s.isObject else { throw s.wrongType("a bezier shape object (v, i, o, c)") }
      let v = try s.required("v").array()
      try limit(s, "vertices of one path", v.count, limits.maxPathVertices, "maxPathVertices")
      let i = try s.child("i")?.array() ?? []
      let o = try s.child("o")?.array() ?? []
      closed = s.bool("c")
      func points(_ list: [Node]) throws -> [Double] {
        var out: [Double] = []
        for index in 0..<v.count {
          if index < list.count {
            let n = try list[index].numbers()
            let x = n.count > 0 ? n[0] : 0
            let y = n.count > 1 ? n[1] : 0
            guard x.isFinite, y.isFinite, abs(x) <= 1e7, abs(y) <= 1e7 else {
              throw list[index].invalid("coordinate out of range")
            }
            out += [x, y]
          } else {
            out += [0, 0]
          }
        }
        return out
      }
      return try points(v) + points(i) + points(o)
    }
    if let frames = k.items, let first = frames.first, first.isObject, first.has("t") {
      var firstClosed: Bool?
      let kfs = try keyframes(frames, k) { n in
        let v = try shapeVector(n)
        if firstClosed == nil { firstClosed = closed }
        return v
      }
      var p = Property(keyframes: kfs, path: node.path)
      p.closed = firstClosed ?? false
      return p
    }
    let v = try shapeVector(k)
    var p = Property(constant: v, path: node.path)
    p.closed = closed
    return p
  }

  func transform(_ node: Node?, layer3D: Bool) throws -> TransformSpec {
    var t = TransformSpec()
    guard let node else { return t }
    t.is3D = layer3D
    t.anchor = try property(node.child("a"), [0, 0, 0])
    if let p = node.child("p") {
      if p.bool("s") {
        t.position = nil
        t.positionX = try property(p.child("x"), [0])
        t.positionY = try property(p.child("y"), [0])
        if p.has("z") {
          t.is3D = true
          t.positionZ = try property(p.child("z"), [0])
        }
      } else {
        t.position = try property(p, [0, 0, 0])
      }
    }
    t.scale = try property(node.child("s"), [100, 100, 100])
    t.rotation = try property(node.child("r") ?? node.child("rz"), [0])
    t.rotationX = try property(node.child("rx"), [0])
    t.rotationY = try property(node.child("ry"), [0])
    t.orientation = try property(node.child("or"), [0, 0, 0])
    t.opacity = try property(node.child("o"), [100])
    t.skew = try property(node.child("sk"), [0])
    t.skewAxis = try property(node.child("sa"), [0])
    return t
  }

  // MARK: Expressions

  /// `make`, or under `.fallBack` nil with a report when the values an
  /// expression gave are out of range (the keyframed value is used).
  func fallingBack(_ node: Node, _ make: () throws -> Property?) throws -> Property? {
    do {
      return try make()
    } catch let error as LottieError where options.expressions == .fallBack {
      var message = "\(error)"
      let prefix = "\(file): \(node.path).x: "
      if message.hasPrefix(prefix) { message.removeFirst(prefix.count) }
      report("expression not evaluated (\(message))", node.path + ".x")
      return nil
    }
  }

  /// The path an expression drives (values: vertices, in and out
  /// tangents, as `keyframedPathProperty` gives them); nil as for numbers.
  func expressionPath(_ node: Node, closed: Bool) throws -> Property? {
    guard let outcome = expressionOutcomes[node.path] else { return nil }
    switch outcome {
    case .failed(let message):
      report("expression not evaluated (\(message))", node.path + ".x")
      return nil
    case .values(let from, let step, let values):
      var keyframes: [Keyframe] = []
      for (i, v) in values.enumerated() {
        let x = node.child("x") ?? node
        guard v.count % 6 == 0 else {
          throw LottieError.expression(
            file: file, path: x.path,
            message: "gives \(v.count) numbers at frame \(from + Double(i) * step), not a path")
        }
        try limit(x, "vertices of one path", v.count / 6, limits.maxPathVertices, "maxPathVertices")
        for c in v where !(c.isFinite && abs(c) <= 1e7) {
          throw LottieError.expression(
            file: file, path: x.path,
            message: "gives the coordinate \(c) at frame \(from + Double(i) * step), out of range")
        }
        keyframes.append(Keyframe(t: from + Double(i) * step, value: v))
      }
      guard var p = Self.expressionValues(keyframes, path: node.path) else { return nil }
      p.closed = closed
      return p
    }
  }

  /// The property an expression drives: its values at each sampled frame
  /// as linear keyframes (`defaultValue` pads short values); nil when it
  /// has none or the policy keeps keyframed values.
  func expressionProperty(_ node: Node, _ defaultValue: [Double]) throws -> Property? {
    guard let outcome = expressionOutcomes[node.path] else {
      report("expression", node.path + ".x")
      return nil
    }
    switch outcome {
    case .failed(let message):
      report("expression not evaluated (\(message))", node.path + ".x")
      return nil
    case .values(let from, let step, let values):
      var keyframes: [Keyframe] = []
      keyframes.reserveCapacity(values.count)
      for (i, v) in values.enumerated() {
        // Out of range, it is the expression's error (named as such, so
        // that `.fallBack` keeps the keyframed value).
        for c in v where !(c.isFinite && abs(c) <= Limits.maxMagnitude) {
          throw LottieError.expression(
            file: file, path: (node.child("x") ?? node).path,
            message:
              "gives \(c) at frame \(from + Double(i) * step), out of range (at most \(Int(Limits.maxMagnitude)) in magnitude)"
          )
        }
        let value = v
        let padded =
          value.count >= defaultValue.count ? value : value + defaultValue[value.count...]
        keyframes.append(Keyframe(t: from + Double(i) * step, value: padded))
      }
      return Self.expressionValues(keyframes, path: node.path)
    }
  }

  /// An expression's values at its frames as the property it drives: a
  /// constant when they are one value throughout (nil for none).
  static func expressionValues(_ keyframes: [Keyframe], path: String) -> Property? {
    guard let first = keyframes.first else { return nil }
    var p =
      keyframes.allSatisfy({ $0.value == first.value })
      ? Property(constant: first.value, path: path)
      : Property(keyframes: keyframes, path: path)
    p.expression = true
    return p
  }
}
