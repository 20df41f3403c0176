import LaminaRender

/// A buffer the GPU finished drawing, locked for scanout until released.
public struct ScanoutBuffer: Hashable, Sendable {
  /// Identifies the buffer to its surface (the `gbm_bo` address).
  public let id: UInt
  /// The GEM handle on the card's descriptor: what a framebuffer is made of.
  public let handle: UInt32
  public let width: Int
  public let height: Int
  /// Bytes per row.
  public let stride: UInt32
  /// The DRM fourcc (`XR24` for XRGB8888).
  public let format: UInt32

  public init(id: UInt, handle: UInt32, width: Int, height: Int, stride: UInt32, format: UInt32) {
    self.id = id
    self.handle = handle
    self.width = width
    self.height = height
    self.stride = stride
    self.format = format
  }
}

/// The rendering side of a KMS output: a window surface whose finished
/// frames are locked as buffers for scanout. `GBMSurface` is the real one;
/// tests use a fake, so that buffer bookkeeping is checked without a GPU.
public protocol ScanoutSurface: AnyObject {
  /// Finishes the frame drawn into the back buffer; `damage` in surface
  /// pixels with a bottom-left origin (as EGL has them), empty for all.
  func swapBuffers(damage: [PixelRect]) throws
  /// The frame just swapped, locked until `releaseBuffer`.
  func lockFrontBuffer() throws -> ScanoutBuffer
  /// Gives a buffer back for drawing (it left the screen).
  func releaseBuffer(_ buffer: ScanoutBuffer)
}
