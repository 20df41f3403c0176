import Foundation
import Lamina

/// A rectangle with a radius per corner, in some layer's own plane. Radii are
/// ordered minX-minY, maxX-minY, maxX-maxY, minX-maxY (clockwise on screen
/// for an identity transform).
public struct RoundedRect: Equatable {
  public var rect: CGRect
  public var radii: SIMD4<Float>

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
public struct ShapeEffect: Equatable {
  public enum Mode: Float {
    /// Inside the rounded rect (backgrounds, clipped contents).
    case fill = 0
    /// Between the rounded rect and the same inset by `width` (borders).
    case ring = 1
    /// The rounded rect blurred by a Gaussian of standard deviation `width`
    /// (in the plane's units): a shadow without an offscreen pass.
    case blur = 2
  }
  public var shape: RoundedRect
  public var mode: Mode
  /// Border width (ring) or standard deviation (blur).
  public var width: Float
}

/// A clip evaluated per fragment: a rounded rect in the clipping layer's
/// plane, and the homography that takes the item's plane there.
public struct ClipEffect {
  public var shape: RoundedRect
  /// Item plane (x, y, 1) → clip plane, homogeneous.
  public var itemToClip: Homography
}

/// A plane-to-plane projective map, as a 3×3 matrix acting on row vectors
/// `[x y 1]` (Core Animation's convention, rows 1, 2, 4 and columns 1, 2, 4
/// of a flattened `CATransform3D`).
public struct Homography {
  var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  init(_ t: CATransform3D) {
    m = (
      Double(t.m11), Double(t.m12), Double(t.m14), Double(t.m21), Double(t.m22), Double(t.m24),
      Double(t.m41), Double(t.m42), Double(t.m44)
    )
  }

  init(m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) { self.m = m }

  static let identity = Homography(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

  /// `[x y 1] × self`, homogeneous.
  func apply(_ x: Double, _ y: Double) -> SIMD3<Double> {
    SIMD3(x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
  }

  /// `self × other` (first self, then other).
  func then(_ o: Homography) -> Homography {
    let a = m
    let b = o.m
    return Homography(
      m: (
        a.0 * b.0 + a.1 * b.3 + a.2 * b.6, a.0 * b.1 + a.1 * b.4 + a.2 * b.7,
        a.0 * b.2 + a.1 * b.5 + a.2 * b.8,
        a.3 * b.0 + a.4 * b.3 + a.5 * b.6, a.3 * b.1 + a.4 * b.4 + a.5 * b.7,
        a.3 * b.2 + a.4 * b.5 + a.5 * b.8,
        a.6 * b.0 + a.7 * b.3 + a.8 * b.6, a.6 * b.1 + a.7 * b.4 + a.8 * b.7,
        a.6 * b.2 + a.7 * b.5 + a.8 * b.8
      ))
  }

  /// The inverse (adjugate over determinant); nil when singular.
  var inverse: Homography? {
    let (a, b, c, d, e, f, g, h, i) = m
    // The first column of the adjugate (cofactors of the first row).
    let c0 = e * i - f * h
    let c1 = -(d * i - f * g)
    let c2 = d * h - e * g
    let det = a * c0 + b * c1 + c * c2
    guard abs(det) > 1e-300, det.isFinite else { return nil }
    let s = 1 / det
    return Homography(
      m: (
        c0 * s, -(b * i - c * h) * s, (b * f - c * e) * s,
        c1 * s, (a * i - c * g) * s, -(a * f - c * d) * s,
        c2 * s, -(a * h - b * g) * s, (a * e - b * d) * s
      ))
  }

  /// True for a map that keeps axis-aligned rects axis-aligned and is affine.
  var isAxisAlignedAffine: Bool {
    m.2 == 0 && m.5 == 0 && m.8 == 1 && m.1 == 0 && m.3 == 0
  }
}
