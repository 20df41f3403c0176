import CDRM
import Foundation
import LaminaRender

/// `KMSDriver` over libdrm, on a card opened as a `DRMCard` (which owns the
/// descriptor: the GBM device made on it keeps the card, and so the
/// descriptor, alive until it is destroyed).
public final class DRMDriver: KMSDriver {
  public let card: DRMCard
  public var path: String { card.path }
  public var fd: Int32 { card.fd }

  /// Where the page-flip handler puts completion times: passed to the
  /// kernel as the flip's user data and handed back with the event, so
  /// that the C callback needs no captured state.
  private final class FlipSink {
    var times: [Double] = []
  }

  private let sink = FlipSink()
  /// The kernel's own timings of each saved CRTC's mode, for restoring it
  /// exactly (a `DisplayMode` loses the porches and flags).
  private var savedModes: [UInt32: drmModeModeInfo] = [:]
  /// Index of each CRTC in the card's list: `possible_crtcs` bit masks use it.
  private var crtcIndices: [UInt32: Int] = [:]
  private var atomic: AtomicIDs?
  /// The last mode blob made for an atomic modeset.
  private var modeBlob: UInt32 = 0

  /// Property ids for atomic commits.
  private struct AtomicIDs {
    var plane: UInt32
    var connector: [String: UInt32]
    var crtc: [String: UInt32]
    var planeProperties: [String: UInt32]
  }

  /// Opens `path`.
  ///
  /// - Throws: `KMSError.cannotOpen` naming the device and the reason.
  public init(path: String) throws {
    card = try DRMCard(path: path)
  }

  deinit {
    if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
  }

  public func connectors() throws -> [KMSConnector] { try card.connectors() }

  /// `step` failed with the errno of the call that just returned `result`
  /// (libdrm returns -errno, or -1 with errno set).
  private func failure(_ step: String, _ result: Int32 = -1) -> KMSError {
    let code = result < -1 ? -result : errno
    var reason = String(cString: strerror(code))
    if code == EACCES || code == EPERM {
      reason +=
        " (another program holds DRM master: stop the display server or run from a text console)"
    }
    return .failed(device: path, step: step, reason: reason)
  }

  public func becomeMaster() -> Bool {
    drmIsMaster(fd) != 0 || drmSetMaster(fd) == 0
  }

  public func dropMaster() {
    drmDropMaster(fd)
  }

  public func crtcs(for connector: UInt32) throws -> [CRTCCandidate] {
    guard let resources = drmModeGetResources(fd) else {
      throw failure("reading the card's resources (drmModeGetResources)")
    }
    defer { drmModeFreeResources(resources) }
    guard let info = drmModeGetConnector(fd, connector) else {
      throw failure("reading connector \(connector) (drmModeGetConnector)")
    }
    defer { drmModeFreeConnector(info) }
    var current: UInt32 = 0
    if info.pointee.encoder_id != 0, let encoder = drmModeGetEncoder(fd, info.pointee.encoder_id) {
      current = encoder.pointee.crtc_id
      drmModeFreeEncoder(encoder)
    }
    var possible: UInt32 = 0
    for i in 0..<Int(info.pointee.count_encoders) {
      guard let encoder = drmModeGetEncoder(fd, info.pointee.encoders[i]) else { continue }
      possible |= encoder.pointee.possible_crtcs
      drmModeFreeEncoder(encoder)
    }
    var result: [CRTCCandidate] = []
    for i in 0..<Int(resources.pointee.count_crtcs) {
      let id = resources.pointee.crtcs[i]
      crtcIndices[id] = i
      guard id == current || (i < 32 && possible & (1 << UInt32(i)) != 0) else { continue }
      var active = false
      if let crtc = drmModeGetCrtc(fd, id) {
        active = crtc.pointee.mode_valid != 0 && crtc.pointee.buffer_id != 0
        drmModeFreeCrtc(crtc)
      }
      result.append(CRTCCandidate(id: id, current: id == current, active: active))
    }
    return result
  }

  public func crtcState(_ crtc: UInt32) throws -> CRTCState {
    guard let state = drmModeGetCrtc(fd, crtc) else {
      throw failure("reading CRTC \(crtc) (drmModeGetCrtc)")
    }
    defer { drmModeFreeCrtc(state) }
    let valid = state.pointee.mode_valid != 0
    if valid { savedModes[crtc] = state.pointee.mode }
    return CRTCState(
      crtc: crtc, framebuffer: state.pointee.buffer_id, x: Int(state.pointee.x),
      y: Int(state.pointee.y), mode: valid ? DisplayMode(info: state.pointee.mode) : nil)
  }

  /// The kernel's timings for `mode` on `connector`.
  private func timings(_ mode: DisplayMode, on connector: UInt32) throws -> drmModeModeInfo {
    guard let info = drmModeGetConnector(fd, connector) else {
      throw failure("reading connector \(connector) (drmModeGetConnector)")
    }
    defer { drmModeFreeConnector(info) }
    for i in 0..<Int(info.pointee.count_modes)
    where DisplayMode(info: info.pointee.modes[i]) == mode {
      return info.pointee.modes[i]
    }
    throw KMSError.failed(
      device: path, step: "setting mode \(mode)",
      reason: "connector \(connector) no longer offers it (was the display replugged?)")
  }

  public func addFramebuffer(for buffer: ScanoutBuffer) throws -> UInt32 {
    var handles: [UInt32] = [buffer.handle, 0, 0, 0]
    var pitches: [UInt32] = [buffer.stride, 0, 0, 0]
    var offsets: [UInt32] = [0, 0, 0, 0]
    var id: UInt32 = 0
    let width = UInt32(buffer.width)
    let height = UInt32(buffer.height)
    if drmModeAddFB2(fd, width, height, buffer.format, &handles, &pitches, &offsets, &id, 0) == 0 {
      return id
    }
    // Older drivers only know depth/bpp framebuffers (XRGB8888 is 24/32).
    let result = drmModeAddFB(fd, width, height, 24, 32, buffer.stride, buffer.handle, &id)
    guard result == 0 else {
      throw failure(
        "making a framebuffer of a \(buffer.width)x\(buffer.height) buffer (drmModeAddFB2, drmModeAddFB)",
        result)
    }
    return id
  }

  public func removeFramebuffer(_ id: UInt32) {
    drmModeRmFB(fd, id)
  }

  public func setCRTC(
    _ crtc: UInt32, connector: UInt32, mode: DisplayMode, framebuffer: UInt32
  ) throws {
    var info = try timings(mode, on: connector)
    var connectors = [connector]
    let result = drmModeSetCrtc(fd, crtc, framebuffer, 0, 0, &connectors, 1, &info)
    guard result == 0 else {
      throw failure("setting mode \(mode) on CRTC \(crtc) (drmModeSetCrtc)", result)
    }
  }

  public func restoreCRTC(_ state: CRTCState, connector: UInt32) throws {
    let result: Int32
    if state.mode != nil, state.framebuffer != 0, var info = savedModes[state.crtc] {
      var connectors = [connector]
      result = drmModeSetCrtc(
        fd, state.crtc, state.framebuffer, UInt32(state.x), UInt32(state.y), &connectors, 1, &info)
    } else {
      result = drmModeSetCrtc(fd, state.crtc, 0, 0, 0, nil, 0, nil)
    }
    guard result == 0 else {
      throw failure("restoring CRTC \(state.crtc) (drmModeSetCrtc)", result)
    }
  }

  public func pageFlip(crtc: UInt32, framebuffer: UInt32) throws {
    let data = Unmanaged.passUnretained(sink).toOpaque()
    let result = drmModePageFlip(fd, crtc, framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), data)
    guard result == 0 else {
      throw failure("page flip on CRTC \(crtc) (drmModePageFlip)", result)
    }
  }

  public func hideCursor(crtc: UInt32) {
    drmModeSetCursor(fd, crtc, 0, 0, 0)
  }

  public func handleEvents() throws -> [Double] {
    var context = drmEventContext()
    context.version = 2
    context.page_flip_handler = { _, _, seconds, microseconds, data in
      guard let data else { return }
      let sink = Unmanaged<FlipSink>.fromOpaque(data).takeUnretainedValue()
      // DRM stamps events with CLOCK_MONOTONIC, the loop's clock.
      sink.times.append(Double(seconds) + Double(microseconds) / 1e6)
    }
    sink.times = []
    guard drmHandleEvent(fd, &context) == 0 else {
      throw failure("reading page-flip events (drmHandleEvent)")
    }
    return sink.times
  }

  // MARK: Atomic

  /// The properties of object `id` by name.
  private func properties(of id: UInt32, type: UInt32) -> [String: (id: UInt32, value: UInt64)] {
    guard let list = drmModeObjectGetProperties(fd, id, type) else { return [:] }
    defer { drmModeFreeObjectProperties(list) }
    var result: [String: (id: UInt32, value: UInt64)] = [:]
    for i in 0..<Int(list.pointee.count_props) {
      guard let property = drmModeGetProperty(fd, list.pointee.props[i]) else { continue }
      let name = withUnsafeBytes(of: property.pointee.name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      result[name] = (property.pointee.prop_id, list.pointee.prop_values[i])
      drmModeFreeProperty(property)
    }
    return result
  }

  public func enableAtomic(crtc: UInt32, connector: UInt32) -> Bool {
    // For checking the legacy path on a driver that has atomic.
    if ProcessInfo.processInfo.environment["LAMINA_KMS_LEGACY"] == "1" { return false }
    // The CRTC's index comes from the resources `crtcs(for:)` reads.
    if crtcIndices[crtc] == nil { _ = try? crtcs(for: connector) }
    // With the caps set and no usable primary plane, legacy calls still work.
    guard drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_UNIVERSAL_PLANES), 1) == 0,
      drmSetClientCap(fd, UInt64(DRM_CLIENT_CAP_ATOMIC), 1) == 0,
      let index = crtcIndices[crtc], let planes = drmModeGetPlaneResources(fd)
    else { return false }
    defer { drmModeFreePlaneResources(planes) }
    // The primary plane that can show on this CRTC; the one on it now first.
    var chosen: (id: UInt32, properties: [String: (id: UInt32, value: UInt64)])?
    for i in 0..<Int(planes.pointee.count_planes) {
      let id = planes.pointee.planes[i]
      guard let plane = drmModeGetPlane(fd, id) else { continue }
      let usable = plane.pointee.possible_crtcs & (1 << UInt32(index)) != 0
      let onIt = plane.pointee.crtc_id == crtc
      drmModeFreePlane(plane)
      let properties = properties(of: id, type: UInt32(DRM_MODE_OBJECT_PLANE))
      guard usable, properties["type"]?.value == UInt64(DRM_PLANE_TYPE_PRIMARY) else { continue }
      if chosen == nil || onIt { chosen = (id, properties) }
      if onIt { break }
    }
    guard let chosen else { return false }
    let names =
      ["FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H"]
      + ["CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H"]
    let connectorIDs = properties(of: connector, type: UInt32(DRM_MODE_OBJECT_CONNECTOR))
      .mapValues(\.id)
    let crtcIDs = properties(of: crtc, type: UInt32(DRM_MODE_OBJECT_CRTC)).mapValues(\.id)
    let planeIDs = chosen.properties.mapValues(\.id)
    guard connectorIDs["CRTC_ID"] != nil, crtcIDs["MODE_ID"] != nil, crtcIDs["ACTIVE"] != nil,
      names.allSatisfy({ planeIDs[$0] != nil })
    else { return false }
    atomic = AtomicIDs(
      plane: chosen.id, connector: connectorIDs, crtc: crtcIDs, planeProperties: planeIDs)
    return true
  }

  public func commit(_ request: AtomicCommit) throws {
    let step =
      request.modeset.map { "setting mode \($0) on CRTC \(request.crtc) (atomic commit)" }
      ?? "page flip on CRTC \(request.crtc) (atomic commit)"
    guard let ids = atomic else {
      throw KMSError.failed(device: path, step: step, reason: "atomic modesetting is not enabled")
    }
    guard let atomicRequest = drmModeAtomicAlloc() else {
      throw KMSError.failed(device: path, step: step, reason: "out of memory")
    }
    defer { drmModeAtomicFree(atomicRequest) }
    var added = true
    func add(_ object: UInt32, _ property: UInt32?, _ value: UInt64) {
      guard let property else { return added = false }
      if drmModeAtomicAddProperty(atomicRequest, object, property, value) < 0 { added = false }
    }
    var flags: UInt32
    if let mode = request.modeset {
      var info = try timings(mode, on: request.connector)
      var blob: UInt32 = 0
      let made = drmModeCreatePropertyBlob(
        fd, &info, MemoryLayout<drmModeModeInfo>.size, &blob)
      guard made == 0 else { throw failure("\(step): making the mode blob", made) }
      if modeBlob != 0 { drmModeDestroyPropertyBlob(fd, modeBlob) }
      modeBlob = blob
      add(request.crtc, ids.crtc["MODE_ID"], UInt64(blob))
      add(request.crtc, ids.crtc["ACTIVE"], 1)
      add(request.connector, ids.connector["CRTC_ID"], UInt64(request.crtc))
      flags = UInt32(DRM_MODE_ATOMIC_ALLOW_MODESET)
    } else {
      flags = UInt32(DRM_MODE_PAGE_FLIP_EVENT) | UInt32(DRM_MODE_ATOMIC_NONBLOCK)
    }
    let p = ids.planeProperties
    let w = UInt64(request.width)
    let h = UInt64(request.height)
    add(ids.plane, p["FB_ID"], UInt64(request.framebuffer))
    add(ids.plane, p["CRTC_ID"], UInt64(request.crtc))
    // Source rectangle in 16.16 fixed point, destination in pixels.
    for (name, value) in [("SRC_X", 0), ("SRC_Y", 0), ("SRC_W", w << 16), ("SRC_H", h << 16)] {
      add(ids.plane, p[name], value)
    }
    for (name, value) in [("CRTC_X", 0), ("CRTC_Y", 0), ("CRTC_W", w), ("CRTC_H", h)] {
      add(ids.plane, p[name], value)
    }
    guard added else {
      throw KMSError.failed(device: path, step: step, reason: "a property could not be added")
    }
    let data = Unmanaged.passUnretained(sink).toOpaque()
    let result = drmModeAtomicCommit(fd, atomicRequest, flags, data)
    guard result == 0 else { throw failure(step, result) }
  }
}
