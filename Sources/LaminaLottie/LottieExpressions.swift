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

  /// The policy `LAMINA_EXPRESSIONS` names (`evaluate`, `fallback`, `keyframed`), if any.
  public static var environmentDefault: LottieExpressionPolicy? {
    switch ProcessInfo.processInfo.environment["LAMINA_EXPRESSIONS"]?.lowercased() {
    case "evaluate": return .evaluate
    case "fallback", "fall-back": return .fallBack
    case "keyframed", "off", "none": return .keyframed
    default: return nil
    }
  }
}

extension Builder {
  /// Finds every expression of the document (`layers` and the layers of
  /// composition assets), evaluates all of them in one child process over
  /// the document's `ExpressionModel`, and keeps their values by JSON path
  /// for `property`.
  func evaluateExpressions(root: Node, inPoint: Double, outPoint: Double) throws {
    guard options.expressions != .keyframed,
      let model = try expressionModel(root: root, inPoint: inPoint, outPoint: outPoint)
    else { return }
    try evaluate(model)
  }

  /// Runs the model's expressions in `lamina-expr` and keeps what each gave.
  func evaluate(_ model: ExpressionModel) throws {
    let outcomes: [Int: ExpressionOutcome]
    if let helper = ExpressionRunner.findHelper(options.expressionHelper) {
      let runner = ExpressionRunner(
        helper: helper, cpuSeconds: limits.expressionCPUSeconds,
        memoryBytes: limits.expressionMemoryBytes,
        wallSeconds: limits.expressionWallSeconds, maxOutputBytes: limits.maxExpressionOutputBytes)
      outcomes = runner.run(
        jobs: model.jobs, restarts: options.expressions == .fallBack ? 3 : 0,
        program: { model.program(jobs: $0) })
    } else {
      let missing = ExpressionOutcome.failed(
        "the expression helper lamina-expr was not found beside the program (build the package, or set LAMINA_EXPRESSION_HELPER)"
      )
      outcomes = Dictionary(uniqueKeysWithValues: model.jobs.map { ($0, missing) })
    }
    for id in model.jobs {
      let e = model.properties[id]
      var outcome = outcomes[id] ?? .failed("not evaluated")
      if case .values(_, _, let values) = outcome, values.count != e.count {
        outcome = .failed("gave \(values.count) values for \(e.count) frames")
      }
      switch outcome {
      case .values(_, _, let values):
        expressionOutcomes[e.property.path] = .values(from: e.from, step: e.step, values: values)
      case .failed(let message):
        expressionOutcomes[e.property.path] = .failed(message)
        if options.expressions == .evaluate {
          throw LottieError.expression(file: file, path: e.property.path + ".x", message: message)
        }
      }
    }
  }

  /// A text document's keyframes as its `sourceText` expression gives
  /// them: one a run of frames with the same text, each the keyframed
  /// document of its frame (font, size, colour, …) with the text replaced;
  /// nil when it has no values (reported).
  func expressionTexts(_ d: Node, _ docs: [Node]) throws -> [Node]? {
    guard let outcome = expressionOutcomes[d.path] else {
      report("expression", d.path + ".x")
      return nil
    }
    guard case .values(let from, let step, let values) = outcome else {
      if case .failed(let message) = outcome {
        report("expression not evaluated (\(message))", d.path + ".x")
      }
      return nil
    }
    let times = docs.map { (try? $0.number("t", default: 0)) ?? 0 }
    var out: [Node] = []
    var last: (String, Int)?
    for (i, units) in values.enumerated() {
      let frame = from + Double(i) * step
      guard units.allSatisfy({ $0 >= 0 && $0 <= 0xFFFF && $0 == $0.rounded() }) else {
        throw LottieError.expression(
          file: file, path: d.path + ".x",
          message: "gives text that is not UTF-16 at frame \(frame)")
      }
      let text = String(decoding: units.map { UInt16($0) }, as: UTF16.self)
      let keyframe = max(0, (times.lastIndex { $0 <= frame }) ?? 0)
      guard last.map({ $0 != (text, keyframe) }) ?? true else { continue }
      last = (text, keyframe)
      guard case .object(var s)? = docs[keyframe].child("s")?.json else { return nil }
      if let t = s.firstIndex(where: { $0.key == "t" }) {
        s[t].value = .string(text)
      } else {
        s.append((key: "t", value: .string(text)))
      }
      let json = JSON.object([
        (key: "t", value: .number(out.isEmpty ? times[0] : frame)), (key: "s", value: .object(s)),
      ])
      out.append(Node(json: json, path: docs[keyframe].path, file: file))
    }
    // The texts it gives count against the text layer's limit here, at
    // the expression (the keyframed documents' own are counted later).
    let characters = out.reduce(0) { $0 + ((try? $1.child("s")?.string("t"))??.unicodeScalars.count ?? 0) }
    if characters > limits.maxTextLength {
      let exceeded = LimitExceeded(
        what: "characters of one text layer", found: characters, limit: limits.maxTextLength,
        name: "maxTextLength")
      guard options.expressions == .fallBack else {
        throw LottieError.limitExceeded(file: file, path: d.path + ".x", exceeded: exceeded)
      }
      report("expression not evaluated (\(exceeded))", d.path + ".x")
      return nil
    }
    return out.isEmpty ? nil : out
  }

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
        let value = try finite(v, node.child("x") ?? node)
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
