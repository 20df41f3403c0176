import CEGL
import Foundation
import LaminaFrame
import LaminaPlan

extension GPUContext {
  /// Why EGL says this context is gone, or nil while it is not: making it
  /// current fails (`EGL_CONTEXT_LOST` after a power-management event or a
  /// GPU reset the driver could not hide; `EGL_BAD_CONTEXT` once it was
  /// destroyed under its holder; see `makeCurrentFailure()`). Also reports
  /// a loss made by `simulateLoss(reason:)`.
  public func lostReason() -> String? {
    if let simulated = simulatedLoss.reason { return simulated }
    return makeCurrentFailure()
  }

  /// Makes the context current on the calling thread and returns nil, or
  /// says why it cannot be (the EGL error, and what it means here): a
  /// context that cannot be made current can draw nothing more, and what
  /// lives on it is gone with it.
  public func makeCurrentFailure() -> String? {
    guard eglMakeCurrent(display, surface, surface, context) == 0 else { return nil }
    let error = eglGetError()
    let meaning: String
    switch error {
    case EGL_CONTEXT_LOST: meaning = "a GPU reset or power event"
    case EGL_BAD_CONTEXT: meaning = "the context was destroyed"
    case EGL_BAD_SURFACE, EGL_BAD_NATIVE_WINDOW, EGL_BAD_CURRENT_SURFACE:
      meaning = "its surface was destroyed"
    case EGL_BAD_ACCESS: meaning = "it is current on another thread"
    case EGL_NOT_INITIALIZED, EGL_BAD_DISPLAY: meaning = "its EGL display was terminated"
    default: meaning = "EGL refused it"
    }
    return "eglMakeCurrent failed with \(eglErrorName(error)): \(meaning)"
  }

  /// Whether this context is the one current on the calling thread. A
  /// frame that ends with another context current (or none) drew nowhere,
  /// or into another renderer's objects: `glCheckFramebufferStatus`
  /// answers 0 and every other call does nothing.
  public var isCurrent: Bool { eglGetCurrentContext() == context }

  /// Makes `lostReason()` report a loss from now on, as a GPU reset would:
  /// for testing the recovery of a program that recreates its context
  /// (`lamina batch` does, on `LAMINA_SIMULATE_CONTEXT_LOSS`). The context
  /// itself keeps working; drop it and create another.
  public func simulateLoss(reason: String) {
    simulatedLoss.reason = reason
  }
}

/// The loss `GPUContext.simulateLoss(reason:)` set, shared by every copy of
/// a context's reference.
final class SimulatedLoss: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: String?

  var reason: String? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}
