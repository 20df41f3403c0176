import CEGL
import CGBM
import Foundation
import LaminaFrame
import LaminaPlan

/// The real `PlatformProbe`: opens EGL displays and makes contexts on them.
/// Each `try…` either returns a display with its context current, or cleans
/// up everything it opened and says why it failed.
///
/// Call with `DisplayRegistry.lock` held (see `DisplayRegistry`).
final class EGLProbe: PlatformProbe {
  /// Where render nodes live; `/dev/dri` on Linux.
  let driDirectory: String
  /// Whether to ask for a debug context (`LAMINA_GL_DEBUG=1`).
  let debug: Bool
  private var deviceHandles: [EGLDeviceEXT?] = []
  private let getPlatformDisplay: PFNEGLGETPLATFORMDISPLAYEXTPROC?

  init(driDirectory: String = "/dev/dri", debug: Bool) {
    self.driDirectory = driDirectory
    self.debug = debug
    getPlatformDisplay = eglProc(
      "eglGetPlatformDisplayEXT", as: PFNEGLGETPLATFORMDISPLAYEXTPROC.self)
  }

  func clientExtensions() -> Set<String>? { eglExtensionSet(nil) }

  func renderNodes() -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: driDirectory)) ?? []
    return
      names
      .filter { $0.hasPrefix("renderD") }
      .sorted { (Int($0.dropFirst(7)) ?? .max, $0) < (Int($1.dropFirst(7)) ?? .max, $1) }
      .map { driDirectory + "/" + $0 }
  }

  func tryGBM(node: String) -> ProbeOutcome<OpenedDisplay> {
    let fd = open(node, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      let code = errno
      let reason = String(cString: strerror(code))
      let hint = code == EACCES ? "; is the user in the render group?" : ""
      return .failed("open failed (\(reason)\(hint))")
    }
    guard let gbm = gbm_create_device(fd) else {
      close(fd)
      return .failed("gbm_create_device failed (no GBM backend for this driver)")
    }
    let outcome = openDisplay(
      platform: EGL_PLATFORM_GBM_KHR, native: UnsafeMutableRawPointer(gbm), source: node)
    guard case .opened(var opened, let summary, let software) = outcome else {
      gbm_device_destroy(gbm)
      close(fd)
      return outcome
    }
    opened.gbmDevice = gbm
    opened.fd = fd
    if let name = gbm_device_get_backend_name(gbm) {
      let backend = " [GBM backend \(String(cString: name))]"
      return .opened(opened, summary: summary + backend, software: software)
    }
    return .opened(opened, summary: summary, software: software)
  }

  func devices() -> Result<[ProbedDevice], ProbeError> {
    guard let query = eglProc("eglQueryDevicesEXT", as: PFNEGLQUERYDEVICESEXTPROC.self) else {
      return .failure(ProbeError("eglQueryDevicesEXT is missing"))
    }
    var count: EGLint = 0
    guard query(0, nil, &count) != 0 else {
      return .failure(ProbeError("eglQueryDevicesEXT failed (\(lastEGLError()))"))
    }
    var handles = [EGLDeviceEXT?](repeating: nil, count: Int(count))
    guard count == 0 || query(count, &handles, &count) != 0 else {
      return .failure(ProbeError("eglQueryDevicesEXT failed (\(lastEGLError()))"))
    }
    deviceHandles = Array(handles.prefix(Int(count)))
    let queryString = eglProc("eglQueryDeviceStringEXT", as: PFNEGLQUERYDEVICESTRINGEXTPROC.self)
    return .success(
      deviceHandles.enumerated().map { index, handle in
        describe(index: index, handle: handle, queryString: queryString)
      })
  }

  private func describe(
    index: Int, handle: EGLDeviceEXT?, queryString: PFNEGLQUERYDEVICESTRINGEXTPROC?
  ) -> ProbedDevice {
    func string(_ name: EGLint) -> String? {
      guard let queryString, let handle, let value = queryString(handle, name) else { return nil }
      return String(cString: value)
    }
    let extensions = (string(EGL_EXTENSIONS) ?? "").split(separator: " ").map(String.init)
    var parts: [String] = []
    // Each query is asked only where the device lists its extension: asking
    // for an unknown name sets an EGL error.
    if extensions.contains("EGL_EXT_device_query_name"), let renderer = string(EGL_RENDERER_EXT) {
      parts.append(renderer)
    }
    if extensions.contains("EGL_EXT_device_drm_render_node"),
      let node = string(EGL_DRM_RENDER_NODE_FILE_EXT)
    {
      parts.append(node)
    } else if extensions.contains("EGL_EXT_device_drm"), let file = string(EGL_DRM_DEVICE_FILE_EXT)
    {
      parts.append(file)
    }
    let isSoftware = extensions.contains("EGL_MESA_device_software")
    if isSoftware { parts.append("software") }
    if parts.isEmpty {
      parts.append(extensions.isEmpty ? "no extensions" : extensions.joined(separator: " "))
    }
    return ProbedDevice(index: index, name: parts.joined(separator: ", "), isSoftware: isSoftware)
  }

  func tryDevice(_ index: Int) -> ProbeOutcome<OpenedDisplay> {
    guard deviceHandles.indices.contains(index), let handle = deviceHandles[index] else {
      return .failed("no such EGL device")
    }
    return openDisplay(platform: EGL_PLATFORM_DEVICE_EXT, native: handle, source: "device \(index)")
  }

  func trySurfaceless() -> ProbeOutcome<OpenedDisplay> {
    openDisplay(platform: EGL_PLATFORM_SURFACELESS_MESA, native: nil, source: "surfaceless")
  }

  func release(_ opened: OpenedDisplay) {
    if eglGetCurrentContext() == opened.context {
      eglMakeCurrent(opened.display, nil, nil, nil)
    }
    if let surface = opened.surface { eglDestroySurface(opened.display, surface) }
    eglDestroyContext(opened.display, opened.context)
    DisplayRegistry.terminateIfUnused(opened.display)
    if let gbm = opened.gbmDevice { gbm_device_destroy(gbm) }
    if opened.fd >= 0 { close(opened.fd) }
  }

  /// Gets, initializes and makes a context on one platform display; on
  /// failure terminates the display unless other contexts live on it.
  private func openDisplay(
    platform: Int32, native: UnsafeMutableRawPointer?, source: String
  ) -> ProbeOutcome<OpenedDisplay> {
    guard let getPlatformDisplay else {
      return .failed(
        "eglGetPlatformDisplayEXT is missing (libEGL without EGL_EXT_platform_base)",
        driverMissing: true)
    }
    guard let display = getPlatformDisplay(EGLenum(platform), native, nil) else {
      return .failed("eglGetPlatformDisplayEXT failed (\(lastEGLError()))")
    }
    var major: EGLint = 0
    var minor: EGLint = 0
    guard eglInitialize(display, &major, &minor) != 0 else {
      let code = eglGetError()
      // EGL_NOT_INITIALIZED here means the driver could not be loaded (e.g.
      // Mesa without swrast_dri.so, or no GBM backend for the GPU).
      return .failed(
        "eglInitialize failed (\(eglErrorName(code)))", driverMissing: code == EGL_NOT_INITIALIZED)
    }
    switch ContextMaker.make(on: display, debug: debug) {
    case .success(let made):
      let opened = OpenedDisplay(
        display: display, context: made.context, surface: made.surface, source: source)
      return .opened(opened, summary: made.summary, software: made.software)
    case .failure(let error):
      DisplayRegistry.terminateIfUnused(display)
      return .failed(error.message)
    }
  }
}
