import Lamina
import LaminaDraw

extension Renderer {
  /// Core Animation's commit before a frame, as the run loop makes it on
  /// iOS: layout, then display (`display()`, `draw(in:)`, with Cairo's
  /// context installed), then the transaction committed, so that what
  /// `layoutSublayers()` and `display()` set, animations included, is in
  /// the frame they were made for (docs/animation.md).
  package static func commit(_ root: CALayer) {
    LaminaDraw.install()
    CATransaction.commitFrame(root: root)
  }
}
