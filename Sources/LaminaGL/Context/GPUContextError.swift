/// The EGL platforms Lamina can render on, in order of preference.
public enum EGLPlatformKind: String, CaseIterable, Codable, Sendable {
  /// Mesa's GBM on a `/dev/dri/renderD*` node: a GPU with a DRM driver.
  case gbm
  /// An EGL device from `EGL_EXT_device_enumeration` (NVIDIA's headless path).
  case device
  /// Mesa's surfaceless platform (llvmpipe when there is no GPU).
  case surfaceless
  /// A Wayland compositor's display, for a window (`lamina show`); never
  /// chosen for headless rendering.
  case wayland

  /// The platforms headless rendering chooses from (and `LAMINA_EGL_PLATFORM` names).
  public static let headless: [EGLPlatformKind] = [.gbm, .device, .surfaceless]
}

/// Why no GPU context could be made.
public enum GPUContextError: Error, CustomStringConvertible {
  /// No EGL display could be opened; `tried` says what each step answered.
  case noEGLDisplay(tried: [String])
  /// No display opened because a driver is not installed; `tried` as above.
  case driverMissing(tried: [String])
  /// `LAMINA_EGL_PLATFORM` holds a value that is not one of `allowed`.
  case unknownPlatform(String, allowed: [String])
  /// A display opened but no OpenGL ES 3 context could be created on it.
  case noContext(reason: String)

  /// What to install when the driver is missing.
  static let installHint =
    "Install Mesa's EGL and drivers (apt-get install libegl-mesa0 libgl1-mesa-dri);"
    + " on NVIDIA, install the driver's EGL ICD (libnvidia-egl, listed in"
    + " /usr/share/glvnd/egl_vendor.d/10_nvidia.json)"

  public var description: String {
    switch self {
    case .noEGLDisplay(let tried):
      return "no EGL display could be opened; tried: " + tried.joined(separator: "; ")
    case .driverMissing(let tried):
      return "no EGL display could be opened; tried: " + tried.joined(separator: "; ") + ". "
        + Self.installHint
    case .unknownPlatform(let value, let allowed):
      return "LAMINA_EGL_PLATFORM=\(value) is not an EGL platform Lamina knows; use one of: "
        + allowed.joined(separator: ", ")
    case .noContext(let reason):
      return "no OpenGL ES 3 context: \(reason)"
    }
  }
}
