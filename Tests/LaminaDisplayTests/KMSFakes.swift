import Foundation
@testable import LaminaDisplay
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// A card that exists only in the test and writes down every DRM call, in
/// order. Flip completions come through a real pipe, so that the output's
/// `poll` wakes up as it would on a card.
final class RecordingDriver: KMSDriver {
  let path = "/dev/dri/card7"
  var list: [KMSConnector] = [
    KMSConnector(id: 31, name: "eDP-1", connected: false, modes: []),
    KMSConnector(
      id: 32, name: "HDMI-A-1", connected: true,
      modes: [DisplayMode(width: 64, height: 48, refreshRate: 60, preferred: true)]),
  ]
  var candidates = [
    CRTCCandidate(id: 40, current: false, active: true),
    CRTCCandidate(id: 41, current: true, active: true),
  ]
  /// What each CRTC shows: the console on 41.
  var states: [UInt32: CRTCState] = [
    41: CRTCState(
      crtc: 41, framebuffer: 7, x: 0, y: 0,
      mode: DisplayMode(width: 1024, height: 768, refreshRate: 60))
  ]
  var hasAtomic = false
  var master = true
  /// Calls (by name: `setCRTC`, `pageFlip`, `commitModeset`, …) that throw.
  var failing: Set<String> = []
  /// Every call, as a line.
  var calls: [String] = []
  /// Completes each flip at once (its event is readable straight away).
  var completesFlips = false
  /// Called after each queued flip with how many there were.
  var onFlip: (Int) -> Void = { _ in }
  var time = 100.0

  private var events: [Double] = []
  private var flips = 0
  private var nextFramebuffer: UInt32 = 100
  private let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    readEnd = ends[0]
    writeEnd = ends[1]
    _ = fcntl(readEnd, F_SETFL, fcntl(readEnd, F_GETFL) | O_NONBLOCK)
  }

  deinit {
    Foundation.close(readEnd)
    Foundation.close(writeEnd)
  }

  var fd: Int32 { readEnd }

  /// The pending flip reaches the screen at `time`: its event becomes readable.
  func completeFlip(at time: Double) {
    events.append(time)
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  private func record(_ call: String, _ name: String) throws {
    calls.append(call)
    if failing.contains(name) {
      throw KMSError.failed(device: path, step: name, reason: "Invalid argument")
    }
  }

  func connectors() throws -> [KMSConnector] { list }

  func becomeMaster() -> Bool {
    calls.append("becomeMaster")
    return master
  }

  func dropMaster() { calls.append("dropMaster") }

  func crtcs(for connector: UInt32) throws -> [CRTCCandidate] {
    try record("crtcs \(connector)", "crtcs")
    return candidates
  }

  func crtcState(_ crtc: UInt32) throws -> CRTCState {
    try record("crtcState \(crtc)", "crtcState")
    return states[crtc] ?? CRTCState(crtc: crtc, framebuffer: 0, x: 0, y: 0, mode: nil)
  }

  func enableAtomic(crtc: UInt32, connector: UInt32) -> Bool {
    calls.append("enableAtomic \(crtc) \(connector)")
    return hasAtomic
  }

  func addFramebuffer(for buffer: ScanoutBuffer) throws -> UInt32 {
    try record("addFB handle \(buffer.handle)", "addFB")
    nextFramebuffer += 1
    return nextFramebuffer
  }

  func removeFramebuffer(_ id: UInt32) { calls.append("rmFB \(id)") }

  func setCRTC(_ crtc: UInt32, connector: UInt32, mode: DisplayMode, framebuffer: UInt32) throws {
    try record("setCRTC \(crtc) connector \(connector) \(mode) fb \(framebuffer)", "setCRTC")
    states[crtc] = CRTCState(crtc: crtc, framebuffer: framebuffer, x: 0, y: 0, mode: mode)
  }

  func restoreCRTC(_ state: CRTCState, connector: UInt32) throws {
    try record(
      "restore \(state.crtc) connector \(connector) fb \(state.framebuffer)"
        + " \(state.mode.map(\.description) ?? "off")", "restore")
    states[state.crtc] = state
  }

  private func queueFlip() {
    flips += 1
    if completesFlips {
      time += 1.0 / 60
      completeFlip(at: time)
    }
    onFlip(flips)
  }

  func pageFlip(crtc: UInt32, framebuffer: UInt32) throws {
    try record("pageFlip \(crtc) fb \(framebuffer)", "pageFlip")
    queueFlip()
  }

  func commit(_ request: AtomicCommit) throws {
    if let mode = request.modeset {
      try record(
        "commitModeset \(request.crtc) connector \(request.connector) \(mode) fb"
          + " \(request.framebuffer) \(request.width)x\(request.height)", "commitModeset")
    } else {
      try record("commitFlip \(request.crtc) fb \(request.framebuffer)", "commitFlip")
      queueFlip()
    }
  }

  func hideCursor(crtc: UInt32) { calls.append("hideCursor \(crtc)") }

  func handleEvents() throws -> [Double] {
    try record("handleEvents", "handleEvents")
    var bytes = [UInt8](repeating: 0, count: 64)
    _ = read(readEnd, &bytes, bytes.count)
    defer { events = [] }
    return events
  }
}

/// A GBM surface stand-in: three buffers (GEM handles 1, 2, 3) handed out
/// in turn, like a GBM surface, and refused while all are locked.
final class RecordingSurface: ScanoutSurface {
  var calls: [String] = []
  private(set) var locked: Set<UInt32> = []
  private var next: UInt32 = 0

  func swapBuffers(damage: [PixelRect]) throws {
    calls.append(
      "swap " + damage.map { "\($0.x),\($0.y) \($0.width)x\($0.height)" }.joined(separator: " "))
  }

  func lockFrontBuffer() throws -> ScanoutBuffer {
    for step in 1...3 {
      let handle = (next + UInt32(step) - 1) % 3 + 1
      if !locked.contains(handle) {
        next = handle
        locked.insert(handle)
        calls.append("lock \(handle)")
        return ScanoutBuffer(
          id: UInt(handle), handle: handle, width: 64, height: 48, stride: 256,
          format: 0x3432_5258)
      }
    }
    throw KMSError.failed(device: "gbm", step: "lock", reason: "no free buffer")
  }

  func releaseBuffer(_ buffer: ScanoutBuffer) {
    calls.append("release \(buffer.handle)")
    locked.remove(buffer.handle)
  }
}
