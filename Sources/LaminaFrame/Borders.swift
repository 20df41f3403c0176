import Foundation
import Lamina

/// Backgrounds and borders: the cheap solid program for square corners, the
/// shape program (a signed distance per fragment) only where corners round
/// or a border rings the layer.
extension FrameBuilder {
  /// Edge bits of `DrawItem.edgeMask`.
  static let minYEdge: UInt8 = 1, maxXEdge: UInt8 = 2, maxYEdge: UInt8 = 4, minXEdge: UInt8 = 8

  /// The layer's background, clipped to its rounded bounds.
  func appendBackground(
    _ layer: CALayer, toTarget: CATransform3D, into commands: inout [DrawCommand]
  ) {
    let bounds = layer.bounds
    guard let background = layer.backgroundColor, background.alpha > 0, bounds.width > 0,
      bounds.height > 0
    else { return }
    // An opaque image over all of the bounds hides the background: skip its fill.
    if let image = layer.contents as? CGImage, image.isOpaque,
      let rect = ContentsLayout(layer: layer, image: image).rect, rect.contains(bounds)
    {
      return
    }
    guard
      var item = makeItem(
        .solid, rect: bounds, uv: (0, 0, 0, 0), toTarget: toTarget,
        color: premultiplied(background, opacity: 1), name: layer.name)
    else { return }
    let shape = RoundedRect(layer: layer)
    if shape.isRounded {
      item.shape = ShapeEffect(shape: shape, mode: .fill, width: 0)
      if let pieces = splitAtCorners(item, shape: shape, toShape: .identity, role: .fill) {
        commands.append(contentsOf: pieces.map { .item($0) })
        return
      }
    }
    commands.append(.item(item))
  }

  /// The border, drawn inward and above the sublayers. It is cut into four
  /// strips (top and bottom full width, left and right between them), each
  /// as deep as the border or the corner radius, so that the ring shader
  /// shades the ring's area and not the whole layer; the strips share the
  /// ring's shape, so their seams do not show.
  func appendBorder(_ layer: CALayer, toTarget: CATransform3D, into commands: inout [DrawCommand]) {
    let b = layer.bounds
    guard layer.borderWidth > 0, let color = layer.borderColor, color.alpha > 0, b.width > 0,
      b.height > 0
    else { return }
    let shape = RoundedRect(layer: layer)
    let width = min(layer.borderWidth, min(b.width, b.height) / 2)
    let ring = ShapeEffect(shape: shape, mode: .ring, width: Float(width))
    // The strips reach just under half a pixel past the ring's inner edge:
    // a pixel the ring covers in part (its center less than half a pixel
    // inside the hole) must be rasterized by a strip for the shader to shade
    // it, and a strip ending on a pixel center would leave it out; a pixel
    // diagonal to a square inner corner, which the ring does not cover,
    // stays out.
    let margin = 0.49 / max(Self.pixelsPerUnit(toTarget, b.midX, b.midY), 0.01)
    let depth = min(max(width + margin, CGFloat(shape.radii.max())), min(b.width, b.height) / 2)
    let tinted = premultiplied(color, opacity: 1)
    let strips = Self.frameStrips(outer: b, hole: b.insetBy(dx: depth, dy: depth))
    for (rect, edges) in strips where rect.width > 0 && rect.height > 0 {
      guard
        var item = makeItem(
          .solid, rect: rect, uv: (0, 0, 0, 0), toTarget: toTarget, color: tinted, name: layer.name)
      else { continue }
      item.shape = ring
      item.edgeMask = edges
      commands.append(.item(item))
    }
  }

  /// The part of `outer` around `hole` (inside it) as four strips: top and
  /// bottom full width, left and right between them; with each, the edges
  /// on `outer`'s boundary (grown for antialiasing; the others are seams).
  static func frameStrips(outer o: CGRect, hole h: CGRect) -> [(CGRect, UInt8)] {
    [
      (
        CGRect(x: o.minX, y: o.minY, width: o.width, height: h.minY - o.minY),
        minYEdge | minXEdge | maxXEdge
      ),
      (
        CGRect(x: o.minX, y: h.maxY, width: o.width, height: o.maxY - h.maxY),
        maxYEdge | minXEdge | maxXEdge
      ),
      (CGRect(x: o.minX, y: h.minY, width: h.minX - o.minX, height: h.height), minXEdge),
      (CGRect(x: h.maxX, y: h.minY, width: o.maxX - h.maxX, height: h.height), maxXEdge),
    ]
  }
}
