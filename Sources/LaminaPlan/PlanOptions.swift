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

  package init(
    blendEquations: Bool = true, edgeCoverage: Bool = true, batching: Bool = true,
    samples: Int = 1, timesVertices: Bool = false
  ) {
    self.blendEquations = blendEquations
    self.edgeCoverage = edgeCoverage
    self.batching = batching
    self.samples = samples
    self.timesVertices = timesVertices
  }
}
