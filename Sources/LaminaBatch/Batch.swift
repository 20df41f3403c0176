import Foundation
import Lamina
import LaminaLottie
import LaminaRender
import LaminaScene

/// A batch that cannot start (its jobs cannot be read).
package struct BatchError: Error, CustomStringConvertible {
  package let description: String

  package init(description: String) {
    self.description = description
  }
}

/// The state a batch keeps from job to job: the renderer (with its context
/// and programs), the decoded images, the counts.
package struct Batch {
  package let fileName: String
  package let images: ImageCache
  /// The byte budget of the renderer's caches (`Renderer(cacheBytes:)`).
  package let cacheBudget: Int
  /// What every job's scene may read, and where its output may go.
  package let access: FileAccessPolicy
  /// What every job's Lottie expressions do (`--expressions`); nil: the
  /// import's default.
  package let expressions: LottieExpressionPolicy?
  package let outputRoot: OutputRoot?
  package let sceneRoot: SceneRoot?
  /// Made on first use; after a lost context it makes a new one itself
  /// before its next frame (`Renderer.replacesLostContext`), keeping its
  /// CPU caches.
  private var renderer: Renderer?
  package private(set) var jobs = 0
  package private(set) var failed = 0
  /// Jobs whose attempts lose the context on purpose: each attempt of job N
  /// takes one N out (`LAMINA_SIMULATE_CONTEXT_LOSS=3,3,7`), for testing
  /// the recovery on a driver that never loses one.
  private var simulatedLosses: [Int]

  package init(
    fileName: String, budgetBytes: Int, access: FileAccessPolicy = .confined,
    outputRoot: OutputRoot? = nil, sceneRoot: SceneRoot? = nil,
    expressions: LottieExpressionPolicy? = nil
  ) {
    self.fileName = fileName
    self.access = access
    self.expressions = expressions
    self.outputRoot = outputRoot
    self.sceneRoot = sceneRoot
    // One decoded-image cache for every job; RenderJob.load hands it to the
    // scene loader (the one place where loads meet it).
    images = ImageCache(budgetBytes: budgetBytes / 2)
    cacheBudget = budgetBytes - budgetBytes / 2
    let simulate = ProcessInfo.processInfo.environment["LAMINA_SIMULATE_CONTEXT_LOSS"] ?? ""
    simulatedLosses = simulate.split(separator: ",").compactMap { Int($0) }
  }

  package enum Outcome {
    case success(output: String, frames: Int, retried: String?)
    /// The message, and whose fault it is (`"kind"` on the result line).
    case failure(String, kind: FailureKind = .input)
  }

  /// Runs the job on `line` and writes its result line. A job that fails
  /// because the GL context was lost runs once more on a new context.
  package mutating func run(_ line: Data, number: Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome: Outcome
    do {
      let parsed = try BatchJob.parse(line, line: number, file: fileName)
      var job = parsed.job
      let output = parsed.output
      job.access = access
      job.expressions = expressions
      try outputRoot?.check(job, output: output, place: "\(fileName):\(number)")
      if let sceneRoot { job = try sceneRoot.confine(job, place: "\(fileName):\(number)") }
      outcome = attempt(job, number: number, output: output)
    } catch {
      outcome = .failure("\(error)", kind: FailureKind(of: error))
    }
    report(number, outcome, ms: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }

  private mutating func attempt(_ job: RenderJob, number: Int, output: String) -> Outcome {
    var lost: String?
    for _ in 0..<2 {
      let renderer: Renderer
      do {
        renderer = try current()
        // After a loss, the new context is made here, so that a failure to
        // make one is reported as such.
        try renderer.replaceContextIfLost()
      } catch {
        return .failure(
          lost.map { "\(error) (making a new context after: \($0))" } ?? "\(error)",
          kind: .service)
      }
      if let i = simulatedLosses.firstIndex(of: number) {
        simulatedLosses.remove(at: i)
        renderer.context.simulateLoss(reason: "simulated by LAMINA_SIMULATE_CONTEXT_LOSS")
      }
      do {
        let frames = try job.run(renderer: renderer, images: images)
        return .success(output: output, frames: frames, retried: lost)
      } catch {
        // A lost context shows as its own error, or as any other failure
        // of the GL calls: ask the context whichever it was.
        let loss: String?
        if let e = error as? RendererError, e.meansContextLost {
          loss = "\(e)"
        } else {
          do {
            try renderer.checkContext()
            loss = nil
          } catch {
            loss = "\(error)"
          }
        }
        guard let loss else { return .failure("\(error)", kind: FailureKind(of: error)) }
        // The renderer replaces the context before its next frame.
        renderer.markContextLost(loss)
        if lost != nil {
          return .failure("\(error); it was lost again after a retry", kind: .service)
        }
        printError("batch: job \(number): \(loss); retrying on a new GL context")
        lost = loss
      }
    }
    return .failure(lost ?? "the GL context was lost", kind: .service)
  }

  /// The renderer, made on first use (on the process's shared context).
  private mutating func current() throws -> Renderer {
    if let renderer { return renderer }
    let made = try Renderer(cacheBytes: cacheBudget)
    renderer = made
    return made
  }

  /// Writes job `number`'s result line to standard output, at once.
  package mutating func report(_ number: Int, _ outcome: Outcome, ms: Double) {
    jobs += 1
    var fields = ["\"job\": \(number)"]
    switch outcome {
    case .success(let output, let frames, let retried):
      fields += [
        "\"ok\": true", "\"ms\": \(formatMilliseconds(ms))", "\"output\": \(jsonString(output))",
        "\"frames\": \(frames)",
      ]
      if let retried { fields.append("\"retried\": \(jsonString(retried))") }
    case .failure(let message, let kind):
      failed += 1
      fields += [
        "\"ok\": false", "\"ms\": \(formatMilliseconds(ms))", "\"error\": \(jsonString(message))",
        "\"kind\": \"\(kind.rawValue)\"",
      ]
    }
    FileHandle.standardOutput.write(Data(("{" + fields.joined(separator: ", ") + "}\n").utf8))
  }
}

/// Milliseconds with three decimals.
private func formatMilliseconds(_ ms: Double) -> String {
  String(format: "%.3f", ms)
}
