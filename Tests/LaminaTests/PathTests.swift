import Lamina
import XCTest

final class PathTests: XCTestCase {
  func testBasicCommands() throws {
    let p = try CGPath.parseSVG("M 0 0 L 10 0 H 20 V 10 Z")
    XCTAssertEqual(
      p.elements,
      [
        .moveTo(.zero), .lineTo(CGPoint(x: 10, y: 0)), .lineTo(CGPoint(x: 20, y: 0)),
        .lineTo(CGPoint(x: 20, y: 10)), .closeSubpath,
      ])
  }

  func testRelativeCommandsAndImplicitRepeats() throws {
    let p = try CGPath.parseSVG("m10,10 10,0 0,10 h-5 v-5 l1 1 2 2")
    XCTAssertEqual(
      p.elements,
      [
        .moveTo(CGPoint(x: 10, y: 10)), .lineTo(CGPoint(x: 20, y: 10)),
        .lineTo(CGPoint(x: 20, y: 20)), .lineTo(CGPoint(x: 15, y: 20)),
        .lineTo(CGPoint(x: 15, y: 15)), .lineTo(CGPoint(x: 16, y: 16)),
        .lineTo(CGPoint(x: 18, y: 18)),
      ])
  }

  func testCompactNumbers() throws {
    let p = try CGPath.parseSVG("M-.5.5L1e1-2E-1")
    XCTAssertEqual(
      p.elements, [.moveTo(CGPoint(x: -0.5, y: 0.5)), .lineTo(CGPoint(x: 10, y: -0.2))])
  }

  func testCurvesAndReflections() throws {
    let p = try CGPath.parseSVG(
      "M0 0 C 10 0 20 10 20 20 S 30 40 40 40 Q 50 40 50 50 T 50 70 t 0 20")
    XCTAssertEqual(p.elements.count, 6)
    XCTAssertEqual(
      p.elements[1],
      .curveTo(
        CGPoint(x: 20, y: 20), control1: CGPoint(x: 10, y: 0), control2: CGPoint(x: 20, y: 10)))
    // S reflects the previous second control point about the current point.
    XCTAssertEqual(
      p.elements[2],
      .curveTo(
        CGPoint(x: 40, y: 40), control1: CGPoint(x: 20, y: 30), control2: CGPoint(x: 30, y: 40)))
    XCTAssertEqual(
      p.elements[3], .quadCurveTo(CGPoint(x: 50, y: 50), control: CGPoint(x: 50, y: 40)))
    XCTAssertEqual(
      p.elements[4], .quadCurveTo(CGPoint(x: 50, y: 70), control: CGPoint(x: 50, y: 60)))
    XCTAssertEqual(
      p.elements[5], .quadCurveTo(CGPoint(x: 50, y: 90), control: CGPoint(x: 50, y: 80)))
    // s and c relative forms.
    let q = try CGPath.parseSVG("M 10 10 c 0 10 10 10 10 0 s 10 -10 10 0")
    XCTAssertEqual(
      q.elements[2],
      .curveTo(
        CGPoint(x: 30, y: 10), control1: CGPoint(x: 20, y: 0), control2: CGPoint(x: 30, y: 0)))
  }

  func testArcs() throws {
    let p = try CGPath.parseSVG("M 0 0 A 50 50 0 0 1 100 0")
    // A half circle: two quarter curves ending exactly at the end point.
    XCTAssertEqual(p.elements.count, 3)
    XCTAssertEqual(p.currentPoint, CGPoint(x: 100, y: 0))
    guard case .curveTo(let mid, _, _) = p.elements[1] else { return XCTFail() }
    // Sweep flag 1 goes clockwise on screen (through positive... y is down: through y = -50).
    XCTAssertEqual(mid.x, 50, accuracy: 1e-9)
    XCTAssertEqual(abs(mid.y), 50, accuracy: 1e-9)
    // Radii too small are scaled up; the arc still ends at the end point.
    let small = try CGPath.parseSVG("M 0 0 a 1 1 0 0 0 10 10")
    XCTAssertEqual(small.currentPoint, CGPoint(x: 10, y: 10))
    // Zero radius is a straight line.
    XCTAssertEqual(
      try CGPath.parseSVG("M 0 0 A 0 5 0 0 1 10 0").elements,
      [.moveTo(.zero), .lineTo(CGPoint(x: 10, y: 0))])
    // Compact flags.
    XCTAssertEqual(try CGPath.parseSVG("M0 0a5 5 0 1110 0").currentPoint, CGPoint(x: 10, y: 0))
    let circle = try CGPath.parseSVG("M 0 50 A 50 50 0 1 1 100 50 A 50 50 0 1 1 0 50 Z")
    XCTAssertTrue(circle.contains(CGPoint(x: 50, y: 50)))
    XCTAssertFalse(circle.contains(CGPoint(x: 2, y: 2)))
    assertEqual(
      circle.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 100), accuracy: 0.05)
  }

  func testCloseThenDraw() throws {
    let p = try CGPath.parseSVG("M 10 10 L 20 10 Z L 10 20")
    XCTAssertEqual(
      p.elements,
      [
        .moveTo(CGPoint(x: 10, y: 10)), .lineTo(CGPoint(x: 20, y: 10)), .closeSubpath,
        .moveTo(CGPoint(x: 10, y: 10)), .lineTo(CGPoint(x: 10, y: 20)),
      ])
  }

  func testErrorsCarryOffsets() {
    func error(_ text: String) -> PathError? {
      do {
        _ = try CGPath.parseSVG(text)
        return nil
      } catch { return error as? PathError }
    }
    XCTAssertEqual(error("L 0 0")?.offset, 0)
    XCTAssertEqual(error("M 0 0 L 5")?.offset, 9)
    XCTAssertEqual(error("M 0 0 L 5")?.expected, "a number")
    XCTAssertEqual(error("M 0 0 X 5")?.offset, 6)
    XCTAssertEqual(error("M 0 0 A 5 5 0 2 0 1 1")?.offset, 14)
    XCTAssertEqual(error("M 0 0 L 1 x")?.description, "at offset 10: expected a number, found 'x'")
    XCTAssertEqual(try CGPath.parseSVG("").isEmpty, true)
  }

  func testMutablePathShapes() {
    let p = CGMutablePath()
    p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    XCTAssertEqual(p.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
    XCTAssertTrue(p.contains(CGPoint(x: 5, y: 5)))
    p.addRect(CGRect(x: 2, y: 2, width: 6, height: 6))
    XCTAssertTrue(p.contains(CGPoint(x: 5, y: 5), using: .winding))
    XCTAssertFalse(p.contains(CGPoint(x: 5, y: 5), using: .evenOdd))
    let e = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 20, height: 10))
    XCTAssertEqual(e.boundingBox, CGRect(x: 0, y: 0, width: 20, height: 10))
    XCTAssertEqual(e.currentPoint, CGPoint(x: 20, y: 5))
    let r = CGPath(
      roundedRect: CGRect(x: 0, y: 0, width: 20, height: 20), cornerWidth: 5, cornerHeight: 5)
    XCTAssertFalse(r.contains(CGPoint(x: 0.5, y: 0.5)))
    XCTAssertTrue(r.contains(CGPoint(x: 10, y: 0.5)))
    let q = CGMutablePath()
    XCTAssertTrue(q.isEmpty)
    q.move(to: CGPoint(x: 1, y: 1))
    q.addQuadCurve(to: CGPoint(x: 5, y: 1), control: CGPoint(x: 3, y: 9))
    q.addCurve(
      to: CGPoint(x: 9, y: 1), control1: CGPoint(x: 6, y: 0), control2: CGPoint(x: 8, y: 0))
    XCTAssertEqual(q.currentPoint, CGPoint(x: 9, y: 1))
    XCTAssertEqual(q.boundingBox, CGRect(x: 1, y: 0, width: 8, height: 9))
  }

  /// The box and hash a path keeps follow a mutable path's changes, and
  /// equal paths hash alike however they were made.
  func testKeptBoxAndHashFollowChanges() {
    let p = CGMutablePath()
    p.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    let hash = p.hashValue
    XCTAssertEqual(p.boundingBox, CGRect(x: 0, y: 0, width: 10, height: 10))
    p.addLine(to: CGPoint(x: 30, y: -5))
    XCTAssertEqual(p.boundingBox, CGRect(x: 0, y: -5, width: 30, height: 15))
    XCTAssertNotEqual(p.hashValue, hash)
    let copy = CGMutablePath()
    copy.addPath(p)
    XCTAssertEqual(copy, p)
    XCTAssertEqual(copy.hashValue, p.hashValue)
    let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
    let other = CGMutablePath()
    other.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
    XCTAssertEqual(Set([rect, other]).count, 1)
    XCTAssertEqual(rect.hashValue, hash)
  }
}

final class ArcTests: XCTestCase {
  /// Points along the path's curves (end points and midpoints of each cubic).
  func samples(_ path: CGPath) -> [CGPoint] {
    var points: [CGPoint] = []
    var current = CGPoint.zero
    for element in path.elements {
      switch element {
      case .moveTo(let p), .lineTo(let p), .quadCurveTo(let p, _):
        points.append(p)
        current = p
      case .curveTo(let p, let c1, let c2):
        let t: CGFloat = 0.5
        let m = 1 - t
        let x =
          m * m * m * current.x + 3 * m * m * t * c1.x + 3 * m * t * t * c2.x + t * t * t * p.x
        let y =
          m * m * m * current.y + 3 * m * m * t * c1.y + 3 * m * t * t * c2.y + t * t * t * p.y
        points.append(CGPoint(x: x, y: y))
        points.append(p)
        current = p
      case .closeSubpath: break
      }
    }
    return points
  }

  func testArcAroundACenterStaysOnTheCircle() {
    let path = CGMutablePath()
    path.addArc(
      center: CGPoint(x: 50, y: 50), radius: 20, startAngle: 0, endAngle: .pi * 1.5,
      clockwise: false)
    XCTAssertEqual(path.currentPoint.x, 50, accuracy: 1e-9)
    XCTAssertEqual(path.currentPoint.y, 30, accuracy: 1e-9)
    XCTAssertEqual(
      path.elements.filter {
        if case .curveTo = $0 { return true }
        return false
      }.count, 3)
    for p in samples(path) {
      XCTAssertEqual(hypot(p.x - 50, p.y - 50), 20, accuracy: 0.02)
    }
  }

  func testClockwiseGoesTheOtherWay() {
    let path = CGMutablePath()
    path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
    // Three quarters of a turn toward decreasing angles: through (0, -10).
    XCTAssertTrue(samples(path).contains { abs($0.x) < 1e-9 && abs($0.y + 10) < 1e-9 })
    XCTAssertEqual(path.currentPoint.y, 10, accuracy: 1e-9)
  }

  func testTangentArcRoundsACorner() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addArc(
      tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
    let points = samples(path)
    // The line stops where the arc starts, 20 before the corner; the arc
    // ends on the second line, 20 past it, around the center (80, 20).
    XCTAssertTrue(points.contains { abs($0.x - 80) < 1e-9 && abs($0.y) < 1e-9 })
    XCTAssertEqual(path.currentPoint.x, 100, accuracy: 1e-9)
    XCTAssertEqual(path.currentPoint.y, 20, accuracy: 1e-9)
    for p in points.dropFirst(2) { XCTAssertEqual(hypot(p.x - 80, p.y - 20), 20, accuracy: 0.02) }
  }
}
