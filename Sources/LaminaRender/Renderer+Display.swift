import Foundation
import Lamina

/// Drawing for a display: the canvas is kept between frames in the
/// renderer's canvas target (a retained back buffer), each frame redraws
/// only its damage there, and `present` copies rects of it into the
/// window's buffer, placed and turned.
extension Renderer {
  /// Draws `frame` into the retained canvas: only `damage` when the canvas
  /// holds the previous frame at this size, else all of it. Returns the
  /// canvas rects that were drawn (empty when nothing changed).
  ///
  /// - Throws: `RendererError.canvasTooLarge` when the canvas needs more
  ///   than one tile (a display larger than `maxTileSize`).
  public func drawRetained(_ frame: Frame, damage: Damage) throws -> [PixelRect] {
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

  /// Copies `rects` (panel pixels, top-down) of the retained canvas into
  /// the window surface (`framebuffer` 0) or `framebuffer`, through `placement`;
  /// `tinted` rects get `tint` (premultiplied) laid over them. A window's
  /// rows run bottom-up; `topDownRows` writes an offscreen target's rows in
  /// panel order instead (for reading back).
  public func present(
    _ rects: [PixelRect], placement: DisplayPlacement, framebuffer: UInt32 = 0,
    topDownRows: Bool = false, letterbox: SIMD4<Float> = [0, 0, 0, 1],
    tinted: [PixelRect] = [], tint: SIMD4<Float> = [0.5, 0, 0.25, 0.5]
  ) throws {
    guard let canvas = canvasTarget else { return }
    begin()
    device.counters = counters
    defer { counters = device.counters }
    canvas.resolve()
    let program = executor.programs.present
    device.bindFramebuffer(framebuffer)
    device.setViewport(
      PixelRect(x: 0, y: 0, width: placement.panelWidth, height: placement.panelHeight))
    device.setBlending(false)
    device.bindVertexArray(executor.streams.empty)
    device.useProgram(program.id)
    // Buffer pixel (GL rows bottom-up) → panel pixel (top-down) → canvas.
    let flip =
      topDownRows
      ? CGAffineTransform.identity
      : CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(placement.panelHeight))
    let m = flip.concatenating(placement.canvasToPanel.inverted())
    let columns: [Float] = [
      Float(m.a), Float(m.b), 0, Float(m.c), Float(m.d), 0, Float(m.tx), Float(m.ty), 1,
    ]
    device.setUniform(program.uniform("u_bufferToCanvas"), matrix3: columns)
    device.setUniform(program.uniform("u_letterbox"), letterbox)
    let nearest = textures.sampler(FramePlanner.nearest)
    device.bindTexture(canvas.texture, unit: 0, sampler: nearest)
    let panel = placement.panel
    for (list, color) in [(rects, SIMD4<Float>.zero), (tinted, tint)] {
      device.setUniform(program.uniform("u_tint"), color)
      for rect in list {
        let r = rect.intersection(panel)
        if r.isEmpty { continue }
        let y = topDownRows ? r.y : placement.panelHeight - r.y - r.height
        device.setScissor(PixelRect(x: r.x, y: y, width: r.width, height: r.height))
        device.drawFullTarget()
      }
    }
    device.setScissor(nil)
    try device.verify("present")
    try device.check("present")
  }
}
