import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

/// The render API: frames in, images out.
extension Renderer {
  /// Renders `layer` on a canvas of `size` points at `scale` and reads it back.
  public func render(
    layer: CALayer, size: CGSize, scale: CGFloat = 1, background: CGColor? = nil
  ) throws -> RenderedImage {
    Renderer.commit(layer)
    var builder = FrameBuilder(size: size, scale: scale, caches: caches)
    let frame = builder.build(root: layer, background: background)
    return try render(frame)
  }

  /// Draws `frame` and reads back its pixels (tile by tile when the canvas is
  /// larger than one target).
  public func render(_ frame: DrawList) throws -> RenderedImage {
    try checkSize(frame)
    var pixels = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
    try draw(frame, damage: nil) { target, step in
      if step.tile.width == frame.width, step.rect.x == 0 {
        // Whole rows: straight into the image.
        pixels.withUnsafeMutableBytes { raw in
          guard let base = raw.baseAddress else { return }
          target.read(step.rect, into: base + step.tile.y * frame.width * 4)
        }
      } else {
        self.read(step.rect, of: target, into: &pixels, at: step.tile, canvasWidth: frame.width)
      }
    }
    return RenderedImage(width: frame.width, height: frame.height, premultipliedPixels: pixels)
  }

  /// Draws only `damage` of `frame` over `previous`, the image of the frame
  /// the damage was computed from, and returns the new image: pixel for
  /// pixel the image `render(frame)` gives, for the cost of the damaged
  /// area. Each damaged rect is cleared and drawn scissored on the canvas
  /// target with the whole canvas's mapping (so every fragment sees the
  /// same values as in a full redraw) and only it is read back. A frame
  /// whose size differs from `previous`, or that `partialRects` says is
  /// better drawn whole, is drawn whole.
  public func render(
    _ frame: DrawList, updating previous: RenderedImage, damage: Damage
  ) throws -> RenderedImage {
    try checkSize(frame)
    guard previous.width == frame.width, previous.height == frame.height,
      let rects = partialRects(frame, damage: damage)
    else { return try render(frame) }
    if rects.isEmpty { return previous }
    var pixels = previous.premultipliedPixels
    try draw(frame, damage: rects) { target, step in
      self.read(step.rect, of: target, into: &pixels, at: step.tile, canvasWidth: frame.width)
    }
    return RenderedImage(width: frame.width, height: frame.height, premultipliedPixels: pixels)
  }

  /// Draws `frame` without reading it back (what the benchmark times), tile
  /// by tile.
  public func draw(_ frame: DrawList) throws {
    try checkSize(frame)
    try draw(frame, damage: nil) { _, _ in }
  }

  /// Waits until the GPU has finished every command.
  public func finish() {
    context.makeCurrent()
    device.finish()
  }

  /// Reads `rect` of `target` and writes it into the canvas `pixels` at
  /// `destination` (same size).
  private func read(
    _ rect: PixelRect, of target: RenderTarget, into pixels: inout [UInt8],
    at destination: PixelRect, canvasWidth: Int
  ) {
    var buffer = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
    buffer.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      target.read(rect, into: base)
    }
    let rowBytes = rect.width * 4
    for row in 0..<rect.height {
      let to = ((destination.y + row) * canvasWidth + destination.x) * 4
      pixels.replaceSubrange(
        to..<to + rowBytes, with: buffer[row * rowBytes..<(row + 1) * rowBytes])
    }
  }

  func checkSize(_ frame: DrawList) throws {
    guard frame.width > 0, frame.height > 0 else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height, limit: "it is empty")
    }
    guard frame.width * frame.height <= Self.maxCanvasPixels else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height,
        limit: "more than \(Self.maxCanvasPixels) pixels")
    }
    // The layers to blame are found only for a frame past its limits.
    try FrameLimits.check(frame, attributing: false)
  }
}
