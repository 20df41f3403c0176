import Foundation

// Mapping points and rects between layers. A layer's bounds plane maps into
// its superlayer's by `transformToSuperlayer` followed by the superlayer's
// `transformForSublayers`; every layer but a CATransformLayer flattens what
// its sublayers draw into its own plane, so z is dropped at each such level.

extension CALayer {
  /// The layer a sublayer or mask is positioned in: its superlayer, or the
  /// layer it masks.
  var parentLayer: CALayer? { storedSuperlayer ?? maskOwner }

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
  func convertImpl(_ point: CGPoint, from layer: CALayer?) -> CGPoint {
    let from = layer.map { Homography($0.transformToAncestor(nil)) } ?? .identity
    guard let to = Homography(transformToAncestor(nil)).inverse else {
      return CGPoint(x: CGFloat.nan, y: CGFloat.nan)
    }
    return to.apply(from.apply(point))
  }

  /// Converts `point` from this layer's bounds space into `layer`'s.
  func convertImpl(_ point: CGPoint, to layer: CALayer?) -> CGPoint {
    guard let layer else { return Homography(transformToAncestor(nil)).apply(point) }
    return layer.convert(point, from: self)
  }

  /// Converts `rect` from `layer`'s bounds space into this layer's: the
  /// bounding box of its four converted corners.
  func convertImpl(_ rect: CGRect, from layer: CALayer?) -> CGRect {
    Self.box(Self.corners(rect).map { convert($0, from: layer) })
  }

  /// Converts `rect` from this layer's bounds space into `layer`'s.
  func convertImpl(_ rect: CGRect, to layer: CALayer?) -> CGRect {
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
    // A 3D context is tested plane by plane in the parent's plane, where it is drawn.
    if self is CATransformLayer { return hitTestContext(local: point, toContext: step) }
    let flat = Homography(step.flattened)
    guard let inverse = flat.inverse, let local = inverse.applyInFront(point, forward: flat) else {
      return nil
    }
    return hitTestPlane(local: local, facingMap: flat)
  }

  /// Hit testing of a flattening layer at `local` (its bounds space): its
  /// sublayers front to back, then itself. `facingMap` maps its plane on
  /// screen, to tell a back-facing single-sided layer.
  func hitTestPlane(local: CGPoint, facingMap: Homography) -> CALayer? {
    if !local.x.isFinite || !local.y.isFinite { return nil }
    if masksToBounds && !contains(local) { return nil }
    // Sublayers undo this layer's `transformForSublayers` themselves.
    let order = storedSublayers.enumerated().sorted {
      $0.element.zPosition != $1.element.zPosition
        ? $0.element.zPosition < $1.element.zPosition : $0.offset < $1.offset
    }
    for (_, sublayer) in order.reversed() {
      if let hit = sublayer.hitTestInSuperlayerSpace(local) { return hit }
    }
    if !isDoubleSided && facingMap.isMirroring { return nil }
    return contains(local) ? self : nil
  }

  /// Hit testing inside a 3D context (`self` is a CATransformLayer): every
  /// plane of the context, nested transform layers included, is tested at
  /// the point, and the one nearest the viewer there wins.
  /// - Parameters:
  ///   - local: the point in the flattening parent's plane (where the
  ///     context is drawn).
  ///   - toContext: maps this layer's space into that parent's space, not flattened.
  func hitTestContext(local point: CGPoint, toContext: CATransform3D) -> CALayer? {
    var best: (depth: CGFloat, layer: CALayer)?
    func visit(_ layer: CALayer, _ toContext: CATransform3D) {
      let forSublayers = layer.transformForSublayers
      for sublayer in layer.storedSublayers where !sublayer.isHidden {
        let m = sublayer.transformToSuperlayer.concatenating(forSublayers).concatenating(toContext)
        if sublayer is CATransformLayer {
          visit(sublayer, m)
          continue
        }
        let flat = Homography(m.flattened)
        guard let inverse = flat.inverse, let p = inverse.applyInFront(point, forward: flat),
          let hit = sublayer.hitTestPlane(local: p, facingMap: flat)
        else { continue }
        let q = m.apply(p.x, p.y)
        let depth = q.z / q.w
        // Nearer wins; at equal depth the later sibling (drawn on top) does.
        if best == nil || depth >= best!.depth { best = (depth, hit) }
      }
    }
    visit(self, toContext)
    return best?.layer
  }
}
