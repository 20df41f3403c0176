import CGBM
import Foundation
import LaminaFrame

/// A `gbm_surface` on a DRM card's descriptor, with the EGL context that
/// draws into it: each swap leaves a buffer that the display locks, scans
/// out and releases. (LaminaDisplay's KMS output drives it; every GBM call
/// is here.)
package final class GBMWindow {
  /// A locked buffer: what a KMS framebuffer is made of.
  package struct Buffer {
    /// Identifies the buffer to its surface (the `gbm_bo` address).
    package let id: UInt
    /// The GEM handle on the card's descriptor.
    package let handle: UInt32
    package let width: Int
    package let height: Int
    /// Bytes per row.
    package let stride: UInt32
    /// The DRM fourcc (`XR24` for XRGB8888).
    package let format: UInt32
  }

  package let context: GPUContext
  private let native: NativeObjects

  /// Owns the `gbm_device` and `gbm_surface` (and whatever owns the card's
  /// descriptor, `owner`): the context keeps it, so it is destroyed only
  /// after EGL has let go of them, whoever drops the context last.
  private final class NativeObjects {
    let owner: AnyObject
    let device: OpaquePointer
    var surface: OpaquePointer?
    /// False until the context exists: an EGL display that failed half-way
    /// may still point at the device, and the process is leaving anyway.
    var destroys = false

    init(owner: AnyObject, device: OpaquePointer) {
      self.owner = owner
      self.device = device
    }

    deinit {
      guard destroys else { return }
      if let surface { gbm_surface_destroy(surface) }
      gbm_device_destroy(device)
    }
  }

  /// A `width`×`height` scanout surface on the card open as `fd` (kept
  /// open by `owner`) and an ES 3 context current on it. `failure` makes
  /// the error of a GBM step that failed (the step, the reason).
  package init(
    fd: Int32, owner: AnyObject, width: Int, height: Int,
    failure: @escaping (_ step: String, _ reason: String) -> Error
  ) throws {
    guard let device = gbm_create_device(fd) else {
      throw failure(
        "creating a GBM device (gbm_create_device)", String(cString: strerror(errno)))
    }
    let native = NativeObjects(owner: owner, device: device)
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
        throw failure(
          "creating a \(width)x\(height) GBM surface (gbm_surface_create)",
          String(cString: strerror(errno)))
      }
      native.surface = surface
      return UnsafeMutableRawPointer(surface)
    }
    native.destroys = true
    context.keepAlive(native)
    self.native = native
  }

  /// Locks the buffer the last swap drew; nil when GBM has none.
  package func lockFrontBuffer() -> Buffer? {
    guard let surface = native.surface, let bo = gbm_surface_lock_front_buffer(surface) else {
      return nil
    }
    return Buffer(
      id: UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(bo))),
      handle: gbm_bo_get_handle(bo).u32, width: Int(gbm_bo_get_width(bo)),
      height: Int(gbm_bo_get_height(bo)), stride: gbm_bo_get_stride(bo),
      format: gbm_bo_get_format(bo))
  }

  /// Gives the buffer `id` back to the surface for drawing.
  package func releaseBuffer(id: UInt) {
    guard let surface = native.surface, let bo = OpaquePointer(bitPattern: id) else { return }
    gbm_surface_release_buffer(surface, bo)
  }
}
