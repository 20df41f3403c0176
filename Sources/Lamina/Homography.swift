import Foundation

/// A plane-to-plane projective map, as a 3×3 matrix acting on row vectors
/// `[x y 1]` (Core Animation's convention, rows 1, 2, 4 and columns 1, 2, 4
/// of a flattened `CATransform3D`).
public struct Homography {
  package var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

  package init(_ t: CATransform3D) {
    m = (
      Double(t.m11), Double(t.m12), Double(t.m14), Double(t.m21), Double(t.m22), Double(t.m24),
      Double(t.m41), Double(t.m42), Double(t.m44)
    )
  }

  package init(m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)) {
    self.m = m
  }

  package static let identity = Homography(m: (1, 0, 0, 0, 1, 0, 0, 0, 1))

  /// `[x y 1] × self`, homogeneous.
  package func apply(_ x: Double, _ y: Double) -> SIMD3<Double> {
    SIMD3(x * m.0 + y * m.3 + m.6, x * m.1 + y * m.4 + m.7, x * m.2 + y * m.5 + m.8)
  }

  /// `self × other` (first self, then other).
  package func then(_ o: Homography) -> Homography {
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
  package var inverse: Homography? {
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
  package var isAxisAlignedAffine: Bool {
    m.2 == 0 && m.5 == 0 && m.8 == 1 && m.1 == 0 && m.3 == 0
  }
}

extension Homography {
  /// `[x y 1] × self`, divided by w.
  package func apply(_ p: CGPoint) -> CGPoint {
    let q = apply(Double(p.x), Double(p.y))
    return CGPoint(x: q.x / q.z, y: q.y / q.z)
  }

  /// `self` (an inverse) applied to `p`, or nil when the preimage lies at
  /// or behind the eye (its w under `forward` is not positive).
  package func applyInFront(_ p: CGPoint, forward: Homography) -> CGPoint? {
    let local = apply(p)
    guard local.x.isFinite, local.y.isFinite else { return nil }
    return forward.apply(Double(local.x), Double(local.y)).z > 0 ? local : nil
  }

  /// True when the map reverses orientation (a plane seen from its back):
  /// the sign of the Jacobian at any point in front is that of the determinant.
  package var isMirroring: Bool {
    let (a, b, c, d, e, f, g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g) < 0
  }
}
