import Foundation
import Lamina

/// `contentsCenter`: the image is cut into nine regions; the corners keep
/// their size (in points: pixels over `contentsScale`), the edges stretch
/// along their side and the center both ways. When the layer is smaller
/// than two corners, both shrink in proportion, as in Core Animation.
///
/// The nine regions are nine items with the same texture, so they batch
/// into one draw call; only the outer edges are antialiased and grown, so
/// the seams between regions neither blend twice nor fade.
enum NineSlice {
  static func applies(to layer: CALayer) -> Bool {
    let c = layer.contentsCenter
    return !(c.minX <= 0 && c.minY <= 0 && c.maxX >= 1 && c.maxY >= 1)
  }

  /// The regions: local rect, texture coordinates (min and max corner) and
  /// the outer edges each one has (`DrawItem.edgeMask` bits).
  static func regions(
    layer: CALayer, image: CGImage, flipped: Bool
  ) -> [(rect: CGRect, uv: (Float, Float, Float, Float), edges: UInt8)] {
    let layout = ContentsLayout(layer: layer, image: image)
    guard let dest = layout.rect, dest.width > 0, dest.height > 0 else { return [] }
    let scale = layer.contentsScale > 0 ? layer.contentsScale : 1
    let source = layer.contentsRect
    let center = layer.contentsCenter.standardized
    let c0x = min(max(center.minX, 0), 1)
    let c1x = min(max(center.maxX, c0x), 1)
    let c0y = min(max(center.minY, 0), 1)
    let c1y = min(max(center.maxY, c0y), 1)
    let imageWidth = CGFloat(image.width) * abs(source.width) / scale
    let imageHeight = CGFloat(image.height) * abs(source.height) / scale
    var left = c0x * imageWidth
    var right = (1 - c1x) * imageWidth
    // Image rows run top to bottom; in a flipped space they run upward.
    var top = c0y * imageHeight
    var bottom = (1 - c1y) * imageHeight
    if flipped { swap(&top, &bottom) }
    if left + right > dest.width {
      let f = dest.width / (left + right)
      left *= f
      right *= f
    }
    if top + bottom > dest.height {
      let f = dest.height / (top + bottom)
      top *= f
      bottom *= f
    }
    let xs = [dest.minX, dest.minX + left, dest.maxX - right, dest.maxX]
    let ys = [dest.minY, dest.minY + top, dest.maxY - bottom, dest.maxY]
    let us = [0, c0x, c1x, 1].map { Float(source.minX + $0 * source.width) }
    var vs = [0, c0y, c1y, 1].map { Float(source.minY + $0 * source.height) }
    if flipped { vs.reverse() }
    var out: [(CGRect, (Float, Float, Float, Float), UInt8)] = []
    for j in 0..<3 {
      for i in 0..<3 {
        let rect = CGRect(x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
        guard rect.width > 1e-9, rect.height > 1e-9 else { continue }
        var edges: UInt8 = 0
        if rect.minY <= dest.minY { edges |= FrameBuilder.minYEdge }
        if rect.maxX >= dest.maxX { edges |= FrameBuilder.maxXEdge }
        if rect.maxY >= dest.maxY { edges |= FrameBuilder.maxYEdge }
        if rect.minX <= dest.minX { edges |= FrameBuilder.minXEdge }
        out.append((rect, (us[i], vs[j], us[i + 1], vs[j + 1]), edges))
      }
    }
    return out
  }
}

extension FrameBuilder {
  func appendNineSlice(
    _ layer: CALayer, image: CGImage, toTarget: CATransform3D, flipped: Bool,
    into commands: inout [DrawCommand]
  ) {
    let sampler = SamplerKey(
      minification: layer.minificationFilter, magnification: layer.magnificationFilter)
    for region in NineSlice.regions(layer: layer, image: image, flipped: flipped) {
      // Each region at its own scale: one drawn 1:1 takes the
      // magnification filter alone, as a plain image does (the metamorphic
      // finding alone seed 5740145: a zero center at one texel a pixel,
      // sampled nearest on the canvas and linearly in the filter's pass).
      let (rect, uv) = (region.rect, region.uv)
      let texels = SIMD2(
        Double(abs(uv.2 - uv.0)) * Double(image.width) / Double(rect.width),
        Double(abs(uv.3 - uv.1)) * Double(image.height) / Double(rect.height))
      guard
        var item = makeItem(
          .image(image, sampler.resolved(texelsPerPoint: texels, through: toTarget)),
          rect: rect, uv: uv, toTarget: toTarget, color: SIMD4(repeating: 1), name: layer.name)
      else { continue }
      item.edgeMask = region.edges
      commands.append(.item(item))
    }
  }
}
