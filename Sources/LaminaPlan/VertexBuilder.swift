import Foundation
import Lamina
import LaminaFrame

/// Turns draw items into vertices and indices (pure: the executor only
/// copies them into GL buffers). Every item is a convex polygon drawn as a
/// triangle fan; items with effects (shapes, clips, masks) use the larger
/// `EffectVertex`.
enum VertexBuilder {
  /// Appends the item's polygon as a triangle fan; returns the index count.
  static func appendItem(
    _ item: DrawItem, edgeCoverage: Bool, _ vertices: inout [Vertex], _ indices: inout [UInt32]
  ) -> Int {
    let base = UInt32(vertices.count)
    let n = forEachVertex(item, edgeCoverage: edgeCoverage) { _, _, vertex in
      vertices.append(vertex)
    }
    return appendFan(base: base, count: n, &indices)
  }

  /// Appends an effect item (as `appendItem` does a plain one); returns the index count.
  static func appendEffectItem(
    _ item: DrawItem, edgeCoverage: Bool, _ vertices: inout [EffectVertex],
    _ indices: inout [UInt32]
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
    let n = forEachVertex(item, edgeCoverage: edgeCoverage) { x, y, vertex in
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
  static func forEachVertex(
    _ item: DrawItem, edgeCoverage: Bool, _ body: (CGFloat, CGFloat, Vertex) -> Void
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
      if item.clipPlanes.isEmpty {
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
      for h in item.clipPlanes where piece.count >= 3 { piece = DepthSorter.clip(piece, h) }
      guard piece.count >= 3 else { return 0 }
      for p in piece { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), lines)) }
      return piece.count
    }
    // Part of the rect lies behind the eye: its projected edges are not the
    // rect's, so the visible polygon is drawn as it is, without edge coverage.
    var polygon = item.polygon.map { SIMD2(Double($0.x), Double($0.y)) }
    for h in item.clipPlanes where polygon.count >= 3 { polygon = DepthSorter.clip(polygon, h) }
    guard polygon.count >= 3 else { return 0 }
    for p in polygon { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), nil)) }
    return polygon.count
  }

  /// Edge distances that mean "no edge nearby": coverage is 1 everywhere.
  static let farFromEdges: Float = 1e6
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
