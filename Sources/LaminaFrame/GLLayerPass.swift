import Foundation
import Lamina

/// A `CAOpenGLLayer` to draw before the frame: the layer, its size in
/// pixels, the time, and whether its content must be drawn again.
package final class GLLayerPass {
  /// The model layer's serial (`CALayer.serial`): its framebuffer is kept
  /// across frames under it.
  package let key: UInt64
  package let layer: CAOpenGLLayer
  /// The model layer (the framebuffer's owner).
  package let model: CALayer
  package let width: Int, height: Int
  package let time: Double
  package let generation: Int

  init(layer: CAOpenGLLayer, width: Int, height: Int, time: Double) {
    self.layer = layer
    model = layer.model()
    key = model.serial
    self.width = width
    self.height = height
    self.time = time
    generation = layer.drawGeneration
  }
}
