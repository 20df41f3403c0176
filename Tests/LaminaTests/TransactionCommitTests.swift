import Foundation
import Lamina
import XCTest

/// Core Animation's transactions as iOS code meets them: the implicit
/// transaction any change opens, explicit transactions nested in it, and
/// "committed" as the state of each layer (docs/animation.md).
final class TransactionCommitTests: XCTestCase {
  nonisolated(unsafe) static var now = 500.0

  override func setUp() {
    Self.now = 500
    CAMediaClock.source = { TransactionCommitTests.now }
    CATransaction.flush()
  }

  override func tearDown() {
    CATransaction.flush()
    CAMediaClock.source = nil
  }

  func triangle() -> CGPath {
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 0, y: 0))
    path.addLine(to: CGPoint(x: 40, y: 0))
    path.addLine(to: CGPoint(x: 40, y: 40))
    path.closeSubpath()
    return path
  }

  /// The case of issue 30: a tree built, a nested `begin`/`commit`, then a
  /// change: nothing animates until the implicit transaction commits.
  func testACommitNestedInTheImplicitTransactionCommitsNothing() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    let shape = CAShapeLayer()
    shape.path = triangle()
    shape.strokeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    shape.lineWidth = 2
    root.addSublayer(shape)
    CATransaction.begin()
    CATransaction.setAnimationDuration(1)
    shape.strokeEnd = 0.5
    CATransaction.commit()
    shape.lineWidth = 7
    XCTAssertNil(shape.animationKeys(), "never committed: no implicit animation")
    XCTAssertNil(root.animationKeys())
    XCTAssertEqual(shape.lineWidth, 7)
    XCTAssertEqual(shape.presentation()?.lineWidth, 7)
    // The run loop's commit: from now on the shape's changes animate.
    CATransaction.flush()
    shape.lineWidth = 9
    XCTAssertEqual(shape.animationKeys(), ["lineWidth"])
    let animation = shape.animation(forKey: "lineWidth") as? CABasicAnimation
    XCTAssertEqual(animation?.fromValue as? CGFloat, 7)
    XCTAssertEqual(animation?.duration, 0.25)
  }

  func testTheFirstValuesOfALayerAddedToACommittedTreeDoNotAnimate() {
    let root = CALayer()
    root.opacity = 1
    CATransaction.flush()
    let added = CAShapeLayer()
    root.addSublayer(added)
    added.path = triangle()
    added.opacity = 0.5
    added.position = CGPoint(x: 20, y: 30)
    XCTAssertNil(added.animationKeys())
    // The committed parent animates in the same transaction.
    root.opacity = 0.25
    XCTAssertEqual(root.animationKeys(), ["opacity"])
    CATransaction.flush()
    added.opacity = 1
    XCTAssertEqual(added.animationKeys(), ["opacity"])
  }

  func testAnOutermostExplicitTransactionCommits() {
    // Nothing open (setUp flushed): begin/commit is the outermost transaction.
    CATransaction.begin()
    let layer = CALayer()
    layer.opacity = 0.5
    XCTAssertNil(layer.animationKeys())
    CATransaction.commit()
    layer.opacity = 1
    XCTAssertEqual(layer.animationKeys(), ["opacity"])
  }

  func testSettingsOfANestedTransactionEndWithIt() {
    let layer = CALayer()
    layer.opacity = 1
    CATransaction.flush()
    layer.position = CGPoint(x: 10, y: 0)  // opens the implicit transaction
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    layer.opacity = 0
    CATransaction.commit()
    XCTAssertEqual(layer.animationKeys(), ["position"], "actions were off for opacity")
    CATransaction.begin()
    CATransaction.setAnimationDuration(2)
    layer.cornerRadius = 4
    CATransaction.commit()
    layer.zPosition = 3
    XCTAssertEqual(layer.animation(forKey: "cornerRadius")?.duration, 2)
    XCTAssertEqual(layer.animation(forKey: "zPosition")?.duration, 0.25)
    XCTAssertEqual(layer.animation(forKey: "position")?.duration, 0.25)
  }

  func testANestedCompletionBlockRunsAfterTheOutermostCommit() {
    let layer = CALayer()
    layer.opacity = 1
    CATransaction.flush()
    var events: [String] = []
    layer.position = CGPoint(x: 5, y: 5)  // opens the implicit transaction
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("empty") }
    CATransaction.commit()
    XCTAssertEqual(events, [], "nested: waits for the implicit transaction")
    CATransaction.begin()
    CATransaction.setCompletionBlock { events.append("fade") }
    layer.opacity = 0
    CATransaction.commit()
    CATransaction.flush()
    XCTAssertEqual(events, ["empty"])
    Self.now = 500.1
    CATransaction.flush()
    XCTAssertEqual(events, ["empty"])
    Self.now = 500.3
    CATransaction.flush()
    XCTAssertEqual(events, ["empty", "fade"])
  }

  /// What `display()` adds is in the commit that displays it, before the
  /// presentation tree of the frame is made (issue 30, item 2).
  final class Blinking: CALayer {
    override func display() {
      let flash = CABasicAnimation(keyPath: "backgroundColor")
      flash.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
      flash.toValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
      flash.duration = 10
      add(flash, forKey: "flash")
    }
  }

  func testTheCommitDisplaysBeforeThePresentationTreeIsMade() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    let holder = CALayer()
    let blinking = Blinking()
    blinking.bounds = root.bounds
    blinking.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    holder.addSublayer(blinking)
    root.addSublayer(holder)
    blinking.setNeedsDisplay()
    CATransaction.commitFrame(root: root)
    XCTAssertFalse(blinking.needsDisplay())
    XCTAssertEqual(blinking.animationKeys(), ["flash"])
    let shown = PresentationTree(root: root).update(time: 1)
    let color = shown.sublayers?.first?.sublayers?.first?.backgroundColor
    XCTAssertEqual(color?.components ?? [], [1, 0, 0, 1])
  }

  func testTheCommitLaysOutBeforeItDisplays() {
    final class Host: CALayer {
      var order: [String] = []
      override func layoutSublayers() {
        order.append("layout")
        sublayers?.first?.bounds = CGRect(x: 0, y: 0, width: 30, height: 20)
      }
    }
    final class Drawn: CALayer {
      weak var host: Host?
      var sizeAtDisplay = CGSize.zero
      override func display() {
        host?.order.append("display")
        sizeAtDisplay = bounds.size
      }
    }
    let host = Host()
    let drawn = Drawn()
    drawn.host = host
    host.addSublayer(drawn)
    drawn.setNeedsDisplay()
    host.setNeedsLayout()
    CATransaction.commitFrame(root: host)
    XCTAssertEqual(host.order, ["layout", "display"])
    XCTAssertEqual(drawn.sizeAtDisplay, CGSize(width: 30, height: 20))
  }
}
