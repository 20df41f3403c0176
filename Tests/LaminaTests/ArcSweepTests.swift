import Lamina
import XCTest

/// Arcs that sweep more than a turn, as a progress ring drawn past 100 %
/// makes them: the whole sweep is drawn and the current point is left on
/// the arc at the end angle, as Core Graphics' documentation says.
final class ArcSweepTests: XCTestCase {
  /// `path` as its elements' types and last points.
  private func elements(_ path: CGPath) -> [(CGPathElementType, CGPoint)] {
    var seen: [(CGPathElementType, CGPoint)] = []
    path.applyWithBlock { e in
      let n: Int
      switch e.pointee.type {
      case .moveToPoint, .addLineToPoint: n = 1
      case .addQuadCurveToPoint: n = 2
      case .addCurveToPoint: n = 3
      case .closeSubpath: n = 0
      }
      seen.append((e.pointee.type, n == 0 ? .zero : e.pointee.points[n - 1]))
    }
    return seen
  }

  func testAnArcOfMoreThanATurnEndsAtItsEndAngle() {
    let p = CGMutablePath()
    p.addArc(center: .zero, radius: 100, startAngle: -.pi / 2, endAngle: 2 * .pi, clockwise: false)
    XCTAssertEqual(p.currentPoint.x, 100, accuracy: 1e-9)
    XCTAssertEqual(p.currentPoint.y, 0, accuracy: 1e-9)
    // Five quarter turns: (0,-100), (100,0), (0,100), (-100,0), (0,-100), (100,0).
    let e = elements(p)
    XCTAssertEqual(e.map(\.0), [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 5))
    let expected: [CGPoint] = [
      CGPoint(x: 0, y: -100), CGPoint(x: 100, y: 0), CGPoint(x: 0, y: 100),
      CGPoint(x: -100, y: 0), CGPoint(x: 0, y: -100), CGPoint(x: 100, y: 0),
    ]
    for (got, want) in zip(e.map(\.1), expected) {
      XCTAssertEqual(got.x, want.x, accuracy: 1e-9)
      XCTAssertEqual(got.y, want.y, accuracy: 1e-9)
    }
  }

  func testClockwiseArcsOfMoreThanATurnToo() {
    let p = CGMutablePath()
    p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: -3 * .pi, clockwise: true)
    XCTAssertEqual(p.currentPoint.x, -10, accuracy: 1e-9)
    XCTAssertEqual(p.currentPoint.y, 0, accuracy: 1e-9)
    XCTAssertEqual(elements(p).count, 1 + 6, "six quarter turns")
  }

  /// `delta` is the arc's length: three half turns end on the far side.
  func testARelativeArcOfMoreThanATurn() {
    let p = CGMutablePath()
    p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: 3 * .pi)
    XCTAssertEqual(p.currentPoint.x, -10, accuracy: 1e-9)
    XCTAssertEqual(p.currentPoint.y, 0, accuracy: 1e-9)
    XCTAssertEqual(elements(p).count, 1 + 6)
  }

  /// The end in the other direction still comes round by whole turns, as
  /// before, and a full turn asked for is one circle.
  func testEndsTheOtherWayStillComeRound() {
    let p = CGMutablePath()
    p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: -.pi / 2, clockwise: false)
    XCTAssertEqual(elements(p).count, 1 + 3, "three quarters counterclockwise")
    XCTAssertEqual(p.currentPoint.y, -10, accuracy: 1e-9)
    let circle = CGMutablePath()
    circle.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
    XCTAssertEqual(elements(circle).count, 1 + 4)
  }
}
