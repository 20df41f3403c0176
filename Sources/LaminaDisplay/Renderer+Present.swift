import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaPlan
import LaminaRender

/// The last step of a display frame: the retained canvas (the renderer's
/// canvas target) copied into the window's buffer, placed and turned.
extension Renderer {
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
    try begin()
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
