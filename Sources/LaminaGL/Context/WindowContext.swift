import CEGL
import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// A GPU context drawing into a window surface (a Wayland window, or a GBM
/// surface scanned out by KMS) instead of offscreen targets only, with what
/// a display loop asks of it: buffer age, swapping with damage, vsync.
///
///     let context = try GPUContext.window(
///       platform: .wayland, nativeDisplay: wlDisplay) { _ in wlEGLWindow }
///     // draw, then
///     try context.swapBuffers(damage: rects)
extension GPUContext {
  /// Opens the EGL display of `nativeDisplay` on `platform` (`.wayland`: a
  /// `wl_display`; `.gbm`: a `gbm_device` on a KMS card), picks an RGBA8
  /// ES 3 window config, asks `makeWindow` for the native window with that
  /// config's native visual (a GBM format for GBM) and creates the context
  /// current on a window surface for it.
  ///
  /// - Throws: `GPUContextError.noContext` saying which step failed.
  public static func window(
    platform: EGLPlatformKind, nativeDisplay: UnsafeMutableRawPointer,
    environment: [String: String] = ProcessInfo.processInfo.environment,
    makeWindow: (_ nativeVisual: EGLint) throws -> UnsafeMutableRawPointer
  ) throws -> GPUContext {
    let debug = GLDebug.isRequested(environment)
    let eglPlatform: EGLenum
    switch platform {
    case .wayland: eglPlatform = EGLenum(EGL_PLATFORM_WAYLAND_KHR)
    case .gbm: eglPlatform = EGLenum(EGL_PLATFORM_GBM_KHR)
    default:
      throw GPUContextError.noContext(reason: "\(platform.rawValue) has no window surfaces")
    }
    func fail(_ step: String) -> GPUContextError {
      .noContext(reason: "\(platform.rawValue) window: \(step) failed (\(lastEGLError()))")
    }
    DisplayRegistry.lock.lock()
    defer { DisplayRegistry.lock.unlock() }
    guard let display = eglGetPlatformDisplay(eglPlatform, nativeDisplay, nil) else {
      throw fail("eglGetPlatformDisplay")
    }
    var major: EGLint = 0
    var minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) != 0 else { throw fail("eglInitialize") }
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) != 0 else { throw fail("eglBindAPI") }

    // KMS scans out XRGB8888 (alpha is not shown); a Wayland window with
    // alpha would let the desktop show through, so it asks for none either
    // when it can.
    let config = try windowConfig(display, fail: fail)
    var visual: EGLint = 0
    eglGetConfigAttrib(display, config, EGL_NATIVE_VISUAL_ID, &visual)
    let window = try makeWindow(visual)
    guard let surface = eglCreatePlatformWindowSurface(display, config, window, nil) else {
      throw fail("eglCreatePlatformWindowSurface")
    }
    var context: EGLContext?
    for version in ContextMaker.versions {
      var attributes = [
        EGL_CONTEXT_MAJOR_VERSION, version.major, EGL_CONTEXT_MINOR_VERSION, version.minor,
      ]
      if debug { attributes += [EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE] }
      context = eglCreateContext(display, config, nil, attributes + [EGL_NONE])
      if context == nil, debug {
        context = eglCreateContext(display, config, nil, Array(attributes.prefix(4)) + [EGL_NONE])
      }
      if context != nil { break }
    }
    guard let context else {
      eglDestroySurface(display, surface)
      throw fail("eglCreateContext(OpenGL ES 3.x)")
    }
    guard eglMakeCurrent(display, surface, surface, context) != 0 else {
      eglDestroyContext(display, context)
      eglDestroySurface(display, surface)
      throw fail("eglMakeCurrent")
    }
    DisplayRegistry.retain(display)
    let summary =
      "\(platform.rawValue): EGL \(major).\(minor) (\(eglString(display, EGL_VENDOR))), window surface"
    return GPUContext(
      platform: platform, log: [summary], display: display, context: context, surface: surface,
      gbmDevice: nil, fd: -1, debug: debug, window: true)
  }

  /// An 8-bit RGB(A) window config that renders ES 3: without alpha first.
  private static func windowConfig(
    _ display: EGLDisplay, fail: (String) -> GPUContextError
  ) throws -> EGLConfig {
    let base: [EGLint] = [
      EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8,
    ]
    var count: EGLint = 0
    guard eglChooseConfig(display, base + [EGL_NONE], nil, 0, &count) != 0, count > 0 else {
      throw fail("eglChooseConfig(window, ES 3, RGB8)")
    }
    var configs = [EGLConfig?](repeating: nil, count: Int(count))
    eglChooseConfig(display, base + [EGL_NONE], &configs, count, &count)
    let candidates = configs.prefix(Int(count)).compactMap { $0 }
    func attribute(_ config: EGLConfig, _ name: EGLint) -> EGLint {
      var value: EGLint = 0
      eglGetConfigAttrib(display, config, name, &value)
      return value
    }
    // Exactly 8 bits a channel (not 10-bit configs that sort first on some drivers).
    let eight = candidates.filter {
      attribute($0, EGL_RED_SIZE) == 8 && attribute($0, EGL_GREEN_SIZE) == 8
        && attribute($0, EGL_BLUE_SIZE) == 8
    }
    let opaque = eight.filter { attribute($0, EGL_ALPHA_SIZE) == 0 }
    guard let config = opaque.first ?? eight.first ?? candidates.first else {
      throw fail("eglChooseConfig(window, ES 3, RGB8)")
    }
    return config
  }

  /// How old the back buffer's contents are (`EGL_EXT_buffer_age`): 1 when
  /// it holds the last frame presented, n when the frame n swaps ago, 0 when
  /// unknown (redraw everything). 0 without the extension.
  public func bufferAge() -> Int {
    guard let surface, hasBufferAge else { return 0 }
    var age: EGLint = 0
    guard eglQuerySurface(display, surface, EGL_BUFFER_AGE_EXT, &age) != 0 else { return 0 }
    return Int(age)
  }

  /// Whether the driver reports buffer age (asked once, with the other
  /// extensions, when the context was made).
  public var hasBufferAge: Bool { info.extensions["EGL_EXT_buffer_age"] == true }

  /// Swap interval: 1 waits for vblank (the default), 0 does not (a loop
  /// paced by frame callbacks or flip events waits itself).
  public func setSwapInterval(_ interval: Int) {
    eglSwapInterval(display, EGLint(interval))
  }

  /// Presents the back buffer, telling the compositor which rects changed
  /// (`EGL_KHR_swap_buffers_with_damage`/`EXT_`; rects in surface pixels
  /// with a bottom-left origin, as EGL has them). Empty `damage` means all.
  public func swapBuffers(damage: [PixelRect] = []) throws {
    guard let surface else { return }
    var ok: EGLBoolean
    if !damage.isEmpty, let swap = swapWithDamage {
      var rects: [EGLint] = []
      for r in damage { rects += [EGLint(r.x), EGLint(r.y), EGLint(r.width), EGLint(r.height)] }
      ok = swap(display, surface, &rects, EGLint(damage.count))
    } else {
      ok = eglSwapBuffers(display, surface)
    }
    guard ok != 0 else {
      let error = eglGetError()
      if error == EGL_CONTEXT_LOST {
        throw RendererError.contextLost(reason: "eglSwapBuffers reported EGL_CONTEXT_LOST")
      }
      throw GPUContextError.noContext(reason: "eglSwapBuffers failed (\(eglErrorName(error)))")
    }
  }

  typealias SwapWithDamage = @convention(c) (
    EGLDisplay?, EGLSurface?, UnsafeMutablePointer<EGLint>?, EGLint
  ) -> EGLBoolean

  /// `eglSwapBuffersWithDamageKHR` (or `EXT`) when the display has it.
  static func lookUpSwapWithDamage(_ display: EGLDisplay) -> SwapWithDamage? {
    let extensions = eglExtensionSet(display) ?? []
    if extensions.contains("EGL_KHR_swap_buffers_with_damage") {
      return eglProc("eglSwapBuffersWithDamageKHR", as: SwapWithDamage.self)
    }
    if extensions.contains("EGL_EXT_swap_buffers_with_damage") {
      return eglProc("eglSwapBuffersWithDamageEXT", as: SwapWithDamage.self)
    }
    return nil
  }
}
