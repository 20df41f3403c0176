import CGLES3
import LaminaFrame
import LaminaPlan

extension GLDevice {
  /// Why the GL context can no longer be trusted, or nil while it can: a
  /// reset the driver reports (`glGetGraphicsResetStatus`, meaningful on a
  /// context made with a reset notification strategy, see `ContextMaker`),
  /// `GL_CONTEXT_LOST`, or `GL_OUT_OF_MEMORY` (after which the state of
  /// every object is undefined). Other pending errors are read and dropped:
  /// in debug builds `check(_:)` has already turned them into thrown ones.
  package func lostContextReason() -> String? {
    if let reset = resetReason() { return reset }
    // Errors are flags: each call returns and clears one of them.
    for _ in 0..<8 {
      switch Int32(glGetError()) {
      case GL_NO_ERROR: return nil
      case GL_CONTEXT_LOST: return "GL_CONTEXT_LOST"
      case GL_OUT_OF_MEMORY: return "GL_OUT_OF_MEMORY"
      default: continue
      }
    }
    return nil
  }
}

extension GLDevice {
  /// The reset the driver reports (`glGetGraphicsResetStatus`), or nil:
  /// one call, cheap enough for the end of every frame.
  package func resetReason() -> String? {
    switch Int32(glGetGraphicsResetStatus()) {
    case GL_NO_ERROR: return nil
    case GL_GUILTY_CONTEXT_RESET: return "GPU reset caused by this context"
    case GL_INNOCENT_CONTEXT_RESET: return "GPU reset caused by another context"
    default: return "GPU reset"
    }
  }
}

extension RendererError {
  /// Whether the error means the context is gone (a new context and
  /// renderer may succeed where this one failed).
  public var meansContextLost: Bool {
    switch self {
    case .contextLost: return true
    // Debug builds check glGetError after every frame and throw these.
    case .deviceError(let code, _): return code == 0x0505 || code == 0x0507
    default: return false
    }
  }
}
