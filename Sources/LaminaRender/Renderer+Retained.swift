import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

/// Drawing for a display: the canvas is kept between frames in the
/// renderer's canvas target (a retained back buffer), each frame redraws
/// only its damage there, and LaminaDisplay's `present` copies rects of it
/// into the window's buffer, placed and turned.
extension Renderer {
  /// Draws `frame` into the retained canvas: only `damage` when the canvas
  /// holds the previous frame at this size, else all of it. Returns the
  /// canvas rects that were drawn (empty when nothing changed).
  ///
  /// - Throws: `RendererError.canvasTooLarge` when the canvas needs more
  ///   than one tile (a display larger than `maxTileSize`).
  public func drawRetained(_ frame: DrawList, damage: Damage) throws -> [PixelRect] {
    try checkSize(frame)
    guard frame.width <= maxTileSize, frame.height <= maxTileSize else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height,
        limit: "a display canvas is one tile of at most \(maxTileSize) pixels a side")
    }
    let retained = canvasTarget?.width == frame.width && canvasTarget?.height == frame.height
    guard retained, let rects = partialRects(frame, damage: damage) else {
      let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
      try draw(frame, damage: [whole], output: { _, _ in })
      return [whole]
    }
    if !rects.isEmpty { try draw(frame, damage: rects, output: { _, _ in }) }
    return rects
  }

  /// The framebuffer holding the retained canvas (rows top-down), once a
  /// frame was drawn: an output that reads pixels back can take them from
  /// here when the canvas is the panel (no turn, no letterbox).
  public var canvasFramebuffer: UInt32? { canvasTarget?.resolveFramebuffer }
}
