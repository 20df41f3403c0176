import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// A change to the scene a `DisplayLoop` shows, made from any thread and
/// applied on the loop's thread at the next frame boundary, as one
/// `CATransaction`: what `body` changes shows in the same frame, and
/// animates as Core Animation's implicit animations would (a layer's
/// `opacity` set to 0 fades over `duration`).
///
///     var change = DisplayChange { editor in
///       price.string = "3.99"
///       badge.position.x = 40          // slides over 0.4 s
///     }
///     change.duration = 0.4
///     change.finished = { print("done") }
///     loop.schedule(change)
///
/// Layers may be changed only inside a change's `body` (or between frames
/// on the loop's own thread): the loop reads them while it draws.
public struct DisplayChange {
  /// The transaction's `animationDuration` (nil: 0.25 s, Core Animation's).
  public var duration: Double?
  /// The transaction's `animationTimingFunction` (nil: linear).
  public var timingFunction: CAMediaTimingFunction?
  /// The transaction's `disableActions`: the change shows at once.
  public var disableActions = false
  /// Runs on the loop's thread at the frame boundary, inside the transaction.
  public var body: (DisplayEditor) throws -> Void
  /// Called on the loop's thread once `body` ran: nil, or what it threw
  /// (the transaction commits what it changed before throwing).
  public var applied: ((Error?) -> Void)?
  /// The transaction's completion block: called on the loop's thread when
  /// the animations it added have finished (at once when it added none).
  public var finished: (() -> Void)?

  public init(
    duration: Double? = nil, timingFunction: CAMediaTimingFunction? = nil,
    disableActions: Bool = false, body: @escaping (DisplayEditor) throws -> Void
  ) {
    self.duration = duration
    self.timingFunction = timingFunction
    self.disableActions = disableActions
    self.body = body
  }
}

/// What a `DisplayChange` works with on the loop's thread: the scene shown,
/// the frame's time, and what the last frame showed.
public final class DisplayEditor {
  unowned let loop: DisplayLoop
  /// The scene's time of the frame being prepared (seconds since it was loaded).
  public let time: Double
  var deferred: [(DisplayEditor) -> Void] = []
  var replacement: Scene?

  init(loop: DisplayLoop, time: Double) {
    self.loop = loop
    self.time = time
  }

  /// The scene on screen (or the one `show` gave).
  public var scene: Scene { replacement ?? loop.scene }

  /// A layer of the scene by its JSON path (`root.sublayers[2]`) or its name.
  public func layer(named reference: String) -> CALayer? { scene.layer(named: reference) }

  /// The presentation layer of a model layer of the scene, as of the last
  /// frame built (nil before the first, or for a layer not in the tree then).
  public func presentationLayer(for layer: CALayer) -> CALayer? {
    loop.presentationLayer(for: layer)
  }

  /// Shows `scene` from this frame on, its animations from time 0 (as a
  /// reload does: the scene shown until now comes back if it cannot be drawn).
  public func show(_ scene: Scene) { replacement = scene }

  /// Runs `body` once this boundary's frame is built and drawn: to read
  /// what it shows (`snapshot`, presentation values) after the change.
  public func afterFrame(_ body: @escaping (DisplayEditor) -> Void) { deferred.append(body) }

  /// The canvas as the last frame drew it: the scene at the panel's scale,
  /// without letterbox or rotation; nil before a frame was drawn.
  public func snapshot() -> RenderedImage? { loop.snapshot() }

  /// The statistics of the frames presented so far.
  public var statistics: PresentationStatistics { loop.pacer.statistics }
  /// Frames presented so far.
  public var framesPresented: Int { loop.framesPresented }
}

/// Changes waiting for the loop's thread: bounded, thread-safe, and a
/// descriptor that is readable while any wait (the loop watches it, so a
/// change wakes a display that idles).
final class ChangeQueue: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [DisplayChange] = []
  let capacity: Int
  /// A pipe's read end: readable while changes wait (-1 when no pipe
  /// could be made: the loop then finds changes at its next frame).
  let descriptor: Int32
  private let writeEnd: Int32

  init(capacity: Int) {
    self.capacity = capacity
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    descriptor = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Makes the descriptor readable (a full pipe is readable already).
  private func wake() {
    guard writeEnd >= 0 else { return }
    var one: UInt8 = 1
    _ = write(writeEnd, &one, 1)
  }

  /// Empties the pipe.
  private func drain() {
    guard descriptor >= 0 else { return }
    var bytes = [UInt8](repeating: 0, count: 256)
    while read(descriptor, &bytes, bytes.count) > 0 {}
  }

  /// Adds a change; false when the queue is full.
  func push(_ change: DisplayChange) -> Bool {
    lock.lock()
    guard items.count < capacity else {
      lock.unlock()
      return false
    }
    items.append(change)
    let first = items.count == 1
    lock.unlock()
    if first { wake() }
    return true
  }

  /// Takes every waiting change.
  func take() -> [DisplayChange] {
    lock.lock()
    defer { lock.unlock() }
    drain()
    let taken = items
    items = []
    return taken
  }

  /// Puts changes back at the front (those a frame boundary did not reach).
  func putBack(_ changes: [DisplayChange]) {
    guard !changes.isEmpty else { return }
    lock.lock()
    items.insert(contentsOf: changes, at: 0)
    lock.unlock()
    wake()
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return items.count
  }
}

/// Runs `body` with `CACurrentMediaTime()` reading `time`: the scene's
/// clock, so that implicit animations begin at the frame's time.
func withMediaTime<T>(_ time: Double, _ body: () throws -> T) rethrows -> T {
  let saved = CAMediaClock.source
  CAMediaClock.source = { time }
  defer { CAMediaClock.source = saved }
  return try body()
}
