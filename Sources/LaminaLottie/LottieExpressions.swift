import Foundation
import Lamina
import LaminaScene

/// What the importer does with After Effects expressions (the `x` of a
/// property).
public enum LottieExpressionPolicy: Equatable {
  /// Evaluate them, in a sandboxed child process, at every frame of their
  /// layer; an expression that throws or runs past its limits fails the
  /// load with `LottieError.expression`, naming its JSON path.
  case evaluate
  /// Evaluate them; one that fails keeps its keyframed value and is listed
  /// in `LottieAnimation.unsupported` with the reason.
  case fallBack
  /// Do not run them: keyframed values, each expression listed as unsupported.
  case keyframed
}

extension Builder {
  /// Finds every expression of the document (`layers` and the layers of
  /// composition assets), evaluates all of them in one child process over
  /// the document's `ExpressionModel`, and keeps their values by JSON path
  /// for `property`.
  func evaluateExpressions(root: Node, inPoint: Double, outPoint: Double) throws {
    guard options.expressions != .keyframed else { return }
    var compositions: [(layers: Node, name: String, w: Double, h: Double, ip: Double, op: Double)] = []
    if let layers = root.child("layers") {
      compositions.append((layers, try root.string("nm") ?? "", width, height, inPoint, outPoint))
    }
    for a in try root.child("assets")?.array() ?? [] {
      guard let layers = a.child("layers") else { continue }
      let name = try a.string("nm") ?? a.string("id") ?? ""
      compositions.append(
        (layers, name, try a.number("w", default: 0), try a.number("h", default: 0), inPoint, outPoint))
    }
    guard compositions.contains(where: { Self.hasExpression($0.layers.json) }) else { return }

    var model = ExpressionModel(frameRate: frameRate)
    var ids: [String: Int] = [:]
    func add(_ node: Node, layer: (Int, Int)?, range: (Double, Double)?) throws -> Int? {
      if let id = ids[node.path] { return id }
      let code = try node.child("x").flatMap { n -> String? in
        guard case .string(let s) = n.json else { return nil }
        return s
      }
      let p: Property
      do {
        p = try keyframedProperty(node, [])
      } catch {
        if code != nil { report("expression on a property that is not numbers (keyframed value used)", node.path + ".x") }
        return nil
      }
      var entry = ExpressionModel.Entry(property: p, expression: nil, layer: layer)
      if let code, let (ip, op) = range {
        let bytes = code.utf8.count
        try limit(at: node.path + ".x", "bytes of one expression", bytes, limits.maxExpressionBytes, "maxExpressionBytes")
        entry.expression = code
        let from = ip.rounded(.down)
        let to = max(op.rounded(.up), from)
        entry.step = max(1, ((to - from) / Double(max(limits.maxSampledFrames, 1))).rounded(.up))
        entry.from = from
        entry.count = Int((to - from) / entry.step) + 1
        try budget(from: from, to: to, path: node.path)
      }
      let id = model.properties.count
      model.properties.append(entry)
      ids[node.path] = id
      if entry.expression != nil { model.jobs.append(id) }
      return id
    }

    for (ci, c) in compositions.enumerated() where Self.hasExpression(c.layers.json) {
      let layerNodes = try c.layers.array()
      var layers: [ExpressionModel.Layer] = []
      for (li, n) in layerNodes.enumerated() {
        guard n.isObject else { throw n.wrongType("a layer object") }
        let ip = try n.number("ip", default: 0)
        let op = try n.number("op", default: 0)
        guard ip.isFinite, op.isFinite, abs(ip) <= Limits.maxMagnitude, abs(op) <= Limits.maxMagnitude else {
          throw n.invalid("in and out points must be finite")
        }
        let at = (model.compositions.count, li)
        var layer = ExpressionModel.Layer(
          name: try n.string("nm") ?? "", index: n.has("ind") ? try n.int("ind", default: 0) : li + 1,
          parent: n.has("parent") ? try n.int("parent", default: 0) : nil, inPoint: ip, outPoint: op,
          startTime: try n.number("st", default: 0), transform: [:], effects: [])
        if let ks = n.child("ks") {
          for key in ["a", "s", "r", "o"] {
            if let p = ks.child(key), let id = try add(p, layer: at, range: (ip, op)) { layer.transform[key] = id }
          }
          if let p = ks.child("p") {
            if p.bool("s") {
              for (key, sub) in [("px", "x"), ("py", "y")] {
                if let q = p.child(sub), let id = try add(q, layer: at, range: (ip, op)) { layer.transform[key] = id }
              }
            } else if let id = try add(p, layer: at, range: (ip, op)) {
              layer.transform["p"] = id
            }
          }
        }
        for e in try n.child("ef")?.array() ?? [] {
          var effect = ExpressionModel.Effect(
            name: (try? e.string("nm")) ?? nil ?? "", matchName: (try? e.string("mn")) ?? nil ?? "", parameters: [])
          for param in try e.child("ef")?.array() ?? [] {
            guard let v = param.child("v"), v.isObject,
              let id = try add(v, layer: at, range: (ip, op))
            else { continue }
            effect.parameters.append(
              ((try? param.string("nm")) ?? nil ?? "", (try? param.string("mn")) ?? nil ?? "", id))
          }
          layer.effects.append(effect)
        }
        // Every other property of the layer with an expression (shapes,
        // masks, text animators, …).
        var stack = [n]
        while let node = stack.popLast() {
          if node.isObject, node.has("k"), case .string? = node.child("x")?.json {
            _ = try add(node, layer: at, range: (ip, op))
            continue
          }
          switch node.json {
          case .object(let pairs):
            for (key, _) in pairs.reversed() { if let c = node.child(key) { stack.append(c) } }
          case .array:
            stack += (node.items ?? []).reversed()
          default: break
          }
        }
        layers.append(layer)
      }
      _ = ci
      model.compositions.append(
        ExpressionModel.Composition(
          name: c.name, width: c.w, height: c.h, inPoint: c.ip, outPoint: c.op, layers: layers))
    }
    guard !model.jobs.isEmpty else { return }

    guard let helper = ExpressionRunner.findHelper(options.expressionHelper) else {
      for id in model.jobs {
        expressionOutcomes[model.properties[id].property.path] = .failed(
          "the expression helper lamina-expr was not found beside the program (build the package, or set LAMINA_EXPRESSION_HELPER)")
      }
      return
    }
    let runner = ExpressionRunner(
      helper: helper, cpuSeconds: limits.expressionCPUSeconds, memoryBytes: limits.expressionMemoryBytes,
      wallSeconds: limits.expressionWallSeconds, maxOutputBytes: limits.maxExpressionOutputBytes)
    let outcomes = runner.run(
      jobs: model.jobs, restarts: options.expressions == .fallBack ? 3 : 0,
      program: { model.program(jobs: $0) })
    for id in model.jobs {
      let e = model.properties[id]
      switch outcomes[id] ?? .failed("not evaluated") {
      case .values(_, _, let values) where values.count == e.count:
        expressionOutcomes[e.property.path] = .values(from: e.from, step: e.step, values: values)
      case .values(_, _, let values):
        expressionOutcomes[e.property.path] = .failed("gave \(values.count) values for \(e.count) frames")
      case .failed(let message):
        expressionOutcomes[e.property.path] = .failed(message)
        if options.expressions == .evaluate {
          throw LottieError.expression(file: file, path: e.property.path + ".x", message: message)
        }
      }
    }
  }

  /// True when a JSON tree has a property with an expression.
  static func hasExpression(_ json: JSON) -> Bool {
    switch json {
    case .object(let pairs):
      for (key, value) in pairs {
        if key == "x", case .string = value, pairs.contains(where: { $0.key == "k" }) { return true }
        if hasExpression(value) { return true }
      }
      return false
    case .array(let items):
      return items.contains { hasExpression($0) }
    default:
      return false
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
        let value = try finite(v, node.child("x") ?? node)
        let padded = value.count >= defaultValue.count ? value : value + defaultValue[value.count...]
        keyframes.append(Keyframe(t: from + Double(i) * step, value: padded))
      }
      guard let first = keyframes.first else { return nil }
      // An expression that gives one value throughout is a constant.
      var p =
        keyframes.allSatisfy({ $0.value == first.value })
        ? Property(constant: first.value, path: node.path) : Property(keyframes: keyframes, path: node.path)
      p.expression = true
      return p
    }
  }
}
