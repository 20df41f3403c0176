import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

extension CALayer {
  /// Renders the layer and its sublayers into `ctx`, in the layer's own
  /// bounds space (its `position` and `transform` are not applied), from
  /// the model tree, ignoring animations: Core Animation's `render(in:)`,
  /// for snapshots. The tree is drawn by the GPU renderer at the context's
  /// pixel density (its width over the bounds' width) and the picture is
  /// drawn into the bounds; available with `import LaminaRender`.
  ///
  /// ```swift
  /// let ctx = CGContext.bitmap(width: 400, height: 300)!   // a 200×150 layer at 2×
  /// ctx.scaleBy(x: 2, y: 2)
  /// card.render(in: ctx)
  /// let snapshot = ctx.makeImage()
  /// ```
  public func render(in ctx: CGContext) {
    let box = bounds
    guard box.width > 0, box.height > 0, box.width.isFinite, box.height.isFinite else { return }
    let scale = min(max(CGFloat(ctx.width) / box.width, 1.0 / 64), 8)
    // A copy placed with its bounds origin at the canvas origin.
    let copy = deepCopy()
    copy.transform = CATransform3DIdentity
    copy.anchorPoint = .zero
    copy.position = .zero
    guard let renderer = SnapshotRenderer.shared(),
      let image = try? renderer.render(layer: copy, size: box.size, scale: scale),
      let picture = CGImage(width: image.width, height: image.height, rgba: image.straightPixels)
    else { return }
    ctx.draw(picture, in: box)
  }
}

/// The renderer `render(in:)` draws with, made on first use (a renderer
/// compiles its programs: one per snapshot would cost that every time).
/// Its caches are its own, within a small budget.
enum SnapshotRenderer {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var renderer: Renderer?
  /// The snapshot renderer's cache budget.
  static let cacheBytes = 64 << 20

  static func shared() -> Renderer? {
    lock.lock()
    defer { lock.unlock() }
    if renderer == nil { renderer = try? Renderer(cacheBytes: cacheBytes) }
    return renderer
  }
}
