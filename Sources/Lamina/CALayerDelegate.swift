import Foundation

/// What a layer's delegate can do for it: actions, layout and drawing. Every
/// method has a default, so a delegate implements only what it needs; as in
/// Core Animation, a delegate's `display(_:)` replaces drawing altogether.
///
/// ```swift
/// final class Arrow: CALayerDelegate {
///   func draw(_ layer: CALayer, in ctx: CGContext) {
///     ctx.setStrokeColor(.black)
///     ctx.strokeLineSegments(between: [CGPoint(x: 0, y: 10), CGPoint(x: 40, y: 10)])
///   }
/// }
/// ```
public protocol CALayerDelegate: AnyObject {
  /// The action for `event` on `layer`: an action, `NSNull` to stop the
  /// search with no action, or nil to let the search go on.
  func action(for layer: CALayer, forKey event: String) -> CAAction?
  /// Lays out `layer`'s sublayers (called by the layer's default `layoutSublayers()`).
  func layoutSublayers(of layer: CALayer)
  /// Sets the layer's contents itself (typically to an image). The default
  /// draws through `draw(_:in:)` into a backing store.
  func display(_ layer: CALayer)
  /// Draws the layer's contents into `ctx` (bounds space, top-left origin).
  func draw(_ layer: CALayer, in ctx: CGContext)
  /// Called before the layer's backing store is drawn (a chance to set
  /// `contentsFormat` and the like).
  func layerWillDraw(_ layer: CALayer)
}

extension CALayerDelegate {
  /// No action of its own: the search goes on.
  public func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
  /// No layout of its own.
  public func layoutSublayers(of layer: CALayer) {}
  /// Draws the layer through `draw(_:in:)` into its backing store.
  public func display(_ layer: CALayer) { layer.drawIntoBackingStore() }
  /// Draws nothing.
  public func draw(_ layer: CALayer, in ctx: CGContext) {}
  /// Nothing to prepare.
  public func layerWillDraw(_ layer: CALayer) {}
}
