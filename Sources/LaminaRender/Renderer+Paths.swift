import CGLES3
import Foundation
import Lamina

/// Drawing path items (shape layers' fills and strokes, `Frame/PathItems.swift`)
/// from their meshes on the GPU, instanced: consecutive path items that share
/// a mesh and a program become one draw per piece kind, and a path item
/// joins an earlier such draw when nothing drawn in between touches it and
/// it touches nothing of that draw (`appendPath`): on llvmpipe a draw that
/// changes the program or the depth-stencil state costs about 40 µs, so 150
/// shape layers of three paths take a dozen draws instead of hundreds.
///
/// What a path draw needs from GL (the executor's side of it):
/// - the mesh's vertex array (`PathBuffers`), uploaded once, and a buffer
///   of per-instance attributes (`PathInstance`: homography, color, depth
///   level, stroke width, trim and dashes), uploaded per draw;
/// - a program of `PathPrograms` and its uniforms: the viewport, and for an
///   item alone in its draw its clip's homography and rounded rect and its
///   depth-sorting cuts;
/// - a depth attachment on the target (24 bits) and the depth test on,
///   greater, with writes: every fragment writes its item's level, so each
///   pixel is drawn once per item (`RenderTarget+Depth.swift`);
/// - the item's blend mode (premultiplied source-over by default);
/// - draws, each a range of the mesh's indices with its own program: a
///   fill is its ribbon then its interior, a stroke each kind of piece in
///   turn; no offscreen pass, no read-back.
extension Renderer {
  /// What path items must share to be drawn by one instanced draw.
  struct PathBatchKey: Equatable {
    let mesh: ObjectIdentifier
    let cap: Int32
    let dashes: Int
    let blend: BlendMode

    /// Nil for an item that draws alone (a clip, depth-sorting cuts, a
    /// blend mode reading the destination).
    init?(_ item: DrawItem) {
      guard case .path(let paint) = item.material, item.clip == nil, item.clipPlanes.isEmpty
      else { return nil }
      if case .composite = item.blend { return nil }
      mesh = ObjectIdentifier(paint.mesh)
      cap = paint.stroke?.cap.rawValue ?? 0
      dashes = paint.stroke?.dashes.count ?? 0
      blend = item.blend
    }
  }

  /// How far back a path item looks for a draw to join.
  static let pathBatchLookBack = 32

  /// Adds a path item to the frame's batches: to an earlier path batch of
  /// the same key when no batch after it touches the item and none of that
  /// batch's items does (so that drawing it earlier changes no pixel), or
  /// as a new batch.
  func appendPath(_ item: DrawItem, to batches: inout [Batch]) {
    if let key = PathBatchKey(item) {
      var j = batches.count - 1
      while j >= max(0, batches.count - Self.pathBatchLookBack) {
        let batch = batches[j]
        let touches =
          batch.paths.isEmpty
          ? batch.bounds.intersects(item.bounds)
          : batch.paths.contains { $0.bounds.intersects(item.bounds) }
        if !batch.paths.isEmpty, !touches, PathBatchKey(batch.paths[0]) == key {
          batches[j].paths.append(item)
          return
        }
        if touches { break }
        j -= 1
      }
    }
    var batch = Batch(
      blend: item.blend, program: programs.solid, texture: 0, sampler: 0, mask: 0, effect: false,
      firstIndex: 0, indexCount: 0, paint: nil)
    batch.paths = [item]
    batch.bounds = item.bounds
    batches.append(batch)
  }

  /// Draws a batch of path items (one mesh, one key; or one item alone).
  func drawPaths(_ items: [DrawItem], viewport: (Float, Float, Float, Float)) throws {
    guard let first = items.first, case .path(let paint) = first.material,
      !paint.mesh.indices.isEmpty
    else { return }
    let target = RenderTarget.drawing(into: device.framebuffer)
    let depth = try target?.takeDepthLevels(items.count)
    if depth != nil {
      glEnable(GLenum(GL_DEPTH_TEST))
      glDepthFunc(GLenum(GL_GREATER))
      glDepthMask(GLboolean(GL_TRUE))
    } else {
      glDisable(GLenum(GL_DEPTH_TEST))
    }
    var blend = first.blend
    if case .composite = blend, programs.solidBlend == nil { blend = .sourceOver }
    device.setBlending(true, mode: blend)
    pathBuffers.setInstances(
      items.enumerated().map { i, item in
        Self.instance(item, depth: (depth ?? 0) + Float(i) * RenderTarget.depthStep)
      })
    glBindVertexArray(pathBuffers.vertexArray(for: paint.mesh, counters: &device.counters))
    var variant = PathPrograms.Variant(role: .fill(.interior))
    variant.clip = first.clip != nil
    variant.planes = !first.clipPlanes.isEmpty
    if case .composite = blend { variant.advanced = true }
    switch paint.geometry {
    case .fill(let fill):
      for group in FillMesh.Group.allCases {
        variant.role = .fill(group)
        try drawPathRange(first, variant, viewport, fill.groups[group.rawValue], items.count)
      }
    case .stroke(let stroke, let parameters):
      variant.dashes = parameters.dashes.count
      variant.cap = parameters.cap.rawValue
      for group in StrokeMesh.Group.allCases {
        variant.role = .stroke(group)
        // Segments twice: each draw collapses the segments of the other.
        let segments = group == .segments || group == .cornerSegments
        for cut in segments ? [false, true] : [false] {
          variant.cut = cut
          try drawPathRange(first, variant, viewport, stroke.groups[group.rawValue], items.count)
        }
      }
    }
  }

  /// Turns the depth test off after a run of path batches (it stays on
  /// between them: switching it costs as much as a draw).
  func endPaths() {
    glDisable(GLenum(GL_DEPTH_TEST))
  }

  /// The instance attributes of a path item.
  static func instance(_ item: DrawItem, depth: Float) -> PathInstance {
    let m = item.matrix
    let stroke = item.pathPaint?.stroke
    func dash(_ i: Int) -> SIMD2<Float> {
      guard let dashes = stroke?.dashes, i < dashes.count else { return .zero }
      return dashes[i]
    }
    return PathInstance(
      matrix0: SIMD4(Float(m.m11), Float(m.m12), Float(m.m14), depth),
      matrix1: SIMD4(Float(m.m21), Float(m.m22), Float(m.m24), 0),
      matrix2: SIMD4(Float(m.m41), Float(m.m42), Float(m.m44), stroke?.dashPhase ?? 0),
      color: item.color,
      stroke: SIMD4(
        stroke?.trim.x ?? 0, stroke?.trim.y ?? 0, stroke?.halfWidth ?? 0, stroke?.dashPeriod ?? 0),
      dashes0: SIMD4(dash(0).x, dash(0).y, dash(1).x, dash(1).y),
      dashes1: SIMD4(dash(2).x, dash(2).y, dash(3).x, dash(3).y))
  }

  private func drawPathRange(
    _ item: DrawItem, _ variant: PathPrograms.Variant, _ viewport: (Float, Float, Float, Float),
    _ range: Range<Int>, _ instances: Int
  ) throws {
    guard !range.isEmpty else { return }
    let program = try pathPrograms.program(variant)
    device.useProgram(program.id)
    if case .composite = item.blend { device.blendBarrier() }
    glUniform4f(program.viewport, viewport.0, viewport.1, viewport.2, viewport.3)
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
    device.drawTriangles(
      indexCount: range.count, firstIndex: range.lowerBound, instances: instances)
  }
}

extension DrawItem {
  /// The item's path paint, for path items.
  var pathPaint: PathPaint? {
    if case .path(let paint) = material { return paint }
    return nil
  }
}
