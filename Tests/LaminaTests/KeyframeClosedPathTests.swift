import Lamina
import XCTest

// A keyframe `path` of N vertices and `closeSubpath()` with N key times, as
// iOS code builds position animations: the vertices follow the key times.
final class KeyframeClosedPathTests: XCTestCase {
  func position(_ animation: CAAnimation, at time: CFTimeInterval) -> CGPoint {
    let layer = CALayer()
    layer.position = CGPoint(x: -1, y: -1)
    animation.isRemovedOnCompletion = false
    layer.add(animation, forKey: nil)
    return PresentationTree(root: layer).update(time: time).position
  }

  func closedTriangle() -> CGPath {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 50))
    path.closeSubpath()
    return path
  }

  func testVerticesFollowKeyTimes() {
    let move = CAKeyframeAnimation(keyPath: "position")
    move.path = closedTriangle()
    move.keyTimes = [0, 0.8, 1]
    move.duration = 10
    // Even spacing would put the first corner at 5 s; the key times put it at 8 s.
    XCTAssertEqual(position(move, at: 4).x, 50, accuracy: 1e-9)
    XCTAssertEqual(position(move, at: 4).y, 0, accuracy: 1e-9)
    XCTAssertEqual(position(move, at: 8).x, 100, accuracy: 1e-9)
    XCTAssertEqual(position(move, at: 9).y, 25, accuracy: 1e-9)
    XCTAssertEqual(position(move, at: 9.999).y, 50, accuracy: 0.05)
  }

  func testAKeyTimeForTheClosingSegmentIsUsedToo() {
    // N + 1 key times: the closing segment is a keyframe of its own.
    let move = CAKeyframeAnimation(keyPath: "position")
    move.path = closedTriangle()
    move.keyTimes = [0, 0.2, 0.4, 1]
    move.duration = 1
    XCTAssertEqual(position(move, at: 0.2), CGPoint(x: 100, y: 0))
    XCTAssertEqual(position(move, at: 0.4), CGPoint(x: 100, y: 50))
    let back = position(move, at: 0.7)
    XCTAssertEqual(back.x, 50, accuracy: 1e-9)
    XCTAssertEqual(back.y, 25, accuracy: 1e-9)
  }

  func testOtherCountsStillSpaceEvenly() {
    let move = CAKeyframeAnimation(keyPath: "position")
    move.path = closedTriangle()
    move.keyTimes = [0, 1]
    move.duration = 3
    // Three segments in three seconds.
    XCTAssertEqual(position(move, at: 1), CGPoint(x: 100, y: 0))
    XCTAssertEqual(position(move, at: 2), CGPoint(x: 100, y: 50))
  }
}

/// Key times that stop before 1: past the last key time the layer stays on
/// the path's last vertex, with and without a closing segment (issue 30).
final class KeyframePathEndTests: XCTestCase {

  func move(_ keyPath: String, closed: Bool) -> CAKeyframeAnimation {
    let move = CAKeyframeAnimation(keyPath: keyPath)
    move.path = corner(closed: closed)
    move.keyTimes = [0, 0.2, 0.4]
    move.duration = 1
    return move
  }

  func assertPoint(
    _ p: CGPoint, _ x: CGFloat, _ y: CGFloat, _ message: String, line: UInt = #line
  ) {
    XCTAssertEqual(p.x, x, accuracy: 1e-9, message, line: line)
    XCTAssertEqual(p.y, y, accuracy: 1e-9, message, line: line)
  }

  func testPositionHoldsTheLastVertex() {
    for closed in [true, false] {
      let animation = move("position", closed: closed)
      let label = "closed: \(closed)"
      assertPoint(presented(animation, at: 0.1).position, 50, 0, label)
      assertPoint(presented(animation, at: 0.3).position, 100, 50, label)
      assertPoint(presented(animation, at: 0.5).position, 100, 100, label)
      assertPoint(presented(animation, at: 0.99).position, 100, 100, label)
      assertPoint(presented(animation, at: 2).position, 100, 100, label + ", filled forwards")
    }
  }

  func testTranslationHoldsTheLastVertex() {
    for closed in [true, false] {
      let animation = move("transform.translation", closed: closed)
      let early = presented(animation, at: 0.3).transform
      XCTAssertEqual(early.m41, 100, accuracy: 1e-9, "closed: \(closed)")
      XCTAssertEqual(early.m42, 50, accuracy: 1e-9)
      let late = presented(animation, at: 0.5).transform
      XCTAssertEqual(late.m41, 100, accuracy: 1e-9, "closed: \(closed)")
      XCTAssertEqual(late.m42, 100, accuracy: 1e-9)
    }
  }
}

/// What the keyframe path tests share.
extension XCTestCase {
  /// A layer with `animation` (kept, filled forwards), presented at `time`.
  func presented(_ animation: CAAnimation, at time: CFTimeInterval) -> CALayer {
    let layer = CALayer()
    animation.isRemovedOnCompletion = false
    animation.fillMode = .forwards
    layer.add(animation, forKey: "move")
    return PresentationTree(root: layer).update(time: time)
  }

  /// (0, 0) → (100, 0) → (100, 100), closed or not.
  func corner(closed: Bool) -> CGPath {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 100))
    if closed { path.closeSubpath() }
    return path
  }
}
