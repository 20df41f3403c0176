import Foundation
import Lamina
import LaminaRender

/// The wall-clock budget of a frame (`Limits.frameTimeBudget`, or
/// `LAMINA_FRAME_BUDGET` seconds): a frame still drawing when its budget
/// runs out cannot be interrupted (the GPU, Cairo and Pango do not stop
/// half way), so the watchdog reports it, removes every temporary output
/// file and ends the process with status 1. The limits checked before a
/// frame make this the exception; the watchdog makes "no hang" hold even so.
package final class FrameWatchdog: @unchecked Sendable {
  package let file: String
  package let budget: Double
  private let condition = NSCondition()
  private var label: String?
  private var deadline = Date.distantFuture
  private var generation = 0
  private var started = false

  /// The prediction of the frame being drawn (`predict`), for the message
  /// of a frame that runs out of its budget all the same.
  private static let prediction = NSLock()
  nonisolated(unsafe) private static var predicted: String?

  /// Notes what the frame about to be drawn is predicted to take
  /// (`FrameLimits.Totals.seconds`) and its costliest layer's place in the
  /// file, which a frame past its budget is then reported with.
  package static func predict(seconds: Double, costliest: String?, costliestSeconds: Double) {
    var text = "predicted \(FrameLimits.seconds(seconds)) s"
    if let costliest {
      text +=
        ", the layer that costs most is \(costliest)"
        + " (\(FrameLimits.seconds(costliestSeconds)) s predicted)"
    }
    prediction.lock()
    predicted = text
    prediction.unlock()
  }

  /// A watchdog for the frames of the scene file `file`.
  package init(file: String, budget: Double = FrameWatchdog.configuredBudget) {
    self.file = file
    self.budget = budget
  }

  /// `LAMINA_FRAME_BUDGET` when it is a positive number of seconds, else
  /// `Limits.frameTimeBudget`.
  package static var configuredBudget: Double {
    if let text = ProcessInfo.processInfo.environment["LAMINA_FRAME_BUDGET"],
      let value = Double(text), value > 0, value.isFinite
    {
      return value
    }
    return Limits.frameTimeBudget
  }

  /// Starts timing the frame `label` ("frame 12 (t=0.2 s)").
  package func begin(_ label: String) {
    // The last frame's prediction is not this one's.
    Self.prediction.lock()
    Self.predicted = nil
    Self.prediction.unlock()
    condition.lock()
    self.label = label
    deadline = Date(timeIntervalSinceNow: budget)
    generation += 1
    if !started {
      started = true
      // The thread keeps the watchdog alive: it outlives any frame.
      let thread = Thread { self.watch() }
      thread.name = "lamina.frame-watchdog"
      thread.start()
    }
    condition.signal()
    condition.unlock()
  }

  /// The frame is done (calling it again does nothing).
  package func end() {
    condition.lock()
    label = nil
    generation += 1
    condition.signal()
    condition.unlock()
  }

  private func watch() {
    condition.lock()
    while true {
      guard let label else {
        condition.wait()
        continue
      }
      let watched = generation
      if condition.wait(until: deadline) || generation != watched { continue }
      guard self.label != nil, generation == watched else { continue }
      condition.unlock()
      expire(label)
      return
    }
  }

  private static var currentPrediction: String? {
    prediction.lock()
    defer { prediction.unlock() }
    return predicted
  }

  private func expire(_ label: String) {
    VideoEncoder.terminateAll()
    OutputFile.removeAllTemporaries()
    let budgetText = budget == budget.rounded() ? String(Int(saturating: budget)) : String(budget)
    let message =
      "lamina: \(file): \(label): "
      + LimitExceeded(
        what: "seconds to draw one frame", found: "more than \(budgetText)", limit: budgetText,
        name: "frameTimeBudget"
      ).description + (Self.currentPrediction.map { "; \($0)" } ?? "") + "\n"
    message.utf8CString.withUnsafeBufferPointer { p in
      _ = Foundation.write(STDERR_FILENO, p.baseAddress, p.count - 1)
    }
    _exit(1)
  }
}
