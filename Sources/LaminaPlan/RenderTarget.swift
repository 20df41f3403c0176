import Foundation
import LaminaFrame

/// An offscreen target: a multisampled renderbuffer to draw into (when the
/// GPU has samples to give) and a texture it resolves into, which can be
/// read back or sampled by a later pass. Its objects are made and deleted
/// by the device of its context.
package final class RenderTarget {
  package let width: Int, height: Int, samples: Int
  /// The run image the target holds (`DrawPass.upload`) over `rect` (its
  /// region's pixels) written `at` this offset (target pixels from region
  /// pixels), with nothing drawn over it since; nil when not known.
  var heldRun: (image: UInt64, rect: PixelRect, at: SIMD2<Int>)?
  let device: any GPUDevice
  private(set) var drawFramebuffer: GPUHandle = 0
  package private(set) var resolveFramebuffer: GPUHandle = 0
  package private(set) var texture: GPUHandle = 0
  private var renderbuffer: GPUHandle = 0
  /// What was drawn into the renderbuffer and not yet resolved into the
  /// texture (multisampled targets only).
  private var unresolved: PixelRect?
  /// The depth attachment, made the first time a path is drawn here
  /// (`RenderTarget+Depth.swift`), and the next depth level to hand out.
  var depthBuffer: GPUHandle = 0
  var nextDepthLevel = 0
  /// Whether `depthBuffer` is attached now (`attachDepth(_:)`).
  var depthAttached = false

  package init(width: Int, height: Int, samples: Int, device: any GPUDevice) throws {
    self.width = width
    self.height = height
    self.samples = samples
    self.device = device
    texture = device.makeTexture(width: width, height: height, multisampled: samples > 1)
    resolveFramebuffer = try device.makeFramebuffer(texture: texture, width: width, height: height)
    if samples > 1 {
      (drawFramebuffer, renderbuffer) = try device.makeMultisampledFramebuffer(
        width: width, height: height, samples: samples)
    } else {
      drawFramebuffer = resolveFramebuffer
    }
  }

  /// Bytes of GPU memory the target holds.
  var bytes: Int { FramePlan.bytes(width: width, height: height, samples: samples) }

  /// The whole target.
  var rect: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

  /// Notes that `rect` (nil: all) was drawn into the draw framebuffer.
  func didDraw(_ rect: PixelRect?) {
    guard drawFramebuffer != resolveFramebuffer else { return }
    let drawn = (rect ?? self.rect).intersection(self.rect)
    unresolved = unresolved.map { $0.union(drawn) } ?? drawn
  }

  /// Copies what was drawn into the multisampled renderbuffer since the last
  /// resolve into the texture (averaging the samples), before the texture
  /// is sampled or read.
  package func resolve() {
    guard let r = unresolved else { return }
    unresolved = nil
    device.blit(from: drawFramebuffer, r, to: resolveFramebuffer, r)
  }

  /// Reads `rect` of the resolved pixels (premultiplied RGBA, rows in target
  /// order) into a tightly packed buffer.
  package func read(_ rect: PixelRect, into buffer: UnsafeMutableRawPointer) {
    resolve()
    device.readPixels(rect, of: resolveFramebuffer, into: buffer)
  }

  deinit {
    if depthBuffer != 0 { device.deleteRenderbuffer(depthBuffer) }
    device.deleteFramebuffer(resolveFramebuffer)
    if drawFramebuffer != resolveFramebuffer {
      device.deleteFramebuffer(drawFramebuffer)
      device.deleteRenderbuffer(renderbuffer)
    }
    device.deleteTexture(texture)
  }
}
