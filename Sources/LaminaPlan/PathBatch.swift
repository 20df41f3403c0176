import Foundation
import Lamina
import LaminaFrame

/// The path items (shape layers' fills and strokes, `LaminaFrame/PathItems.swift`)
/// one batch draws, in order.
///
/// Fills: path fills in source-over or a blend equation, of any meshes and
/// clips, overlapping or not, in one draw. Each fill mesh is drawn by one
/// program (the ribbon's corner variant: its smooth pieces and its
/// interior carry lines that cover every pixel, `FillTessellator.makeMesh`),
/// so an item's pieces come in its mesh's order, ribbon before interior,
/// and the items in theirs: one mesh's items by an instanced draw, several
/// meshes' from one stream of their vertices, each vertex carrying its
/// item's matrix, color and clip (`MergedFillStream`). A fill larger than
/// `PlanOptions.mergedFillMaxPixels` (`alone`) batches by mesh instead and
/// is drawn by its pieces' three programs, since on a software rasterizer
/// the one program costs more fill than the draws it saves.
///
/// Strokes: stroke items that share a cap and a dash count and touch
/// nothing of each other, of any meshes, drawn by one draw per kind of
/// piece (one mesh's by instances, several meshes' from one stream,
/// `MergedStrokeStream`); a stroke joins an earlier such batch when
/// nothing drawn in between touches it (`Batcher`).
///
/// What the executor does with it (`GL/PlanExecutor+Paths.swift`): the
/// mesh's vertex array, uploaded once per mesh (`PathBuffers`); the
/// instances uploaded per draw, each given a depth level of the target;
/// the depth test on (greater, with writes), so that each pixel of an item
/// is painted once (a translucent stroke does not darken where it overlaps
/// itself) and later items paint over earlier ones.
package struct PathBatch {
  /// The first item's paint: the mesh, and the cap and dash count every
  /// stroke item of the batch shares.
  package let paint: PathPaint
  /// One per item, in drawing order (their depth set by the executor).
  package var instances: [PathInstance]
  /// Each item's paint, beside `instances` (fills may differ in mesh).
  package var paints: [PathPaint]
  /// Whether every item draws the first item's mesh.
  package private(set) var oneMesh = true
  /// The first item's clip (a stroke batch's only item has one, or none).
  package var clip: ClipEffect? { clips[0] }
  /// Each item's clip, beside `instances` (fills may differ in clip).
  package var clips: [ClipEffect?]
  /// Whether any item has a clip.
  package private(set) var clipped: Bool
  /// Each item's: whether it is drawn by its pieces' own programs, in
  /// draws of its own (a fill too large for the merged program's cost per
  /// pixel: `PlanOptions.mergedFillMaxPixels`).
  package var alone: [Bool]
  /// Each item's pixels (so that large fills of one mesh that overlap
  /// nothing of each other share their pieces' draws).
  package var bounds: [PixelRect]
  /// The depth-sorting cuts of an item drawn alone (batched items have none).
  package var clipPlanes: [SIMD3<Double>]
  /// A batch of one item painted with a group's rendering (the batch's
  /// texture) instead of its color: a masked group's composite drawn as
  /// its mask's path (`FramePlanner.pathMask`).
  package var texturePaint: TexturePaint? = nil
  /// The gradient it paints instead of its color (a masked gradient's
  /// composite drawn as its mask's path, `FramePlanner.gradientMask`).
  package var gradientPaint: GradientPainting? = nil

  init(_ item: DrawItem, _ paint: PathPaint, alone: Bool = false) {
    self.paint = paint
    self.alone = [alone]
    bounds = [item.bounds]
    instances = [PathInstance(item, paint)]
    paints = [paint]
    clips = [item.clip]
    clipped = item.clip != nil
    clipPlanes = item.clipPlanes
  }

  /// Adds an item after the others.
  mutating func append(_ item: DrawItem, _ paint: PathPaint, alone: Bool = false) {
    instances.append(PathInstance(item, paint))
    self.alone.append(alone)
    bounds.append(item.bounds)
    paints.append(paint)
    clips.append(item.clip)
    if item.clip != nil { clipped = true }
    if paint.mesh !== self.paint.mesh { oneMesh = false }
  }

  /// The meshes' indices drawn (each item its mesh's).
  package var indexCount: Int { paints.reduce(0) { $0 + $1.mesh.indices.count } }
}

/// Where a path painted with a texture samples it: target pixel p (the
/// item's plane mapped by its matrix) at `p * scale + offset`, within
/// `rect` (the texture coordinates the group's rendering holds; outside
/// it, nothing).
/// A gradient painted over a path: the gradient, and the map from the
/// path's plane (x, y, 1) to the point of the gradient layer's bounds it
/// is evaluated at, as `Homography` rows (GL's mat3 columns).
package struct GradientPainting: Hashable {
  package var paint: GradientPaint
  package var planeToGradient: [Float]
}

package struct TexturePaint: Equatable {
  package var scale: SIMD2<Float>
  package var offset: SIMD2<Float>
  package var rect: SIMD4<Float>
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

  /// Whether the plane maps to the target without perspective (w = 1
  /// everywhere: the homography's last row is 0, 0, 1).
  var isAffine: Bool { matrix0.z == 0 && matrix1.z == 0 && matrix2.z == 1 }
}
