import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

extension Renderer {
  /// Renders `layer` (a model tree) as it appears at `time`: its
  /// presentation at that moment, with running animations, replicator
  /// `instanceDelay`s and emitter particles where they are then, on a
  /// canvas of `size` points at `scale`, and reads it back.
  ///
  /// `time` is the root's parent time in seconds, as the scene format's
  /// `--time`: for a tree that was built and never committed (animations
  /// keep the `beginTime` they were given), seconds after time 0; for live
  /// layers, whose animations began at `CACurrentMediaTime()`, a time on
  /// that clock.
  ///
  /// ```swift
  /// let spinner = makeActivityIndicator()       // a replicator with instanceDelay
  /// let image = try Renderer().render(layer: spinner, size: spinner.bounds.size, scale: 2, time: 0.5)
  /// ```
  public func render(
    layer: CALayer, size: CGSize, scale: CGFloat = 1, background: CGColor? = nil,
    time: CFTimeInterval
  ) throws -> RenderedImage {
    // The commit (layout, display) runs on the model before the frame is built.
    Renderer.commit(layer)
    let presentation = PresentationTree(root: layer).update(time: time)
    var builder = FrameBuilder(size: size, scale: scale, caches: caches)
    builder.time = time
    return try render(builder.build(root: presentation, background: background))
  }
}
