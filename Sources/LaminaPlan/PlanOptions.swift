import Foundation
import Lamina
import LaminaFrame

/// How the frame is to be drawn.
package struct PlanOptions {
  /// Blend modes use the advanced blend equations (else the shader fallback).
  var blendEquations = true
  /// Edge antialiasing computed in the shaders (vertex distances).
  var edgeCoverage = true
  /// Consecutive compatible items share a draw call.
  var batching = true
  /// Samples per pixel of the targets (for their sizes in bytes).
  var samples = 1
  /// The time spent making vertices is measured (`FramePlan.vertexNanoseconds`).
  var timesVertices = false
  /// A path fill whose bounds cover more pixels than this is drawn by the
  /// three programs of its pieces (three draws, the interior's coverage a
  /// constant) instead of in one draw with its batch's other fills (the
  /// corner ribbon's program on every piece): on a software rasterizer
  /// that program costs about 2 ns more a pixel of interior, which over
  /// this many pixels outweighs the two draws saved (`PathBatch`). A
  /// hardware GPU merges every fill (`Int.max`).
  var mergedFillMaxPixels = PlanOptions.softwareMergedFillMaxPixels
  /// A masked group whose mask is one path composites as that path painted
  /// with the group's rendering, with no pass for the mask
  /// (`FramePlanner.pathMask`).
  package var pathMasks = true
  /// Consecutive path items of shape layers are drawn on the CPU by Cairo
  /// into one bitmap, drawn as one quad (`FramePlanner+CPUPaths.swift`):
  /// the default on a software rasterizer, where it is several times
  /// cheaper (docs/rendering.md, "Paths on the CPU").
  package var cpuPaths = false
  /// With `cpuPaths`, a group whose rendering and mask are paths alone is
  /// drawn whole into the run (`FramePlanner.drawsWholeOnCPU`), with no
  /// pass; off only to compare.
  package var cpuGroups = true
  /// A frame's first commands that drew the same the frame before are
  /// drawn once into a kept target, copied into the canvas each frame
  /// after (`FramePlanner+Prefix.swift`); the renderer's default on a
  /// software rasterizer (`Renderer.canvasPrefix`).
  package var canvasPrefix = false
  /// A run written into its pass right after the clear (`DrawPass.upload`)
  /// covers all the clear would, the clear color in its bitmap around the
  /// paths, and the pass is not cleared (`DrawPass.uploadReplacesClear`):
  /// llvmpipe clears a target in its own pass over the pixels, about
  /// 0.3 ms at 512×512 on one core, where the bigger upload costs a
  /// fraction (docs/rendering.md, "Paths on the CPU"); the renderer's
  /// default on a software rasterizer (`Renderer.clearsByUpload`).
  package var clearsByUpload = false
  /// The order of the texels of the device's textures, in which runs are
  /// drawn (BGRA: Cairo's own, uploaded as they are).
  package var texelOrder = TexelOrder.rgba

  /// `mergedFillMaxPixels` on a software rasterizer (measured on llvmpipe:
  /// docs/rendering.md, "Batching and uploads").
  package static let softwareMergedFillMaxPixels = 4096

  package init(
    blendEquations: Bool = true, edgeCoverage: Bool = true, batching: Bool = true,
    samples: Int = 1, timesVertices: Bool = false,
    mergedFillMaxPixels: Int = PlanOptions.softwareMergedFillMaxPixels
  ) {
    self.mergedFillMaxPixels = mergedFillMaxPixels
    self.blendEquations = blendEquations
    self.edgeCoverage = edgeCoverage
    self.batching = batching
    self.samples = samples
    self.timesVertices = timesVertices
  }
}
