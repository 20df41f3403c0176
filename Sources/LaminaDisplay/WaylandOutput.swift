import CWayland
import CWaylandProtocols
import Foundation
import Lamina
import LaminaRender

/// Why a Wayland window could not be shown.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
  case cannotConnect(display: String)
  case missingGlobal(String)
  case protocolError(String)
  case closedBeforeConfigure

  public var description: String {
    switch self {
    case .cannotConnect(let d):
      "cannot connect to the Wayland compositor '\(d)' (is one running? WAYLAND_DISPLAY, XDG_RUNTIME_DIR)"
    case .missingGlobal(let g): "the Wayland compositor does not offer \(g)"
    case .protocolError(let m): "Wayland connection failed: \(m)"
    case .closedBeforeConfigure: "the Wayland compositor closed the window before showing it"
    }
  }
}

/// A full-screen xdg-shell window on a Wayland compositor (cage, weston's
/// kiosk shell, any desktop), drawn with EGL through `wl_egl_window`.
///
/// - Pacing: each present asks for a frame callback; `.frameDone` arrives
///   when the compositor wants the next frame (swap interval 0, so EGL
///   never blocks on its own).
/// - Size: what the compositor configures (the output's size when full
///   screen), or the scene's size when it leaves the choice to the client;
///   a new configure resizes the buffer.
/// - Scale: `wp_fractional_scale_v1` with a viewport where the compositor
///   has them (buffer = logical size × scale, rounded), else the largest
///   integer scale of the outputs (`wl_surface.set_buffer_scale`).
/// - Input: pointer button presses and touch downs become `.tap` events.
///
///     let window = try WaylandOutput.open(preferredWidth: 1280, preferredHeight: 720)
public final class WaylandOutput: CanvasReadingOutput {
  public var context: GPUContext { gpuContext ?? headlessContext! }
  /// The EGL context on the window (hardware drivers).
  private var gpuContext: GPUContext?
  /// The headless context the shm path draws with (software GL).
  private var headlessContext: GPUContext?
  /// Set when frames go through `wl_shm` buffers (see `ShmSwapchain`).
  private var swapchain: ShmSwapchain?
  private var panelFilled = false
  public var bufferWidth: Int { Self.bufferLength(logicalWidth, scale: scale) }
  public var bufferHeight: Int { Self.bufferLength(logicalHeight, scale: scale) }

  public let rotation: DisplayRotation
  public var refreshRate: Double { outputRefresh > 0 ? outputRefresh : 60 }
  public var summary: String {
    let scaleText = scale == scale.rounded() ? "\(Int(scale))" : String(format: "%.3g", scale)
    return "wayland \(displayName): \(bufferWidth)x\(bufferHeight) pixels, scale \(scaleText)"
      + (fullscreen ? ", fullscreen" : "") + (fractional != nil ? ", fractional scale" : "")
      + (swapchain != nil ? ", shm buffers (software GL: only damage is copied)" : "")
  }
  /// Whether the compositor's last configure said the window is full screen.
  public private(set) var fullscreen = false

  let displayName: String
  let display: OpaquePointer
  private var registry: OpaquePointer?
  private var compositor: OpaquePointer?
  private var compositorVersion: UInt32 = 0
  private var wmBase: OpaquePointer?
  private var seat: OpaquePointer?
  private var shm: OpaquePointer?
  private var pointer: OpaquePointer?
  private var touch: OpaquePointer?
  private var viewporter: OpaquePointer?
  private var fractionalManager: OpaquePointer?
  private var outputs: [(proxy: OpaquePointer, scale: Int32)] = []
  private var surface: OpaquePointer?
  private var xdgSurface: OpaquePointer?
  private var toplevel: OpaquePointer?
  private var viewport: OpaquePointer?
  private var fractional: OpaquePointer?
  private var eglWindow: OpaquePointer?
  private var frameCallback: OpaquePointer?

  private var logicalWidth: Int
  private var logicalHeight: Int
  private var pendingSize: (Int, Int)?
  private var pendingFullscreen = false
  private var configured = false
  /// The preferred scale in 120ths (`wp_fractional_scale_v1`), once sent.
  private var fractionalScale: UInt32?
  private var scale = 1.0
  private var outputRefresh = 0.0
  private var pointerPosition = (0.0, 0.0)
  private var events: [DisplayEvent] = []
  private var closed = false

  /// Connects to the compositor (`WAYLAND_DISPLAY`), opens a full-screen
  /// window and waits for its first configure. Frames go through EGL's
  /// window surface, unless GL is a software rasterizer without buffer age:
  /// then through `wl_shm` buffers (`ShmSwapchain`).
  /// `LAMINA_WAYLAND_PRESENT=egl|shm` forces one.
  public static func open(
    preferredWidth: Int, preferredHeight: Int, rotation: DisplayRotation = .none,
    title: String = "Lamina"
  ) throws -> WaylandOutput {
    let name = ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] ?? "wayland-0"
    guard let display = wl_display_connect(nil) else {
      throw WaylandError.cannotConnect(display: name)
    }
    let output = WaylandOutput(
      display: display, name: name, width: preferredWidth, height: preferredHeight,
      rotation: rotation)
    do {
      try output.setUp(title: title)
    } catch {
      output.close()
      throw error
    }
    return output
  }

  private init(
    display: OpaquePointer, name: String, width: Int, height: Int, rotation: DisplayRotation
  ) {
    self.display = display
    displayName = name
    logicalWidth = max(1, width)
    logicalHeight = max(1, height)
    self.rotation = rotation
  }

  deinit { close() }

  private var unretained: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

  private func setUp(title: String) throws {
    registry = wl_display_get_registry(display)
    wl_registry_add_listener(registry, Listeners.registry, unretained)
    try roundtrip()
    // Outputs and the seat announce their properties after binding.
    try roundtrip()
    guard let compositor else { throw WaylandError.missingGlobal("wl_compositor") }
    guard let wmBase else { throw WaylandError.missingGlobal("xdg_wm_base (xdg-shell)") }
    surface = wl_compositor_create_surface(compositor)
    wl_surface_add_listener(surface, Listeners.surface, unretained)
    if let fractionalManager, let viewporter {
      fractional = wp_fractional_scale_manager_v1_get_fractional_scale(fractionalManager, surface)
      wp_fractional_scale_v1_add_listener(fractional, Listeners.fractional, unretained)
      viewport = wp_viewporter_get_viewport(viewporter, surface)
    }
    xdgSurface = xdg_wm_base_get_xdg_surface(wmBase, surface)
    xdg_surface_add_listener(xdgSurface, Listeners.xdgSurface, unretained)
    toplevel = xdg_surface_get_toplevel(xdgSurface)
    xdg_toplevel_add_listener(toplevel, Listeners.toplevel, unretained)
    xdg_toplevel_set_title(toplevel, title)
    xdg_toplevel_set_app_id(toplevel, "lamina")
    xdg_toplevel_set_fullscreen(toplevel, nil)
    wl_surface_commit(surface)
    while !configured {
      guard !closed else { throw WaylandError.closedBeforeConfigure }
      try dispatchBlocking()
    }
    applyPending()
    updateScale()
    applyScale()
    events.removeAll()
    let choice = ProcessInfo.processInfo.environment["LAMINA_WAYLAND_PRESENT"]
    if choice != "shm" {
      guard let window = wl_egl_window_create(surface, Int32(bufferWidth), Int32(bufferHeight))
      else { throw WaylandError.protocolError("wl_egl_window_create failed") }
      eglWindow = window
      gpuContext = try GPUContext.window(
        platform: .wayland, nativeDisplay: UnsafeMutableRawPointer(display)
      ) { _ in UnsafeMutableRawPointer(window) }
      // DrawList callbacks pace the loop; EGL must not wait for them too.
      context.setSwapInterval(0)
      let software = context.info.isSoftwareRenderer && !context.hasBufferAge
      if choice == "egl" || !software { return }
      // A software rasterizer without buffer age: shm buffers instead.
      gpuContext = nil
      wl_egl_window_destroy(window)
      eglWindow = nil
    }
    guard shm != nil else { throw WaylandError.missingGlobal("wl_shm") }
    headlessContext = try GPUContext.shared()
    try makeSwapchain()
  }

  /// Buffers and a panel target of the current buffer size.
  private func makeSwapchain() throws {
    guard let shm else { return }
    guard let headless = headlessContext else { return }
    headless.makeCurrent()
    swapchain = nil
    let chain = try ShmSwapchain(
      shm: shm, width: bufferWidth, height: bufferHeight, context: headless)
    chain.listen(Listeners.buffer)
    swapchain = chain
    panelFilled = false
  }

  public var presentFramebuffer: UInt32 { swapchain?.framebuffer ?? 0 }
  public var presentsDamageOnly: Bool { swapchain != nil || context.hasBufferAge }
  public var presentsTopDown: Bool { swapchain != nil }
  public var readsCanvas: Bool { swapchain != nil }

  public func bufferAge() -> Int {
    // The panel target keeps every frame: only new damage goes into it.
    if swapchain != nil { return panelFilled ? 1 : 0 }
    return context.bufferAge()
  }

  private func roundtrip() throws {
    guard wl_display_roundtrip(display) >= 0 else { throw connectionError() }
  }

  private func dispatchBlocking() throws {
    guard wl_display_dispatch(display) >= 0 else { throw connectionError() }
  }

  private func connectionError() -> WaylandError {
    let code = wl_display_get_error(display)
    return .protocolError(code == 0 ? "connection lost" : String(cString: strerror(code)))
  }

  // MARK: DisplayOutput

  public func present(damage: [PixelRect]) throws {
    if let swapchain {
      try presentShm(damage: damage, from: swapchain.framebuffer, swapchain)
      panelFilled = true
      return
    }
    frameCallback = wl_surface_frame(surface)
    wl_callback_add_listener(frameCallback, Listeners.frame, unretained)
    // EGL counts damage rows from the bottom.
    let height = bufferHeight
    let flipped = damage.map { PixelRect(x: $0.x, y: height - $0.y - $0.height, width: $0.width, height: $0.height) }
    try context.swapBuffers(damage: flipped)
  }

  public func present(damage: [PixelRect], fromCanvas framebuffer: UInt32) throws {
    guard let swapchain else { throw WaylandError.protocolError("no shm buffers to read into") }
    try presentShm(damage: damage, from: framebuffer, swapchain)
    // The panel target missed this frame.
    panelFilled = false
  }

  /// Copies the damage (and what the buffer missed) from `framebuffer`
  /// (rows top-down) into a free shm buffer and commits it with only that
  /// damage.
  private func presentShm(
    damage: [PixelRect], from framebuffer: UInt32, _ swapchain: ShmSwapchain
  ) throws {
    context.makeCurrent()
    var copy = swapchain.copy(damage: damage, from: framebuffer)
    while copy == nil {
      // Every buffer is still on screen or queued: wait for a release. A
      // signal ends the wait: the loop then sees it (the frame's damage
      // waits in the swapchain).
      if wl_display_dispatch(display) < 0 {
        guard errno == EINTR else { throw connectionError() }
        events.append(.frameDone(time: monotonicSeconds()))
        return
      }
      copy = swapchain.copy(damage: [], from: framebuffer)
    }
    guard let (buffer, rects) = copy else { return }
    frameCallback = wl_surface_frame(surface)
    wl_callback_add_listener(frameCallback, Listeners.frame, unretained)
    wl_surface_attach(surface, buffer.proxy, 0, 0)
    if compositorVersion >= 4 {
      for r in rects {
        wl_surface_damage_buffer(surface, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
      }
    } else {
      // Before damage_buffer, damage is in surface points: all of it.
      wl_surface_damage(surface, 0, 0, Int32.max, Int32.max)
    }
    wl_surface_commit(surface)
    wl_display_flush(display)
  }

  public func waitForEvents(timeout: Double?, alsoWatching: [Int32]) throws -> (
    events: [DisplayEvent], readable: Set<Int32>
  ) {
    // Events already read (during a swap, say) come first.
    while wl_display_prepare_read(display) != 0 {
      guard wl_display_dispatch_pending(display) >= 0 else { throw connectionError() }
    }
    wl_display_flush(display)
    let fd = wl_display_get_fd(display)
    let wait = events.isEmpty ? timeout : 0
    let readable = pollReadable([fd] + alsoWatching, timeout: wait)
    if readable.contains(fd) {
      guard wl_display_read_events(display) >= 0 else { throw connectionError() }
    } else {
      wl_display_cancel_read(display)
    }
    guard wl_display_dispatch_pending(display) >= 0 else { throw connectionError() }
    // Both are taken in: a configure and a scale change can come together.
    let resized = configured && applyPending()
    let rescaled = configured && updateScale()
    if resized || rescaled {
      applyScale()
      if swapchain != nil {
        try makeSwapchain()
      } else {
        wl_egl_window_resize(eglWindow, Int32(bufferWidth), Int32(bufferHeight), 0, 0)
      }
      events.append(.resized)
    }
    if closed { events.append(.closed) }
    defer { events.removeAll() }
    return (events, readable.subtracting([fd]))
  }

  public func close() {
    if let frameCallback { wl_callback_destroy(frameCallback) }
    frameCallback = nil
    gpuContext = nil  // the EGL surface goes before the window under it
    if swapchain != nil {
      headlessContext?.makeCurrent()
      swapchain = nil
    }
    headlessContext = nil
    if let eglWindow { wl_egl_window_destroy(eglWindow) }
    eglWindow = nil
    if let viewport { wp_viewport_destroy(viewport) }
    viewport = nil
    if let fractional { wp_fractional_scale_v1_destroy(fractional) }
    fractional = nil
    if let toplevel { xdg_toplevel_destroy(toplevel) }
    toplevel = nil
    if let xdgSurface { xdg_surface_destroy(xdgSurface) }
    xdgSurface = nil
    if let surface { wl_surface_destroy(surface) }
    surface = nil
    if let pointer { wl_pointer_destroy(pointer) }
    pointer = nil
    if let touch { wl_touch_destroy(touch) }
    touch = nil
    if let registry {
      wl_registry_destroy(registry)
      self.registry = nil
      wl_display_disconnect(display)
    }
  }

  // MARK: Size and scale

  /// Buffer pixels for `logical` window points at `scale`: rounded half
  /// away from zero, as `wp_fractional_scale_v1` asks.
  public static func bufferLength(_ logical: Int, scale: Double) -> Int {
    Int(saturating: Double(logical) * scale, rounding: .toNearestOrAwayFromZero)
  }

  /// The scale to draw at: the compositor's preferred fractional scale
  /// (in 120ths) when it sends one, else the largest integer scale of the
  /// outputs, else 1.
  public static func bufferScale(fractional120: UInt32?, outputScales: [Int32]) -> Double {
    if let fractional120, fractional120 > 0 { return Double(fractional120) / 120 }
    return Double(max(outputScales.max() ?? 1, 1))
  }


  /// Takes the last configured size; true when it changed.
  @discardableResult
  private func applyPending() -> Bool {
    fullscreen = pendingFullscreen
    guard let (w, h) = pendingSize else { return false }
    pendingSize = nil
    // 0 leaves the size to the client: keep the scene's.
    let width = w > 0 ? w : logicalWidth
    let height = h > 0 ? h : logicalHeight
    guard width != logicalWidth || height != logicalHeight else { return false }
    logicalWidth = width
    logicalHeight = height
    return true
  }

  /// Recomputes the buffer scale; true when it changed.
  @discardableResult
  private func updateScale() -> Bool {
    let new = Self.bufferScale(fractional120: fractionalScale, outputScales: outputs.map(\.scale))
    guard new != scale else { return false }
    scale = new
    return true
  }

  /// Tells the compositor how buffer pixels map to the window.
  private func applyScale() {
    if let viewport {
      wl_surface_set_buffer_scale(surface, 1)
      wp_viewport_set_destination(viewport, Int32(logicalWidth), Int32(logicalHeight))
    } else if compositorVersion >= 3 {
      wl_surface_set_buffer_scale(
        surface, Int32(clamping: Int(saturating: scale, rounding: .toNearestOrAwayFromZero)))
    }
  }

  // MARK: Events from the compositor

  fileprivate func global(_ name: UInt32, _ interface: String, _ version: UInt32) {
    func bind(_ description: UnsafePointer<wl_interface>, _ most: UInt32) -> OpaquePointer? {
      OpaquePointer(wl_registry_bind(registry, name, description, min(version, most)))
    }
    switch interface {
    case "wl_compositor":
      compositorVersion = min(version, 4)
      compositor = bind(lamina_wl_compositor_interface(), 4)
    case "xdg_wm_base":
      wmBase = bind(lamina_xdg_wm_base_interface(), 2)
      xdg_wm_base_add_listener(wmBase, Listeners.wmBase, unretained)
    case "wl_seat" where seat == nil:
      seat = bind(lamina_wl_seat_interface(), 5)
      wl_seat_add_listener(seat, Listeners.seat, unretained)
    case "wl_output":
      if let output = bind(lamina_wl_output_interface(), 2) {
        outputs.append((output, 1))
        wl_output_add_listener(output, Listeners.output, unretained)
      }
    case "wl_shm": shm = bind(lamina_wl_shm_interface(), 1)
    case "wp_viewporter": viewporter = bind(lamina_wp_viewporter_interface(), 1)
    case "wp_fractional_scale_manager_v1":
      fractionalManager = bind(lamina_wp_fractional_scale_manager_v1_interface(), 1)
    default: break
    }
  }

  fileprivate func seatCapabilities(_ capabilities: UInt32) {
    let hasPointer = capabilities & WL_SEAT_CAPABILITY_POINTER.rawValue != 0
    let hasTouch = capabilities & WL_SEAT_CAPABILITY_TOUCH.rawValue != 0
    if hasPointer, pointer == nil {
      pointer = wl_seat_get_pointer(seat)
      wl_pointer_add_listener(pointer, Listeners.pointer, unretained)
    } else if !hasPointer, let p = pointer {
      wl_pointer_destroy(p)
      pointer = nil
    }
    if hasTouch, touch == nil {
      touch = wl_seat_get_touch(seat)
      wl_touch_add_listener(touch, Listeners.touch, unretained)
    } else if !hasTouch, let t = touch {
      wl_touch_destroy(t)
      touch = nil
    }
  }

  fileprivate func outputScale(_ proxy: OpaquePointer?, _ factor: Int32) {
    if let i = outputs.firstIndex(where: { $0.proxy == proxy }) { outputs[i].scale = factor }
  }

  fileprivate func outputMode(_ flags: UInt32, _ refresh: Int32) {
    if flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, refresh > 0 {
      outputRefresh = Double(refresh) / 1000
    }
  }

  fileprivate func toplevelConfigure(_ width: Int32, _ height: Int32, _ states: UnsafeMutablePointer<wl_array>?) {
    pendingSize = (Int(width), Int(height))
    var isFullscreen = false
    if let states, let data = states.pointee.data {
      let count = states.pointee.size / MemoryLayout<UInt32>.size
      let values = data.bindMemory(to: UInt32.self, capacity: count)
      for i in 0..<count where values[i] == XDG_TOPLEVEL_STATE_FULLSCREEN.rawValue {
        isFullscreen = true
      }
    }
    pendingFullscreen = isFullscreen
  }

  fileprivate func surfaceConfigure(_ serial: UInt32) {
    xdg_surface_ack_configure(xdgSurface, serial)
    configured = true
  }

  fileprivate func frameDone() {
    if let frameCallback { wl_callback_destroy(frameCallback) }
    frameCallback = nil
    events.append(.frameDone(time: monotonicSeconds()))
  }

  fileprivate func tap(surfaceX x: Double, y: Double) {
    // Surface coordinates are logical: buffer pixels are `scale` times more.
    events.append(.tap(x: x * scale, y: y * scale))
  }

  fileprivate func pointerMoved(_ x: Double, _ y: Double) { pointerPosition = (x, y) }
  fileprivate func pointerPressed() { tap(surfaceX: pointerPosition.0, y: pointerPosition.1) }
  fileprivate func preferredFractionalScale(_ value: UInt32) { fractionalScale = value }
  fileprivate func closeRequested() { closed = true }
  fileprivate func ping(_ serial: UInt32) { xdg_wm_base_pong(wmBase, serial) }
}

/// The listener tables handed to libwayland: allocated once, for the life
/// of the process, each entry a C function that finds its `WaylandOutput`
/// through the listener's user data.
private enum Listeners {
  static func output(_ data: UnsafeMutableRawPointer?) -> WaylandOutput {
    Unmanaged<WaylandOutput>.fromOpaque(data!).takeUnretainedValue()
  }

  static func table<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }

  static let registry: UnsafeMutablePointer<wl_registry_listener> = {
    var l = wl_registry_listener()
    l.global = { data, _, name, interface, version in
      output(data).global(name, interface.map { String(cString: $0) } ?? "", version)
    }
    l.global_remove = { _, _, _ in }
    return table(l)
  }()

  static let wmBase: UnsafeMutablePointer<xdg_wm_base_listener> = {
    var l = xdg_wm_base_listener()
    l.ping = { data, _, serial in output(data).ping(serial) }
    return table(l)
  }()

  static let xdgSurface: UnsafeMutablePointer<xdg_surface_listener> = {
    var l = xdg_surface_listener()
    l.configure = { data, _, serial in output(data).surfaceConfigure(serial) }
    return table(l)
  }()

  static let toplevel: UnsafeMutablePointer<xdg_toplevel_listener> = {
    var l = xdg_toplevel_listener()
    l.configure = { data, _, width, height, states in
      output(data).toplevelConfigure(width, height, states)
    }
    l.close = { data, _ in output(data).closeRequested() }
    l.configure_bounds = { _, _, _, _ in }
    l.wm_capabilities = { _, _, _ in }
    return table(l)
  }()

  static let surface: UnsafeMutablePointer<wl_surface_listener> = {
    var l = wl_surface_listener()
    l.enter = { _, _, _ in }
    l.leave = { _, _, _ in }
    return table(l)
  }()

  static let buffer: UnsafeMutablePointer<wl_buffer_listener> = {
    var l = wl_buffer_listener()
    l.release = { data, _ in
      Unmanaged<ShmSwapchain.Buffer>.fromOpaque(data!).takeUnretainedValue().busy = false
    }
    return table(l)
  }()

  static let frame: UnsafeMutablePointer<wl_callback_listener> = {
    var l = wl_callback_listener()
    l.done = { data, _, _ in output(data).frameDone() }
    return table(l)
  }()

  static let fractional: UnsafeMutablePointer<wp_fractional_scale_v1_listener> = {
    var l = wp_fractional_scale_v1_listener()
    l.preferred_scale = { data, _, scale in output(data).preferredFractionalScale(scale) }
    return table(l)
  }()

  static let seat: UnsafeMutablePointer<wl_seat_listener> = {
    var l = wl_seat_listener()
    l.capabilities = { data, _, capabilities in output(data).seatCapabilities(capabilities) }
    l.name = { _, _, _ in }
    return table(l)
  }()

  static let pointer: UnsafeMutablePointer<wl_pointer_listener> = {
    var l = wl_pointer_listener()
    l.enter = { data, _, _, _, x, y in
      output(data).pointerMoved(wl_fixed_to_double(x), wl_fixed_to_double(y))
    }
    l.leave = { _, _, _, _ in }
    l.motion = { data, _, _, x, y in
      output(data).pointerMoved(wl_fixed_to_double(x), wl_fixed_to_double(y))
    }
    l.button = { data, _, _, _, button, state in
      if button == TapTranslator.leftButton, state == WL_POINTER_BUTTON_STATE_PRESSED.rawValue {
        output(data).pointerPressed()
      }
    }
    l.axis = { _, _, _, _, _ in }
    l.frame = { _, _ in }
    l.axis_source = { _, _, _ in }
    l.axis_stop = { _, _, _, _ in }
    l.axis_discrete = { _, _, _, _ in }
    l.axis_value120 = { _, _, _, _ in }
    return table(l)
  }()

  static let touch: UnsafeMutablePointer<wl_touch_listener> = {
    var l = wl_touch_listener()
    l.down = { data, _, _, _, _, _, x, y in
      output(data).tap(surfaceX: wl_fixed_to_double(x), y: wl_fixed_to_double(y))
    }
    l.up = { _, _, _, _, _ in }
    l.motion = { _, _, _, _, _, _ in }
    l.frame = { _, _ in }
    l.cancel = { _, _ in }
    l.shape = { _, _, _, _, _ in }
    l.orientation = { _, _, _, _ in }
    return table(l)
  }()

  static let output: UnsafeMutablePointer<wl_output_listener> = {
    var l = wl_output_listener()
    l.geometry = { _, _, _, _, _, _, _, _, _, _ in }
    l.mode = { data, _, flags, _, _, refresh in output(data).outputMode(flags, refresh) }
    l.done = { _, _ in }
    l.scale = { data, proxy, factor in output(data).outputScale(proxy, factor) }
    l.name = { _, _, _ in }
    l.description = { _, _, _ in }
    return table(l)
  }()
}
