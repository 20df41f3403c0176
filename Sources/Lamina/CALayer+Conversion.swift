import Foundation

// Mapping points and rects between layers. A layer's bounds plane maps into
// its superlayer's by `transformToSuperlayer` followed by the superlayer's
// `transformForSublayers`; every layer but a CATransformLayer flattens what
// its sublayers draw into its own plane, so z is dropped at each such level.

extension CALayer {
  /// The layer a sublayer or mask is positioned in: its superlayer, or the
  /// layer it masks.
  var parentLayer: CALayer? { superlayer ?? maskOwner }

  /// The map from this layer's bounds space into its parent's bounds space,
  /// flattened unless the parent is a CATransformLayer. For a root layer,
  /// the map into the space it is positioned in (the canvas).
  public var transformToParent: CATransform3D {
    guard let parent = parentLayer else { return transformToSuperlayer.flattened }
    let m = transformToSuperlayer.concatenating(parent.transformForSublayers)
    return parent is CATransformLayer ? m : m.flattened
  }

  /// The map from this layer's bounds space into `ancestor`'s bounds space,
  /// or into the root's parent space (the canvas) when `ancestor` is nil or
  /// not an ancestor. Row-vector convention: `[x y 0 1] × M`, then divide by w.
  public func transformToAncestor(_ ancestor: CALayer?) -> CATransform3D {
    var m = CATransform3DIdentity
    var layer: CALayer? = self
    while let current = layer, current !== ancestor {
      m = m.concatenating(current.transformToParent)
      layer = current.parentLayer
    }
    return m
  }

  /// Converts `point` from `layer`'s bounds space into this layer's. A nil
  /// layer means the canvas the root layer is positioned in.
  public func convert(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
    let from = layer.map { Homography($0.transformToAncestor(nil)) } ?? .identity
    guard let to = Homography(transformToAncestor(nil)).inverse else {
      return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
    }
    return to.apply(from.apply(point))
  }

  /// Converts `point` from this layer's bounds space into `layer`'s.
  public func convert(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
    guard let layer else { return Homography(transformToAncestor(nil)).apply(point) }
    return layer.convert(point, from: self)
  }

  /// Converts `rect` from `layer`'s bounds space into this layer's: the
  /// bounding box of its four converted corners.
  public func convert(_ rect: CGRect, from layer: CALayer?) -> CGRect {
    Self.box(Self.corners(rect).map { convert($0, from: layer) })
  }

  /// Converts `rect` from this layer's bounds space into `layer`'s.
  public func convert(_ rect: CGRect, to layer: CALayer?) -> CGRect {
    Self.box(Self.corners(rect).map { convert($0, to: layer) })
  }

  static func corners(_ r: CGRect) -> [CGPoint] {
    [
      CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
      CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY),
    ]
  }

  static func box(_ points: [CGPoint]) -> CGRect {
    guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { return .null }
    return CGPath.box(points)
  }

  func hitTestInSuperlayerSpace(_ point: CGPoint) -> CALayer? {
    guard !isHidden else { return nil }
    // Into the bounds space: undo the map into the parent's bounds plane.
    var step = transformToSuperlayer
    if let parent = parentLayer { step = step.concatenating(parent.transformForSublayers) }
    guard let inverse = Homography(step.flattened).inverse else { return nil }
    // The parent's sublayer transform is undone here, so the point given to
    // sublayers below is in this layer's bounds space before its own
    // `transformForSublayers`; re-apply it for them.
    var local = inverse.apply(parentLayer.map { Homography($0.transformForSublayers).apply(point) } ?? point)
    if !local.x.isFinite || !local.y.isFinite { return nil }
    let isTransformLayer = self is CATransformLayer
    if masksToBounds && !isTransformLayer && !contains(local) { return nil }
    let order = storedSublayers.enumerated().sorted {
      $0.element.zPosition != $1.element.zPosition
        ? $0.element.zPosition < $1.element.zPosition : $0.offset < $1.offset
    }
    for (_, sublayer) in order.reversed() {
      if let hit = sublayer.hitTestInSuperlayerSpace(local) { return hit }
    }
    local = inverse.apply(point)
    return !isTransformLayer && contains(local) ? self : nil
  }
}

/// The plane-to-plane map of a flattened 4×4 transform: rows and columns
/// 1, 2 and 4 of the matrix, acting on `[x y 1]`.
struct Homography {
  var m: [CGFloat]  // row-major 3×3

  static let identity = Homography(CATransform3DIdentity)

  init(_ t: CATransform3D) {
    m = [t.m11, t.m12, t.m14, t.m21, t.m22, t.m24, t.m41, t.m42, t.m44]
  }

  init(values: [CGFloat]) { m = values }

  func apply(_ p: CGPoint) -> CGPoint {
    let x = p.x * m[0] + p.y * m[3] + m[6]
    let y = p.x * m[1] + p.y * m[4] + m[7]
    let w = p.x * m[2] + p.y * m[5] + m[8]
    return CGPoint(x: x / w, y: y / w)
  }

  var inverse: Homography? {
    let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
    let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
    let det = a * A + b * B + c * C
    guard det != 0, det.isFinite else { return nil }
    let inv = 1 / det
    return Homography(values: [
      A * inv, -(b * i - c * h) * inv, (b * f - c * e) * inv,
      B * inv, (a * i - c * g) * inv, -(a * f - c * d) * inv,
      C * inv, -(a * h - b * g) * inv, (a * e - b * d) * inv,
    ])
  }
}
