import Foundation
import LaminaFrame

/// Drawing path batches (`PathBatch`): the mesh's vertex array from
/// `PathBuffers` (or, for fills of several meshes, one stream of their
/// vertices), the batch's instances with a depth level each, the depth
/// test on, and one draw for a fill batch, one per kind of piece for a
/// stroke batch, each with its own program variant. No offscreen pass, no read-back, nothing uploaded but
/// the instances when only a trim, a dash phase or a color changed.
extension PlanExecutor {
  func drawPaths(
    _ batch: PathBatch, blend: BlendMode, into target: RenderTarget, viewport: SIMD4<Float>
  ) throws {
    let mesh = batch.paint.mesh
    guard !mesh.indices.isEmpty, !batch.instances.isEmpty else { return }
    let depth = try target.takeDepthLevels(batch.instances.count)
    device.setDepthTest(true)
    var instances = batch.instances
    for i in instances.indices {
      instances[i].matrix0.w = depth + Float(i) * RenderTarget.depthStep
    }
    var variant = PathPrograms.Variant(role: .fill(.interior))
    variant.clip = batch.clipped
    variant.planes = !batch.clipPlanes.isEmpty
    if case .composite = blend { variant.advanced = true }
    let count = instances.count
    switch batch.paint.geometry {
    case .fill:
      // One program draws every piece of a fill (`FillTessellator.makeMesh`).
      variant.role = .fill(.cornerRibbon)
      if count == 1 || (batch.oneMesh && !batch.clipped) {
        // (One item's clip, if any, from uniforms.)
        paths.buffers.setInstances(instances)
        device.bindVertexArray(paths.buffers.vertexArray(for: mesh))
        try drawRange(batch, blend, variant, viewport, 0..<mesh.indices.count, count)
      } else {
        variant.clipPerVertex = batch.clipped
        let indexCount = paths.buffers.setMergedFills(
          batch.paints, instances, clips: batch.clipped ? batch.clips : [])
        device.bindVertexArray(paths.buffers.mergedFillArray)
        try drawRange(batch, blend, variant, viewport, 0..<indexCount, 0)
      }
    case .stroke(let stroke, let parameters):
      paths.buffers.setInstances(instances)
      device.bindVertexArray(paths.buffers.vertexArray(for: mesh))
      variant.dashes = parameters.dashes.count
      variant.cap = parameters.cap.rawValue
      for group in StrokeMesh.Group.allCases {
        variant.role = .stroke(group)
        // Segments twice: each draw collapses the segments of the other.
        let segments = group == .segments || group == .cornerSegments
        for cut in segments ? [false, true] : [false] {
          variant.cut = cut
          try drawRange(batch, blend, variant, viewport, stroke.groups[group.rawValue], count)
        }
      }
    }
  }

  private func drawRange(
    _ batch: PathBatch, _ blend: BlendMode, _ variant: PathPrograms.Variant,
    _ viewport: SIMD4<Float>, _ range: Range<Int>, _ instances: Int
  ) throws {
    guard !range.isEmpty else { return }
    let program = try paths.programs.program(variant)
    device.useProgram(program.id)
    if case .composite = blend { device.blendBarrier() }
    device.setUniform(program.viewport, viewport)
    if let clip = batch.clip, !variant.clipPerVertex {
      let h = clip.itemToClip.m
      // [x y 1] × H: H's rows are the columns GL's matrix × vector takes.
      device.setUniform(
        program.clipMatrix,
        matrix3: [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7, h.8].map { Float($0) })
      let r = clip.shape.rect
      device.setUniform(
        program.clipRect, SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY)))
      device.setUniform(program.clipRadii, clip.shape.radii)
    }
    if !batch.clipPlanes.isEmpty {
      let planes = batch.clipPlanes.prefix(8).flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
      device.setUniform(program.planes, vec3Array: planes)
      device.setUniform(program.planeCount, int: planes.count / 3)
    }
    if instances == 0 {
      device.drawTriangles(indexCount: range.count, firstIndex: range.lowerBound)
    } else {
      device.drawTriangles(
        indexCount: range.count, firstIndex: range.lowerBound, instances: instances)
    }
  }
}

/// What a renderer keeps for path items: the program variants (its
/// context's) and the meshes' buffers (its own).
final class PathResources {
  let programs: PathPrograms
  let buffers: PathBuffers

  init(device: any GPUDevice, byteBudget: Int) {
    programs = device.pathPrograms
    buffers = PathBuffers(device: device, byteBudget: byteBudget)
  }
}
