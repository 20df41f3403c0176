import Foundation

/// A layer whose content is drawn with OpenGL ES, as `CAEAGLLayer` and
/// `CAOpenGLLayer` are on Apple's systems. When the layer needs new content
/// (`setNeedsDisplay()`, or every frame while `isAsynchronous`), the
/// renderer makes its own GL context current with a framebuffer of the
/// layer's size in pixels (`bounds × contentsScale`, cleared to transparent)
/// bound, and calls `draw(atLayerTime:)`; the result is then composited like
/// any contents: transformed, clipped, masked and shadowed, without a copy
/// (the framebuffer's texture is drawn directly).
///
/// ```swift
/// final class Spinner: CAOpenGLLayer {
///   override func draw(atLayerTime t: CFTimeInterval) {
///     // … clear and draw with GLES 3 calls into the bound framebuffer …
///   }
/// }
/// ```
open class CAOpenGLLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAOpenGLLayer.self }
  override package class func makeInstance() -> CALayer { CAOpenGLLayer() }

  /// Redraw every frame (an animation drawn with GL), not only on `setNeedsDisplay()`.
  open var isAsynchronous = false {
    didSet { didChange(.asynchronous, oldValue) }
  }
  /// Bumped by `setNeedsDisplay()`: the drawn content is stale.
  public private(set) var drawGeneration = 0

  /// Whether the layer can draw at layer time `t` (when false, the last
  /// content stays).
  open func canDraw(atLayerTime t: CFTimeInterval) -> Bool { true }

  /// Draws the content with GL ES into the bound framebuffer; `t` is the
  /// scene time the frame shows.
  open func draw(atLayerTime t: CFTimeInterval) {}

  /// GL content has no backing store: marks it for a redraw.
  open override func display() {
    drawGeneration &+= 1
  }

  /// The descriptions of the GL layer's own properties (LayerProperty.swift).
  static let openGLProperties: [LayerProperty] = [
    LayerProperty.make(.asynchronous, .bool, \CAOpenGLLayer.isAsynchronous, Convert.bool)
  ]

  override class var properties: [LayerProperty] { super.properties + openGLProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    if let o = other as? CAOpenGLLayer {
      isAsynchronous = o.isAsynchronous
      drawGeneration = o.drawGeneration
    }
  }
}
