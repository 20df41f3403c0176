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
