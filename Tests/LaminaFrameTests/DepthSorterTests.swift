import Foundation
import Lamina
import XCTest

@testable import LaminaFrame

/// The BSP painter's order, checked against a depth-tested reference
/// computed on the CPU: at every sample point, the piece drawn last must be
/// the nearest of those covering it.
final class DepthSorterTests: XCTestCase {
  /// A deterministic generator (the same planes on every run).
  struct Random {
    var state: UInt64
    mutating func next() -> Double {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Double(state >> 11) / Double(1 << 53)
    }
    mutating func range(_ a: Double, _ b: Double) -> Double { a + (b - a) * next() }
  }

  func randomPlanes(_ count: Int, seed: UInt64, perspective: Bool) -> [DepthSorter.Plane] {
    var random = Random(state: seed)
    var view = CATransform3DIdentity
    if perspective { view.m34 = -1.0 / 400 }
    return (0..<count).map { _ in
      let w = random.range(40, 120)
      let h = random.range(40, 120)
      var m = CATransform3DMakeTranslation(-w / 2, -h / 2, 0)
      m = m.concatenating(CATransform3DMakeRotation(random.range(-1.2, 1.2), 1, 0, 0))
      m = m.concatenating(CATransform3DMakeRotation(random.range(-1.2, 1.2), 0, 1, 0))
      m = m.concatenating(CATransform3DMakeRotation(random.range(-3, 3), 0, 0, 1))
      m = m.concatenating(
        CATransform3DMakeTranslation(
          random.range(-40, 40), random.range(-40, 40), random.range(-40, 40)))
      return DepthSorter.Plane(
        rect: CGRect(x: 0, y: 0, width: w, height: h), toContext: m.concatenating(view))
    }
  }

  /// The projected polygon (x, y, z after the divide) of a piece.
  func projected(_ piece: DepthSorter.Piece, _ planes: [DepthSorter.Plane]) -> [SIMD3<Double>] {
    let plane = planes[piece.plane]
    var local = EdgeGeometry.corners(plane.rect).map { SIMD2(Double($0.x), Double($0.y)) }
    for h in piece.halfPlanes { local = DepthSorter.clip(local, h) }
    return local.map {
      let q = plane.toContext.apply(CGFloat($0.x), CGFloat($0.y))
      return SIMD3(Double(q.x / q.w), Double(q.y / q.w), Double(q.z / q.w))
    }
  }

  /// Depth of a convex projected polygon at (x, y), or nil when outside.
  func depth(of polygon: [SIMD3<Double>], x: Double, y: Double) -> Double? {
    guard polygon.count >= 3 else { return nil }
    var sign = 0.0
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      let cross = (q.x - p.x) * (y - p.y) - (q.y - p.y) * (x - p.x)
      if abs(cross) < 1e-9 { continue }
      if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return nil }
    }
    // The plane through the polygon (Newell), solved for z.
    var n = SIMD3<Double>(repeating: 0)
    var c = SIMD3<Double>(repeating: 0)
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      n += SIMD3((p.y - q.y) * (p.z + q.z), (p.z - q.z) * (p.x + q.x), (p.x - q.x) * (p.y + q.y))
      c += p
    }
    c /= Double(polygon.count)
    guard abs(n.z) > 1e-9 else { return nil }
    return c.z - (n.x * (x - c.x) + n.y * (y - c.y)) / n.z
  }

  func assertPaintersOrder(
    _ planes: [DepthSorter.Plane], file: StaticString = #filePath, line: UInt = #line
  ) {
    let pieces = DepthSorter(planes: planes).sorted()
    let polygons = pieces.map { projected($0, planes) }
    var checked = 0
    for yi in stride(from: -120.0, through: 120, by: 3.7) {
      for xi in stride(from: -120.0, through: 120, by: 3.7) {
        var last: Double?
        var nearest = -Double.infinity
        for polygon in polygons {
          if let z = depth(of: polygon, x: xi, y: yi) {
            last = z
            nearest = max(nearest, z)
          }
        }
        guard let last else { continue }
        checked += 1
        XCTAssertEqual(
          last, nearest, accuracy: 1e-6 * max(1, abs(nearest)),
          "at (\(xi), \(yi)) the piece drawn last is not the nearest", file: file, line: line)
        if abs(last - nearest) > 1e-6 * max(1, abs(nearest)) { return }
      }
    }
    XCTAssertGreaterThan(checked, 100, file: file, line: line)
  }

  func testRandomPlanesAreInPaintersOrder() {
    for seed in 1...12 as ClosedRange<UInt64> {
      assertPaintersOrder(randomPlanes(8, seed: seed, perspective: false))
    }
  }

  func testRandomPlanesUnderPerspectiveAreInPaintersOrder() {
    for seed in 100...111 as ClosedRange<UInt64> {
      assertPaintersOrder(randomPlanes(8, seed: seed, perspective: true))
    }
  }

  func testIntersectingPlanesAreSplit() {
    // Two planes crossing at x = 50 like an X seen from above.
    let a = CATransform3DMakeTranslation(-50, -50, 0).concatenating(
      CATransform3DMakeRotation(0.5, 0, 1, 0))
    let b = CATransform3DMakeTranslation(-50, -50, 0).concatenating(
      CATransform3DMakeRotation(-0.5, 0, 1, 0))
    let planes = [
      DepthSorter.Plane(rect: CGRect(x: 0, y: 0, width: 100, height: 100), toContext: a),
      DepthSorter.Plane(rect: CGRect(x: 0, y: 0, width: 100, height: 100), toContext: b),
    ]
    let pieces = DepthSorter(planes: planes).sorted()
    XCTAssertEqual(pieces.count, 3, "the first plane splits the second in two")
    XCTAssertEqual(pieces.filter { $0.plane == 1 }.count, 2)
    assertPaintersOrder(planes)
  }

  func testCoplanarPlanesKeepSiblingOrder() {
    let m = CATransform3DMakeRotation(0.3, 1, 0, 0)
    let planes = (0..<3).map { i in
      DepthSorter.Plane(rect: CGRect(x: CGFloat(i) * 10, y: 0, width: 50, height: 50), toContext: m)
    }
    XCTAssertEqual(DepthSorter(planes: planes).sorted().map(\.plane), [0, 1, 2])
  }

  func testPlaneBehindTheEyeIsDropped() {
    // 500 points toward the viewer, who sits 400 points in front of the plane.
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 400
    let m = CATransform3DMakeTranslation(0, 0, 500).concatenating(perspective)
    let planes = [DepthSorter.Plane(rect: CGRect(x: 0, y: 0, width: 10, height: 10), toContext: m)]
    XCTAssertEqual(DepthSorter(planes: planes).sorted(), [])
  }

  func testHomographyPullBackKeepsTheSameSide() throws {
    var m = CATransform3DMakeRotation(0.7, 0.3, 1, 0.2)
    m.m34 = -1.0 / 300
    m = m.concatenating(CATransform3DMakeTranslation(12, -7, 0))
    let h = Homography(m.flattened)
    let line = SIMD3(0.6, -0.8, 5.0)  // a half-plane of the target plane
    let pulled = h.pullBack(line)
    for (x, y) in [(0.0, 0.0), (10, -4), (-30, 25), (7, 60)] {
      let q = h.apply(x, y)
      let target = (line.x * q.x + line.y * q.y + line.z * q.z) / q.z
      let source = pulled.x * x + pulled.y * y + pulled.z
      XCTAssertEqual(target > 0, source > 0, "(\(x), \(y))")
      XCTAssertEqual(target * q.z, source, accuracy: 1e-9)
    }
  }

}
