import Foundation

/// A frame in a Linux dma-buf (what a video decoder or a camera hands out),
/// usable as a layer's `contents` where the GPU driver can import it
/// (`EGL_EXT_image_dma_buf_import`): the renderer samples it in place, with
/// no copy through the CPU. Single-plane RGB formats.
public struct DMABufFrame: Hashable, Sendable {
  /// The dma-buf's file descriptor (owned by the caller; kept open while
  /// the frame is shown).
  public var fd: Int32
  public var width: Int, height: Int
  /// The DRM fourcc of the pixel format (see `DMABufFrame.Format`).
  public var fourcc: UInt32
  /// Bytes from one row to the next, and from the buffer's start to the frame.
  public var stride: Int, offset: Int
  /// The DRM format modifier (tiling), when the producer gives one.
  public var modifier: UInt64?

  public init(
    fd: Int32, width: Int, height: Int, fourcc: UInt32, stride: Int, offset: Int = 0,
    modifier: UInt64? = nil
  ) {
    (self.fd, self.width, self.height, self.fourcc) = (fd, width, height, fourcc)
    (self.stride, self.offset, self.modifier) = (stride, offset, modifier)
  }

  /// DRM fourcc codes of the formats Lamina imports.
  public enum Format {
    public static let argb8888 = fourcc("AR24")
    public static let xrgb8888 = fourcc("XR24")
    public static let abgr8888 = fourcc("AB24")
    public static let xbgr8888 = fourcc("XB24")
    public static let all: Set<UInt32> = [argb8888, xrgb8888, abgr8888, xbgr8888]

    /// The fourcc of a four-letter code (`"AR24"`).
    public static func fourcc(_ code: String) -> UInt32 {
      code.utf8.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }
  }
}
