import CEGL
import Foundation
import LaminaFrame
import LaminaPlan

/// Looks up an EGL or GL extension entry point.
func eglProc<T>(_ name: String, as type: T.Type) -> T? {
  guard let pointer = eglGetProcAddress(name) else { return nil }
  return unsafeBitCast(pointer, to: type)
}

/// The extension names in `eglQueryString(display, EGL_EXTENSIONS)`; pass nil
/// for the client extensions. Nil when EGL answers no string.
func eglExtensionSet(_ display: EGLDisplay?) -> Set<String>? {
  guard let string = eglQueryString(display, EGL_EXTENSIONS) else { return nil }
  return Set(String(cString: string).split(separator: " ").map(String.init))
}

/// `eglQueryString`, trimmed, or "" when EGL has no answer.
func eglString(_ display: EGLDisplay?, _ name: EGLint) -> String {
  guard let string = eglQueryString(display, name) else { return "" }
  return String(cString: string).trimmingCharacters(in: .whitespaces)
}

/// The name of an EGL error code, e.g. `EGL_NOT_INITIALIZED`.
func eglErrorName(_ code: EGLint) -> String {
  switch code {
  case EGL_SUCCESS: return "EGL_SUCCESS"
  case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED"
  case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS"
  case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC"
  case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE"
  case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG"
  case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT"
  case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE"
  case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY"
  case EGL_BAD_MATCH: return "EGL_BAD_MATCH"
  case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP"
  case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW"
  case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER"
  case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE"
  case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST"
  case EGL_BAD_DEVICE_EXT: return "EGL_BAD_DEVICE_EXT"
  default: return String(format: "EGL error 0x%04x", code)
  }
}

/// The calling thread's last EGL error, by name.
func lastEGLError() -> String { eglErrorName(eglGetError()) }

/// Counts the GPU contexts living on each EGL display, so that a display is
/// terminated only when none is left. EGL keeps one display per platform and
/// native display in a process, and `eglTerminate` has no reference count:
/// terminating a display that another context still uses would pull the
/// context out from under it.
///
/// `lock` also serializes context creation, so that a failing probe cannot
/// terminate a display between another thread's creating a context on it
/// and registering that context.
enum DisplayRegistry {
  static let lock = NSLock()
  nonisolated(unsafe) private static var users: [UnsafeMutableRawPointer: Int] = [:]

  /// Records one more context on `display`. Call with `lock` held.
  static func retain(_ display: EGLDisplay) {
    users[display, default: 0] += 1
  }

  /// Records one context fewer; true when it was the last. Call with `lock` held.
  static func release(_ display: EGLDisplay) -> Bool {
    let left = (users[display] ?? 1) - 1
    users[display] = left > 0 ? left : nil
    return left <= 0
  }

  /// Terminates `display` unless a context lives on it. Call with `lock` held.
  static func terminateIfUnused(_ display: EGLDisplay) {
    if users[display] == nil { eglTerminate(display) }
  }
}
