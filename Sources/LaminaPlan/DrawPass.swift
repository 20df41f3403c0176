import Foundation
import Lamina
import LaminaFrame

/// Batches drawn into `target`, which shows `region` of the frame (canvas
/// pixels, or a raster's own pixels) at its origin.
package struct DrawPass {
  /// What the pass draws into.
  package var target: TargetID
  /// The part of the frame (canvas pixels, or a raster's own) the target
  /// shows at its origin.
  package var region: PixelRect
  /// The premultiplied color the target is cleared to first, or nil when
  /// the pass continues what an earlier pass drew into it.
  package var clear: SIMD4<Float>?
  /// Target pixels the pass may change (a damaged rect); nil: all. It lies
  /// within `viewport`.
  package var scissor: PixelRect?
  /// The part of the target the region maps onto (target pixels); nil: all
  /// of it. Passes that share one target (an atlas) each draw into their
  /// own part: the clear and the drawing keep to it.
  package var viewport: PixelRect?
  /// Pixels written into the target right after the clear, before the
  /// batches: a run of paths drawn on the CPU over the clear color
  /// (`FramePlanner.flushRun`), by its index in `FramePlan.images`, the
  /// rect of the frame (region pixels) it covers, and the part of that
  /// rect written (within the scissor).
  package var upload: (image: Int, rect: PixelRect, written: PixelRect)?
  /// The upload writes every pixel the clear would (the clear color where
  /// the run has no paths): the device does not clear
  /// (`PlanOptions.clearsByUpload`).
  package var uploadReplacesClear = false
  /// The upload's image is the image with this identifier but for the
  /// pixels of `damage` (region pixels; empty: the same image): a target
  /// that holds that image over the upload's rect (`RenderTarget.heldRun`)
  /// is written only there.
  package var uploadSince: (image: UInt64, damage: PixelRect)?
  /// Drawn in order, one draw call each.
  package var batches: [Batch] = []
  /// What the pass renders, for people reading the plan.
  package var label: String
  /// The vertices and indices of the batches.
  package var geometry = PassGeometry()
}
