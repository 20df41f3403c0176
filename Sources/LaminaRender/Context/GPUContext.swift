import CEGL
import CGLES3
import Foundation

/// An OpenGL ES 3 context with no surface, current on the calling thread.
/// Rendering goes into framebuffer objects.
///
/// One EGL display serves the whole process and is never terminated while
/// contexts live; `shared` hands out one context for the process.
public final class GPUContext: @unchecked Sendable {
  /// Which EGL platform the display came from.
  public let platform: EGLPlatformKind
  /// What selection tried, in order, and how each step ended.
  public let selectionLog: [String]
  let display: EGLDisplay
  let context: EGLContext

  init(platform: EGLPlatformKind, log: [String], display: EGLDisplay, context: EGLContext) {
    self.platform = platform
    self.selectionLog = log
    self.display = display
    self.context = context
  }

  /// Makes the context current on the calling thread.
  public func makeCurrent() {
    eglMakeCurrent(display, nil, nil, context)
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var sharedContext: GPUContext?

  /// The process's context, created on first use (see `create`).
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

  /// Opens a display and creates a context (surfaceless Mesa for now).
  public static func create(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> GPUContext {
    var log: [String] = []
    guard let getPlatformDisplay = eglProc("eglGetPlatformDisplayEXT", as: PFNEGLGETPLATFORMDISPLAYEXTPROC.self)
    else { throw GPUContextError.noEGLDisplay(tried: ["eglGetPlatformDisplayEXT missing"]) }
    guard let display = getPlatformDisplay(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), nil, nil) else {
      throw GPUContextError.noEGLDisplay(tried: ["surfaceless: no display"])
    }
    var major: EGLint = 0, minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) != 0 else {
      throw GPUContextError.noEGLDisplay(tried: ["surfaceless: eglInitialize failed"])
    }
    log.append("surfaceless: EGL \(major).\(minor)")
    let context = try makeContext(display)
    let made = GPUContext(platform: .surfaceless, log: log, display: display, context: context)
    made.makeCurrent()
    return made
  }

  static func makeContext(_ display: EGLDisplay) throws -> EGLContext {
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) != 0 else {
      throw GPUContextError.noContext(reason: "eglBindAPI(OpenGL ES) failed")
    }
    for (major, minor) in [(3, 2), (3, 1), (3, 0)] {
      let attributes: [EGLint] = [
        EGL_CONTEXT_MAJOR_VERSION, EGLint(major), EGL_CONTEXT_MINOR_VERSION, EGLint(minor), EGL_NONE,
      ]
      if let context = eglCreateContext(display, nil, nil, attributes) { return context }
    }
    throw GPUContextError.noContext(
      reason: String(format: "eglCreateContext failed (0x%04x)", eglGetError()))
  }
}

/// The EGL platforms Lamina can render on, in order of preference.
public enum EGLPlatformKind: String, CaseIterable, Sendable {
  case gbm, device, surfaceless
}

/// Why no GPU context could be made.
public enum GPUContextError: Error, CustomStringConvertible {
  /// No EGL display could be opened; `tried` says what each step answered.
  case noEGLDisplay(tried: [String])
  /// A display opened but no OpenGL ES 3 context could be created on it.
  case noContext(reason: String)

  public var description: String {
    switch self {
    case .noEGLDisplay(let tried):
      return "no EGL display could be opened (" + tried.joined(separator: "; ")
        + "); install Mesa's drivers: apt-get install libegl-mesa0 libgl1-mesa-dri"
    case .noContext(let reason):
      return "no OpenGL ES 3 context: \(reason)"
    }
  }
}

/// Looks up an EGL or GL extension entry point.
func eglProc<T>(_ name: String, as type: T.Type) -> T? {
  guard let pointer = eglGetProcAddress(name) else { return nil }
  return unsafeBitCast(pointer, to: type)
}
