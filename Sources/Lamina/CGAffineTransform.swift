import Foundation

/// A 2D affine transform, Core Graphics' `CGAffineTransform` (missing from
/// Foundation on Linux). Row-vector convention: `[x y 1] × [[a b 0] [c d 0] [tx ty 1]]`.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
  public var a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat

  public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
    (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
  }

  /// The identity transform.
  public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }

  public static let identity = CGAffineTransform()

  public init(translationX tx: CGFloat, y ty: CGFloat) {
    self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
  }

  public init(scaleX sx: CGFloat, y sy: CGFloat) {
    self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
  }

  public init(rotationAngle angle: CGFloat) {
    let c = cos(angle)
    let s = sin(angle)
    self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
  }

  public var isIdentity: Bool { self == .identity }

  /// `self × t`: first `self`, then `t`.
  public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
    CGAffineTransform(
      a: a * t.a + b * t.c, b: a * t.b + b * t.d,
      c: c * t.a + d * t.c, d: c * t.b + d * t.d,
      tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
  }

  public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(translationX: x, y: y).concatenating(self)
  }

  public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform {
    CGAffineTransform(scaleX: x, y: y).concatenating(self)
  }

  public func rotated(by angle: CGFloat) -> CGAffineTransform {
    CGAffineTransform(rotationAngle: angle).concatenating(self)
  }

  /// The inverse, or `self` when the transform is singular (as Core Graphics does).
  public func inverted() -> CGAffineTransform {
    let det = a * d - b * c
    guard det != 0 else { return self }
    return CGAffineTransform(
      a: d / det, b: -b / det, c: -c / det, d: a / det,
      tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
  }
}

extension CGPoint {
  /// The point transformed by `t`.
  public func applying(_ t: CGAffineTransform) -> CGPoint {
    CGPoint(x: x * t.a + y * t.c + t.tx, y: x * t.b + y * t.d + t.ty)
  }
}

extension CGSize {
  /// The size transformed by `t`'s linear part.
  public func applying(_ t: CGAffineTransform) -> CGSize {
    CGSize(width: width * t.a + height * t.c, height: width * t.b + height * t.d)
  }
}

extension CGRect {
  /// The bounding box of the rectangle's four transformed corners.
  public func applying(_ t: CGAffineTransform) -> CGRect {
    if isNull { return self }
    let points = [
      CGPoint(x: minX, y: minY), CGPoint(x: maxX, y: minY),
      CGPoint(x: minX, y: maxY), CGPoint(x: maxX, y: maxY),
    ].map { $0.applying(t) }
    let xs = points.map(\.x)
    let ys = points.map(\.y)
    let x0 = xs.min()!
    let y0 = ys.min()!
    return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
  }
}

/// An affine transform taken apart, as Core Graphics' `decomposed()` gives
/// it: applied in this order, scale, horizontal shear, rotation, translation.
public struct CGAffineTransformComponents: Equatable, Sendable {
  public var scale: CGSize
  public var horizontalShear: CGFloat
  public var rotation: CGFloat
  public var translation: CGVector
  public init(scale: CGSize, horizontalShear: CGFloat, rotation: CGFloat, translation: CGVector) {
    self.scale = scale
    self.horizontalShear = horizontalShear
    self.rotation = rotation
    self.translation = translation
  }
}

extension CGAffineTransform {
  /// The transform made of `components`: scale, then horizontal shear (x
  /// grows by shear × y), then rotation, then translation.
  public init(_ components: CGAffineTransformComponents) {
    let c = cos(components.rotation)
    let s = sin(components.rotation)
    let sx = components.scale.width
    let sy = components.scale.height
    let k = components.horizontalShear
    // [sx 0; 0 sy] × [1 0; k 1] × [c s; −s c]
    self.init(
      a: sx * c, b: sx * s, c: sy * (k * c - s), d: sy * (k * s + c),
      tx: components.translation.dx, ty: components.translation.dy)
  }

  /// The scale, shear, rotation and translation that make this transform
  /// (the scale's x is positive; a mirror shows as a negative y scale).
  public func decomposed() -> CGAffineTransformComponents {
    let sx = (a * a + b * b).squareRoot()
    let rotation = sx > 0 ? atan2(b, a) : 0
    let cr = cos(rotation)
    let sr = sin(rotation)
    let sy = -c * sr + d * cr
    let shear = sy != 0 ? (c * cr + d * sr) / sy : 0
    return CGAffineTransformComponents(
      scale: CGSize(width: sx, height: sy), horizontalShear: shear, rotation: rotation,
      translation: CGVector(dx: tx, dy: ty))
  }
}
