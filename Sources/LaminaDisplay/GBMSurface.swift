import Foundation
import LaminaFrame
import LaminaGL
import LaminaRender

/// A GBM scanout surface of the mode's size on a card (`GBMWindow`, in
/// LaminaGL with every GBM and EGL call), as the KMS output uses it: each
/// swap leaves a buffer that is locked and scanned out.
final class GBMSurface: ScanoutSurface {
  let context: GPUContext
  private let window: GBMWindow
  private let card: DRMCard

  /// A `width`×`height` scanout surface on `card` and an ES 3 context
  /// current on it.
  ///
  /// - Throws: `KMSError.failed` naming the GBM step, or the context's error.
  init(card: DRMCard, width: Int, height: Int) throws {
    self.card = card
    window = try GBMWindow(fd: card.fd, owner: card, width: width, height: height) {
      step, reason in KMSError.failed(device: card.path, step: step, reason: reason)
    }
    context = window.context
  }

  func swapBuffers(damage: [PixelRect]) throws {
    try context.swapBuffers(damage: damage)
  }

  func lockFrontBuffer() throws -> ScanoutBuffer {
    guard let bo = window.lockFrontBuffer() else {
      throw KMSError.failed(
        device: card.path, step: "locking the drawn buffer (gbm_surface_lock_front_buffer)",
        reason: "GBM returned no buffer")
    }
    return ScanoutBuffer(
      id: bo.id, handle: bo.handle, width: bo.width, height: bo.height, stride: bo.stride,
      format: bo.format)
  }

  func releaseBuffer(_ buffer: ScanoutBuffer) { window.releaseBuffer(id: buffer.id) }
}
