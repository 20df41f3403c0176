import Foundation
import LaminaRender

/// The DRM/KMS state machine behind `KMSOutput`, in plain Swift over a
/// `KMSDriver` and a `ScanoutSurface`, so that it is tested with fakes:
///
/// - it picks the CRTC the connector's encoder drives now, else one that
///   drives nothing (never another display's), and remembers what that CRTC
///   showed, to give it back on `close()`;
/// - the first frame is a blocking modeset (atomic when the driver has it,
///   with a fallback to the legacy call when the atomic commit is refused);
///   it is on screen at once, so a completion is reported right away;
/// - each later frame is a page flip with an event; at most one is pending,
///   and the buffer that was on screen is released only when the flip that
///   replaces it completes (the display reads it until then);
/// - a framebuffer is made once per buffer and kept: a GBM surface cycles
///   through the same few buffers;
/// - `close()` waits briefly for a pending flip, restores the CRTC, removes
///   the framebuffers, releases the buffers and drops master; it runs once,
///   whatever state a failure left behind.
public final class KMSScanout {
  public let driver: KMSDriver
  public let connector: KMSConnector
  public let mode: DisplayMode
  public let crtc: UInt32
  /// What the CRTC showed before; restored on close.
  public let saved: CRTCState
  /// Whether DRM master was obtained.
  public let isMaster: Bool
  /// Whether frames go through atomic commits (else legacy calls).
  public private(set) var usesAtomic: Bool
  /// Whether the mode has been set (the first frame shown).
  public private(set) var modeIsSet = false
  public private(set) var isClosed = false
  /// The buffer on screen.
  public private(set) var shown: ScanoutBuffer?
  /// The buffer whose flip is queued and not yet complete.
  public private(set) var pending: ScanoutBuffer?
  /// Framebuffer ids by buffer GEM handle.
  public private(set) var framebuffers: [UInt32: UInt32] = [:]
  /// Diagnostics (fallbacks, failures while restoring).
  public var log: (String) -> Void
  /// The clock a modeset's immediate completion is stamped with.
  public var clock: () -> Double = monotonicSeconds
  /// How long `close()` waits for a pending flip, in seconds.
  public var closeTimeout = 0.5

  private var surface: ScanoutSurface?
  /// Completions known without an event (the synchronous modeset).
  private var completed: [Double] = []

  /// Takes `connector` in `mode` on `driver`: master, CRTC, its saved state,
  /// atomic or not; then `makeSurface(width, height)` for the mode's size.
  /// Nothing is shown until the first `present`.
  ///
  /// - Throws: `KMSError.noCRTC`, or what the driver or `makeSurface` threw
  ///   (master is dropped again first).
  public init(
    driver: KMSDriver, connector: KMSConnector, mode: DisplayMode,
    log: @escaping (String) -> Void = { _ in },
    makeSurface: (_ width: Int, _ height: Int) throws -> ScanoutSurface
  ) throws {
    let master = driver.becomeMaster()
    if !master {
      log("\(driver.path): not DRM master; setting the mode fails if a display server runs")
    }
    do {
      let candidates = try driver.crtcs(for: connector.id)
      guard
        let choice = candidates.first(where: \.current) ?? candidates.first(where: { !$0.active })
      else {
        throw KMSError.noCRTC(device: driver.path, connector: connector.name)
      }
      let saved = try driver.crtcState(choice.id)
      let atomic = driver.enableAtomic(crtc: choice.id, connector: connector.id)
      let surface = try makeSurface(mode.width, mode.height)
      self.driver = driver
      self.connector = connector
      self.mode = mode
      self.log = log
      self.crtc = choice.id
      self.saved = saved
      self.usesAtomic = atomic
      self.isMaster = master
      self.surface = surface
    } catch {
      if master { driver.dropMaster() }
      throw error
    }
  }

  deinit { close() }

  /// Shows the frame drawn into the surface's back buffer: the modeset
  /// the first time, else a page flip. `damage` is top-down panel pixels
  /// (empty: everything).
  ///
  /// - Throws: `FramePacer.PacingError.flipWhilePending` when a flip is
  ///   still pending, or the failing step's error (the buffer is released).
  public func present(damage: [PixelRect]) throws {
    guard let surface, !isClosed else {
      throw KMSError.failed(device: driver.path, step: "presenting", reason: "the output is closed")
    }
    guard pending == nil else { throw FramePacer.PacingError.flipWhilePending }
    try surface.swapBuffers(damage: damage.map(bottomUpRect))
    let buffer = try surface.lockFrontBuffer()
    do {
      let framebuffer = try framebuffer(for: buffer)
      if modeIsSet {
        try flip(to: framebuffer)
        pending = buffer
      } else {
        try modeset(framebuffer)
        modeIsSet = true
        // The mode is set synchronously: the frame is on screen now.
        if let shown { surface.releaseBuffer(shown) }
        shown = buffer
        completed.append(clock())
      }
    } catch {
      surface.releaseBuffer(buffer)
      throw error
    }
  }

  /// A top-down panel rect as EGL has it (bottom-left origin).
  func bottomUpRect(_ rect: PixelRect) -> PixelRect {
    PixelRect(
      x: rect.x, y: mode.height - rect.y - rect.height, width: rect.width, height: rect.height)
  }

  private func framebuffer(for buffer: ScanoutBuffer) throws -> UInt32 {
    if let id = framebuffers[buffer.handle] { return id }
    let id = try driver.addFramebuffer(for: buffer)
    framebuffers[buffer.handle] = id
    return id
  }

  private func modeset(_ framebuffer: UInt32) throws {
    if usesAtomic {
      do {
        try driver.commit(
          AtomicCommit(
            crtc: crtc, connector: connector.id, framebuffer: framebuffer, width: mode.width,
            height: mode.height, modeset: mode))
        driver.hideCursor(crtc: crtc)
        return
      } catch {
        // Some drivers advertise atomic and refuse a plain commit (plane
        // constraints, quirks); the legacy path still works there.
        log("\(error); using legacy modesetting")
        usesAtomic = false
      }
    }
    try driver.setCRTC(crtc, connector: connector.id, mode: mode, framebuffer: framebuffer)
    driver.hideCursor(crtc: crtc)
  }

  private func flip(to framebuffer: UInt32) throws {
    if usesAtomic {
      try driver.commit(
        AtomicCommit(
          crtc: crtc, connector: connector.id, framebuffer: framebuffer, width: mode.width,
          height: mode.height, modeset: nil))
    } else {
      try driver.pageFlip(crtc: crtc, framebuffer: framebuffer)
    }
  }

  /// Waits up to `timeout` seconds (nil: for ever) for a flip to complete
  /// or one of `alsoWatching` to become readable. A driver whose events
  /// cannot be read any more (the card went away) reports `.closed`.
  public func waitForEvents(timeout: Double?, alsoWatching: [Int32]) -> (
    events: [DisplayEvent], readable: Set<Int32>
  ) {
    if !completed.isEmpty || isClosed {
      let readable = alsoWatching.isEmpty ? [] : pollReadable(alsoWatching, timeout: 0)
      let events = isClosed ? [.closed] : completed.map { DisplayEvent.frameDone(time: $0) }
      completed = []
      return (events, readable)
    }
    var readable = pollReadable([driver.fd] + alsoWatching, timeout: timeout)
    guard readable.remove(driver.fd) != nil else { return ([], readable) }
    do {
      return (try driver.handleEvents().compactMap(flipCompleted), readable)
    } catch {
      log("\(error)")
      return ([.closed], readable)
    }
  }

  /// The pending flip is on screen: the buffer it replaced goes back.
  private func flipCompleted(at time: Double) -> DisplayEvent? {
    guard let next = pending else { return nil }
    if let shown { surface?.releaseBuffer(shown) }
    shown = next
    pending = nil
    return .frameDone(time: time)
  }

  /// Gives the display back as it was found; idempotent, never throws
  /// (failures are logged: there is nothing better to do while leaving).
  public func close() {
    guard !isClosed else { return }
    isClosed = true
    // A CRTC with a flip in flight refuses a modeset (EBUSY) and still
    // reads the pending buffer: let the flip land first.
    let deadline = clock() + closeTimeout
    while pending != nil {
      let left = deadline - clock()
      guard left > 0, pollReadable([driver.fd], timeout: left).contains(driver.fd) else { break }
      guard let times = try? driver.handleEvents() else { break }
      for time in times { _ = flipCompleted(at: time) }
    }
    if modeIsSet {
      do {
        try driver.restoreCRTC(saved, connector: connector.id)
      } catch {
        log("\(error); the display keeps the last frame until another program sets a mode")
      }
    }
    for id in framebuffers.values.sorted() { driver.removeFramebuffer(id) }
    framebuffers = [:]
    if let surface {
      if let pending { surface.releaseBuffer(pending) }
      if let shown { surface.releaseBuffer(shown) }
    }
    pending = nil
    shown = nil
    completed = []
    surface = nil
    if isMaster { driver.dropMaster() }
  }
}
