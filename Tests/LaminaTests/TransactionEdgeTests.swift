import Foundation
import Lamina
import XCTest

/// Edge cases of Core Animation's transactions, written as iOS code would
/// be (no Lamina-only calls; `CATransaction.flush()` stands for the run
/// loop's commit). Apple's words for each are in docs/animation.md.
final class TransactionEdgeTests: XCTestCase {
  nonisolated(unsafe) static var now = 900.0

  override func setUp() {
    Self.now = 900
    CAMediaClock.source = { TransactionEdgeTests.now }
    CATransaction.flush()
  }

  override func tearDown() {
    CATransaction.flush()
    CAMediaClock.source = nil
  }

  /// A layer that has been through a commit (a run loop turn).
  func committedLayer() -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.position = CGPoint(x: 5, y: 5)
    CATransaction.flush()
    return layer
  }

  // MARK: Completion blocks

  func testACompletionBlockWithNoAnimationRunsAtTheCommit() {
    var ran = 0
    CATransaction.begin()
    CATransaction.setCompletionBlock { ran += 1 }
    XCTAssertEqual(ran, 0)
    CATransaction.commit()
    XCTAssertEqual(ran, 1)
    CATransaction.flush()
    XCTAssertEqual(ran, 1, "once")
  }

  func testACompletionBlockSetAfterTheAnimationsWaitsForNone() {
    // "as soon as all animations subsequently added by this transaction
    // group have completed": one added before the block is not waited for.
    let layer = committedLayer()
    var ran = false
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    layer.opacity = 0
    CATransaction.setCompletionBlock { ran = true }
    CATransaction.commit()
    XCTAssertTrue(ran, "no animation was added after the block: it runs at the commit")
    XCTAssertEqual(layer.animationKeys(), ["opacity"])
  }

  func testACompletionBlockWaitsForTheAnimationsAddedAfterIt() {
    let layer = committedLayer()
    var ran = false
    CATransaction.begin()
    layer.position = CGPoint(x: 50, y: 5)  // 0.25 s, before the block
    CATransaction.setCompletionBlock { ran = true }
    CATransaction.setAnimationDuration(1)
    layer.opacity = 0  // 1 s, after the block
    CATransaction.commit()
    XCTAssertFalse(ran)
    Self.now = 900.5
    CATransaction.flush()
    XCTAssertFalse(ran, "the 1 s fade is still running")
    Self.now = 901.1
    CATransaction.flush()
    XCTAssertTrue(ran)
  }

  func testAReplacedCompletionBlockStillRuns() {
    // "If no animations are added before the current transaction group is
    // committed (or the completion block is set to a different value), the
    // block will be invoked immediately."
    let layer = committedLayer()
    var events: [String] = []
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("first") }
    CATransaction.setCompletionBlock { events.append("second") }
    CATransaction.setAnimationDuration(1)
    layer.opacity = 0
    CATransaction.commit()
    XCTAssertEqual(events, ["first"], "the replaced block had no animation")
    Self.now = 901.1
    CATransaction.flush()
    XCTAssertEqual(events, ["first", "second"])
  }

  func testAReplacedCompletionBlockWaitsForItsOwnAnimations() {
    let layer = committedLayer()
    var events: [String] = []
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("first") }
    CATransaction.setAnimationDuration(1)
    layer.opacity = 0  // 1 s, the first block's
    CATransaction.setCompletionBlock { events.append("second") }
    CATransaction.commit()
    XCTAssertEqual(events, ["second"], "no animation after the second block")
    Self.now = 901.1
    CATransaction.flush()
    XCTAssertEqual(events, ["second", "first"])
  }

  func testANestedCompletionBlockWaitsForItsOwnAnimationsOnly() {
    let layer = committedLayer()
    var events: [String] = []
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("outer") }
    CATransaction.setAnimationDuration(2)
    layer.opacity = 0  // 2 s
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("inner") }
    CATransaction.setAnimationDuration(0.5)
    layer.position = CGPoint(x: 40, y: 40)  // 0.5 s
    CATransaction.commit()
    CATransaction.commit()
    XCTAssertEqual(events, [])
    Self.now = 900.6
    CATransaction.flush()
    XCTAssertEqual(events, ["inner"])
    Self.now = 902.1
    CATransaction.flush()
    XCTAssertEqual(
      events, ["inner", "outer"], "the outer block waits for the inner animations too")
  }

  func testACompletionBlockRunsWhenItsAnimationIsRemoved() {
    let layer = committedLayer()
    var ran = false
    CATransaction.begin()
    CATransaction.setCompletionBlock { ran = true }
    CATransaction.setAnimationDuration(5)
    layer.opacity = 0
    CATransaction.commit()
    XCTAssertFalse(ran)
    layer.removeAllAnimations()
    CATransaction.flush()
    XCTAssertTrue(ran, "completed or removed")
  }

  func testCompletionBlockReadsBackTheCurrentOne() {
    CATransaction.begin()
    XCTAssertNil(CATransaction.completionBlock())
    CATransaction.setCompletionBlock {}
    XCTAssertNotNil(CATransaction.completionBlock())
    CATransaction.setValue(nil, forKey: kCATransactionCompletionBlock)
    XCTAssertNil(CATransaction.completionBlock())
    CATransaction.commit()
  }

  // MARK: Settings

  func testSettingsAreInheritedByNestedTransactionsAndRestoredAfter() {
    let layer = committedLayer()
    CATransaction.begin()
    CATransaction.setAnimationDuration(3)
    let easeIn = CAMediaTimingFunction(name: .easeIn)
    CATransaction.setAnimationTimingFunction(easeIn)
    CATransaction.begin()
    XCTAssertEqual(CATransaction.animationDuration(), 3)
    XCTAssertTrue(CATransaction.animationTimingFunction() === easeIn)
    layer.opacity = 0.5
    CATransaction.setAnimationDuration(1)
    CATransaction.setDisableActions(true)
    XCTAssertTrue(CATransaction.disableActions())
    layer.cornerRadius = 3
    CATransaction.commit()
    XCTAssertEqual(CATransaction.animationDuration(), 3)
    XCTAssertFalse(CATransaction.disableActions())
    layer.zPosition = 2
    CATransaction.commit()
    XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    XCTAssertNil(CATransaction.animationTimingFunction())
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 3)
    XCTAssertTrue(layer.animation(forKey: "opacity")?.timingFunction === easeIn)
    XCTAssertNil(layer.animation(forKey: "cornerRadius"), "actions were disabled")
    XCTAssertEqual(layer.animation(forKey: "zPosition")?.duration, 3)
  }

  func testTransactionKeysThroughKeyValueCoding() {
    let layer = committedLayer()
    CATransaction.begin()
    CATransaction.setValue(true, forKey: kCATransactionDisableActions)
    XCTAssertTrue(CATransaction.disableActions())
    XCTAssertEqual(CATransaction.value(forKey: kCATransactionDisableActions) as? Bool, true)
    layer.opacity = 0
    CATransaction.setValue(NSNumber(value: false), forKey: kCATransactionDisableActions)
    CATransaction.setValue(NSNumber(value: 2.0), forKey: kCATransactionAnimationDuration)
    XCTAssertEqual(CATransaction.animationDuration(), 2)
    XCTAssertEqual(CATransaction.value(forKey: kCATransactionAnimationDuration) as? Double, 2)
    layer.position = CGPoint(x: 1, y: 1)
    CATransaction.setValue("mine", forKey: "custom")
    CATransaction.begin()
    XCTAssertEqual(CATransaction.value(forKey: "custom") as? String, "mine")
    CATransaction.commit()
    CATransaction.commit()
    XCTAssertNil(layer.animation(forKey: "opacity"))
    XCTAssertEqual(layer.animation(forKey: "position")?.duration, 2)
  }

  // MARK: Flush and explicit transactions

  func testFlushWaitsForAnOpenExplicitTransaction() {
    // flush(): "Flushes any extant implicit transaction. Delays the commit
    // until any nested explicit transactions have completed."
    let layer = committedLayer()
    layer.zPosition = 1  // opens the implicit transaction
    CATransaction.begin()
    CATransaction.setAnimationDuration(2)
    CATransaction.flush()
    XCTAssertEqual(CATransaction.animationDuration(), 2, "the explicit transaction is still open")
    layer.opacity = 0
    CATransaction.commit()
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 2)
    XCTAssertEqual(CATransaction.animationDuration(), 0.25)
  }

  func testFlushInsideAnOutermostExplicitTransactionLeavesItOpen() {
    let fresh = CALayer()
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    fresh.opacity = 0.5
    CATransaction.flush()
    XCTAssertTrue(CATransaction.disableActions(), "still in the explicit transaction")
    CATransaction.commit()
    XCTAssertFalse(CATransaction.disableActions())
  }

  // MARK: The commit's layout phase

  /// Places its sublayer at its right edge in `layoutSublayers()`.
  final class Row: CALayer {
    let item = CALayer()
    override func layoutSublayers() {
      item.frame = CGRect(x: bounds.width - 8, y: 0, width: 8, height: 8)
    }
  }

  func testAnOutermostCommitLaysOutBeforeItCommitsTheLayers() {
    // Core Animation's commit lays out, displays, then commits: the values
    // layout gives a layer made in the transaction are its first, and do
    // not animate even though the commit makes the layer committed.
    let root = committedLayer()
    let row = Row()
    CATransaction.begin()
    row.bounds = CGRect(x: 0, y: 0, width: 40, height: 8)
    row.addSublayer(row.item)
    root.addSublayer(row)
    CATransaction.commit()
    XCTAssertFalse(row.needsLayout())
    XCTAssertEqual(row.item.frame, CGRect(x: 32, y: 0, width: 8, height: 8))
    XCTAssertNil(row.item.animationKeys(), "laid out before it was committed")
    // Later layout changes of the committed layers animate.
    row.bounds = CGRect(x: 0, y: 0, width: 60, height: 8)
    CATransaction.flush()
    XCTAssertEqual(row.item.frame, CGRect(x: 52, y: 0, width: 8, height: 8))
    XCTAssertEqual(row.item.animationKeys()?.contains("position"), true)
  }

  func testTheRunLoopCommitLaysOutTheImplicitTransaction() {
    let root = committedLayer()
    let row = Row()
    row.bounds = CGRect(x: 0, y: 0, width: 20, height: 8)
    row.addSublayer(row.item)
    root.addSublayer(row)
    XCTAssertTrue(row.needsLayout())
    CATransaction.flush()
    XCTAssertFalse(row.needsLayout())
    XCTAssertEqual(row.item.frame, CGRect(x: 12, y: 0, width: 8, height: 8))
    XCTAssertNil(row.item.animationKeys())
  }

  // MARK: Actions

  final class ActionDelegate: NSObject, CALayerDelegate {
    var answers: [String: CAAction] = [:]
    var asked: [String] = []
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
      asked.append(event)
      return answers[event]
    }
  }

  final class Styled: CALayer {
    override class func defaultAction(forKey event: String) -> CAAction? {
      if event == "zPosition" { return NSNull() }
      return super.defaultAction(forKey: event)
    }
  }

  func testTheActionSearchOrder() {
    let delegate = ActionDelegate()
    let layer = Styled()
    layer.delegate = delegate
    let fromDelegate = CABasicAnimation()
    fromDelegate.duration = 7
    let fromActions = CABasicAnimation()
    fromActions.duration = 8
    let fromStyle = CABasicAnimation()
    fromStyle.duration = 9
    delegate.answers = ["opacity": fromDelegate, "position": NSNull()]
    layer.actions = ["opacity": fromActions, "position": fromActions, "cornerRadius": fromActions]
    layer.style = ["actions": ["cornerRadius": fromStyle, "borderWidth": fromStyle]]
    CATransaction.flush()
    layer.opacity = 0
    layer.position = CGPoint(x: 3, y: 3)
    layer.cornerRadius = 2
    layer.borderWidth = 1
    layer.zPosition = 4
    layer.shadowRadius = 9
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 7, "the delegate first")
    XCTAssertNil(layer.animation(forKey: "position"), "NSNull from the delegate stops the search")
    XCTAssertEqual(layer.animation(forKey: "cornerRadius")?.duration, 8, "then actions")
    XCTAssertEqual(layer.animation(forKey: "borderWidth")?.duration, 9, "then the style")
    XCTAssertNil(layer.animation(forKey: "zPosition"), "NSNull from defaultAction(forKey:)")
    XCTAssertEqual(layer.animation(forKey: "shadowRadius")?.duration, 0.25, "the default")
    XCTAssertNil(layer.action(forKey: "position"))
    XCTAssertNil(layer.action(forKey: "zPosition"))
    XCTAssertTrue(layer.action(forKey: "opacity") === fromDelegate)
    XCTAssertEqual(delegate.asked.filter { $0 == "opacity" }.count, 2)
  }

  func testDoubleSidedHasNoImplicitAnimationButAnimatesExplicitly() {
    // Core Animation Programming Guide, Table B-1: "doubleSided: There is
    // no default implied animation"; the property is "Animatable".
    let layer = committedLayer()
    layer.isDoubleSided = false
    layer.isHidden = true
    XCTAssertEqual(layer.animationKeys(), ["hidden"])
    let flip = CABasicAnimation(keyPath: "doubleSided")
    flip.fromValue = true
    flip.toValue = true
    flip.duration = 10
    layer.add(flip, forKey: "flip")
    XCTAssertEqual(layer.presentation()?.isDoubleSided, true)
  }

  func testNSNullInActionsDisablesOneKey() {
    let layer = committedLayer()
    layer.actions = ["opacity": NSNull()]
    layer.opacity = 0
    layer.position = CGPoint(x: 20, y: 20)
    XCTAssertEqual(layer.animationKeys(), ["position"])
    XCTAssertEqual(layer.presentation()?.opacity, 0)
  }

  // MARK: Which layers animate

  func testBoundsPositionOpacityAnimateOnACommittedLayerOnly() {
    let root = committedLayer()
    let old = CALayer()
    root.addSublayer(old)
    CATransaction.flush()
    let added = CALayer()
    root.addSublayer(added)
    for layer in [old, added] {
      layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 30)
      layer.position = CGPoint(x: 15, y: 15)
      layer.opacity = 0.5
    }
    XCTAssertEqual(old.animationKeys().map(Set.init), ["bounds", "position", "opacity"])
    XCTAssertNil(added.animationKeys(), "a layer's first values do not animate")
    let fade = old.animation(forKey: "opacity") as? CABasicAnimation
    XCTAssertEqual(fade?.fromValue as? Float, 1)
    XCTAssertNil(fade?.toValue, "toValue nil: to the model value")
  }

  func testRemovingALayerNeitherCrashesNorAnimates() {
    let root = committedLayer()
    let child = CALayer()
    root.addSublayer(child)
    CATransaction.flush()
    child.opacity = 0
    child.removeFromSuperlayer()
    XCTAssertNil(child.superlayer)
    XCTAssertNil(root.sublayers)
    XCTAssertNil(root.animationKeys())
    Self.now = 901
    CATransaction.flush()
    // The removed layer's animation ends on the clock like any other.
    XCTAssertNil(child.animationKeys())
  }

  func testALayerMovedBetweenCommittedParents() {
    let root = committedLayer()
    let a = CALayer()
    let b = CALayer()
    let child = CALayer()
    root.addSublayer(a)
    root.addSublayer(b)
    a.addSublayer(child)
    CATransaction.flush()
    b.addSublayer(child)
    XCTAssertTrue(child.superlayer === b)
    XCTAssertEqual(a.sublayers?.count ?? 0, 0)
    XCTAssertNil(child.animationKeys(), "moving runs no property action")
    child.position = CGPoint(x: 9, y: 9)
    XCTAssertEqual(child.animationKeys(), ["position"], "it is still committed")
  }
}
