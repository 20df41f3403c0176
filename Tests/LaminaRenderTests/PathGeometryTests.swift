import Foundation
@_spi(Caches) import Lamina
import XCTest

@testable import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// The GPU path renderer's geometry, with no GPU: flattening, fill
/// tessellation (winding rules on self-intersecting and degenerate paths),
/// stroke meshes (arc lengths, joins, dots) and the per-frame stroke
/// parameters (trims, dashes).
final class PathGeometryTests: XCTestCase {
  private func path(_ svg: String) throws -> CGPath { try CGPath.parseSVG(svg) }

  private func contours(_ path: CGPath, tolerance: Double = 0.25) throws -> [FlatContour] {
    try XCTUnwrap(PathFlattening.contours(path, tolerance: tolerance))
  }

  // MARK: Flattening

  /// Chords stay within the tolerance of the curve: a circle's chords'
  /// midpoints lie no farther than it inside the circle.
  func testFlattenedCircleStaysWithinTolerance() throws {
    for tolerance in [0.25, 0.05] {
      let circle = CGPath(ellipseIn: CGRect(x: -50, y: -50, width: 100, height: 100))
      let points = try contours(circle, tolerance: tolerance)[0].points
      for (i, p) in points.enumerated() {
        let q = points[(i + 1) % points.count]
        // On the curve (cubic arcs, within 3·10⁻⁴ of the radius of the circle).
        XCTAssertEqual((p.x * p.x + p.y * p.y).squareRoot(), 50, accuracy: 0.015)
        let mid = (p + q) / 2
        XCTAssertLessThanOrEqual(
          50 - (mid.x * mid.x + mid.y * mid.y).squareRoot(), tolerance + 0.015)
      }
      // Not many more than needed: a chord within tolerance of a circle of
      // radius r spans 2·acos(1 − tol/r); uniform steps per quarter may round up.
      let needed = 2 * Double.pi / (2 * acos(1 - tolerance / 50))
      XCTAssertLessThanOrEqual(Double(points.count), 2 * needed + 8)
    }
  }

  /// Points inside curves and where curves meet with one tangent are
  /// smooth; corners are not.
  func testSmoothPointsAreThoseWhereTheTangentGoesOn() throws {
    let circle = try contours(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 80)))[0]
    XCTAssertTrue(circle.smooth.allSatisfy { $0 }, "a circle has no corner")
    let square = try contours(CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))[0]
    XCTAssertFalse(square.smooth.contains(true))
    // Two arcs meeting at a cusp: the meeting point is a corner.
    let cusp = try contours(path("M 0 0 Q 10 10 20 0 Q 30 10 40 0"))[0]
    let meeting = try XCTUnwrap(cusp.points.firstIndex(of: SIMD2(20, 0)))
    XCTAssertFalse(cusp.smooth[meeting])
    XCTAssertTrue(cusp.smooth[meeting - 1])
    // A line going on straight from a curve's tangent is smooth there.
    let rounded = try contours(path("M 0 0 L 10 0 Q 20 0 20 10 L 20 20"))[0]
    XCTAssertTrue(rounded.smooth[1])
  }

  /// Coordinates that are not finite, or beyond any canvas, and paths of
  /// more points than the budget are refused (Cairo draws those).
  func testHostilePathsAreRefused() {
    for bad in [Double.nan, .infinity, 1e300] {
      let p = CGMutablePath()
      p.move(to: .zero)
      p.addLine(to: CGPoint(x: bad, y: 1))
      p.addLine(to: CGPoint(x: 5, y: 5))
      XCTAssertNil(PathFlattening.contours(p, tolerance: 0.25), "\(bad)")
    }
    let many = CGMutablePath()
    many.move(to: .zero)
    for i in 0..<(PathFlattening.maxPoints / 1000 + 1) {
      // Each curve becomes the most chords a curve may.
      many.addCurve(
        to: CGPoint(x: i, y: 0), control1: CGPoint(x: 1e8, y: 1e8),
        control2: CGPoint(x: -1e8, y: 1e8))
    }
    XCTAssertNil(PathFlattening.contours(many, tolerance: 1e-3))
  }

  /// One octave of on-screen scale shares a flattening level.
  func testLevelsChangeAtPowersOfTwo() {
    XCTAssertEqual(PathFlattening.level(forScale: 1), 0)
    XCTAssertEqual(PathFlattening.level(forScale: 1.5), 1)
    XCTAssertEqual(PathFlattening.level(forScale: 2), 1)
    XCTAssertEqual(PathFlattening.level(forScale: 0.3), -1)
    XCTAssertEqual(PathFlattening.level(forScale: .nan), 0)
    XCTAssertEqual(PathFlattening.level(forScale: 1e9), 6)
  }

  // MARK: Fills

  /// Whether `p` lies in one of the mesh's interior triangles (at their
  /// exact positions, before the overlap the vertex shader adds).
  private func interiorContains(_ mesh: FillMesh, _ p: SIMD2<Double>) -> Bool {
    let range = mesh.groups[FillMesh.Group.interior.rawValue]
    for t in stride(from: range.lowerBound, to: range.upperBound, by: 3) {
      let v = (0..<3).map { k -> SIMD2<Double> in
        let q = mesh.vertices[Int(mesh.indices[t + k])].position
        return SIMD2(Double(q.x), Double(q.y))
      }
      func side(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
      }
      let s = [side(v[0], v[1]), side(v[1], v[2]), side(v[2], v[0])]
      if s.allSatisfy({ $0 > 0 }) || s.allSatisfy({ $0 < 0 }) { return true }
    }
    return false
  }

  /// The winding number of the polygons at `p` (crossings of a ray to the
  /// right), and whether `p` lies within `margin` of an edge.
  private func winding(_ contours: [FlatContour], _ p: SIMD2<Double>, margin: Double) -> Int? {
    var winding = 0
    for contour in contours {
      let points = contour.points
      for i in points.indices {
        let a = points[i]
        let b = points[(i + 1) % points.count]
        let d = b - a
        let length2 = d.x * d.x + d.y * d.y
        let t = length2 > 0 ? max(0, min(1, ((p - a).x * d.x + (p - a).y * d.y) / length2)) : 0
        let q = a + t * d - p
        if q.x * q.x + q.y * q.y < margin * margin { return nil }
        let cross = d.x * (p.y - a.y) - d.y * (p.x - a.x)
        if a.y <= p.y, b.y > p.y, cross > 0 { winding += 1 }
        if a.y > p.y, b.y <= p.y, cross < 0 { winding -= 1 }
      }
    }
    return winding
  }

  /// The interior covers exactly what the fill rule fills (the winding of
  /// the same polygons), sampled on a grid that avoids the edges, for
  /// self-intersecting paths, holes, shared edges and paths touching
  /// themselves.
  func testTessellationFollowsTheFillRule() throws {
    let cases = [
      "M 40 0 L 64 72 L 2 27 L 78 27 L 16 72 Z",  // the five-point star
      "M 40 5 A 35 35 0 1 1 39.9 5 Z M 40 20 A 20 20 0 1 1 39.9 20 Z",  // two rings, one way
      "M 40 5 A 35 35 0 1 1 39.9 5 Z M 40 20 A 20 20 0 1 0 39.9 20 Z",  // two rings, opposite
      "M 0 0 L 40 0 L 40 40 L 0 40 Z M 40 0 L 80 0 L 80 40 L 40 40 Z",  // sharing an edge
      "M 0 0 L 80 80 L 80 0 L 0 80 Z",  // a bow tie
      "M 0 0 L 40 40 L 0 40 Z M 40 40 L 80 80 L 80 40 Z",  // touching at a point
      "M 10 10 L 70 10 L 70 70 L 10 70 Z M 30 30 L 50 30 L 50 50 L 30 50 Z",  // a hole
      "M 0 0 L 20 0 L 20 0 L 40 0 L 40 40 L 40 40 L 0 40 L 0 0 Z",  // repeated points
      "M 5 5 C 90 0 -10 90 75 75 C 0 90 90 0 5 5 Z",  // curves crossing
      "M 0 80 L 0 30 C 20 0 20 60 40 30 C 60 0 60 60 80 30 L 80 80 Z",  // a wave over a base
      "M 0 0 L 80 0 L 80 80 C 60 40 40 80 20 40 L 0 80 Z",  // a wavy bottom
    ]
    for svg in cases {
      let polygons = try contours(path(svg), tolerance: 0.05)
      for evenOdd in [false, true] {
        let mesh = try XCTUnwrap(FillTessellator.mesh(polygons, evenOdd: evenOdd))
        for y in stride(from: -0.37, to: 81, by: 3.7) {
          for x in stride(from: -0.41, to: 81, by: 3.7) {
            guard let w = winding(polygons, SIMD2(x, y), margin: 1e-3) else { continue }
            XCTAssertEqual(
              interiorContains(mesh, SIMD2(x, y)), evenOdd ? w % 2 != 0 : w != 0,
              "\(svg) \(evenOdd ? "evenOdd" : "nonZero") at \(x), \(y)")
          }
        }
      }
    }
  }

  /// A curved fill's interior is mostly large pieces, not a strip per
  /// vertex of its curves (on llvmpipe a triangle costs by the pixel blocks
  /// its edges cross): a wave over a base, 80 × 80 points, flattened into
  /// a few hundred edges, has a piece larger than a third of its area, and
  /// its pieces' areas add up to at least the fill's (the fill-rule test
  /// above checks that they stay inside it).
  func testCurvedInteriorIsMostlyLargePieces() throws {
    let wave = try path("M 0 80 L 0 30 C 20 0 20 60 40 30 C 60 0 60 60 80 30 L 80 80 Z")
    let polygons = try contours(wave, tolerance: 0.05)
    XCTAssertGreaterThan(polygons[0].points.count, 60)
    let mesh = try XCTUnwrap(FillTessellator.mesh(polygons, evenOdd: false))
    var area = 0.0
    let points = polygons[0].points
    for i in points.indices {
      let a = points[i]
      let b = points[(i + 1) % points.count]
      area += (a.x * b.y - b.x * a.y) / 2
    }
    area = abs(area)
    let range = mesh.groups[FillMesh.Group.interior.rawValue]
    var pieces: [Double] = []
    for t in stride(from: range.lowerBound, to: range.upperBound, by: 6) {
      let v = (0..<6).map { k -> SIMD2<Double> in
        let q = mesh.vertices[Int(mesh.indices[t + k])].position
        return SIMD2(Double(q.x), Double(q.y))
      }
      func triangle(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Double {
        abs((b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)) / 2
      }
      pieces.append(triangle(v[0], v[1], v[2]) + triangle(v[3], v[4], v[5]))
    }
    XCTAssertGreaterThan(try XCTUnwrap(pieces.max()), area / 3)
    XCTAssertGreaterThanOrEqual(pieces.reduce(0, +), area * 0.999)
  }

  /// Every boundary edge has its ribbon piece, and the convex fast path
  /// gives a large triangle with smaller ones toward the edges.
  func testRibbonAndConvexInterior() throws {
    let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 88, height: 88))
    let points = try contours(circle)[0].points.count
    let mesh = try XCTUnwrap(FillTessellator.mesh(try contours(circle), evenOdd: false))
    XCTAssertEqual(mesh.groups[0].count + mesh.groups[1].count, points * 6, "a quad per edge")
    XCTAssertEqual(mesh.groups[2].count, (points - 2) * 3, "n − 2 triangles")
    XCTAssertEqual(mesh.bounds.minX, 0, accuracy: 1e-6)
    XCTAssertEqual(mesh.bounds.maxY, 88, accuracy: 1e-6)
    // A circle's corners are all smooth: its ribbon takes only its own edges.
    XCTAssertEqual(mesh.groups[FillMesh.Group.cornerRibbon.rawValue].count, 0)
    let star = try XCTUnwrap(
      FillTessellator.mesh(
        try contours(path("M 40 0 L 64 72 L 2 27 L 78 27 L 16 72 Z")), evenOdd: true))
    XCTAssertGreaterThan(star.groups[FillMesh.Group.cornerRibbon.rawValue].count, 0)
  }

  /// Degenerate paths fill nothing and never fail: empty, one point, a
  /// line, a path folded onto itself, huge and tiny coordinates.
  func testDegenerateFillsAreEmpty() throws {
    for svg in [
      "M 5 5", "M 5 5 L 5 5 Z", "M 0 0 L 10 10 Z", "M 0 0 L 10 0 L 20 0 Z", "M 0 0 L 10 0 L 0 0 Z",
    ] {
      let mesh = try XCTUnwrap(FillTessellator.mesh(try contours(path(svg)), evenOdd: false), svg)
      XCTAssertEqual(mesh.groups[FillMesh.Group.interior.rawValue].count, 0, svg)
    }
    XCTAssertEqual(try XCTUnwrap(FillTessellator.mesh([], evenOdd: false)).indices.count, 0)
    for scale in [1e-6, 1e8] {
      let square = CGPath(rect: CGRect(x: scale, y: scale, width: scale, height: scale))
      let mesh = try XCTUnwrap(FillTessellator.mesh(try contours(square), evenOdd: false))
      XCTAssertEqual(mesh.groups[FillMesh.Group.interior.rawValue].count, 6, "\(scale)")
    }
  }

  /// A path of thousands of crossing edges is refused within the work
  /// budget instead of being cut into millions of slabs (here a budget a
  /// hundredth of the real one, so that a debug build is quick about it).
  func testCrossingsBeyondTheBudgetAreRefused() {
    let p = CGMutablePath()
    p.move(to: .zero)
    var seed: UInt64 = 7
    func next() -> CGFloat {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return CGFloat(seed >> 33) / CGFloat(1 << 31) * 1000
    }
    for _ in 0..<1500 { p.addLine(to: CGPoint(x: next(), y: next())) }
    let start = Date()
    let contours = PathFlattening.contours(p, tolerance: 0.25)
    XCTAssertNil(
      FillTessellator.mesh(contours ?? [], evenOdd: false, maxWork: FillTessellator.maxWork / 100))
    XCTAssertLessThan(Date().timeIntervalSince(start), 10)
  }

  // MARK: Strokes

  private func stroke(
    _ svg: String, join: CAShapeLayerLineJoin = .miter, miterLimit: Double = 10
  ) throws -> StrokeMesh {
    StrokeMesher.mesh(try contours(path(svg)), join: join, miterLimit: miterLimit)
  }

  private func count(_ mesh: StrokeMesh, _ group: StrokeMesh.Group) -> Int {
    mesh.groups[group.rawValue].count / 6  // quads; wedges are 12 indices
  }

  /// Arc lengths run over the subpaths in order, a closed one's closing
  /// segment included; each segment carries its start and end.
  func testArcLengths() throws {
    let mesh = try stroke("M 0 0 L 10 0 L 10 10 M 20 0 L 30 0 L 30 10 L 20 10 Z")
    XCTAssertEqual(mesh.length, 60, accuracy: 1e-9)
    XCTAssertEqual(mesh.subpaths.map(\.start), [0, 20])
    XCTAssertEqual(mesh.subpaths.map(\.end), [20, 60])
    XCTAssertEqual(mesh.subpaths.map(\.closed), [false, true])
    let ranges = Set(
      mesh.vertices.filter { $0.kind.x == StrokePiece.segment.rawValue }.map {
        [$0.range.x, $0.range.y]
      })
    XCTAssertEqual(ranges, [[0, 10], [10, 20], [20, 30], [30, 40], [40, 50], [50, 60]])
  }

  /// Miters within the limit, curves and straight-on points are cut along
  /// the bisector (no piece of their own); round joins and miters beyond
  /// the limit (bevels) get a wedge.
  func testJoins() throws {
    let zigzag = "M 0 0 L 20 40 L 40 0"  // a 53° corner: a miter of 2.2
    let miter = try stroke(zigzag)
    XCTAssertEqual(miter.groups[StrokeMesh.Group.roundJoins.rawValue].count, 0)
    XCTAssertEqual(miter.groups[StrokeMesh.Group.bevelJoins.rawValue].count, 0)
    XCTAssertEqual(count(miter, .cornerSegments), 2, "both segments meet at the corner")
    XCTAssertEqual(miter.miterFactor, 5.0.squareRoot(), accuracy: 1e-9, "1 / sin(53.13° / 2)")
    let limited = try stroke(zigzag, miterLimit: 2)
    XCTAssertEqual(limited.groups[StrokeMesh.Group.bevelJoins.rawValue].count, 12, "a wedge")
    let round = try stroke(zigzag, join: .round)
    XCTAssertEqual(round.groups[StrokeMesh.Group.roundJoins.rawValue].count, 12)
    let circle = StrokeMesher.mesh(
      try contours(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 80))), join: .bevel,
      miterLimit: 10)
    XCTAssertEqual(circle.groups[StrokeMesh.Group.bevelJoins.rawValue].count, 0, "a curve bends")
    XCTAssertEqual(count(circle, .cornerSegments), 0)
    let straight = try stroke("M 0 0 L 10 0 L 20 0.1", join: .round)
    XCTAssertEqual(straight.groups[StrokeMesh.Group.roundJoins.rawValue].count, 0)
  }

  /// Zero-length subpaths that had a segment become dots; a lone move
  /// draws nothing; repeated points inside a subpath are dropped.
  func testDotsAndRepeatedPoints() throws {
    let dot = try stroke("M 5 5 L 5 5")
    XCTAssertEqual(count(dot, .dots), 1)
    XCTAssertEqual(dot.length, 0)
    XCTAssertEqual(try stroke("M 5 5").indices.count, 0)
    let repeated = try stroke("M 0 0 L 10 0 L 10 0 L 20 0")
    XCTAssertEqual(count(repeated, .segments) + count(repeated, .cornerSegments), 2)
    XCTAssertEqual(repeated.length, 20)
  }

  // MARK: Stroke parameters

  private func style(
    _ configure: (CAShapeLayer) -> Void
  ) throws -> ShapeStyle {
    let layer = CAShapeLayer()
    layer.path = try path("M 0 0 L 100 0")
    layer.fillColor = nil
    layer.strokeColor = .black
    configure(layer)
    return try XCTUnwrap(ShapeStyle(layer))
  }

  /// strokeStart and strokeEnd become arc lengths; dashes start at the
  /// trimmed start, shifted by the phase; an odd pattern repeats.
  func testTrimsAndDashes() throws {
    let trimmed = try XCTUnwrap(
      StrokeParameters(
        try style {
          $0.strokeStart = 0.25
          $0.strokeEnd = 0.75
        }, length: 100))
    XCTAssertEqual(trimmed.trim, SIMD2(25, 75))
    XCTAssertEqual(trimmed.visibleIntervals(start: 0, end: 100), [25...75])
    let dashed = try XCTUnwrap(
      StrokeParameters(
        try style {
          $0.lineDashPattern = [10, 5]
          $0.lineDashPhase = 3
          $0.strokeStart = 0.2
        }, length: 100))
    XCTAssertEqual(dashed.dashes, [SIMD2(0, 10)])
    XCTAssertEqual(dashed.dashPeriod, 15)
    XCTAssertEqual(dashed.visibleIntervals(start: 0, end: 60), [20...27, 32...42, 47...57])
    let odd = try XCTUnwrap(StrokeParameters(try style { $0.lineDashPattern = [4] }, length: 20))
    XCTAssertEqual(odd.dashes, [SIMD2(0, 4)])
    XCTAssertEqual(odd.dashPeriod, 8)
    let negativePhase = try XCTUnwrap(
      StrokeParameters(
        try style {
          $0.lineDashPattern = [4, 6]
          $0.lineDashPhase = -3
        }, length: 20))
    XCTAssertEqual(negativePhase.dashPhase, 7)
  }

  /// Patterns that are not valid draw solid; patterns finer than a
  /// hundredth of a point draw solid at their duty; patterns of more
  /// dashes than the shader takes are left to Cairo.
  func testUnusualDashPatterns() throws {
    for bad in [[-1, 2], [0, 0], [.nan, 1]] as [[CGFloat]] {
      let p = try XCTUnwrap(
        StrokeParameters(
          try style { $0.lineDashPattern = bad.map { NSNumber(value: Double($0)) } }, length: 10))
      XCTAssertEqual(p.dashes, [], "\(bad)")
    }
    let fine = try XCTUnwrap(
      StrokeParameters(try style { $0.lineDashPattern = [0.001, 0.003] }, length: 10))
    XCTAssertEqual(fine.dashes, [])
    XCTAssertEqual(fine.coverageScale, 0.25, accuracy: 1e-6)
    XCTAssertNil(
      StrokeParameters(
        try style { $0.lineDashPattern = Array(repeating: 1, count: 10) }, length: 10))
  }

  // MARK: The cache

  /// Meshes are kept per path and style: the same path, fill rule, join
  /// and flattening octave builds nothing again (line width, caps, dashes
  /// and trims are not in the key); a scale in another octave flattens
  /// again, a new join makes a new stroke mesh.
  func testMeshesAreBuiltOncePerPathStyleAndOctave() throws {
    let cache = PathGeometryCache(budget: CacheBudget(limit: 1 << 20))
    let shape = try path("M 3 7 C 40 -9 80 60 97 31 L 50 90 Z")
    func build(scale: CGFloat, join: CAShapeLayerLineJoin = .miter) throws {
      let level = PathFlattening.level(forScale: scale)
      XCTAssertNotNil(cache.fill(shape, evenOdd: false, level: level))
      XCTAssertNotNil(cache.stroke(shape, join: join, miterLimit: 10, level: level))
    }
    try build(scale: 1)
    XCTAssertEqual(cache.builds, 2)
    try build(scale: 1)
    try build(scale: 0.75)  // the octave (0.5, 1]
    XCTAssertEqual(cache.builds, 2)
    try build(scale: 1.5)
    XCTAssertEqual(cache.builds, 4, "fill and stroke, flattened finer")
    try build(scale: 1, join: .round)
    XCTAssertEqual(cache.builds, 5, "a new join: a new stroke mesh")
  }

  /// A fill made untessellated (`tessellated: false`, where paths are
  /// drawn on the CPU) has its contours' bounds and no triangles until
  /// its geometry is asked for; then the tessellator's, as a fill made
  /// tessellated has them.
  func testADeferredFillIsTessellatedOnFirstUse() throws {
    let shape = try path("M 3 7 C 40 -9 80 60 97 31 L 50 90 Z M 20 20 L 60 20 L 40 70 Z")
    let deferred = try XCTUnwrap(
      PathGeometryCache(budget: CacheBudget(limit: 1 << 20)).fill(
        shape, evenOdd: true, level: 0, tessellated: false))
    let now = try XCTUnwrap(
      PathGeometryCache(budget: CacheBudget(limit: 1 << 20)).fill(shape, evenOdd: true, level: 0))
    XCTAssertFalse(deferred.isTessellated)
    XCTAssertTrue(now.isTessellated)
    // The contours' points reach from x 3 to 97 and y 7 to 90 (the curve's
    // chords stay inside its control points' hull: y above 7 is reached).
    XCTAssertEqual(deferred.bounds.minX, 3, accuracy: 1e-9)
    XCTAssertEqual(deferred.bounds.maxX, 97, accuracy: 1e-9)
    XCTAssertEqual(deferred.bounds.maxY, 90, accuracy: 1e-9)
    XCTAssertTrue(deferred.bounds.contains(now.bounds))
    XCTAssertEqual(deferred.indices, now.indices)
    XCTAssertTrue(deferred.isTessellated)
    XCTAssertEqual(deferred.vertices, now.vertices)
    XCTAssertEqual(deferred.groups, now.groups)
    XCTAssertEqual(deferred.bounds, now.bounds, "the tessellated region's bounds from now on")
    XCTAssertGreaterThan(deferred.indices.count, 0)
  }

  /// The cache charges a fill its bytes: an untessellated one its contours,
  /// the same mesh once tessellated (on first use) its vertices and
  /// indices, which the budget then holds.
  func testAFillIsChargedItsTessellationOnceTessellated() throws {
    let cache = PathGeometryCache(budget: CacheBudget(limit: 1 << 24))
    let shape = try path("M 3 7 C 40 -9 80 60 97 31 L 50 90 Z")
    let mesh = try XCTUnwrap(cache.fill(shape, evenOdd: false, level: 0, tessellated: false))
    let before = cache.entries.bytes
    XCTAssertEqual(before, mesh.byteCount)
    XCTAssertGreaterThan(mesh.indices.count, 0)
    XCTAssertEqual(cache.entries.bytes, mesh.byteCount)
    XCTAssertGreaterThan(cache.entries.bytes, before)
    let eager = PathGeometryCache(budget: CacheBudget(limit: 1 << 24))
    let now = try XCTUnwrap(eager.fill(shape, evenOdd: false, level: 0))
    XCTAssertEqual(eager.entries.bytes, now.byteCount)
    XCTAssertEqual(eager.entries.bytes, cache.entries.bytes)
  }
}
