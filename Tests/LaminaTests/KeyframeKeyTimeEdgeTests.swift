import Foundation
import Lamina
import XCTest

/// Keyframe animations whose `keyTimes` end before 1, in the calculation
/// modes iOS code uses, for `position` and `transform.translation`, with
/// paths and with values (issue 30, item 3).
final class KeyframeKeyTimeEdgeTests: XCTestCase {
  func assertPoint(
    _ p: CGPoint, _ x: CGFloat, _ y: CGFloat, _ message: String, accuracy: CGFloat = 1e-6,
    line: UInt = #line
  ) {
    XCTAssertEqual(p.x, x, accuracy: accuracy, message, line: line)
    XCTAssertEqual(p.y, y, accuracy: accuracy, message, line: line)
  }

  func translation(_ layer: CALayer) -> CGPoint {
    CGPoint(x: layer.transform.m41, y: layer.transform.m42)
  }

  func testCubicPathsHoldTheLastVertex() {
    for closed in [true, false] {
      for keyPath in ["position", "transform.translation"] {
        let move = CAKeyframeAnimation(keyPath: keyPath)
        move.path = corner(closed: closed)
        move.keyTimes = [0, 0.2, 0.4]
        move.calculationMode = .cubic
        move.duration = 1
        let label = "\(keyPath), closed: \(closed)"
        let late = presented(move, at: 0.5)
        let p = keyPath == "position" ? late.position : translation(late)
        assertPoint(p, 100, 100, label)
        let corner = presented(move, at: 0.2)
        assertPoint(keyPath == "position" ? corner.position : translation(corner), 100, 0, label)
      }
    }
  }

  func testPacedPathsIgnoreKeyTimes() {
    // "paced": keyTimes and timingFunctions are ignored; the layer moves at
    // a constant speed along the whole path, the closing segment included.
    let move = CAKeyframeAnimation(keyPath: "position")
    move.path = corner(closed: true)
    move.keyTimes = [0, 0.2, 0.4]
    move.calculationMode = .paced
    move.duration = 1
    let length = 200 + 100 * 2.0.squareRoot()
    // Halfway along: 70.7 points down the second side.
    assertPoint(presented(move, at: 0.5).position, 100, length / 2 - 100, "paced", accuracy: 0.5)
    assertPoint(presented(move, at: 1).position, 0, 0, "back at the start", accuracy: 1e-6)
    let open = CAKeyframeAnimation(keyPath: "transform.translation")
    open.path = corner(closed: false)
    open.keyTimes = [0, 0.2, 0.4]
    open.calculationMode = .cubicPaced
    open.duration = 1
    assertPoint(translation(presented(open, at: 0.5)), 100, 0, "cubic paced", accuracy: 0.5)
    assertPoint(translation(presented(open, at: 0.75)), 100, 50, "cubic paced", accuracy: 0.5)
  }

  func testValuesHoldTheLastValueAfterTheLastKeyTime() {
    for mode in [CAAnimationCalculationMode.linear, .cubic] {
      let move = CAKeyframeAnimation(keyPath: "position")
      move.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)]
        .map { NSValue(cgPoint: $0) }
      move.keyTimes = [0, 0.2, 0.4]
      move.calculationMode = mode
      move.duration = 1
      assertPoint(presented(move, at: 0.5).position, 100, 100, "\(mode.rawValue)")
      assertPoint(presented(move, at: 0.2).position, 100, 0, "\(mode.rawValue)")
      let shift = CAKeyframeAnimation(keyPath: "transform.translation")
      shift.values = [
        CGSize(width: 0, height: 0), CGSize(width: 100, height: 0), CGSize(width: 100, height: 100),
      ]
      .map { NSValue(cgSize: $0) }
      shift.keyTimes = [0, 0.2, 0.4]
      shift.calculationMode = mode
      shift.duration = 1
      assertPoint(translation(presented(shift, at: 0.5)), 100, 100, "\(mode.rawValue)")
    }
  }

  func testKeyTimesStartingAfterZeroHoldTheFirstValue() {
    let move = CAKeyframeAnimation(keyPath: "position")
    move.path = corner(closed: true)
    move.keyTimes = [0.2, 0.4, 0.6]
    move.duration = 1
    assertPoint(presented(move, at: 0.1).position, 0, 0, "before the first key time")
    assertPoint(presented(move, at: 0.3).position, 50, 0, "")
    assertPoint(presented(move, at: 0.8).position, 100, 100, "after the last")
  }
}
