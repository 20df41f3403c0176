import CEGL
import Foundation
import LaminaFrame
import LaminaPlan

extension GPUContext {
  /// Why EGL says this context is gone, or nil while it is not: making it
  /// current fails with `EGL_CONTEXT_LOST` after a power-management event
  /// or a GPU reset the driver could not hide. Also reports a loss made by
  /// `simulateLoss(reason:)`.
  public func lostReason() -> String? {
    if let simulated = simulatedLoss.reason { return simulated }
    guard eglMakeCurrent(display, surface, surface, context) == 0 else { return nil }
    let error = eglGetError()
    return error == EGL_CONTEXT_LOST ? "EGL_CONTEXT_LOST" : nil
  }

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
