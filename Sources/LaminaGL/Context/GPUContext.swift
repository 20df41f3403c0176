import CEGL
import CGBM
import CGLES3
import Foundation
import Lamina
import LaminaFrame
import LaminaPlan

/// An OpenGL ES 3 context with no surface, current on the calling thread.
/// Rendering goes into framebuffer objects.
///
/// The display comes from the first EGL platform that works, in this order:
/// GBM on a `/dev/dri/renderD*` node, a hardware EGL device (NVIDIA's
/// headless path), Mesa's surfaceless platform, a software EGL device.
/// `LAMINA_EGL_PLATFORM=gbm|device|surfaceless` tries only that platform;
/// `selectionLog` says what each step answered. `LAMINA_GL_DEBUG=1` asks for
/// a debug context and writes `KHR_debug` messages to stderr.
///
/// An EGL display is shared by every context on it in the process and is
/// terminated only when its last `GPUContext` goes away.
///
///     let context = try GPUContext.shared()   // ES 3 current on this thread
///     print(context.info.glRenderer)
public final class GPUContext: @unchecked Sendable {
  /// Which EGL platform the display came from.
  public let platform: EGLPlatformKind
  /// What selection tried, in order, and how each step ended.
  public let selectionLog: [String]
  /// The GPU's versions, limits and extensions, queried at creation.
  public let info: GPUInfo
  /// Whether the `KHR_debug` message callback was installed (`LAMINA_GL_DEBUG=1`).
  public let debugOutput: Bool
  let display: EGLDisplay
  let context: EGLContext
  /// A 1×1 pbuffer where the display cannot go without a surface; else nil.
  let surface: EGLSurface?
  /// Whether `surface` is a window's (`GPUContext.window`): such a context
  /// is replaced with its window, never by a renderer alone.
  public let isWindow: Bool
  private let gbmDevice: OpaquePointer?
  private let fd: Int32
  /// See `keepAlive(_:)`. Stored properties are released after `deinit`
  /// has run, so these go after the EGL surface and display.
  private var nativeOwners: [AnyObject] = []
  /// A loss made on purpose, for tests (`GPUContext+Loss.swift`).
  let simulatedLoss = SimulatedLoss()
  /// The one owner of this context's GL state (every `gl*` call goes through it).
  package let device = GLDevice()
  /// Looked up on the first swap with damage (window surfaces only).
  lazy var swapWithDamage: SwapWithDamage? = Self.lookUpSwapWithDamage(display)

  private convenience init(selection: PlatformSelection<OpenedDisplay>, debug: Bool) {
    let opened = selection.opened
    self.init(
      platform: selection.platform, log: selection.log, display: opened.display,
      context: opened.context, surface: opened.surface, gbmDevice: opened.gbmDevice,
      fd: opened.fd, debug: debug)
  }

  /// Takes over a display (registered in `DisplayRegistry`) with a context
  /// current on it.
  init(
    platform: EGLPlatformKind, log: [String], display: EGLDisplay, context: EGLContext,
    surface: EGLSurface?, gbmDevice: OpaquePointer?, fd: Int32, debug: Bool,
    window: Bool = false
  ) {
    self.platform = platform
    selectionLog = log
    self.display = display
    self.context = context
    self.surface = surface
    isWindow = window
    self.gbmDevice = gbmDevice
    self.fd = fd
    // The context is current: ask it now, once.
    debugOutput = debug && GLDebug.installMessageCallback()
    info = GPUInfo.query(display: display, platform: platform, log: log)
    device.context = self
    device.texelOrder = Self.texelOrder(renderer: info.glRenderer, device: device)
  }

  /// BGRA where llvmpipe draws (its linear rasterizer needs it) and the
  /// driver makes BGRA textures, else RGBA; `LAMINA_TEXELS=rgba|bgra`
  /// chooses (BGRA only where the extension is there).
  static func texelOrder(renderer: String, device: GLDevice) -> TexelOrder {
    guard device.supports("GL_EXT_texture_format_BGRA8888") else { return .rgba }
    switch ProcessInfo.processInfo.environment["LAMINA_TEXELS"] {
    case "rgba": return .rgba
    case "bgra": return .bgra
    default: return renderer.lowercased().contains("llvmpipe") ? .bgra : .rgba
    }
  }

  deinit {
    DisplayRegistry.lock.lock()
    defer { DisplayRegistry.lock.unlock() }
    if eglGetCurrentContext() == context {
      eglMakeCurrent(display, nil, nil, nil)
    }
    if let surface { eglDestroySurface(display, surface) }
    eglDestroyContext(display, context)
    if DisplayRegistry.release(display) {
      eglTerminate(display)
      // The GBM device must outlive the display made on it.
      if let gbmDevice { gbm_device_destroy(gbmDevice) }
      if fd >= 0 { close(fd) }
    }
  }

  /// Keeps `owner` (the holder of the native window and display a window
  /// surface was made on: a `gbm_surface` and its `gbm_device`) alive until
  /// this context has destroyed its EGL surface and, when last, its display:
  /// EGL must not outlive what it was made on, whoever drops the context
  /// last. Call it once, right after creating the context.
  public func keepAlive(_ owner: AnyObject) {
    nativeOwners.append(owner)
  }

  /// Makes the context current on the calling thread; false when EGL refuses
  /// (e.g. `EGL_BAD_ACCESS`: the context is current on another thread).
  @discardableResult
  public func makeCurrent() -> Bool {
    eglMakeCurrent(display, surface, surface, context) != 0
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var sharedContext: GPUContext?

  /// The process's context, created on first use (see `create`) and made
  /// current on the calling thread. After `forgetShared(_:)` of a lost one,
  /// a new one.
  public static func shared() throws -> GPUContext {
    lock.lock()
    defer { lock.unlock() }
    if let sharedContext {
      sharedContext.makeCurrent()
      return sharedContext
    }
    let made = try create()
    sharedContext = made
    return made
  }

  /// Makes `shared()` create a new context from now on when `context` is
  /// the shared one (it was lost): a lost context is never handed out
  /// again. Its holders keep it until they see the loss themselves.
  public static func forgetShared(_ context: GPUContext) {
    lock.lock()
    defer { lock.unlock() }
    if sharedContext === context { sharedContext = nil }
  }

  /// Opens a display as the type documentation describes, creates an
  /// OpenGL ES 3.2, 3.1 or 3.0 context on it and makes it current.
  ///
  /// - Throws: `GPUContextError.unknownPlatform` for a bad
  ///   `LAMINA_EGL_PLATFORM`; `.driverMissing` or `.noEGLDisplay`, with the
  ///   selection log, when no platform works.
  public static func create(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> GPUContext {
    let debug = GLDebug.isRequested(environment)
    DisplayRegistry.lock.lock()
    defer { DisplayRegistry.lock.unlock() }
    let selection = try PlatformSelector.select(
      probe: EGLProbe(debug: debug), environment: environment)
    DisplayRegistry.retain(selection.opened.display)
    return GPUContext(selection: selection, debug: debug)
  }
}
