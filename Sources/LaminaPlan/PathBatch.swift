import Foundation
import Lamina
import LaminaFrame

/// The path items (shape layers' fills and strokes, `LaminaFrame/PathItems.swift`)
/// one batch draws: one mesh, drawn once per instance by instanced draws.
/// Consecutive path items that share a mesh and a stroke variant are one
/// batch, and a path item joins an earlier such batch when nothing drawn
/// in between touches it and it touches nothing of that batch (`Batcher`):
/// on llvmpipe a draw that changes the program costs about 40 µs, so 150
/// shape layers take a dozen draws instead of hundreds.
///
/// What the executor does with it (`GL/PlanExecutor+Paths.swift`): the
/// mesh's vertex array, uploaded once per mesh (`PathBuffers`); the
/// instances uploaded per draw, each given a depth level of the target;
/// the depth test on (greater, with writes), so that each pixel of an item
/// is painted once (a translucent stroke does not darken where it overlaps
/// itself); a program of `PathPrograms` per kind of piece.
package struct PathBatch {
  /// The first item's paint: the mesh, and the cap and dash count every
  /// item of the batch shares.
  package let paint: PathPaint
  /// One per item, in drawing order (their depth set by the executor).
  package var instances: [PathInstance]
  /// The clip and depth-sorting cuts of an item drawn alone (batched
  /// items have none).
  package var clip: ClipEffect?
  package var clipPlanes: [SIMD3<Double>]

  init(_ item: DrawItem, _ paint: PathPaint) {
    self.paint = paint
    instances = [PathInstance(item, paint)]
    clip = item.clip
    clipPlanes = item.clipPlanes
  }
}

/// What path items must share to be drawn by one instanced draw; nil for an
/// item that draws alone (a clip, depth-sorting cuts, a blend mode reading
/// the destination).
struct PathBatchKey: Equatable {
  let mesh: UInt64
  let cap: Int32
  let dashes: Int
  let blend: BlendMode

  init?(_ item: DrawItem, _ paint: PathPaint) {
    guard item.clip == nil, item.clipPlanes.isEmpty else { return nil }
    let blend = item.blend
    if blend.readsBackdrop { return nil }
    self.init(paint, blend: blend)
  }

  /// The key of `paint` drawn in `blend` (what an item that may batch adds).
  init(_ paint: PathPaint, blend: BlendMode) {
    mesh = paint.mesh.serial
    cap = paint.stroke?.cap.rawValue ?? 0
    dashes = paint.stroke?.dashes.count ?? 0
    self.blend = blend
  }
}

/// What one path item of an instanced draw gives its vertices (112 bytes,
/// instance attributes 8…14 of the path shaders, `path_vertex.glsl`).
package struct PathInstance {
  /// Columns of the plane-to-target homography; `matrix0.w` is the item's
  /// depth (set when drawn), `matrix2.w` its dash phase.
  package var matrix0: SIMD4<Float>
  package var matrix1: SIMD4<Float>
  package var matrix2: SIMD4<Float>
  /// Premultiplied, opacity included.
  package var color: SIMD4<Float>
  /// Trim start and end (arc lengths), half line width, dash period.
  package var stroke: SIMD4<Float>
  /// Up to four dashes of one period: start and end.
  package var dashes0: SIMD4<Float>
  package var dashes1: SIMD4<Float>

  /// The instance of a path item, drawn with its `paint`.
  init(_ item: DrawItem, _ paint: PathPaint) {
    let m = item.matrix
    let stroke = paint.stroke
    func dash(_ i: Int) -> SIMD2<Float> {
      guard let dashes = stroke?.dashes, i < dashes.count else { return .zero }
      return dashes[i]
    }
    matrix0 = SIMD4(Float(m.m11), Float(m.m12), Float(m.m14), 0)
    matrix1 = SIMD4(Float(m.m21), Float(m.m22), Float(m.m24), 0)
    matrix2 = SIMD4(Float(m.m41), Float(m.m42), Float(m.m44), stroke?.dashPhase ?? 0)
    color = item.color
    self.stroke = SIMD4(
      stroke?.trim.x ?? 0, stroke?.trim.y ?? 0, stroke?.halfWidth ?? 0, stroke?.dashPeriod ?? 0)
    dashes0 = SIMD4(dash(0).x, dash(0).y, dash(1).x, dash(1).y)
    dashes1 = SIMD4(dash(2).x, dash(2).y, dash(3).x, dash(3).y)
  }
}
