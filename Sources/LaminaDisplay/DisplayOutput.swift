import Foundation
import LaminaRender

/// Something that happened on a display since the loop last looked.
public enum DisplayEvent: Equatable, Sendable {
  /// The last presented frame reached the screen at `time` (seconds, the
  /// monotonic clock): the next one may be drawn. A KMS flip completion or
  /// a Wayland frame callback.
  case frameDone(time: Double)
  /// A press (pointer button or touch down) at panel pixel (`x`, `y`),
  /// top-down, in buffer pixels.
  case tap(x: Double, y: Double)
  /// The buffer size or scale changed: everything is drawn again.
  case resized
  /// The compositor closed the window, or the output went away.
  case closed
}

/// A screen a `DisplayLoop` draws on: a KMS connector driven through GBM,
/// or a Wayland window. The loop draws into the current window surface of
/// `context`; the output presents it and reports events.
public protocol DisplayOutput: AnyObject {
  /// The context whose window surface is the display's back buffer.
  var context: GPUContext { get }
  /// The back buffer's size in pixels (before `rotation`).
  var bufferWidth: Int { get }
  var bufferHeight: Int { get }
  /// How the canvas is turned on the panel (`--rotate`).
  var rotation: DisplayRotation { get }
  /// Refresh rate in Hz (the pacing when no frame event comes).
  var refreshRate: Double { get }
  /// Describes the output for the log: `HDMI-A-1 1920x1080@60`, `wayland 1280x720 scale 2`.
  var summary: String { get }

  /// Presents the drawn back buffer; `damage` (panel pixels, top-down) is
  /// what differs from the buffer shown before (empty: everything). A
  /// `.frameDone` event follows once it is on screen.
  func present(damage: [PixelRect]) throws

  /// Waits up to `timeout` seconds (nil: until something happens) for
  /// display events or for one of `alsoWatching` to become readable, and
  /// returns the events and the descriptors that are readable.
  func waitForEvents(timeout: Double?, alsoWatching: [Int32]) throws -> (
    events: [DisplayEvent], readable: Set<Int32>
  )

  /// Gives the display back as it was found (mode, cursor); idempotent.
  func close()

  /// How many presents ago the back buffer was last drawn (1: it holds the
  /// last frame), 0 when unknown. By default the context's buffer age.
  func bufferAge() -> Int
  /// The framebuffer the loop draws the back buffer into: 0, the window
  /// surface, by default.
  var presentFramebuffer: UInt32 { get }
  /// Whether a frame reaches the screen by its damage alone (buffer age, or
  /// buffers the output tracks itself), not by copying the whole panel.
  var presentsDamageOnly: Bool { get }
  /// Whether `presentFramebuffer` is an offscreen target read back with
  /// rows top-down (a window surface's run bottom-up).
  var presentsTopDown: Bool { get }
}

/// An output that reads frames back from GL (the `wl_shm` path): when the
/// canvas is the panel it can take the damage straight from the renderer's
/// canvas, skipping the copy into its own target.
public protocol CanvasReadingOutput: DisplayOutput {
  /// Whether frames are read back now (false: presented the usual way).
  var readsCanvas: Bool { get }
  /// Presents `damage` (panel pixels) read from `framebuffer`, rows top-down.
  func present(damage: [PixelRect], fromCanvas framebuffer: UInt32) throws
}

extension DisplayOutput {
  public func bufferAge() -> Int { context.bufferAge() }
  public var presentFramebuffer: UInt32 { 0 }
  public var presentsDamageOnly: Bool { context.hasBufferAge }
  public var presentsTopDown: Bool { false }
}

/// Input that does not come through the output (evdev devices read with
/// libinput under KMS): a descriptor to wait on and the events it has.
public protocol InputSource: AnyObject {
  /// Readable when events are waiting.
  var descriptor: Int32 { get }
  /// Reads what is waiting; presses become `.tap` in panel pixels of a
  /// `panelWidth`×`panelHeight` panel.
  func readEvents(panelWidth: Int, panelHeight: Int) -> [DisplayEvent]
}

/// The monotonic clock, in seconds.
public func monotonicSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// `poll(2)` on `descriptors` for reading; the readable ones. Nil timeout
/// waits for ever; EINTR (a signal) returns none.
func pollReadable(_ descriptors: [Int32], timeout: Double?) -> Set<Int32> {
  var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
  let milliseconds =
    timeout.map { Int32(clamping: Int(clamping: $0 * 1000, to: 0...3_600_000, rounding: .up)) } ?? -1
  let count = poll(&fds, nfds_t(fds.count), milliseconds)
  guard count > 0 else { return [] }
  return Set(fds.filter { $0.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }.map(\.fd))
}
