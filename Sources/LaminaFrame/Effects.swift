import Foundation
import Lamina

/// A rectangle with a radius per corner, in some layer's own plane. Radii are
/// ordered minX-minY, maxX-minY, maxX-maxY, minX-maxY (clockwise on screen
/// for an identity transform).
package struct RoundedRect: Equatable {
  package var rect: CGRect
  package var radii: SIMD4<Float>

  /// `layer`'s bounds with its `cornerRadius` on the corners of `maskedCorners`,
  /// each radius limited to half the shorter side (as Core Animation does).
  init(layer: CALayer) {
    rect = layer.bounds
    let r = Float(max(0, min(layer.cornerRadius, min(rect.width, rect.height) / 2)))
    let m = layer.maskedCorners
    radii = SIMD4(
      m.contains(.layerMinXMinYCorner) ? r : 0, m.contains(.layerMaxXMinYCorner) ? r : 0,
      m.contains(.layerMaxXMaxYCorner) ? r : 0, m.contains(.layerMinXMaxYCorner) ? r : 0)
  }

  init(rect: CGRect, radii: SIMD4<Float> = .zero) {
    self.rect = rect
    self.radii = radii
  }

  var isRounded: Bool { radii.max() > 0 }
}

/// How an effect item computes its coverage in the fragment shader, from a
/// rounded rect in the item's own plane (`shape.glsl`).
package struct ShapeEffect: Equatable {
  package enum Mode: Float {
    /// Inside the rounded rect (backgrounds, clipped contents).
    case fill = 0
    /// Between the rounded rect and the same inset by `width` (borders).
    case ring = 1
    /// The rounded rect blurred by a Gaussian of standard deviation `width`
    /// (in the plane's units): a shadow without an offscreen pass.
    case blur = 2
  }
  package var shape: RoundedRect
  package var mode: Mode
  /// Border width (ring) or standard deviation (blur).
  package var width: Float
}

/// A clip evaluated per fragment: a rounded rect in the clipping layer's
/// plane, and the homography that takes the item's plane there.
package struct ClipEffect {
  package var shape: RoundedRect
  /// Item plane (x, y, 1) → clip plane, homogeneous.
  package var itemToClip: Homography
}
