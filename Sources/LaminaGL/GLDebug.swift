import CEGL
import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// OpenGL ES debugging: `KHR_debug` messages on stderr and debug groups that
/// show up in tools such as apitrace and RenderDoc.
///
/// Set `LAMINA_GL_DEBUG=1` to have `GPUContext` ask for a debug context and
/// install the message callback:
///
///     LAMINA_GL_DEBUG=1 lamina render scene.json
///     [GL error] API: GL_INVALID_ENUM in glEnable(...)
package enum GLDebug {
  /// The environment variable that turns debug output on (`1`).
  package static let environmentVariable = "LAMINA_GL_DEBUG"

  /// Whether `environment` asks for GL debug output.
  package static func isRequested(_ environment: [String: String]) -> Bool {
    environment[environmentVariable] == "1"
  }

  /// Installs the `KHR_debug` message callback on the current context; the
  /// callback writes each message to stderr. Returns false where the context
  /// has no `KHR_debug` (neither the extension nor ES 3.2).
  @discardableResult
  package static func installMessageCallback() -> Bool {
    guard
      let install = eglProc("glDebugMessageCallbackKHR", as: PFNGLDEBUGMESSAGECALLBACKKHRPROC.self)
        ?? eglProc("glDebugMessageCallback", as: PFNGLDEBUGMESSAGECALLBACKKHRPROC.self),
      hasKHRDebug()
    else { return false }
    // A C callback cannot capture anything: it only formats and writes.
    let callback: GLDEBUGPROCKHR = { source, type, id, severity, length, message, _ in
      let text: String
      if let message {
        if length >= 0 {
          let bytes = UnsafeRawPointer(message).assumingMemoryBound(to: UInt8.self)
          text = String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(length)), as: UTF8.self)
        } else {
          text = String(cString: message)
        }
      } else {
        text = ""
      }
      let line =
        "[GL \(GLDebug.severityName(severity))] \(GLDebug.sourceName(source))"
        + " \(GLDebug.typeName(type)) #\(id): \(text)\n"
      FileHandle.standardError.write(Data(line.utf8))
    }
    install(callback, nil)
    glEnable(GLenum(GL_DEBUG_OUTPUT_KHR))
    // Synchronous: the message arrives inside the call that caused it, so a
    // breakpoint in the callback shows the culprit on the stack.
    glEnable(GLenum(GL_DEBUG_OUTPUT_SYNCHRONOUS_KHR))
    return true
  }

  /// Opens a named debug group (one per render pass); close it with `popGroup`.
  /// Does nothing where `KHR_debug` is missing.
  package static func pushGroup(_ name: String) {
    guard let push = pushGroupProc.value else { return }
    name.withCString { push(GLenum(GL_DEBUG_SOURCE_APPLICATION_KHR), 0, -1, $0) }
  }

  /// Closes the group `pushGroup` opened.
  package static func popGroup() {
    popGroupProc.value?()
  }

  private struct Proc<T>: @unchecked Sendable { let value: T? }
  private static let pushGroupProc = Proc(
    value: eglProc("glPushDebugGroupKHR", as: PFNGLPUSHDEBUGGROUPKHRPROC.self))
  private static let popGroupProc = Proc(
    value: eglProc("glPopDebugGroupKHR", as: PFNGLPOPDEBUGGROUPKHRPROC.self))

  /// Whether the current context offers `KHR_debug`.
  static func hasKHRDebug() -> Bool {
    var major: GLint = 0
    var minor: GLint = 0
    glGetIntegerv(GLenum(GL_MAJOR_VERSION), &major)
    glGetIntegerv(GLenum(GL_MINOR_VERSION), &minor)
    return (major, minor) >= (3, 2) || GLQuery.extensions().contains("GL_KHR_debug")
  }

  static func sourceName(_ source: GLenum) -> String {
    switch Int32(source) {
    case GL_DEBUG_SOURCE_API_KHR: return "API"
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM_KHR: return "window system"
    case GL_DEBUG_SOURCE_SHADER_COMPILER_KHR: return "shader compiler"
    case GL_DEBUG_SOURCE_THIRD_PARTY_KHR: return "third party"
    case GL_DEBUG_SOURCE_APPLICATION_KHR: return "application"
    default: return "other"
    }
  }

  static func typeName(_ type: GLenum) -> String {
    switch Int32(type) {
    case GL_DEBUG_TYPE_ERROR_KHR: return "error"
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR_KHR: return "deprecated"
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR_KHR: return "undefined behavior"
    case GL_DEBUG_TYPE_PORTABILITY_KHR: return "portability"
    case GL_DEBUG_TYPE_PERFORMANCE_KHR: return "performance"
    case GL_DEBUG_TYPE_MARKER_KHR: return "marker"
    case GL_DEBUG_TYPE_PUSH_GROUP_KHR: return "push group"
    case GL_DEBUG_TYPE_POP_GROUP_KHR: return "pop group"
    default: return "other"
    }
  }

  static func severityName(_ severity: GLenum) -> String {
    switch Int32(severity) {
    case GL_DEBUG_SEVERITY_HIGH_KHR: return "error"
    case GL_DEBUG_SEVERITY_MEDIUM_KHR: return "warning"
    case GL_DEBUG_SEVERITY_LOW_KHR: return "note"
    default: return "info"
    }
  }
}

/// The name of a `glGetError` code, e.g. `GL_INVALID_ENUM`.
func glErrorName(_ code: GLenum) -> String {
  switch Int32(code) {
  case GL_NO_ERROR: return "GL_NO_ERROR"
  case GL_INVALID_ENUM: return "GL_INVALID_ENUM"
  case GL_INVALID_VALUE: return "GL_INVALID_VALUE"
  case GL_INVALID_OPERATION: return "GL_INVALID_OPERATION"
  case GL_INVALID_FRAMEBUFFER_OPERATION: return "GL_INVALID_FRAMEBUFFER_OPERATION"
  case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
  default: return String(format: "GL error 0x%04x", code)
  }
}

/// In debug builds, drains `glGetError` and writes each error to stderr with
/// `location` (e.g. `"upload texture"`); returns the errors. Release builds
/// skip the check (it stalls the pipeline) and return none.
///
///     glTexImage2D(...)
///     glCheckError("upload layer contents")
@discardableResult
package func glCheckError(_ location: String) -> [GLenum] {
  #if DEBUG
    var errors: [GLenum] = []
    // glGetError returns one flag per call; a broken context can return the
    // same one forever, so stop after a few.
    while errors.count < 8 {
      let code = glGetError()
      if code == GLenum(GL_NO_ERROR) { break }
      errors.append(code)
    }
    if !errors.isEmpty {
      let names = errors.map(glErrorName).joined(separator: ", ")
      FileHandle.standardError.write(Data("[GL error] \(location): \(names)\n".utf8))
    }
    return errors
  #else
    return []
  #endif
}
