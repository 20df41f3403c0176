import Foundation
import Lamina
import LaminaFrame

/// A `CAOpenGLLayer` that needs new content: its `draw(atLayerTime:)` runs
/// with `target` bound.
package struct OpenGLLayerStep {
  /// The layer, its size and time.
  package let pass: GLLayerPass
  /// Its framebuffer.
  package let target: TargetID
}
