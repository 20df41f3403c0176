import Foundation
import Lamina

/// Orders the planes of one 3D context (the sublayers of a `CATransformLayer`
/// tree) back to front with a BSP tree, splitting planes that intersect, as
/// browsers do for `transform-style: preserve-3d`.
///
/// Work happens in the context's post-projective space: a plane's points are
/// `[u v 0 1] × toContext`, divided by w. A perspective `sublayerTransform`
/// is a projective map, which keeps planes planar and keeps the order of
/// points along each line of sight, so after the division the view is
/// orthographic along z (larger z is nearer the viewer) and a plain BSP
/// painter's order is exact there. Splits come back as half-planes in each
/// plane's own coordinates: `a·u + b·v + c ≥ 0` keeps a piece.
package struct DepthSorter {
  /// One flat plane of the context: a layer's bounds rect and the map from
  /// its bounds space to the context's space (not flattened).
  struct Plane {
    var rect: CGRect
    var toContext: CATransform3D
  }

  /// A piece of a plane to draw: the plane's index in the input, and the
  /// half-planes (in that plane's coordinates) that cut it out.
  struct Piece: Equatable {
    var plane: Int
    var halfPlanes: [SIMD3<Double>]
  }

  /// Points closer than this (homogeneous w) to the eye plane are cut off.
  static let nearW = Double(EdgeGeometry.nearW)

  private struct Polygon {
    var plane: Int
    var halfPlanes: [SIMD3<Double>]
    /// Vertices in post-projective context space.
    var points: [SIMD3<Double>]
  }

  private let planes: [Plane]

  /// Planes in input order: that order breaks ties between coplanar planes
  /// (sibling order, as in Core Animation).
  init(planes: [Plane]) {
    self.planes = planes
  }

  /// The pieces, back to front. A plane behind the eye or seen exactly
  /// edge-on yields no piece.
  func sorted() -> [Piece] {
    var polygons: [Polygon] = []
    for index in planes.indices {
      if let polygon = polygon(of: index, halfPlanes: []) { polygons.append(polygon) }
    }
    var out: [Piece] = []
    out.reserveCapacity(polygons.count)
    build(polygons, into: &out)
    return out
  }

  // MARK: Geometry

  /// The local polygon of plane `index` cut by `halfPlanes` (and by the eye
  /// plane), projected; nil when nothing is left or it is degenerate.
  private func polygon(of index: Int, halfPlanes: [SIMD3<Double>]) -> Polygon? {
    let plane = planes[index]
    let m = plane.toContext
    var local = EdgeGeometry.corners(plane.rect).map { SIMD2(Double($0.x), Double($0.y)) }
    // In front of the eye: w = u·m14 + v·m24 + m44 > 0.
    var cuts = halfPlanes
    if m.m14 != 0 || m.m24 != 0 || Double(m.m44) <= Self.nearW {
      cuts.append(SIMD3(Double(m.m14), Double(m.m24), Double(m.m44) - Self.nearW))
    }
    for h in cuts {
      local = Self.clip(local, h)
      if local.count < 3 { return nil }
    }
    let points = local.map { p -> SIMD3<Double> in
      let q = m.apply(CGFloat(p.x), CGFloat(p.y))
      return SIMD3(Double(q.x), Double(q.y), Double(q.z)) / Double(q.w)
    }
    return Polygon(plane: index, halfPlanes: halfPlanes, points: points)
  }

  /// Keeps the part of a convex polygon where h·(u, v, 1) ≥ 0.
  package static func clip(_ polygon: [SIMD2<Double>], _ h: SIMD3<Double>) -> [SIMD2<Double>] {
    var out: [SIMD2<Double>] = []
    out.reserveCapacity(polygon.count + 1)
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      let dp = h.x * p.x + h.y * p.y + h.z
      let dq = h.x * q.x + h.y * q.y + h.z
      if dp >= 0 { out.append(p) }
      if (dp >= 0) != (dq >= 0) { out.append(p + (q - p) * (dp / (dp - dq))) }
    }
    return out
  }

  /// The plane through a polygon: unit normal n and offset d, n·P + d = 0.
  private static func supportingPlane(_ points: [SIMD3<Double>]) -> (SIMD3<Double>, Double)? {
    // Newell's method: robust for any convex polygon, degenerate corners included.
    var n = SIMD3<Double>(repeating: 0)
    var centroid = SIMD3<Double>(repeating: 0)
    for i in points.indices {
      let p = points[i]
      let q = points[(i + 1) % points.count]
      n.x += (p.y - q.y) * (p.z + q.z)
      n.y += (p.z - q.z) * (p.x + q.x)
      n.z += (p.x - q.x) * (p.y + q.y)
      centroid += p
    }
    let length = (n * n).sum().squareRoot()
    guard length > 1e-12, length.isFinite else { return nil }
    n /= length
    centroid /= Double(points.count)
    return (n, -(n * centroid).sum())
  }

  /// The half-plane, in plane `index`'s own coordinates, of the points on
  /// the positive side of the context-space plane n·P + d = 0.
  private func halfPlane(of index: Int, n: SIMD3<Double>, d: Double) -> SIMD3<Double> {
    let m = planes[index].toContext
    // n·(X, Y, Z)/W + d ≥ 0 ⟺ n·(X, Y, Z) + d·W ≥ 0 (W > 0), linear in (u, v).
    let a = n.x * Double(m.m11) + n.y * Double(m.m12) + n.z * Double(m.m13) + d * Double(m.m14)
    let b = n.x * Double(m.m21) + n.y * Double(m.m22) + n.z * Double(m.m23) + d * Double(m.m24)
    let c = n.x * Double(m.m41) + n.y * Double(m.m42) + n.z * Double(m.m43) + d * Double(m.m44)
    return SIMD3(a, b, c)
  }

  // MARK: The tree

  /// Builds the BSP of `polygons` and appends its pieces back to front.
  /// The tree is walked as it is built: each node needs only its subsets.
  private func build(_ polygons: [Polygon], into out: inout [Piece]) {
    guard let first = polygons.first else { return }
    guard polygons.count > 1 else {
      out.append(Piece(plane: first.plane, halfPlanes: first.halfPlanes))
      return
    }
    guard let (n, d) = Self.supportingPlane(first.points) else {
      build(Array(polygons.dropFirst()), into: &out)
      return
    }
    // A tolerance proportional to the scene's size (a tenth of a point at
    // 1000 points) absorbs rounding and near-miss intersections, such as
    // cube faces turned by 1.571 rather than π/2, whose slivers would cost
    // splits and show nothing.
    var scale = 1.0
    for polygon in polygons {
      for p in polygon.points { scale = max(scale, abs(p.x), abs(p.y), abs(p.z)) }
    }
    let epsilon = 1e-4 * scale
    var coplanar = [first]
    var front: [Polygon] = []
    var back: [Polygon] = []
    for polygon in polygons.dropFirst() {
      var anyFront = false
      var anyBack = false
      for p in polygon.points {
        let s = (n * p).sum() + d
        if s > epsilon { anyFront = true } else if s < -epsilon { anyBack = true }
      }
      switch (anyFront, anyBack) {
      case (false, false): coplanar.append(polygon)
      case (true, false): front.append(polygon)
      case (false, true): back.append(polygon)
      case (true, true):
        let h = halfPlane(of: polygon.plane, n: n, d: d)
        if let f = self.polygon(of: polygon.plane, halfPlanes: polygon.halfPlanes + [h]) {
          front.append(f)
        }
        if let b = self.polygon(of: polygon.plane, halfPlanes: polygon.halfPlanes + [-h]) {
          back.append(b)
        }
      }
    }
    // Coplanar planes keep their input (sibling) order.
    coplanar.sort { $0.plane < $1.plane }
    let pieces = coplanar.map { Piece(plane: $0.plane, halfPlanes: $0.halfPlanes) }
    // The viewer looks down −z from +∞: the side the normal points to is
    // nearer when n.z > 0, so it is drawn last.
    if n.z >= 0 {
      build(back, into: &out)
      out.append(contentsOf: pieces)
      build(front, into: &out)
    } else {
      build(front, into: &out)
      out.append(contentsOf: pieces)
      build(back, into: &out)
    }
  }
}

extension Homography {
  /// A half-plane h·(x, y, 1) ≥ 0 of the target plane, pulled back to the
  /// source plane: `H × h` (points keep w > 0).
  func pullBack(_ h: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(
      m.0 * h.x + m.1 * h.y + m.2 * h.z, m.3 * h.x + m.4 * h.y + m.5 * h.z,
      m.6 * h.x + m.7 * h.y + m.8 * h.z)
  }
}

extension FrameBuilder {
  /// The rect a plane occupies for depth sorting: its bounds, grown to hold
  /// what draws outside them (contents whose gravity lets them overflow, a
  /// shape layer's path, a shadow) and what its sublayers draw, each's own
  /// sorting rect mapped into the plane (a container with empty bounds still
  /// has a place). Sublayers that draw nothing take no place: hidden,
  /// transparent and empty layers, or a container of them, must not reorder
  /// the context.
  static func sortingRect(of layer: CALayer, depth: Int = 8) -> CGRect {
    var rect = layer.bounds
    if let image = layer.contents as? CGImage,
      let contents = ContentsLayout(layer: layer, image: image).rect
    {
      rect = rect.union(contents)
    }
    if let shape = layer as? CAShapeLayer, let path = shape.path {
      let box = path.boundingBoxOfPath
      let half = shape.lineWidth.isFinite ? max(shape.lineWidth, 0) / 2 : 0
      if !box.isNull, box.width.isFinite, box.height.isFinite {
        rect = rect.union(box.insetBy(dx: -half, dy: -half))
      }
    }
    if layer.shadowOpacity > 0 {
      let box = layer.shadowPath?.boundingBoxOfPath ?? rect
      let o = layer.shadowOffset
      let reach = 3 * max(layer.shadowRadius, 0)
      let grown = box.insetBy(dx: -(abs(o.width) + reach), dy: -(abs(o.height) + reach))
      if !box.isNull, grown.width.isFinite, grown.height.isFinite { rect = rect.union(grown) }
    }
    var (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
    for sublayer in layer.storedSublayersForRendering where !drawsNothing(sublayer) {
      let inner = depth > 0 ? sortingRect(of: sublayer, depth: depth - 1) : sublayer.bounds
      let m = transformToSuperlayer(sublayer)
      for corner in EdgeGeometry.visiblePolygon(inner, m) {
        let p = m.apply(corner.x, corner.y)
        let x = p.x / p.w
        let y = p.y / p.w
        guard x.isFinite, y.isFinite else { continue }
        (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
      }
    }
    return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }
}
