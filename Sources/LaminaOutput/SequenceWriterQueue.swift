import Foundation
import LaminaFrame

/// The writer threads of a sequence: the frames handed to `write` are
/// written by a `SequenceWriter` on other threads while the caller renders
/// the next ones (one thread for a video stream, which takes its frames in
/// order; one per core for PNG files, which are independent), so a
/// sequence takes about the longer of rendering and writing, not their
/// sum. At most a few frames wait for the writers, which bounds memory.
///
/// ```swift
/// let writers = SequenceWriterQueue(output: out, inOrder: false, fps: 60, written: {})
/// for n in 0..<count {
///   if let failed = writers.error { throw failed }
///   writers.write(frame: n, image: try render(n))
/// }
/// try writers.finish()  // or writers.abandon() when rendering failed
/// ```
package final class SequenceWriterQueue: @unchecked Sendable {
  private let output: SequenceWriter
  private let fps: Double
  private let written: @Sendable () -> Void
  private let queue: DispatchQueue
  private let pending = DispatchGroup()
  // At most this many frames wait for the writers: bounds memory. The
  // semaphore starts at 0 and is raised to its count, so that libdispatch
  // never finds it "in use" when it goes, however the sequence ends.
  private let slots = DispatchSemaphore(value: 0)
  private let failure = FirstError()

  /// Writers for `output` at `fps`: one thread when `inOrder` (a video),
  /// else as many as there are cores. `written` is called on a writer
  /// thread after each frame is written.
  package init(
    output: SequenceWriter, inOrder: Bool, fps: Double, written: @escaping @Sendable () -> Void
  ) {
    self.output = output
    self.fps = fps
    self.written = written
    let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
    queue =
      inOrder
      ? DispatchQueue(label: "lamina.sequence.writer")
      : DispatchQueue(label: "lamina.sequence.writer", attributes: .concurrent)
    for _ in 0..<(inOrder ? 3 : cores + 1) { slots.signal() }
  }

  /// The first error of the writers, if one failed.
  package var error: Error? { failure.error }

  /// Hands frame `n` to the writers, once fewer than the most frames wait.
  package func write(frame n: Int, image: RenderedImage) {
    slots.wait()
    queue.async(group: pending) { [self] in
      defer { slots.signal() }
      do {
        try output.write(frame: n, image: image, fps: fps)
        written()
      } catch {
        failure.record(error)
      }
    }
  }

  /// Waits for every frame, throws the first writer's error, then puts the
  /// sequence under its final names (`SequenceWriter.finish()`).
  package func finish() throws {
    pending.wait()
    if let failed = failure.error { throw failed }
    try output.finish()
  }

  /// Lets the writers finish (or fail) before the partial output goes
  /// (`SequenceWriter.abandon()`).
  package func abandon() {
    pending.wait()
    output.abandon()
  }
}

/// The first error of the writer threads.
final class FirstError: @unchecked Sendable {
  private let lock = NSLock()
  private var first: Error?

  var error: Error? {
    lock.lock()
    defer { lock.unlock() }
    return first
  }

  func record(_ error: Error) {
    lock.lock()
    if first == nil { first = error }
    lock.unlock()
  }
}
