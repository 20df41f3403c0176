import CGLES3
import Foundation
import Lamina

/// Drawing path items (shape layers' fills and strokes, `Frame/PathItems.swift`)
/// from their meshes on the GPU. What a path draw needs from GL:
/// - the mesh's vertex array (`PathBuffers`), uploaded once;
/// - a program of `PathPrograms` and its uniforms: the viewport, the item's
///   plane-to-target homography (a 3×3 matrix), its premultiplied color,
///   the clip's homography and rounded rect, depth-sorting cuts, and for
///   strokes the half width, cap, trim and dashes;
/// - the stencil of the bound target (8 bits): test not-equal to the
///   item's value, replace on pass, so that the item paints each pixel once;
/// - the item's blend mode (premultiplied source-over by default);
/// - draws, each a range of the mesh's indices with its own program: a
///   fill is its ribbon then its interior, a stroke its segments' cores
///   then the rest; no offscreen pass.
extension Renderer {
  func drawPath(_ item: DrawItem, viewport: (Float, Float, Float, Float)) throws {
    guard case .path(let paint) = item.material else { return }
    let mesh = paint.mesh
    guard !mesh.indices.isEmpty else { return }
    let stencil = try RenderTarget.drawing(into: device.framebuffer)?.takeStencilValue()
    if let stencil {
      glEnable(GLenum(GL_STENCIL_TEST))
      glStencilMask(0xFF)
      glStencilFunc(GLenum(GL_NOTEQUAL), stencil, 0xFF)
      glStencilOp(GLenum(GL_KEEP), GLenum(GL_KEEP), GLenum(GL_REPLACE))
    }
    defer { if stencil != nil { glDisable(GLenum(GL_STENCIL_TEST)) } }
    var blend = item.blend
    if case .composite = blend, programs.solidBlend == nil { blend = .sourceOver }
    device.setBlending(true, mode: blend)
    var variant = PathPrograms.Variant(role: .stroke)
    variant.clip = item.clip != nil
    variant.planes = !item.clipPlanes.isEmpty
    if case .composite = blend { variant.advanced = true }
    glBindVertexArray(pathBuffers.vertexArray(for: mesh, counters: &device.counters))
    switch paint.geometry {
    case .fill(let fill):
      variant.role = .fillRibbon
      try drawPathPass(item, variant, viewport, stroke: nil, range: 0..<fill.ribbonIndexCount)
      variant.role = .fillInterior
      try drawPathPass(
        item, variant, viewport, stroke: nil, range: fill.ribbonIndexCount..<fill.indices.count)
    case .stroke(let stroke, let parameters):
      variant.dashes = parameters.dashes.count
      variant.role = .strokeCore
      try drawPathPass(item, variant, viewport, stroke: parameters, range: 0..<stroke.coreIndexCount)
      variant.role = .stroke
      try drawPathPass(
        item, variant, viewport, stroke: parameters,
        range: stroke.coreIndexCount..<stroke.indices.count)
    }
  }

  private func drawPathPass(
    _ item: DrawItem, _ variant: PathPrograms.Variant, _ viewport: (Float, Float, Float, Float),
    stroke: StrokeParameters?, range: Range<Int>
  ) throws {
    guard !range.isEmpty else { return }
    let program = try pathPrograms.program(variant)
    device.useProgram(program.id)
    if case .composite = item.blend { device.blendBarrier() }
    glUniform4f(program.viewport, viewport.0, viewport.1, viewport.2, viewport.3)
    let m = item.matrix
    // Columns: the plane's x, y and 1 to target (X, Y, W).
    var matrix: [Float] = [
      Float(m.m11), Float(m.m12), Float(m.m14), Float(m.m21), Float(m.m22), Float(m.m24),
      Float(m.m41), Float(m.m42), Float(m.m44),
    ]
    glUniformMatrix3fv(program.matrix, 1, GLboolean(GL_FALSE), &matrix)
    let c = item.color
    glUniform4f(program.color, c.x, c.y, c.z, c.w)
    if let clip = item.clip {
      let h = clip.itemToClip.m
      // [x y 1] × H: H's rows are the columns GL's matrix × vector takes.
      var columns: [Float] = [
        Float(h.0), Float(h.1), Float(h.2), Float(h.3), Float(h.4), Float(h.5), Float(h.6),
        Float(h.7), Float(h.8),
      ]
      glUniformMatrix3fv(program.clipMatrix, 1, GLboolean(GL_FALSE), &columns)
      let r = clip.shape.rect
      glUniform4f(program.clipRect, Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
      let radii = clip.shape.radii
      glUniform4f(program.clipRadii, radii.x, radii.y, radii.z, radii.w)
    }
    if !item.clipPlanes.isEmpty {
      var planes = item.clipPlanes.prefix(8).flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
      glUniform3fv(program.planes, GLsizei(planes.count / 3), &planes)
      glUniform1i(program.planeCount, GLint(planes.count / 3))
    }
    if let stroke {
      glUniform1f(program.halfWidth, stroke.halfWidth)
      glUniform1i(program.cap, stroke.cap.rawValue)
      glUniform2f(program.trim, stroke.trim.x, stroke.trim.y)
      if !stroke.dashes.isEmpty {
        var dashes = stroke.dashes.flatMap { [$0.x, $0.y] }
        glUniform2fv(program.dashOn, GLsizei(stroke.dashes.count), &dashes)
        glUniform1f(program.dashPeriod, stroke.dashPeriod)
        glUniform1f(program.dashPhase, stroke.dashPhase)
      }
    }
    device.drawTriangles(indexCount: range.count, firstIndex: range.lowerBound)
  }
}
