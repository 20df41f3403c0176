import LaminaRender

/// A CRTC (a scanout engine) that can drive a connector, as the card
/// describes it.
public struct CRTCCandidate: Equatable, Sendable {
  public let id: UInt32
  /// Whether the connector's encoder is attached to this CRTC now.
  public let current: Bool
  /// Whether the CRTC scans out a framebuffer now; one that is active and
  /// not `current` shows another display, and taking it would blank that.
  public let active: Bool

  public init(id: UInt32, current: Bool, active: Bool) {
    self.id = id
    self.current = current
    self.active = active
  }
}

/// What a CRTC showed before `lamina show` took it: given back on close so
/// that the console (or whatever ran before) reappears as it was.
public struct CRTCState: Equatable, Sendable {
  public let crtc: UInt32
  /// The framebuffer scanned out; 0 when none.
  public let framebuffer: UInt32
  /// Where in the framebuffer the scanout starts.
  public let x: Int
  public let y: Int
  /// The mode set; nil when the CRTC was off (it is switched off again).
  public let mode: DisplayMode?

  public init(crtc: UInt32, framebuffer: UInt32, x: Int, y: Int, mode: DisplayMode?) {
    self.crtc = crtc
    self.framebuffer = framebuffer
    self.x = x
    self.y = y
    self.mode = mode
  }
}

/// One atomic commit: the primary plane shows `framebuffer` over the whole
/// `width`×`height` mode. With `modeset` it is a blocking modeset that also
/// sets the mode, switches the CRTC on and routes the connector to it;
/// without, a nonblocking page flip whose completion comes as an event.
public struct AtomicCommit: Equatable, Sendable {
  public let crtc: UInt32
  public let connector: UInt32
  public let framebuffer: UInt32
  public let width: Int
  public let height: Int
  public let modeset: DisplayMode?

  public init(
    crtc: UInt32, connector: UInt32, framebuffer: UInt32, width: Int, height: Int,
    modeset: DisplayMode?
  ) {
    self.crtc = crtc
    self.connector = connector
    self.framebuffer = framebuffer
    self.width = width
    self.height = height
    self.modeset = modeset
  }
}

/// The DRM calls the KMS output makes, one method each, so that the
/// orchestration in `KMSScanout` (which CRTC, modeset then flips, buffer
/// release order, restore) runs against a recording fake in tests, where no
/// card exists. `DRMDriver` is the real one, over libdrm.
///
/// Failing calls throw `KMSError.failed` naming the device, the step and
/// the system's reason.
public protocol KMSDriver: KMSDevice, AnyObject {
  /// The descriptor that becomes readable when a flip completes.
  var fd: Int32 { get }
  /// Takes DRM master (needed to set modes); true when held.
  func becomeMaster() -> Bool
  /// Gives DRM master up, so that a display server or console can take it.
  func dropMaster()
  /// The CRTCs that can drive `connector`.
  func crtcs(for connector: UInt32) throws -> [CRTCCandidate]
  /// What `crtc` shows now.
  func crtcState(_ crtc: UInt32) throws -> CRTCState
  /// Turns on atomic modesetting for driving `crtc` with `connector`
  /// (client cap, primary plane, property ids); false when the driver has
  /// none of it, and legacy calls are used.
  func enableAtomic(crtc: UInt32, connector: UInt32) -> Bool
  /// Makes a framebuffer of `buffer`; its id.
  func addFramebuffer(for buffer: ScanoutBuffer) throws -> UInt32
  func removeFramebuffer(_ id: UInt32)
  /// Legacy blocking modeset: `crtc` shows `framebuffer` in `mode` on `connector`.
  func setCRTC(_ crtc: UInt32, connector: UInt32, mode: DisplayMode, framebuffer: UInt32) throws
  /// Puts `state` back (switches the CRTC off when it had no mode).
  func restoreCRTC(_ state: CRTCState, connector: UInt32) throws
  /// Legacy page flip to `framebuffer` at the next vblank, with an event.
  func pageFlip(crtc: UInt32, framebuffer: UInt32) throws
  /// An atomic commit (after `enableAtomic` answered true).
  func commit(_ request: AtomicCommit) throws
  /// Hides the hardware cursor on `crtc`.
  func hideCursor(crtc: UInt32)
  /// Reads the pending events from `fd`: the completion time of each flip
  /// (seconds, the monotonic clock).
  func handleEvents() throws -> [Double]
}
