import Foundation
import Lamina
import LaminaFrame

/// What the planner asks about the renderer's caches (pure questions, so
/// that a plan can be made and tested without GL).
package protocol PlanCaches {
  /// Whether the mask/shadow cache holds `key`.
  func holdsCachedPass(_ key: Int) -> Bool
  /// Whether the raster cache holds `key`.
  func holdsRaster(_ key: Int) -> Bool
  /// Whether a `CAOpenGLLayer`'s framebuffer is missing or stale for `pass`.
  func openGLLayerNeedsDrawing(_ pass: GLLayerPass) -> Bool
}
