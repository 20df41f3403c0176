import Foundation

/// A 4×4 matrix in Core Animation's row-vector convention: a point is
/// transformed as `[x y z 1] × M`, translation lives in `m41 m42 m43` and
/// perspective in `m34` (`m34 = -1/d` views from distance `d`).
public struct CATransform3D: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
  public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
  public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
  public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

  /// The identity transform.
  public init() {
    (m11, m12, m13, m14) = (1, 0, 0, 0)
    (m21, m22, m23, m24) = (0, 1, 0, 0)
    (m31, m32, m33, m34) = (0, 0, 1, 0)
    (m41, m42, m43, m44) = (0, 0, 0, 1)
  }

  public init(
    m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
    m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
    m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
    m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
  ) {
    (self.m11, self.m12, self.m13, self.m14) = (m11, m12, m13, m14)
    (self.m21, self.m22, self.m23, self.m24) = (m21, m22, m23, m24)
    (self.m31, self.m32, self.m33, self.m34) = (m31, m32, m33, m34)
    (self.m41, self.m42, self.m43, self.m44) = (m41, m42, m43, m44)
  }

  /// Builds a transform from 16 values in the order `m11, m12, …, m44`.
  public init(_ values: [CGFloat]) {
    precondition(values.count == 16, "CATransform3D needs 16 values")
    self.init(
      m11: values[0], m12: values[1], m13: values[2], m14: values[3],
      m21: values[4], m22: values[5], m23: values[6], m24: values[7],
      m31: values[8], m32: values[9], m33: values[10], m34: values[11],
      m41: values[12], m42: values[13], m43: values[14], m44: values[15])
  }

  /// The 16 values in the order `m11, m12, …, m44` (row-major).
  public var values: [CGFloat] {
    [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44]
  }

  public var description: String {
    "CATransform3D(" + values.map { "\($0)" }.joined(separator: ", ") + ")"
  }

  /// Transforms the point `(x, y, z, w)` as a row vector: `[x y z w] × self`.
  @inlinable
  public func apply(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat = 0, _ w: CGFloat = 1)
    -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)
  {
    (
      x * m11 + y * m21 + z * m31 + w * m41,
      x * m12 + y * m22 + z * m32 + w * m42,
      x * m13 + y * m23 + z * m33 + w * m43,
      x * m14 + y * m24 + z * m34 + w * m44
    )
  }

  /// `self × other`: first `self`, then `other`.
  @inlinable
  public func concatenating(_ b: CATransform3D) -> CATransform3D {
    let a = self
    return CATransform3D(
      m11: a.m11 * b.m11 + a.m12 * b.m21 + a.m13 * b.m31 + a.m14 * b.m41,
      m12: a.m11 * b.m12 + a.m12 * b.m22 + a.m13 * b.m32 + a.m14 * b.m42,
      m13: a.m11 * b.m13 + a.m12 * b.m23 + a.m13 * b.m33 + a.m14 * b.m43,
      m14: a.m11 * b.m14 + a.m12 * b.m24 + a.m13 * b.m34 + a.m14 * b.m44,
      m21: a.m21 * b.m11 + a.m22 * b.m21 + a.m23 * b.m31 + a.m24 * b.m41,
      m22: a.m21 * b.m12 + a.m22 * b.m22 + a.m23 * b.m32 + a.m24 * b.m42,
      m23: a.m21 * b.m13 + a.m22 * b.m23 + a.m23 * b.m33 + a.m24 * b.m43,
      m24: a.m21 * b.m14 + a.m22 * b.m24 + a.m23 * b.m34 + a.m24 * b.m44,
      m31: a.m31 * b.m11 + a.m32 * b.m21 + a.m33 * b.m31 + a.m34 * b.m41,
      m32: a.m31 * b.m12 + a.m32 * b.m22 + a.m33 * b.m32 + a.m34 * b.m42,
      m33: a.m31 * b.m13 + a.m32 * b.m23 + a.m33 * b.m33 + a.m34 * b.m43,
      m34: a.m31 * b.m14 + a.m32 * b.m24 + a.m33 * b.m34 + a.m34 * b.m44,
      m41: a.m41 * b.m11 + a.m42 * b.m21 + a.m43 * b.m31 + a.m44 * b.m41,
      m42: a.m41 * b.m12 + a.m42 * b.m22 + a.m43 * b.m32 + a.m44 * b.m42,
      m43: a.m41 * b.m13 + a.m42 * b.m23 + a.m43 * b.m33 + a.m44 * b.m43,
      m44: a.m41 * b.m14 + a.m42 * b.m24 + a.m43 * b.m34 + a.m44 * b.m44)
  }

  /// The matrix with its third column zeroed: points keep x, y and w but
  /// land on the z = 0 plane. This is how a layer flattens its subtree.
  @inlinable
  public var flattened: CATransform3D {
    var t = self
    t.m13 = 0
    t.m23 = 0
    t.m33 = 0
    t.m43 = 0
    return t
  }
}

/// The identity transform.
public let CATransform3DIdentity = CATransform3D()

/// Returns true when `t` is the identity transform.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool { t == CATransform3DIdentity }

/// Returns true when the two transforms are exactly equal.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
  a == b
}

/// A transform that translates by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat)
  -> CATransform3D
{
  var t = CATransform3DIdentity
  t.m41 = tx
  t.m42 = ty
  t.m43 = tz
  return t
}

/// A transform that scales by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat)
  -> CATransform3D
{
  var t = CATransform3DIdentity
  t.m11 = sx
  t.m22 = sy
  t.m33 = sz
  return t
}

/// A transform that rotates by `angle` radians about the vector `(x, y, z)`.
/// A zero vector gives the identity, as in Core Animation. On screen (y down)
/// a positive rotation about z turns clockwise.
public func CATransform3DMakeRotation(
  _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
  let length = (x * x + y * y + z * z).squareRoot()
  guard length > 0, length.isFinite else { return CATransform3DIdentity }
  let (x, y, z) = (x / length, y / length, z / length)
  let c = cos(angle)
  let s = sin(angle)
  let t = 1 - c
  return CATransform3D(
    m11: t * x * x + c, m12: t * x * y + z * s, m13: t * x * z - y * s, m14: 0,
    m21: t * x * y - z * s, m22: t * y * y + c, m23: t * y * z + x * s, m24: 0,
    m31: t * x * z + y * s, m32: t * y * z - x * s, m33: t * z * z + c, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1)
}

/// `t` preceded by a translation: `MakeTranslation(tx, ty, tz) × t`.
public func CATransform3DTranslate(
  _ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat
) -> CATransform3D {
  CATransform3DMakeTranslation(tx, ty, tz).concatenating(t)
}

/// `t` preceded by a scale: `MakeScale(sx, sy, sz) × t`.
public func CATransform3DScale(
  _ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat
) -> CATransform3D {
  CATransform3DMakeScale(sx, sy, sz).concatenating(t)
}

/// `t` preceded by a rotation: `MakeRotation(angle, x, y, z) × t`.
public func CATransform3DRotate(
  _ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat
) -> CATransform3D {
  CATransform3DMakeRotation(angle, x, y, z).concatenating(t)
}

/// `a × b`: the transform that applies `a`, then `b`.
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
  a.concatenating(b)
}

/// The inverse of `t`, or `t` itself when it has none (as Core Animation does).
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
  t.inverted ?? t
}

/// Returns true when `t` maps the z = 0 plane affinely and leaves z alone
/// (the transform could be a `CGAffineTransform`).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
  t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 && t.m31 == 0 && t.m32 == 0
    && t.m33 == 1 && t.m34 == 0 && t.m43 == 0 && t.m44 == 1
}

/// The 3D transform of an affine transform.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
  CATransform3D(
    m11: m.a, m12: m.b, m13: 0, m14: 0,
    m21: m.c, m22: m.d, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: m.tx, m42: m.ty, m43: 0, m44: 1)
}

/// The affine part of `t` (its 2D components, the rest ignored).
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
  CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

extension CATransform3D {
  /// The 2×2 minors of the top two rows (s) and the bottom two rows (c),
  /// from which both the determinant and the inverse follow (Laplace
  /// expansion by complementary minors).
  private var minors: (s: [CGFloat], c: [CGFloat]) {
    let a = values
    func m(_ r: Int, _ c: Int) -> CGFloat { a[r * 4 + c] }
    let s = [
      m(0, 0) * m(1, 1) - m(1, 0) * m(0, 1), m(0, 0) * m(1, 2) - m(1, 0) * m(0, 2),
      m(0, 0) * m(1, 3) - m(1, 0) * m(0, 3), m(0, 1) * m(1, 2) - m(1, 1) * m(0, 2),
      m(0, 1) * m(1, 3) - m(1, 1) * m(0, 3), m(0, 2) * m(1, 3) - m(1, 2) * m(0, 3),
    ]
    let c = [
      m(2, 0) * m(3, 1) - m(3, 0) * m(2, 1), m(2, 0) * m(3, 2) - m(3, 0) * m(2, 2),
      m(2, 0) * m(3, 3) - m(3, 0) * m(2, 3), m(2, 1) * m(3, 2) - m(3, 1) * m(2, 2),
      m(2, 1) * m(3, 3) - m(3, 1) * m(2, 3), m(2, 2) * m(3, 3) - m(3, 2) * m(2, 3),
    ]
    return (s, c)
  }

  /// The determinant of the whole 4×4 matrix.
  public var determinant: CGFloat {
    let (s, c) = minors
    return s[0] * c[5] - s[1] * c[4] + s[2] * c[3] + s[3] * c[2] - s[4] * c[1] + s[5] * c[0]
  }

  /// The inverse, or nil when the matrix is singular.
  public var inverted: CATransform3D? {
    let a = values
    func m(_ r: Int, _ c: Int) -> CGFloat { a[r * 4 + c] }
    let (sv, cv) = minors
    let (s0, s1, s2, s3, s4, s5) = (sv[0], sv[1], sv[2], sv[3], sv[4], sv[5])
    let (c0, c1, c2, c3, c4, c5) = (cv[0], cv[1], cv[2], cv[3], cv[4], cv[5])
    let det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    guard det != 0, det.isFinite else { return nil }
    let inv = 1 / det
    return CATransform3D([
      (m(1, 1) * c5 - m(1, 2) * c4 + m(1, 3) * c3) * inv,
      (-m(0, 1) * c5 + m(0, 2) * c4 - m(0, 3) * c3) * inv,
      (m(3, 1) * s5 - m(3, 2) * s4 + m(3, 3) * s3) * inv,
      (-m(2, 1) * s5 + m(2, 2) * s4 - m(2, 3) * s3) * inv,
      (-m(1, 0) * c5 + m(1, 2) * c2 - m(1, 3) * c1) * inv,
      (m(0, 0) * c5 - m(0, 2) * c2 + m(0, 3) * c1) * inv,
      (-m(3, 0) * s5 + m(3, 2) * s2 - m(3, 3) * s1) * inv,
      (m(2, 0) * s5 - m(2, 2) * s2 + m(2, 3) * s1) * inv,
      (m(1, 0) * c4 - m(1, 1) * c2 + m(1, 3) * c0) * inv,
      (-m(0, 0) * c4 + m(0, 1) * c2 - m(0, 3) * c0) * inv,
      (m(3, 0) * s4 - m(3, 1) * s2 + m(3, 3) * s0) * inv,
      (-m(2, 0) * s4 + m(2, 1) * s2 - m(2, 3) * s0) * inv,
      (-m(1, 0) * c3 + m(1, 1) * c1 - m(1, 2) * c0) * inv,
      (m(0, 0) * c3 - m(0, 1) * c1 + m(0, 2) * c0) * inv,
      (-m(3, 0) * s3 + m(3, 1) * s1 - m(3, 2) * s0) * inv,
      (m(2, 0) * s3 - m(2, 1) * s1 + m(2, 2) * s0) * inv,
    ])
  }
}
