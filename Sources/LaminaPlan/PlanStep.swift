import Foundation
import Lamina
import LaminaFrame

/// One step of a plan.
package enum PlanStep {
  /// Batches drawn into a target.
  case draw(DrawPass)
  /// A rect of one target copied into another (what is behind a backdrop
  /// filter or a blend mode).
  case copy(CopyPass)
  /// A full-target shader pass: a color filter, a blur, a blend mode.
  case effect(EffectPass)
  /// A `CAOpenGLLayer`'s own GL drawing into its framebuffer.
  case openGLLayer(OpenGLLayerStep)
  /// The canvas holds a finished tile or damaged rect: read it back or show it.
  case output(OutputStep)
}
