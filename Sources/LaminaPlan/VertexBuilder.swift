import Foundation
import Lamina
import LaminaFrame

/// Turns draw items into vertices and indices (pure: the executor only
/// copies them into GL buffers). Every item is a convex polygon drawn as a
/// triangle fan; items with effects (shapes, clips, masks) use the larger
/// `EffectVertex`.
enum VertexBuilder {
  /// Appends the item's polygon as a triangle fan; returns the index count.
  /// `exact` is cleared unless the item is an exact rect (see
  /// `exactCorners`), `copies` unless it also copies texels
  /// (`copiesTexels`).
  static func appendItem(
    _ item: DrawItem, edgeCoverage: Bool, region: PixelRect? = nil, _ vertices: inout [Vertex],
    _ indices: inout [UInt32], exact: inout Bool, copies: inout Bool
  ) -> Int {
    let base = UInt32(vertices.count)
    var isExact = false
    let n = forEachVertex(item, edgeCoverage: edgeCoverage, region: region, exact: &isExact) {
      _, _, vertex in
      vertices.append(vertex)
    }
    if !isExact {
      exact = false
      copies = false
    } else if copies && n == 4 {
      copies = copiesTexels(item, vertices[Int(base)], vertices[Int(base) + 2])
    }
    return appendFan(base: base, count: n, &indices)
  }

  /// Whether an exact rect from corner `a` to corner `c` shows its image
  /// texel for texel: untinted (opaque white), one texel a pixel in both
  /// axes, not flipped, each pixel's center on a texel's center (moved by
  /// `nearestTiesResolved` at most). Any sampler then gives the texel
  /// itself, as llvmpipe's linear rasterizer does by copying; scaled, its
  /// own sampling differs from the general path's (by up to 4/255 with
  /// the linear filter).
  static func copiesTexels(_ item: DrawItem, _ a: Vertex, _ c: Vertex) -> Bool {
    guard case .image(let image, _) = item.material, item.color.min() >= 254.5 / 255 else {
      return false
    }
    let (w, h) = (Float(image.width), Float(image.height))
    let (dx, dy) = (c.x - a.x, c.y - a.y)
    guard dx > 0, dy > 0 else { return false }
    let (su, sv) = ((c.u - a.u) * w / dx, (c.v - a.v) * h / dy)
    guard abs(su - 1) < 1e-4, abs(sv - 1) < 1e-4 else { return false }
    // A pixel's center in texels: k + 0.5 (+ 1/512 for nearest).
    let (ox, oy) = (a.x.rounded(.down) + 0.5 - a.x, a.y.rounded(.down) + 0.5 - a.y)
    let (tu, tv) = (a.u * w + ox * su, a.v * h + oy * sv)
    let (fu, fv) = (tu - tu.rounded(.down), tv - tv.rounded(.down))
    return abs(fu - 0.5) < 1.0 / 256 && abs(fv - 0.5) < 1.0 / 256
  }

  /// The target-pixel corners of an item drawn as an axis-aligned rect
  /// whose every pixel is wholly covered or not at all: affine (w = 1),
  /// edges parallel to the axes, and each antialiased edge (`mask`) on a
  /// pixel boundary, within 1/1024 of a pixel (then put on it), or half a
  /// pixel or more outside `region` (the pixels drawn). Edge
  /// coverage would be 1 inside such a rect and 0 outside (a color byte c
  /// times 1 - 1/1024 still rounds to c), so it is drawn without the
  /// antialiasing margin and with its edges far, the same pixels; and
  /// batches of such rects alone draw with the plain programs (no edge
  /// coverage), which llvmpipe's linear rasterizer runs. Corners in the
  /// order of the rect's (minX, minY), (maxX, minY), (maxX, maxY),
  /// (minX, maxY); nil for any other item.
  static func exactCorners(
    _ r: CGRect, _ m: CATransform3D, mask: UInt8, region: PixelRect? = nil
  ) -> (x0: CGFloat, y0: CGFloat, x1: CGFloat, y1: CGFloat)? {
    guard m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m12 == 0, m.m21 == 0 else { return nil }
    var x0 = r.minX * m.m11 + m.m41
    var x1 = r.maxX * m.m11 + m.m41
    var y0 = r.minY * m.m22 + m.m42
    var y1 = r.maxY * m.m22 + m.m42
    // Edges half a pixel or more outside the region: no pixel drawn is
    // near them.
    let r = region.map {
      (CGFloat($0.x) - 0.5, CGFloat($0.maxX) + 0.5, CGFloat($0.y) - 0.5, CGFloat($0.maxY) + 0.5)
    }
    func onBoundary(_ v: inout CGFloat, vertical: Bool) -> Bool {
      if let (minX, maxX, minY, maxY) = r {
        if vertical ? v <= minX || v >= maxX : v <= minY || v >= maxY { return true }
      }
      let rounded = v.rounded()
      guard abs(v - rounded) <= 1.0 / 1024 else { return false }
      v = rounded
      return true
    }
    // The edge bits: 1 minY, 2 maxX, 4 maxY, 8 minX (of the item's rect).
    if mask & 8 != 0, !onBoundary(&x0, vertical: true) { return nil }
    if mask & 2 != 0, !onBoundary(&x1, vertical: true) { return nil }
    if mask & 1 != 0, !onBoundary(&y0, vertical: false) { return nil }
    if mask & 4 != 0, !onBoundary(&y1, vertical: false) { return nil }
    return (x0, y0, x1, y1)
  }

  /// Appends an effect item (as `appendItem` does a plain one); returns the index count.
  static func appendEffectItem(
    _ item: DrawItem, edgeCoverage: Bool, region: PixelRect? = nil,
    _ vertices: inout [EffectVertex], _ indices: inout [UInt32]
  ) -> Int {
    func rect(_ r: CGRect) -> SIMD4<Float> {
      SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
    }
    let noShape = SIMD4<Float>(-1, 0, 0, 0)
    let shapeRect = item.shape.map { rect($0.shape.rect) } ?? .zero
    let shapeRadii = item.shape?.shape.radii ?? .zero
    let shapeParams = item.shape.map { SIMD4<Float>($0.mode.rawValue, $0.width, 0, 0) } ?? noShape
    let clipRect = item.clip.map { rect($0.shape.rect) } ?? .zero
    let clipRadii = item.clip?.shape.radii ?? SIMD4(-1, -1, -1, -1)
    let toClip = item.clip?.itemToClip
    let base = UInt32(vertices.count)
    var exact = false
    let n = forEachVertex(
      item, edgeCoverage: edgeCoverage, region: region, exact: &exact, allowsExact: false
    ) {
      x, y, vertex in
      var clipPos = SIMD4<Float>(0, 0, 1, 0)
      if let toClip {
        let q = toClip.apply(Double(x), Double(y))
        clipPos = SIMD4(Float(q.x), Float(q.y), Float(q.z), 0)
      }
      vertices.append(
        EffectVertex(
          base: vertex, local: SIMD2(Float(x), Float(y)), shapeRect: shapeRect,
          shapeRadii: shapeRadii,
          shapeParams: shapeParams, clipPos: clipPos, clipRect: clipRect, clipRadii: clipRadii))
    }
    return appendFan(base: base, count: n, &indices)
  }

  /// The texture coordinates of an image sampled with the nearest filter,
  /// moved by 1/512 of a texel toward larger coordinates. Where a pixel's
  /// center falls exactly on a texel boundary (an image of 64 texels in 20
  /// points: 2.5 × 3.2 = 8), the texel is decided by the rounding of the
  /// interpolated coordinate, which depends on where the target starts
  /// (an offscreen group's origin moved the center to 7.99999 and the
  /// texel to the one before: finding nearest-tie-depends-on-filter-group-origin).
  /// A GPU's sampler snaps the coordinate to a fixed-point grid below the
  /// texel before choosing (Direct3D 11 asks for 8 bits; Vulkan reports
  /// them as `subTexelPrecisionBits`), so an error that small does not move
  /// the choice there. The floor of a coordinate rounded to 1/256 of a
  /// texel is floor(u + 1/512): llvmpipe's float sampling does the same
  /// with this, and ties go to the texel the exact coordinate names
  /// wherever the target starts. The clamp to the shown part of the image
  /// is taken from the unmoved coordinates.
  static func nearestTiesResolved(
    _ uv: (u0: Float, v0: Float, u1: Float, v1: Float), _ material: Material
  ) -> (u0: Float, v0: Float, u1: Float, v1: Float) {
    guard case .image(let image, let sampler) = material,
      sampler.minification == .nearest || sampler.magnification == .nearest,
      image.width > 0, image.height > 0
    else { return uv }
    let du = 1 / (512 * Float(image.width))
    let dv = 1 / (512 * Float(image.height))
    return (uv.u0 + du, uv.v0 + dv, uv.u1 + du, uv.v1 + dv)
  }

  static func appendFan(base: UInt32, count n: Int, _ indices: inout [UInt32]) -> Int {
    guard n >= 3 else { return 0 }
    for i in 1..<UInt32(n - 1) {
      indices.append(base)
      indices.append(base + i)
      indices.append(base + i + 1)
    }
    return (n - 2) * 3
  }

  /// Calls `body` with each vertex of the item's polygon (its position in
  /// the item's plane, and the vertex); returns their number. With edge
  /// antialiasing the polygon first grows by a pixel on screen on the sides
  /// of `edgeMask`, and every vertex carries its distances to the rect's
  /// four edges (far from those not in the mask). Shape items grow the same
  /// but take their coverage from the shape alone.
  /// An exact rect (`exactCorners`) is drawn without the margin, its
  /// corners on its pixel boundaries; `exact` says so.
  static func forEachVertex(
    _ item: DrawItem, edgeCoverage: Bool, region: PixelRect? = nil, exact: inout Bool,
    allowsExact: Bool = true, _ body: (CGFloat, CGFloat, Vertex) -> Void
  ) -> Int {
    // Each field read once: across the module boundary a read is a call
    // and a copy.
    let m = item.matrix
    let r = item.rect
    let c = item.color
    let uv = nearestTiesResolved(item.uv, item.material)
    func byte(_ v: Float) -> UInt32 {
      UInt32(clamping: Int(clamping: v * 255, to: 0...255, rounding: .toNearestOrAwayFromZero))
    }
    let color = byte(c.x) | byte(c.y) << 8 | byte(c.z) << 16 | byte(c.w) << 24
    let shown = item.uv
    let clamp = SIMD4(
      min(shown.u0, shown.u1), min(shown.v0, shown.v1),
      max(shown.u0, shown.u1), max(shown.v0, shown.v1))
    let du = r.width != 0 ? CGFloat(uv.u1 - uv.u0) / r.width : 0
    let dv = r.height != 0 ? CGFloat(uv.v1 - uv.v0) / r.height : 0
    let isShape = item.shape != nil
    let antialias = item.antialiased && (edgeCoverage || isShape)
    let mask = item.edgeMask
    // Distances of edges without coverage are raised to "far".
    let floor = SIMD4<Float>(
      mask & 1 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 2 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 4 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 8 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges)

    func vertex(_ x: CGFloat, _ y: CGFloat, _ lines: EdgeLines?) -> Vertex {
      let q = m.apply(x, y)
      let edges = lines.map { pointwiseMax($0.distances(x: q.x / q.w, y: q.y / q.w), floor) }
      return Vertex(
        x: Float(q.x), y: Float(q.y), w: Float(q.w),
        u: uv.u0 + Float((x - r.minX) * du), v: uv.v0 + Float((y - r.minY) * dv),
        color: color,
        edges: edges ?? SIMD4(repeating: Self.farFromEdges),
        texClamp: clamp)
    }

    if allowsExact, !isShape, item.clippedPolygon == nil, item.clipPlanes.isEmpty,
      let e = exactCorners(r, m, mask: antialias ? mask : 0, region: region)
    {
      exact = true
      // Cut to the region (see `regionPlanes`); the item's own point of
      // each corner found back through its scale and offset.
      var (x0, y0, x1, y1) = (e.x0, e.y0, e.x1, e.y1)
      if let region {
        func cut(_ v: inout CGFloat, _ lo: Int, _ hi: Int) {
          v = min(max(v, CGFloat(lo)), CGFloat(hi))
        }
        cut(&x0, region.x, region.maxX)
        cut(&x1, region.x, region.maxX)
        cut(&y0, region.y, region.maxY)
        cut(&y1, region.y, region.maxY)
        guard x0 != x1, y0 != y1 else { return 0 }
      }
      func corner(_ px: CGFloat, _ py: CGFloat) {
        let x = px == e.x0 ? r.minX : px == e.x1 ? r.maxX : (px - m.m41) / m.m11
        let y = py == e.y0 ? r.minY : py == e.y1 ? r.maxY : (py - m.m42) / m.m22
        body(
          x, y,
          Vertex(
            x: Float(px), y: Float(py), w: 1,
            u: uv.u0 + Float((x - r.minX) * du), v: uv.v0 + Float((y - r.minY) * dv),
            color: color, edges: SIMD4(repeating: Self.farFromEdges), texClamp: clamp))
      }
      corner(x0, y0)
      corner(x1, y0)
      corner(x1, y1)
      corner(x0, y1)
      return 4
    }
    // The half-planes that keep the polygon in the region, where it
    // crosses the region's sides.
    let cuts = region.map { Self.regionPlanes(m, item.bounds, $0) } ?? []
    if item.clippedPolygon == nil {
      // The common case: the whole rect, grown by the antialiasing margin.
      var g = r
      var lines: EdgeLines?
      if antialias, mask != 0, let edgeLines = EdgeLines(r, m),
        let margin = EdgeGeometry.margins(r, m)
      {
        let grown = CGRect(
          x: r.minX - (mask & 8 != 0 ? margin.x : 0), y: r.minY - (mask & 1 != 0 ? margin.y : 0),
          width: r.width + (mask & 8 != 0 ? margin.x : 0) + (mask & 2 != 0 ? margin.x : 0),
          height: r.height + (mask & 1 != 0 ? margin.y : 0) + (mask & 4 != 0 ? margin.y : 0))
        if EdgeGeometry.inFront(grown, m) {
          g = grown
          lines = edgeLines
        }
      }
      if item.clipPlanes.isEmpty && cuts.isEmpty {
        body(g.minX, g.minY, vertex(g.minX, g.minY, lines))
        body(g.maxX, g.minY, vertex(g.maxX, g.minY, lines))
        body(g.maxX, g.maxY, vertex(g.maxX, g.maxY, lines))
        body(g.minX, g.maxY, vertex(g.minX, g.maxY, lines))
        return 4
      }
      // A piece of a plane split by depth sorting: the (grown) rect cut by
      // its half-planes, keeping the layer's edge coverage.
      var piece = [
        SIMD2(Double(g.minX), Double(g.minY)), SIMD2(Double(g.maxX), Double(g.minY)),
        SIMD2(Double(g.maxX), Double(g.maxY)), SIMD2(Double(g.minX), Double(g.maxY)),
      ]
      for h in item.clipPlanes + cuts where piece.count >= 3 { piece = DepthSorter.clip(piece, h) }
      guard piece.count >= 3 else { return 0 }
      for p in piece { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), lines)) }
      return piece.count
    }
    // Part of the rect lies behind the eye: its projected edges are not the
    // rect's, so the visible polygon is drawn as it is, without edge coverage.
    var polygon = item.polygon.map { SIMD2(Double($0.x), Double($0.y)) }
    for h in item.clipPlanes + cuts where polygon.count >= 3 {
      polygon = DepthSorter.clip(polygon, h)
    }
    guard polygon.count >= 3 else { return 0 }
    for p in polygon { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), nil)) }
    return polygon.count
  }

  /// Edge distances that mean "no edge nearby": coverage is 1 everywhere.
  static let farFromEdges: Float = 1e6

  /// The half-planes of the item's plane (a·x + b·y + c ≥ 0) inside the
  /// sides of `region` that its `bounds` (grown by the antialiasing
  /// margin, 2 pixels) cross; none for an item within it. Quads are cut to
  /// the region here rather than by GL: llvmpipe clips what crosses the
  /// viewport, except into a BGRA target without a depth attachment, where
  /// it rasterizes within a guard band instead (its linear rasterizer's
  /// condition), and the attributes of a clipped triangle are interpolated
  /// from other vertices: the last bits of a pixel would depend on the
  /// target's format and on whether a path had given it a depth buffer yet
  /// (metamorphic seed 80: first frame against the second, 1/255). A
  /// quad within the viewport is drawn the same either way.
  static func regionPlanes(_ m: CATransform3D, _ bounds: PixelRect, _ region: PixelRect)
    -> [SIMD3<Double>]
  {
    let margin = 2
    var planes: [SIMD3<Double>] = []
    // Screen x = (m11·x + m21·y + m41) / w, w = m14·x + m24·y + m44 (> 0):
    // x ≥ v is (row − v·w) ≥ 0, x ≤ v is (v·w − row) ≥ 0; the same for y.
    let w = SIMD3(Double(m.m14), Double(m.m24), Double(m.m44))
    let xRow = SIMD3(Double(m.m11), Double(m.m21), Double(m.m41))
    let yRow = SIMD3(Double(m.m12), Double(m.m22), Double(m.m42))
    if bounds.x - margin < region.x { planes.append(xRow - Double(region.x) * w) }
    if bounds.maxX + margin > region.maxX { planes.append(Double(region.maxX) * w - xRow) }
    if bounds.y - margin < region.y { planes.append(yRow - Double(region.y) * w) }
    if bounds.maxY + margin > region.maxY { planes.append(Double(region.maxY) * w - yRow) }
    return planes
  }
}

/// The four edges of a layer's rect projected on the target, as lines in
/// pixel space oriented so that the inside is positive.
struct EdgeLines {
  /// Per line: unit normal (nx, ny) and offset c, distance = nx·x + ny·y + c.
  private var nx = SIMD4<Double>(), ny = SIMD4<Double>(), c = SIMD4<Double>()

  /// Nil when a corner lies behind the eye or an edge projects to a point.
  init?(_ rect: CGRect, _ m: CATransform3D) {
    func project(_ x: CGFloat, _ y: CGFloat) -> (Double, Double)? {
      let q = m.apply(x, y)
      guard q.w > EdgeGeometry.nearW else { return nil }
      return (Double(q.x / q.w), Double(q.y / q.w))
    }
    guard let p0 = project(rect.minX, rect.minY), let p1 = project(rect.maxX, rect.minY),
      let p2 = project(rect.maxX, rect.maxY), let p3 = project(rect.minX, rect.maxY)
    else { return nil }
    let cx = (p0.0 + p1.0 + p2.0 + p3.0) / 4
    let cy = (p0.1 + p1.1 + p2.1 + p3.1) / 4
    guard setLine(0, p0, p1, cx, cy), setLine(1, p1, p2, cx, cy), setLine(2, p2, p3, cx, cy),
      setLine(3, p3, p0, cx, cy)
    else { return nil }
  }

  /// Line `i` through two projected corners, its inside toward (cx, cy).
  private mutating func setLine(
    _ i: Int, _ p: (Double, Double), _ q: (Double, Double), _ cx: Double, _ cy: Double
  ) -> Bool {
    var a = p.1 - q.1
    var b = q.0 - p.0
    let length = (a * a + b * b).squareRoot()
    guard length > 1e-9 else { return false }
    a /= length
    b /= length
    var offset = -(a * p.0 + b * p.1)
    if a * cx + b * cy + offset < 0 {
      a = -a
      b = -b
      offset = -offset
    }
    nx[i] = a
    ny[i] = b
    c[i] = offset
    return true
  }

  func distances(x: CGFloat, y: CGFloat) -> SIMD4<Float> {
    SIMD4<Float>(nx * Double(x) + ny * Double(y) + c)
  }
}

/// The vertex format of every draw: homogeneous target pixels, texture
/// coordinates, premultiplied color, distances to the four edges, and the
/// texture-coordinate clamp (56 bytes).
package struct Vertex {
  package var x: Float, y: Float, w: Float
  package var u: Float, v: Float
  package var color: UInt32
  package var edges: SIMD4<Float>
  package var texClamp: SIMD4<Float>
}

/// The effect vertex format: `Vertex`, plus the item's position in its own
/// plane, its rounded rect and mode, and its position in the clipping
/// layer's plane with the clip's rounded rect (176 bytes a vertex, against
/// 64). Only items with effects pay for it; plain quads keep `Vertex`.
package struct EffectVertex {
  package var base: Vertex
  package var local: SIMD2<Float>
  package var shapeRect: SIMD4<Float>
  package var shapeRadii: SIMD4<Float>
  package var shapeParams: SIMD4<Float>
  package var clipPos: SIMD4<Float>
  package var clipRect: SIMD4<Float>
  package var clipRadii: SIMD4<Float>
}
