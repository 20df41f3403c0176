import CGBM
import Foundation
import LaminaRender

/// A `gbm_surface` of the mode's size on a card, with the EGL context that
/// draws into it: each swap leaves a buffer that is locked and scanned out.
final class GBMSurface: ScanoutSurface {
  let context: GPUContext
  private let native: NativeObjects

  /// Owns the `gbm_device` and `gbm_surface` (and the card, whose
  /// descriptor GBM uses): the context keeps it, so it is destroyed only
  /// after EGL has let go of them, whoever drops the context last.
  private final class NativeObjects {
    let card: DRMCard
    let device: OpaquePointer
    var surface: OpaquePointer?
    /// False until the context exists: an EGL display that failed half-way
    /// may still point at the device, and the process is leaving anyway.
    var destroys = false

    init(card: DRMCard, device: OpaquePointer) {
      self.card = card
      self.device = device
    }

    deinit {
      guard destroys else { return }
      if let surface { gbm_surface_destroy(surface) }
      gbm_device_destroy(device)
    }
  }

  /// A `width`×`height` scanout surface on `card` and an ES 3 context
  /// current on it.
  ///
  /// - Throws: `KMSError.failed` naming the GBM step, or the context's error.
  init(card: DRMCard, width: Int, height: Int) throws {
    guard let device = gbm_create_device(card.fd) else {
      throw KMSError.failed(
        device: card.path, step: "creating a GBM device (gbm_create_device)",
        reason: String(cString: strerror(errno)))
    }
    let native = NativeObjects(card: card, device: device)
    context = try GPUContext.window(platform: .gbm, nativeDisplay: UnsafeMutableRawPointer(device))
    {
      visual in
      // The config's visual is the GBM format EGL renders in (XRGB8888 for
      // the opaque config asked for).
      // (GBM_FORMAT_XRGB8888 is a function-like macro Swift does not import.)
      let format = visual != 0 ? UInt32(visual) : 0x3432_5258
      let usage = UInt32(GBM_BO_USE_SCANOUT.rawValue | GBM_BO_USE_RENDERING.rawValue)
      guard let surface = gbm_surface_create(device, UInt32(width), UInt32(height), format, usage)
      else {
        throw KMSError.failed(
          device: card.path, step: "creating a \(width)x\(height) GBM surface (gbm_surface_create)",
          reason: String(cString: strerror(errno)))
      }
      native.surface = surface
      return UnsafeMutableRawPointer(surface)
    }
    native.destroys = true
    context.keepAlive(native)
    self.native = native
  }

  func swapBuffers(damage: [PixelRect]) throws {
    try context.swapBuffers(damage: damage)
  }

  func lockFrontBuffer() throws -> ScanoutBuffer {
    guard let surface = native.surface, let bo = gbm_surface_lock_front_buffer(surface) else {
      throw KMSError.failed(
        device: native.card.path, step: "locking the drawn buffer (gbm_surface_lock_front_buffer)",
        reason: "GBM returned no buffer")
    }
    return ScanoutBuffer(
      id: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bo))),
      handle: gbm_bo_get_handle(bo).u32, width: Int(gbm_bo_get_width(bo)),
      height: Int(gbm_bo_get_height(bo)), stride: gbm_bo_get_stride(bo),
      format: gbm_bo_get_format(bo))
  }

  func releaseBuffer(_ buffer: ScanoutBuffer) {
    guard let surface = native.surface, let bo = OpaquePointer(bitPattern: buffer.id) else {
      return
    }
    gbm_surface_release_buffer(surface, bo)
  }
}
