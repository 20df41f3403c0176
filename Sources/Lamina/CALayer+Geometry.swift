import Foundation

extension CALayer {
  /// The anchor point in the layer's own bounds space, with `anchorPointZ`.
  public var anchorInBounds: (x: CGFloat, y: CGFloat, z: CGFloat) {
    (
      bounds.minX + anchorPoint.x * bounds.width,
      bounds.minY + anchorPoint.y * bounds.height,
      anchorPointZ
    )
  }

  /// Maps the layer's bounds space into its superlayer's bounds space, before
  /// the superlayer's `sublayerTransform`: move the anchor to the origin,
  /// apply `transform`, then move to `position` and `zPosition`.
  public var transformToSuperlayer: CATransform3D {
    let a = anchorInBounds
    var m = transform
    if a.x != 0 || a.y != 0 || a.z != 0 {
      m = CATransform3DMakeTranslation(-a.x, -a.y, -a.z).concatenating(m)
    }
    return m.concatenating(CATransform3DMakeTranslation(position.x, position.y, zPosition))
  }

  /// What this layer applies to its sublayers' geometry in its own bounds
  /// space: `sublayerTransform` about the anchor point, and the y flip of
  /// `isGeometryFlipped`.
  public var transformForSublayers: CATransform3D {
    var m = CATransform3DIdentity
    if isGeometryFlipped {
      // y → minY + maxY - y: a sublayer at y = 10 sits 10 points above the bottom.
      m = CATransform3DMakeScale(1, -1, 1)
      m.m42 = bounds.minY + bounds.maxY
    }
    if !CATransform3DIsIdentity(sublayerTransform) {
      let a = anchorInBounds
      let about = CATransform3DMakeTranslation(-a.x, -a.y, -a.z)
        .concatenating(sublayerTransform)
        .concatenating(CATransform3DMakeTranslation(a.x, a.y, a.z))
      m = m.concatenating(about)
    }
    return m
  }

  /// The frame: the layer's bounds as seen in the superlayer's space (the
  /// bounding box when the transform is not the identity). Setting it sets
  /// `bounds.size` and `position` (the transform is assumed to be the identity).
  var frameImpl: CGRect {
    get {
      let m = transformToSuperlayer
      let corners = [
        (bounds.minX, bounds.minY), (bounds.maxX, bounds.minY),
        (bounds.minX, bounds.maxY), (bounds.maxX, bounds.maxY),
      ].map { m.apply($0.0, $0.1) }
      guard corners.allSatisfy({ $0.w > 0 }) else { return .null }
      let xs = corners.map { $0.x / $0.w }
      let ys = corners.map { $0.y / $0.w }
      let x0 = xs.min()!
      let y0 = ys.min()!
      return CGRect(x: x0, y: y0, width: xs.max()! - x0, height: ys.max()! - y0)
    }
    set {
      let rect = newValue.standardized
      bounds.size = rect.size
      position = CGPoint(
        x: rect.minX + anchorPoint.x * rect.width, y: rect.minY + anchorPoint.y * rect.height)
    }
  }

  /// The transform as an affine transform (its x-y part), as Core Animation's
  /// `affineTransform()` reads it.
  func affineTransformImpl() -> CGAffineTransform {
    CATransform3DGetAffineTransform(transform)
  }

  /// Sets `transform` to `m` (an affine transform in the x-y plane), as
  /// Core Animation's `setAffineTransform(_:)`; it animates implicitly as
  /// `transform` does.
  ///
  /// ```swift
  /// needle.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
  /// ```
  func setAffineTransformImpl(_ m: CGAffineTransform) {
    transform = CATransform3DMakeAffineTransform(m)
  }

  /// Whether the layer's contents are flipped when drawn: an odd number of
  /// its ancestors flip their sublayers' geometry (`isGeometryFlipped`).
  func contentsAreFlippedImpl() -> Bool {
    var flipped = false
    var layer = parentLayer
    while let current = layer {
      if current.isGeometryFlipped { flipped.toggle() }
      layer = current.parentLayer
    }
    return flipped
  }

  /// How much larger than `cornerRadius` a corner of `curve` reaches along
  /// each edge (1 for circular corners; Apple's continuous curve reaches
  /// about 1.528 times as far).
  class func cornerCurveExpansionFactorImpl(_ curve: CALayerCornerCurve) -> CGFloat {
    curve == .continuous ? 1.528665 : 1
  }
}
