import Foundation
import XCTest

@testable import Lamina

/// Animation timing against hand-computed values.
final class TimingTests: XCTestCase {
  /// A layer at x = 100 with `animation` on `position.x`, shown at `time`.
  func x(_ animation: CAAnimation, at time: Double, model: CGFloat = 100) -> CGFloat {
    let layer = CALayer()
    layer.position = CGPoint(x: model, y: 0)
    layer.add(animation, forKey: "a")
    return PresentationTree(root: layer).update(time: time).position.x
  }

  func basic(_ from: Double = 0, _ to: Double = 10, duration: Double = 1) -> CABasicAnimation {
    let a = CABasicAnimation(keyPath: "position.x")
    a.fromValue = from
    a.toValue = to
    a.duration = duration
    a.isRemovedOnCompletion = false
    return a
  }

  func testLinearProgressAndDefaultDuration() {
    XCTAssertEqual(x(basic(duration: 2), at: 0.5), 2.5, accuracy: 1e-9)
    XCTAssertEqual(x(basic(duration: 2), at: 0), 0, accuracy: 1e-9)
    // duration 0 plays for 0.25 s.
    XCTAssertEqual(x(basic(duration: 0), at: 0.125), 5, accuracy: 1e-9)
    XCTAssertEqual(x(basic(duration: 0), at: 0.3), 100, accuracy: 1e-9)
  }

  func testRepeatCountFractionalAndInfinite() {
    let a = basic()
    a.repeatCount = 2.5
    XCTAssertEqual(x(a, at: 1.25), 2.5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 2.4), 4, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 2.6), 100, accuracy: 1e-9)  // removed after 2.5 s
    a.fillMode = .forwards
    XCTAssertEqual(x(a, at: 3), 5, accuracy: 1e-9)  // holds the end of the half repetition
    a.repeatCount = 3
    XCTAssertEqual(x(a, at: 4), 10, accuracy: 1e-9)
    a.repeatCount = .infinity
    XCTAssertEqual(x(a, at: 100.3), 3, accuracy: 1e-6)
  }

  func testRepeatDuration() {
    let a = basic()
    a.repeatDuration = 1.5
    a.fillMode = .forwards
    XCTAssertEqual(x(a, at: 1.25), 2.5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 7), 5, accuracy: 1e-9)
  }

  func testAutoreverses() {
    let a = basic()
    a.autoreverses = true
    XCTAssertEqual(x(a, at: 0.25), 2.5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 1.25), 7.5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 1.9), 1, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 2.1), 100, accuracy: 1e-9)
    a.fillMode = .forwards
    XCTAssertEqual(x(a, at: 3), 0, accuracy: 1e-9)  // ends where it began
    a.repeatCount = 2
    XCTAssertEqual(x(a, at: 2.5), 5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 3.75), 2.5, accuracy: 1e-9)
  }

  func testSpeedAndTimeOffsetOfAnAnimation() {
    let a = basic(duration: 2)
    a.speed = 2
    XCTAssertEqual(x(a, at: 0.25), 2.5, accuracy: 1e-9)
    let b = basic(duration: 2)
    b.timeOffset = 0.5
    XCTAssertEqual(x(b, at: 0), 2.5, accuracy: 1e-9)
    // It still plays 2 s, wrapping around to the start.
    XCTAssertEqual(x(b, at: 1.75), 1.25, accuracy: 1e-9)
    XCTAssertEqual(x(b, at: 2.1), 100, accuracy: 1e-9)
  }

  func testFillModesBeforeAndAfter() {
    let expected: [(CAMediaTimingFillMode, CGFloat, CGFloat)] = [
      (.removed, 100, 100), (.backwards, 0, 100), (.forwards, 100, 10), (.both, 0, 10),
    ]
    for (mode, before, after) in expected {
      let a = basic()
      a.beginTime = 1
      a.fillMode = mode
      XCTAssertEqual(x(a, at: 0.5), before, accuracy: 1e-9, "\(mode.rawValue) before")
      XCTAssertEqual(x(a, at: 1.5), 5, accuracy: 1e-9, "\(mode.rawValue) during")
      XCTAssertEqual(x(a, at: 2.5), after, accuracy: 1e-9, "\(mode.rawValue) after")
    }
  }

  func testRemovedOnCompletionIgnoresForwardsFill() {
    let a = basic()
    a.fillMode = .forwards
    a.isRemovedOnCompletion = true
    XCTAssertEqual(x(a, at: 0.5), 5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 1.5), 100, accuracy: 1e-9)
  }

  /// Parent speed 2; child begins at 1 (parent time) with speed 3 and
  /// offset 0.5: child time = (2T − 1) × 3 + 0.5.
  func testSpeedAndTimeOffsetNestThroughTwoLayers() {
    let parent = CALayer()
    parent.speed = 2
    let child = CALayer()
    child.beginTime = 1
    child.speed = 3
    child.timeOffset = 0.5
    parent.addSublayer(child)
    child.add(basic(0, 40, duration: 4), forKey: "a")
    let tree = PresentationTree(root: parent)
    for (t, expected) in [(0.75, 20.0), (1.0, 35.0), (0.6, 11.0)] {
      let shown = tree.update(time: t).sublayers![0].position.x
      XCTAssertEqual(shown, CGFloat(expected), accuracy: 1e-9, "at \(t)")
    }
    XCTAssertEqual(child.convertTime(1, from: nil), 3.5, accuracy: 1e-12)
    XCTAssertEqual(child.convertTime(3.5, to: nil), 1, accuracy: 1e-12)
    XCTAssertEqual(child.convertTime(2, from: parent), 3.5, accuracy: 1e-12)
  }

  func testLayerTimingKeysAreKeyValueCoded() {
    let layer = CALayer()
    layer.setValue(0.5, forKey: "speed")
    layer.setValue(2, forKey: "timeOffset")
    layer.setValue("both", forKey: "fillMode")
    XCTAssertEqual(layer.speed, 0.5)
    XCTAssertEqual(layer.timeOffset, 2)
    XCTAssertEqual(layer.fillMode, .both)
    XCTAssertEqual(CALayer(layer: layer).speed, 0.5)
  }

  func testNamedTimingFunctions() {
    let inputs = [0.1, 0.25, 0.5, 0.75, 0.9]
    // The curves solved independently (bisection to 1e-15 on the Float control points).
    let expected: [CAMediaTimingFunctionName: [Double]] = [
      .linear: inputs,
      .easeIn: [0.017026610, 0.093464654, 0.315356819, 0.621861875, 0.839427849],
      .easeOut: [0.160572158, 0.378138138, 0.684643195, 0.906535353, 0.982973391],
      .easeInEaseOut: [0.019722455, 0.129161939, 0.500000019, 0.870838078, 0.980277548],
      .default: [0.094796306, 0.408510592, 0.802403388, 0.960458978, 0.994316477],
    ]
    for (name, values) in expected {
      let f = CAMediaTimingFunction(name: name)
      for (x, y) in zip(inputs, values) {
        XCTAssertEqual(f.evaluate(at: x), y, accuracy: 1e-6, "\(name.rawValue) at \(x)")
      }
      XCTAssertEqual(f.evaluate(at: 0), 0, accuracy: 1e-12)
      XCTAssertEqual(f.evaluate(at: 1), 1, accuracy: 1e-12)
    }
    // Control points (1, 0), (1, 0): y = s³ while x(s) = 3s(1−s)² + 3s²(1−s) + s³
    // is flat at s = 1, where Newton's method stalls and bisection finishes.
    let steep = CAMediaTimingFunction(controlPoints: 1, 0, 1, 0)
    for x in [0.2, 0.5, 0.9, 0.999] {
      let s = cbrt(steep.evaluate(at: x))
      XCTAssertEqual(3 * s * (1 - s) * (1 - s) + 3 * s * s * (1 - s) + s * s * s, x, accuracy: 1e-9)
    }
  }

  func testTimingFunctionOfAnAnimationEasesItsProgress() {
    let a = basic()
    a.timingFunction = CAMediaTimingFunction(name: .easeIn)
    XCTAssertEqual(x(a, at: 0.25), 0.93464654, accuracy: 1e-5)
  }

  func testGroupTimesItsChildrenInItsOwnTime() {
    let child = basic()
    child.beginTime = 0.5
    let group = CAAnimationGroup()
    group.beginTime = 1
    group.duration = 2
    group.animations = [child]
    group.isRemovedOnCompletion = false
    XCTAssertEqual(x(group, at: 2), 5, accuracy: 1e-9)
    XCTAssertEqual(x(group, at: 1.2), 100, accuracy: 1e-9)  // child not begun
    group.speed = 2
    XCTAssertEqual(x(group, at: 1.5), 5, accuracy: 1e-9)
  }
}

/// A layer's own duration, repeats, autoreverse and fill shape its subtree's time.
final class LayerTimingTests: XCTestCase {
  func opacity(at time: Double, configure: (CALayer) -> Void) -> Float {
    let root = CALayer()
    let parent = CALayer()
    let child = CALayer()
    parent.addSublayer(child)
    root.addSublayer(parent)
    configure(parent)
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.duration = 1
    fade.timingFunction = CAMediaTimingFunction(name: .linear)
    fade.isRemovedOnCompletion = false
    child.add(fade, forKey: "fade")
    let tree = PresentationTree(root: root)
    return tree.update(time: time).sublayers![0].sublayers![0].opacity
  }

  func testRepeatingAutoreversingLayerTime() {
    let configure: (CALayer) -> Void = {
      $0.duration = 1
      $0.repeatCount = 2
      $0.autoreverses = true
    }
    XCTAssertEqual(opacity(at: 0.25, configure: configure), 0.25, accuracy: 1e-6)
    // On the way back of the first cycle.
    XCTAssertEqual(opacity(at: 1.25, configure: configure), 0.75, accuracy: 1e-6)
    // The second repetition.
    XCTAssertEqual(opacity(at: 2.25, configure: configure), 0.25, accuracy: 1e-6)
    // After two cycles, without a fill, the animation no longer applies.
    XCTAssertEqual(opacity(at: 5, configure: configure), 1, accuracy: 1e-6)
  }

  func testLayerFillsForwardWithItsLastState() {
    let value = opacity(at: 9) {
      $0.duration = 0.5
      $0.fillMode = .forwards
    }
    XCTAssertEqual(value, 0.5, accuracy: 1e-6)
  }

  func testLayerWithoutDurationNeverEnds() {
    XCTAssertEqual(opacity(at: 0.4) { $0.repeatCount = 3 }, 0.4, accuracy: 1e-6)
  }
}

/// Negative speed plays an animation backward.
final class BackwardTimingTests: XCTestCase {
  func opacity(at time: Double, fill: CAMediaTimingFillMode) -> Float {
    let root = CALayer()
    let layer = CALayer()
    root.addSublayer(layer)
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0.0
    fade.toValue = 1.0
    fade.duration = 1
    fade.speed = -1
    fade.timeOffset = 1  // start at the end and run back to the start
    fade.fillMode = fill
    fade.isRemovedOnCompletion = false
    fade.timingFunction = CAMediaTimingFunction(name: .linear)
    layer.add(fade, forKey: "fade")
    return PresentationTree(root: root).update(time: time).sublayers![0].opacity
  }

  func testNegativeSpeedRunsFromTheEndToTheStart() {
    XCTAssertEqual(opacity(at: 0.25, fill: .removed), 0.75, accuracy: 1e-6)
    XCTAssertEqual(opacity(at: 0.9, fill: .removed), 0.1, accuracy: 1e-6)
    // Past its start (in its own time) it no longer applies, or holds the
    // first state with a backward fill.
    XCTAssertEqual(opacity(at: 2, fill: .removed), 1, accuracy: 1e-6)
    XCTAssertEqual(opacity(at: 2, fill: .backwards), 0, accuracy: 1e-6)
  }
}
