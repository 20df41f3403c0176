import Foundation
import XCTest

@testable import Lamina

/// A presentation tree evaluates a layer's animations only where one of
/// them moves: a layer whose animations all hold still since the last
/// update (before their begin, after their end, inside a keyframe segment
/// between two equal values, inside a discrete value's span) keeps what
/// the last update applied and is not stamped as changed. What it shows
/// is what a fresh tree shows at the same time.
final class PresentationHoldTests: XCTestCase {
  /// A layer as the Lottie importer makes one: shown between its in and
  /// out points (a discrete `hidden` animation) and moved by linear
  /// keyframes with a hold from 1 s to 2 s.
  func lottieLikeLayer(inPoint: Double, outPoint: Double) -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.isHidden = true
    let visibility = CAKeyframeAnimation(keyPath: "hidden")
    visibility.values = [false, true]
    visibility.keyTimes = [0, 1]
    visibility.calculationMode = .discrete
    visibility.beginTime = inPoint
    visibility.duration = outPoint - inPoint
    visibility.fillMode = .forwards
    visibility.isRemovedOnCompletion = false
    layer.add(visibility, forKey: "visibility")
    let move = CAKeyframeAnimation(keyPath: "position")
    move.values = [
      CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 60),
    ]
    move.keyTimes = [0, 0.25, 0.5, 0.75]
    move.calculationMode = .linear
    move.duration = 4
    move.fillMode = .both
    move.isRemovedOnCompletion = false
    layer.add(move, forKey: "move")
    return layer
  }

  func testHeldLayersAreNotEvaluatedAgainNorStamped() {
    let root = CALayer()
    let layers = (0..<20).map { _ in lottieLikeLayer(inPoint: 0.5, outPoint: 3.5) }
    for layer in layers { root.addSublayer(layer) }
    let tree = PresentationTree(root: root)
    _ = tree.update(time: 1.1)
    XCTAssertEqual(tree.appliedLayers, 20)
    let shown = tree.presentationLayer(for: layers[0])!
    XCTAssertEqual(shown.position, CGPoint(x: 30, y: 0))
    XCTAssertFalse(shown.isHidden)
    let stamp = shown.changeStamp
    // Inside the hold (1 s to 2 s) and the shown span: nothing evaluated,
    // and nothing visited either: the root's subtree holds still until
    // 2 s (`Node.still`).
    for time in [1.2, 1.5, 1.9] {
      _ = tree.update(time: time)
      XCTAssertEqual(tree.appliedLayers, 0, "\(time)")
      XCTAssertEqual(tree.visitedLayers, 0, "\(time)")
      XCTAssertEqual(shown.position, CGPoint(x: 30, y: 0))
      XCTAssertEqual(shown.changeStamp, stamp, "\(time)")
    }
    // Past the hold: it moves again, and every update evaluates it.
    _ = tree.update(time: 2.5)
    XCTAssertEqual(tree.appliedLayers, 20)
    XCTAssertEqual(tree.visitedLayers, 21)
    XCTAssertEqual(shown.position.y, 30, accuracy: 1e-9)
    XCTAssertGreaterThan(shown.changeStamp, stamp)
    _ = tree.update(time: 2.6)
    XCTAssertEqual(tree.appliedLayers, 20)
    // After the out point: hidden; after the move's end (4 s), filled
    // forwards: evaluated once more, then held for good.
    _ = tree.update(time: 3.6)
    XCTAssertTrue(shown.isHidden)
    XCTAssertEqual(shown.position, CGPoint(x: 30, y: 60))
    _ = tree.update(time: 9)
    XCTAssertEqual(tree.appliedLayers, 20)
    for time in [10.0, 1e6] {
      _ = tree.update(time: time)
      XCTAssertEqual(tree.appliedLayers, 0, "\(time)")
      XCTAssertTrue(shown.isHidden)
      XCTAssertEqual(shown.position, CGPoint(x: 30, y: 60))
    }
    // Going back in time, before the in point: hidden again, and moving.
    _ = tree.update(time: 0.1)
    XCTAssertEqual(tree.appliedLayers, 20)
    XCTAssertTrue(shown.isHidden)
    XCTAssertEqual(shown.position.x, 3, accuracy: 1e-9)
  }

  /// Before an animation's begin time nothing moves, filled or not.
  func testBeforeTheBeginTimeIsHeld() {
    let layer = CALayer()
    let fade = CAKeyframeAnimation(keyPath: "opacity")
    fade.values = [0.0, 1.0]
    fade.beginTime = 5
    fade.duration = 1
    fade.isRemovedOnCompletion = false
    layer.add(fade, forKey: "fade")
    let tree = PresentationTree(root: layer)
    _ = tree.update(time: 1)
    XCTAssertEqual(tree.appliedLayers, 1)
    let shown = tree.update(time: 4.9)
    XCTAssertEqual(tree.appliedLayers, 0)
    XCTAssertEqual(shown.opacity, 1)
    _ = tree.update(time: 5.5)
    XCTAssertEqual(tree.appliedLayers, 1)
    XCTAssertEqual(shown.opacity, 0.5, accuracy: 1e-6)
  }

  func testAModelChangeInsideAHoldIsShown() {
    let layer = lottieLikeLayer(inPoint: 0, outPoint: 4)
    let tree = PresentationTree(root: layer)
    _ = tree.update(time: 1.2)
    _ = tree.update(time: 1.3)
    XCTAssertEqual(tree.appliedLayers, 0)
    layer.opacity = 0.5
    let shown = tree.update(time: 1.4)
    XCTAssertEqual(tree.appliedLayers, 1)
    XCTAssertEqual(shown.opacity, 0.5)
    XCTAssertEqual(shown.position, CGPoint(x: 30, y: 0))
  }

  func testAnimationsReplacedInsideAHoldAreEvaluated() {
    let layer = lottieLikeLayer(inPoint: 0, outPoint: 4)
    let tree = PresentationTree(root: layer)
    _ = tree.update(time: 1.2)
    let move = CABasicAnimation(keyPath: "position.x")
    move.fromValue = 100.0
    move.toValue = 200.0
    move.duration = 10
    move.isRemovedOnCompletion = false
    layer.add(move, forKey: "move")
    let shown = tree.update(time: 1.3)
    XCTAssertEqual(shown.position.x, 113, accuracy: 1e-9)
  }

  /// Random keyframe animations with holds, discrete steps and fills, on
  /// several keys, updated at random times forward and back: each update
  /// gives the values a fresh tree gives at that time.
  func testHeldUpdatesMatchFreshTreesForRandomAnimations() {
    var random = SeededLCG(seed: 2026)
    var held = 0
    var animatedUpdates = 0
    for trial in 0..<40 {
      let root = CALayer()
      var layers: [CALayer] = []
      for _ in 0..<6 {
        let layer = CAShapeLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        for key in ["opacity", "position", "hidden", "path", "strokeEnd", "transform"] {
          guard random.next() % 3 != 0 else { continue }
          layer.add(randomAnimation(key, &random), forKey: key)
        }
        root.addSublayer(layer)
        layers.append(layer)
      }
      let tree = PresentationTree(root: root)
      var time = 0.0
      for _ in 0..<30 {
        // Mostly small steps forward (frames), sometimes a jump.
        time += random.next() % 5 == 0 ? random.unit() * 6 - 3 : random.unit() * 0.2
        _ = tree.update(time: time)
        let animated = layers.filter { !$0.storedAnimations.isEmpty }.count
        animatedUpdates += animated
        held += animated - tree.appliedLayers
        assertMatchesFreshTree(tree, root, layers, at: time, "trial \(trial)")
      }
    }
    // The holds were taken often enough to be tested.
    XCTAssertGreaterThan(held, animatedUpdates / 10)
    print("held \(held) of \(animatedUpdates) updates of animated layers")
  }

  /// Subtrees that hold still are not visited (`Node.still`), through
  /// containers with their own timing (begin time, speed (backward, still,
  /// double), offset, a duration that cycles): each update still gives
  /// the values a fresh tree gives, and whole subtrees were skipped.
  func testStillSubtreesUnderLayerTimingMatchFreshTrees() {
    var random = SeededLCG(seed: 7)
    var skipped = 0
    for trial in 0..<30 {
      let root = CALayer()
      var layers: [CALayer] = []
      for _ in 0..<3 {
        let container = CALayer()
        container.beginTime = [0, 0.5, -1][Int(random.next() % 3)]
        container.speed = [1, 1, 2, -1, 0][Int(random.next() % 5)]
        container.timeOffset = [0, 0.3][Int(random.next() % 2)]
        if random.next() % 5 == 0 { container.duration = 1.5 }
        for _ in 0..<3 {
          let layer = CAShapeLayer()
          for key in ["opacity", "position", "hidden", "path"] where random.next() % 2 == 0 {
            layer.add(randomAnimation(key, &random), forKey: key)
          }
          container.addSublayer(layer)
          layers.append(layer)
        }
        root.addSublayer(container)
      }
      let tree = PresentationTree(root: root)
      var time = 0.0
      for _ in 0..<40 {
        time += random.next() % 6 == 0 ? random.unit() * 6 - 3 : random.unit() * 0.1
        _ = tree.update(time: time)
        skipped += 13 - tree.visitedLayers
        assertMatchesFreshTree(tree, root, layers, at: time, "trial \(trial)")
      }
    }
    XCTAssertGreaterThan(skipped, 1000, "subtrees holding still were skipped")
  }

  /// The presentation of each of `layers` in `tree` is what a fresh tree
  /// of `root` shows at `time`.
  func assertMatchesFreshTree(
    _ tree: PresentationTree, _ root: CALayer, _ layers: [CALayer], at time: Double,
    _ trial: String, line: UInt = #line
  ) {
    let fresh = PresentationTree(root: root)
    _ = fresh.update(time: time)
    for (i, layer) in layers.enumerated() {
      let a = tree.presentationLayer(for: layer) as! CAShapeLayer
      let b = fresh.presentationLayer(for: layer) as! CAShapeLayer
      let context = "\(trial) layer \(i) at \(time)"
      XCTAssertEqual(a.opacity, b.opacity, context, line: line)
      XCTAssertEqual(a.position, b.position, context, line: line)
      XCTAssertEqual(a.isHidden, b.isHidden, context, line: line)
      XCTAssertEqual(a.strokeEnd, b.strokeEnd, context, line: line)
      XCTAssertEqual(a.transform, b.transform, context, line: line)
      XCTAssertEqual(a.path, b.path, context, line: line)
    }
  }

  func randomAnimation(_ key: String, _ random: inout SeededLCG) -> CAAnimation {
    let count = 2 + Int(random.next() % 5)
    var pool: [Any] = []
    for _ in 0..<3 {
      let v = Double(random.next() % 4)
      switch key {
      case "opacity", "strokeEnd": pool.append(v / 4)
      case "position": pool.append(CGPoint(x: v, y: 2 * v))
      case "hidden": pool.append(v >= 2)
      case "path":
        pool.append(CGPath(rect: CGRect(x: 0, y: 0, width: v + 1, height: 3), transform: nil))
      default: pool.append(CATransform3DMakeScale(v + 1, 1, 1))
      }
    }
    // Repeated values make holds (one path object reused is a held path).
    let values = (0..<count).map { _ in pool[Int(random.next() % 3)] }
    let a = CAKeyframeAnimation(keyPath: key)
    a.values = values
    var times = (0..<count).map { _ in random.unit() }.sorted()
    times[0] = 0
    if random.next() % 2 == 0 { times[count - 1] = 1 }
    a.keyTimes = times.map { NSNumber(value: $0) }
    a.calculationMode = key == "hidden" || random.next() % 4 == 0 ? .discrete : .linear
    a.beginTime = random.unit() * 2
    a.duration = 0.5 + random.unit() * 2
    a.fillMode = [.removed, .forwards, .backwards, .both][Int(random.next() % 4)]
    a.isRemovedOnCompletion = random.next() % 2 == 0
    return a
  }
}

/// A small deterministic generator for the tests above (Knuth's MMIX
/// linear congruential step, its high bits).
struct SeededLCG {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return state >> 11
  }
  mutating func unit() -> Double { Double(next()) / Double(1 << 53) }
}
