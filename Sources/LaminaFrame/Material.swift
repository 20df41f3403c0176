import Foundation
import Lamina

/// What a draw item fills its polygon with.
public enum Material: Equatable {
  /// A solid premultiplied color, computed without any texture.
  case solid
  /// An image, sampled with the given filters.
  case image(CGImage, SamplerKey)
  /// The texture of an offscreen group rendered earlier in the frame.
  case group(Int)
  /// A `CAGradientLayer`'s gradient, computed in the fragment shader.
  case gradient(GradientPaint)
  /// An offscreen group times its mask's alpha or luminance, or one minus
  /// either (group ids; `CALayer.maskMode`).
  case masked(Int, mask: Int, mode: CALayerMaskMode)
  /// The blurred alpha of an offscreen group, tinted (a shadow).
  case shadow(Int)
  /// A rasterized subtree's cached texture.
  case raster(RasterPass)
  /// The filtered rendering of an offscreen group (a layer's `filters`).
  case filtered(Int)
  /// What a `CAOpenGLLayer` drew into its framebuffer.
  case openGLLayer(GLLayerPass)
  /// A dma-buf frame, imported as a texture.
  case dmabuf(DMABufFrame)
  /// A `CAShapeLayer`'s fill or stroke, from a mesh kept on the GPU
  /// (`PathItems.swift`; the item's rect only bounds it).
  case path(PathPaint)

  public static func == (a: Material, b: Material) -> Bool {
    switch (a, b) {
    case (.solid, .solid): return true
    case (.image(let x, let s), .image(let y, let t)): return x === y && s == t
    case (.group(let x), .group(let y)): return x == y
    case (.gradient(let x), .gradient(let y)): return x == y
    case (.masked(let x, let m, let f), .masked(let y, let n, let g)):
      return x == y && m == n && f == g
    case (.shadow(let x), .shadow(let y)): return x == y
    case (.raster(let x), .raster(let y)): return x.key == y.key
    case (.filtered(let x), .filtered(let y)): return x == y
    case (.openGLLayer(let x), .openGLLayer(let y)): return x.key == y.key
    case (.dmabuf(let x), .dmabuf(let y)): return x == y
    case (.path(let x), .path(let y)): return x == y
    default: return false
    }
  }
}
