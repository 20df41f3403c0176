import Foundation
import Lamina

/// Where a layer's contents image lands in its bounds, and which part of the
/// image shows: `contentsGravity`, `contentsRect` and `contentsScale` as Core
/// Animation applies them.
struct ContentsLayout {
  /// The rect the image fills, in the layer's bounds space (it may extend
  /// beyond the bounds); nil when nothing shows.
  var rect: CGRect?
  /// Texture coordinates of the rect's min and max corners.
  var uv: (Float, Float, Float, Float)

  init(layer: CALayer, image: CGImage) {
    self.init(layer: layer, pixelWidth: image.width, pixelHeight: image.height)
  }

  /// The layout of contents of `pixelWidth`×`pixelHeight` pixels.
  init(layer: CALayer, pixelWidth: Int, pixelHeight: Int) {
    let bounds = layer.bounds
    let source = layer.contentsRect
    let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
    // The size of the shown part of the image, in points.
    let size = CGSize(
      width: CGFloat(pixelWidth) * abs(source.width) / scale,
      height: CGFloat(pixelHeight) * abs(source.height) / scale)
    rect = Self.place(size, in: bounds, gravity: layer.contentsGravity)
    uv = (
      Float(source.minX), Float(source.minY), Float(source.maxX), Float(source.maxY)
    )
  }

  /// Places content of `size` in `bounds`. Core Animation's gravity names
  /// assume y grows upward: `top` is the edge with the larger y.
  static func place(_ size: CGSize, in bounds: CGRect, gravity: CALayerContentsGravity) -> CGRect? {
    guard size.width > 0, size.height > 0 else { return nil }
    let w = size.width
    let h = size.height
    func at(_ x: CGFloat, _ y: CGFloat) -> CGRect { CGRect(x: x, y: y, width: w, height: h) }
    let midX = bounds.midX - w / 2
    let midY = bounds.midY - h / 2
    let largeY = bounds.maxY - h
    let smallY = bounds.minY
    let left = bounds.minX
    let right = bounds.maxX - w
    switch gravity {
    case .center: return at(midX, midY)
    case .top: return at(midX, largeY)
    case .bottom: return at(midX, smallY)
    case .left: return at(left, midY)
    case .right: return at(right, midY)
    case .topLeft: return at(left, largeY)
    case .topRight: return at(right, largeY)
    case .bottomLeft: return at(left, smallY)
    case .bottomRight: return at(right, smallY)
    case .resizeAspect, .resizeAspectFill:
      guard bounds.width > 0, bounds.height > 0 else { return nil }
      let sx = bounds.width / w
      let sy = bounds.height / h
      let s = gravity == .resizeAspect ? min(sx, sy) : max(sx, sy)
      let fitted = CGSize(width: w * s, height: h * s)
      return CGRect(
        x: bounds.midX - fitted.width / 2, y: bounds.midY - fitted.height / 2,
        width: fitted.width, height: fitted.height)
    default:  // resize, and any unknown value
      return bounds.width > 0 && bounds.height > 0 ? bounds : nil
    }
  }
}
