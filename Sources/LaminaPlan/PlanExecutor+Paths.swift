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
    _ batch: PathBatch, blend: BlendMode, into target: RenderTarget, viewport: SIMD4<Float>,
    texture: (texture: GPUHandle, sampler: GPUHandle)? = nil, canvasOrigin: SIMD2<Float> = .zero
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
    variant.planes = !batch.clipPlanes.isEmpty
    variant.affineDepth = instances.allSatisfy(\.isAffine)
    if case .composite = blend { variant.advanced = true }
    if batch.texturePaint != nil, let texture {
      variant.texturePaint = true
      device.bindTexture(texture.texture, unit: 0, sampler: texture.sampler)
    }
    if let gradient = batch.gradientPaint, let texture {
      // The ramp on unit 0; the uniforms per program (drawRange).
      variant.gradient = gradient.paint.kind
      variant.gradientCorners = gradient.paint.atPixelCorners
      device.bindTexture(texture.texture, unit: 0, sampler: texture.sampler)
    }
    let painting = Painting(texture: batch.texturePaint, gradient: batch.gradientPaint, canvasOrigin: canvasOrigin)
    let count = instances.count
    switch batch.paint.geometry {
    case .fill:
      // Runs of fills in one draw each; large fills by their pieces'
      // programs, several at once when they share a mesh and no clip and
      // overlap nothing of each other.
      var start = 0
      while start < count {
        var end = start + 1
        if !batch.alone[start] {
          while end < count && !batch.alone[end] { end += 1 }
        } else if batch.clips[start] == nil {
          let mesh = batch.paints[start].mesh
          while end < count, end - start < Self.largeFillRun, batch.alone[end],
            batch.clips[end] == nil, batch.paints[end].mesh === mesh,
            !batch.bounds[start..<end].contains(where: { $0.intersects(batch.bounds[end]) })
          {
            end += 1
          }
        }
        try drawFills(batch, start..<end, instances, blend, variant, viewport, painting)
        start = end
      }
    case .stroke(let stroke, let parameters):
      // One mesh's items by instanced draws; several meshes' (which
      // overlap nothing of each other) from one stream, by kind of piece.
      var groups = stroke.groups
      var instanceCount = count
      if batch.oneMesh {
        paths.buffers.setInstances(instances)
        device.bindVertexArray(paths.buffers.vertexArray(for: mesh))
      } else {
        let merged = paths.buffers.mergedStrokes.upload(batch.paints, instances)
        device.bindVertexArray(merged.array)
        groups = merged.groups
        instanceCount = 0
      }
      variant.clip = batch.clip != nil
      variant.dashes = parameters.dashes.count
      variant.cap = parameters.cap.rawValue
      // A segment is cut where a visible interval starts or ends in it:
      // nowhere when every item's subpaths are all closed and shown whole,
      // undashed (their ends join), so the cut draws would shade nothing.
      let uncut =
        parameters.dashes.isEmpty
        && zip(batch.paints, instances).allSatisfy { paint, instance in
          guard case .stroke(let mesh, _) = paint.geometry else { return false }
          return mesh.isClosed && instance.stroke.x <= 1e-4
            && Double(instance.stroke.y) >= mesh.length - 1e-4
        }
      for group in StrokeMesh.Group.allCases {
        variant.role = .stroke(group)
        // Segments twice: each draw collapses the segments of the other.
        let segments = group == .segments || group == .cornerSegments
        for cut in segments && !uncut ? [false, true] : [false] {
          variant.cut = cut
          try drawRange(
            batch.clip, batch.clipPlanes, blend, variant, viewport, groups[group.rawValue],
            instanceCount, painting)
        }
      }
    }
  }

  /// The most large fills of one mesh drawn together (each checked
  /// against the others for overlap).
  static let largeFillRun = 64

  /// Draws the fills `items` of `batch`: large fills (of one mesh, none
  /// overlapping another) by the programs of their pieces (ribbon,
  /// corners, interior), the others in one draw by the corner ribbon's
  /// program (`FillTessellator.makeMesh`): an instanced draw when they
  /// share a mesh and have no clips, else from one stream of their
  /// vertices, each with its item's matrix, color and clip.
  private func drawFills(
    _ batch: PathBatch, _ items: Range<Int>, _ instances: [PathInstance], _ blend: BlendMode,
    _ variant: PathPrograms.Variant, _ viewport: SIMD4<Float>, _ painting: Painting
  ) throws {
    var variant = variant
    let first = items.lowerBound
    let mesh = batch.paints[first].mesh
    let clipped = batch.clips[items].contains { $0 != nil }
    let oneMesh = batch.paints[items].allSatisfy { $0.mesh === mesh }
    variant.clip = clipped
    let large = batch.alone[first]
    guard items.count == 1 || large || (oneMesh && !clipped) else {
      variant.role = .fill(.cornerRibbon)
      variant.clipPerVertex = clipped
      let (array, indexCount) = paths.buffers.mergedFills.upload(
        batch.paints[items], instances[items], clips: clipped ? batch.clips[items] : nil)
      device.bindVertexArray(array)
      try drawRange(
        nil, batch.clipPlanes, blend, variant, viewport, 0..<indexCount, 0, painting)
      return
    }
    // (One item's clip, if any, from uniforms.)
    paths.buffers.setInstances(Array(instances[items]))
    device.bindVertexArray(paths.buffers.vertexArray(for: mesh))
    let clip = items.count == 1 ? batch.clips[first] : nil
    guard large, case .fill(let fill) = batch.paints[first].geometry else {
      variant.role = .fill(.cornerRibbon)
      try drawRange(
        clip, batch.clipPlanes, blend, variant, viewport, 0..<mesh.indices.count, items.count,
        painting)
      return
    }
    // The interior of opaque items, unclipped and painted with their
    // color, replaces what it covers: blending would read every pixel of
    // the target to weigh it by zero.
    let opaque =
      clip == nil && blend == .sourceOver && painting.texture == nil && painting.gradient == nil
      && instances[items].allSatisfy { $0.color.w >= 1 }
    for group in FillMesh.Group.allCases {
      variant.role = .fill(group)
      let replaces = opaque && group == .interior
      if replaces { device.setBlending(false) }
      try drawRange(
        clip, batch.clipPlanes, blend, variant, viewport, fill.groups[group.rawValue], items.count,
        painting)
      if replaces { device.setBlending(true, mode: blend) }
    }
  }

  private func drawRange(
    _ clip: ClipEffect?, _ clipPlanes: [SIMD3<Double>], _ blend: BlendMode,
    _ variant: PathPrograms.Variant, _ viewport: SIMD4<Float>, _ range: Range<Int>,
    _ instances: Int, _ painting: Painting
  ) throws {
    guard !range.isEmpty else { return }
    let program = try paths.programs.program(variant)
    device.useProgram(program.id)
    if case .composite = blend { device.blendBarrier() }
    device.setUniform(program.viewport, viewport)
    if variant.texturePaint, let paint = painting.texture {
      device.setUniform(
        program.paint, SIMD4(paint.scale.x, paint.scale.y, paint.offset.x, paint.offset.y))
      device.setUniform(program.paintRect, paint.rect)
    }
    if variant.gradient != nil, let gradient = painting.gradient {
      device.setUniform(program.gradientMatrix, matrix3: gradient.planeToGradient)
      let paint = gradient.paint
      let (scale, offset) = GradientProgram.rampMapping(paint)
      device.setUniform(program.gradientParams, paint.parameters)
      device.setUniform(program.gradientRamp, scale, offset)
      if paint.atPixelCorners { device.setUniform(program.sampleShift, -0.5, -0.5) }
      if paint.kind == .focal { device.setUniform(program.gradientFocal, paint.focal.x, paint.focal.y) }
      device.setUniform(program.canvasOrigin, painting.canvasOrigin.x, painting.canvasOrigin.y)
    }
    if let clip, !variant.clipPerVertex {
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
    if !clipPlanes.isEmpty {
      let planes = clipPlanes.prefix(8).flatMap { [Float($0.x), Float($0.y), Float($0.z)] }
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

/// What a path draw paints instead of its items' colors, and where the
/// target's corner lies on the canvas (for a gradient's dithering).
struct Painting {
  var texture: TexturePaint?
  var gradient: GradientPainting?
  var canvasOrigin: SIMD2<Float>
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
