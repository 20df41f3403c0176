import Lamina
import XCTest

/// CGPath and CGMutablePath members as Core Graphics has them.
final class PathAPITests: XCTestCase {
  func testApplyWithBlockHandsOutCoreGraphicsElements() {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 1, y: 2))
    path.addLine(to: CGPoint(x: 3, y: 4))
    path.addQuadCurve(to: CGPoint(x: 5, y: 6), control: CGPoint(x: 7, y: 8))
    path.addCurve(
      to: CGPoint(x: 9, y: 10), control1: CGPoint(x: 11, y: 12), control2: CGPoint(x: 13, y: 14))
    path.closeSubpath()
    var seen: [(CGPathElementType, [CGPoint])] = []
    path.applyWithBlock { element in
      let count: Int
      switch element.pointee.type {
      case .moveToPoint, .addLineToPoint: count = 1
      case .addQuadCurveToPoint: count = 2
      case .addCurveToPoint: count = 3
      case .closeSubpath: count = 0
      }
      seen.append((element.pointee.type, (0..<count).map { element.pointee.points[$0] }))
    }
    XCTAssertEqual(
      seen.map(\.0),
      [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
    XCTAssertEqual(seen[2].1, [CGPoint(x: 7, y: 8), CGPoint(x: 5, y: 6)], "control point first")
    XCTAssertEqual(seen[3].1.last, CGPoint(x: 9, y: 10))
  }

  func testCopiesAndRects() throws {
    let rect = CGRect(x: 10, y: 20, width: 30, height: 40)
    var found = CGRect.zero
    XCTAssertTrue(CGPath(rect: rect, transform: nil).isRect(&found))
    XCTAssertEqual(found, rect)
    XCTAssertFalse(CGPath(ellipseIn: rect, transform: nil).isRect(nil))
    var t = CGAffineTransform(translationX: 5, y: 0)
    let moved = try XCTUnwrap(CGPath(rect: rect, transform: nil).copy(using: &t))
    XCTAssertEqual(moved.boundingBox, rect.offsetBy(dx: 5, dy: 0))
    let mutable = try XCTUnwrap(moved.mutableCopy())
    mutable.addLine(to: .zero)
    XCTAssertFalse(mutable.isRect(nil))
    XCTAssertEqual(moved.copy(), moved)
    // flattened(threshold:) makes lines only.
    var kinds = Set<Int32>()
    CGPath(ellipseIn: rect, transform: nil).flattened(threshold: 0.1).applyWithBlock {
      kinds.insert($0.pointee.type.rawValue)
    }
    XCTAssertEqual(
      kinds,
      [
        CGPathElementType.moveToPoint.rawValue, CGPathElementType.addLineToPoint.rawValue,
        CGPathElementType.closeSubpath.rawValue,
      ])
  }

  func testRelativeArc() {
    let path = CGMutablePath()
    path.addRelativeArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, delta: .pi / 2)
    XCTAssertEqual(path.currentPoint.x, 50, accuracy: 1e-9)
    XCTAssertEqual(path.currentPoint.y, 60, accuracy: 1e-9, "a quarter turn toward +y")
    let back = CGMutablePath()
    back.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2)
    XCTAssertEqual(back.currentPoint.y, -10, accuracy: 1e-9)
  }

  func testTrimmedAndDashedPathsCutByArcLength() {
    let line = CGMutablePath()
    line.move(to: .zero)
    line.addLine(to: CGPoint(x: 100, y: 0))
    let dashed = line.copy(dashingWithPhase: 0, lengths: [10, 5])
    var starts: [CGFloat] = []
    var ends: [CGFloat] = []
    dashed.applyWithBlock { e in
      if e.pointee.type == .moveToPoint { starts.append(e.pointee.points[0].x) }
      if e.pointee.type == .addLineToPoint { ends.append(e.pointee.points[0].x) }
    }
    XCTAssertEqual(starts.map { ($0 * 1e6).rounded() / 1e6 }, [0, 15, 30, 45, 60, 75, 90])
    XCTAssertEqual(ends.map { ($0 * 1e6).rounded() / 1e6 }, [10, 25, 40, 55, 70, 85, 100])
    // A phase shifts the pattern; an odd count repeats.
    var phased: [CGFloat] = []
    line.copy(dashingWithPhase: 4, lengths: [10]).applyWithBlock { e in
      if e.pointee.type == .moveToPoint { phased.append(e.pointee.points[0].x) }
    }
    XCTAssertEqual(phased.map { ($0 * 1e6).rounded() / 1e6 }, [0, 16, 36, 56, 76, 96])
    // Trimming a circle keeps curves: the cut lies on the circle.
    let circle = CGPath(ellipseIn: CGRect(x: -10, y: -10, width: 20, height: 20), transform: nil)
    let half = circle.trimmed(from: 0, to: 0.5)
    XCTAssertEqual(half.currentPoint.x, -10, accuracy: 1e-6)
    XCTAssertEqual(half.currentPoint.y, 0, accuracy: 1e-6)
    var curves = 0
    half.applyWithBlock { if $0.pointee.type == .addCurveToPoint { curves += 1 } }
    XCTAssertEqual(curves, 2)
    XCTAssertTrue(circle.copy(dashingWithPhase: 0, lengths: [0, 0]).isEmpty)
  }
}
