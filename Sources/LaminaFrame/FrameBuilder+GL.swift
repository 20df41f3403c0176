import Foundation
import Lamina

extension FrameBuilder {
  /// A `CAOpenGLLayer`'s content: one image item of its framebuffer, which
  /// the renderer (re)draws before the frame when needed.
  mutating func appendGLContent(
    _ layer: CAOpenGLLayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) {
    let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
    let width = Int(saturating: layer.bounds.width * scale, rounding: .up)
    let height = Int(saturating: layer.bounds.height * scale, rounding: .up)
    guard width > 0, height > 0, width <= 8192, height <= 8192 else { return }
    let pass = GLLayerPass(
      layer: layer, width: width, height: height, time: time)
    // The framebuffer's row 0 is the layer's top row, as every target's.
    if let item = makeItem(
      .openGLLayer(pass), rect: layer.bounds, uv: (0, 0, 1, 1), toTarget: toTarget,
      color: SIMD4(repeating: 1), name: layer.name)
    {
      commands.append(.item(item))
    }
  }
}
