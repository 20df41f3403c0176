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

  /// The policy a name gives (`evaluate`, `fallback`, `keyframed`; the
  /// command's `--expressions` and `LAMINA_EXPRESSIONS`), nil for another.
  public init?(named name: String) {
    switch name.lowercased() {
    case "evaluate": self = .evaluate
    case "fallback", "fall-back": self = .fallBack
    case "keyframed", "off", "none": self = .keyframed
    default: return nil
    }
  }

  /// The policy `LAMINA_EXPRESSIONS` names (`evaluate`, `fallback`, `keyframed`), if any.
  public static var environmentDefault: LottieExpressionPolicy? {
    ProcessInfo.processInfo.environment["LAMINA_EXPRESSIONS"].flatMap { Self(named: $0) }
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
}
