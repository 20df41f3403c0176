import CEGL
import CGLES3
import LaminaFrame
import LaminaPlan

/// An initialized EGL display with an OpenGL ES 3 context on it, current on
/// the calling thread.
struct OpenedDisplay {
  var display: EGLDisplay
  var context: EGLContext
  /// A 1×1 pbuffer where the display cannot make a context current without
  /// a surface (no `EGL_KHR_surfaceless_context`); nil otherwise.
  var surface: EGLSurface?
  /// The GBM device and its render node's file descriptor (GBM only).
  var gbmDevice: OpaquePointer?
  var fd: Int32 = -1
  /// What the probe opened, e.g. `/dev/dri/renderD128` or `device 0`.
  var source: String
}

/// Creates the OpenGL ES 3 context on an initialized display.
enum ContextMaker {
  /// ES versions to ask for, best first.
  static let versions: [(major: EGLint, minor: EGLint)] = [(3, 2), (3, 1), (3, 0)]

  /// A context (and a pbuffer when needed), made current; or why not.
  static func make(on display: EGLDisplay, debug: Bool) -> Result<
    (context: EGLContext, surface: EGLSurface?, summary: String, software: Bool), ProbeError
  > {
    let extensions = eglExtensionSet(display) ?? []
    let configless =
      extensions.contains("EGL_KHR_no_config_context")
      || extensions.contains("EGL_MESA_configless_context")
    let surfaceless = extensions.contains("EGL_KHR_surfaceless_context")
    guard eglBindAPI(EGLenum(EGL_OPENGL_ES_API)) != 0 else {
      return .failure(ProbeError("eglBindAPI(EGL_OPENGL_ES_API) failed (\(lastEGLError()))"))
    }

    // With both extensions the context needs neither a config nor a surface;
    // otherwise pick an ES 3 config that can back a 1×1 pbuffer.
    var config: EGLConfig? = nil
    if !(configless && surfaceless) {
      var attributes: [EGLint] = [
        EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT,
        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
      ]
      if !surfaceless { attributes += [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT] }
      attributes.append(EGL_NONE)
      var count: EGLint = 0
      guard eglChooseConfig(display, attributes, &config, 1, &count) != 0, count > 0,
        config != nil
      else {
        return .failure(
          ProbeError(
            "no EGL_KHR_no_config_context/EGL_KHR_surfaceless_context and no ES 3"
              + " pbuffer config (\(lastEGLError()))"))
      }
    }

    let robust = extensions.contains("EGL_EXT_create_context_robustness")
    guard
      let (context, version) = createContext(
        display, config: config, debug: debug, robust: robust)
    else {
      return .failure(ProbeError("eglCreateContext(OpenGL ES 3.x) failed (\(lastEGLError()))"))
    }

    var surface: EGLSurface? = nil
    if !surfaceless {
      let attributes: [EGLint] = [EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE]
      surface = eglCreatePbufferSurface(display, config, attributes)
      if surface == nil {
        let error = lastEGLError()
        eglDestroyContext(display, context)
        return .failure(ProbeError("eglCreatePbufferSurface(1×1) failed (\(error))"))
      }
    }

    guard eglMakeCurrent(display, surface, surface, context) != 0 else {
      let error = lastEGLError()
      if let surface { eglDestroySurface(display, surface) }
      eglDestroyContext(display, context)
      return .failure(ProbeError("eglMakeCurrent failed (\(error))"))
    }
    // A driver can hand out a context that cannot draw; ask it.
    guard GLQuery.string(GL_VERSION).hasPrefix("OpenGL ES 3") else {
      eglMakeCurrent(display, nil, nil, nil)
      if let surface { eglDestroySurface(display, surface) }
      eglDestroyContext(display, context)
      return .failure(ProbeError("context reports no OpenGL ES 3 (GL_VERSION missing or < 3)"))
    }

    var major: EGLint = 0
    var minor: EGLint = 0
    eglInitialize(display, &major, &minor)  // already initialized: only reports the version
    let vendor = eglString(display, EGL_VENDOR)
    let target = surface == nil ? "no surface" : "1×1 pbuffer"
    let summary = "EGL \(major).\(minor) (\(vendor)), OpenGL ES \(version) context, \(target)"
    let renderer = GLQuery.string(GL_RENDERER)
    let software = softwareRenderers.contains { renderer.lowercased().contains($0) }
    return .success((context, surface, summary + (software ? ", \(renderer)" : ""), software))
  }

  /// `GL_RENDERER` words that mean a software rasterizer.
  static let softwareRenderers = ["llvmpipe", "softpipe", "swrast", "lavapipe", "swiftshader"]

  /// Tries ES 3.2, 3.1, 3.0, then the EGL 1.4 way of asking for ES 3.
  /// With `robust` (EGL_EXT_create_context_robustness), each is first asked
  /// to report GPU resets (`EGL_LOSE_CONTEXT_ON_RESET`), so that
  /// `glGetGraphicsResetStatus` tells a long-running process that its
  /// context is gone; drivers that cannot are asked again without it.
  private static func createContext(
    _ display: EGLDisplay, config: EGLConfig?, debug: Bool, robust: Bool
  ) -> (EGLContext, String)? {
    var attempts: [(attributes: [EGLint], version: String)] = versions.map {
      (
        [EGL_CONTEXT_MAJOR_VERSION, $0.major, EGL_CONTEXT_MINOR_VERSION, $0.minor],
        "\($0.major).\($0.minor)"
      )
    }
    attempts.append(([EGL_CONTEXT_CLIENT_VERSION, 3], "3"))
    if robust {
      let reset = [
        EGL_CONTEXT_OPENGL_RESET_NOTIFICATION_STRATEGY_EXT, EGL_LOSE_CONTEXT_ON_RESET_EXT,
      ]
      attempts = attempts.flatMap { [($0.attributes + reset, $0.version), $0] }
    }
    for attempt in attempts {
      // A debug context makes drivers report more through KHR_debug; not every
      // driver accepts the flag on ES, so fall back to a plain context.
      if debug,
        let context = eglCreateContext(
          display, config, nil, attempt.attributes + [EGL_CONTEXT_OPENGL_DEBUG, EGL_TRUE, EGL_NONE])
      {
        return (context, attempt.version)
      }
      if let context = eglCreateContext(display, config, nil, attempt.attributes + [EGL_NONE]) {
        return (context, attempt.version)
      }
    }
    return nil
  }
}
