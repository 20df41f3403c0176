import Foundation
import XCTest

@testable import Lamina

final class LayoutTests: XCTestCase {
  /// Records every layoutSublayers call, in order.
  final class Log { var calls: [String] = [] }

  final class StackLayer: CALayer {
    var log: Log?
    override func layoutSublayers() {
      log?.calls.append(name ?? "?")
      // Stack the sublayers vertically, each as wide as this layer.
      var y: CGFloat = 0
      for sublayer in sublayers ?? [] {
        sublayer.frame = CGRect(x: 0, y: y, width: bounds.width, height: 10)
        y += 10
      }
    }
  }

  final class Delegate: CALayerDelegate {
    var laidOut: [String] = []
    func layoutSublayers(of layer: CALayer) { laidOut.append(layer.name ?? "?") }
  }

  func testLayoutRunsTopDownAndReachesMarkedDescendants() {
    let log = Log()
    func stack(_ name: String) -> StackLayer {
      let layer = StackLayer()
      layer.name = name
      layer.log = log
      return layer
    }
    let root = stack("root")
    let child = stack("child")
    let grandchild = stack("grandchild")
    root.bounds = CGRect(x: 0, y: 0, width: 300, height: 200)
    child.addSublayer(grandchild)
    root.addSublayer(child)
    grandchild.addSublayer(CALayer())
    root.layoutIfNeeded()
    XCTAssertEqual(log.calls, ["root", "child", "grandchild"])
    // The child got its width from the root before laying out its own sublayers.
    XCTAssertEqual(grandchild.bounds.width, 300)
    XCTAssertFalse(root.needsLayout() || child.needsLayout() || grandchild.needsLayout())

    log.calls = []
    root.layoutIfNeeded()
    XCTAssertEqual(log.calls, [], "a clean tree lays out nothing")

    grandchild.setNeedsLayout()
    XCTAssertTrue(grandchild.needsLayout())
    root.layoutIfNeeded()
    XCTAssertEqual(log.calls, ["grandchild"])
  }

  func testBoundsSizeChangeMarksTheLayer() {
    let layer = CALayer()
    layer.layoutIfNeeded()
    layer.bounds.origin = CGPoint(x: 5, y: 5)
    XCTAssertFalse(layer.needsLayout(), "moving the origin keeps the layout")
    layer.bounds.size = CGSize(width: 10, height: 10)
    XCTAssertTrue(layer.needsLayout())
  }

  func testSublayerChangesMarkTheSuperlayer() {
    let parent = CALayer()
    let child = CALayer()
    parent.layoutIfNeeded()
    parent.addSublayer(child)
    XCTAssertTrue(parent.needsLayout())
    parent.layoutIfNeeded()
    child.removeFromSuperlayer()
    XCTAssertTrue(parent.needsLayout())
  }

  func testDefaultLayoutAsksTheDelegateAndASubclassOverrideWins() {
    let delegate = Delegate()
    let plain = CALayer()
    plain.name = "plain"
    plain.delegate = delegate
    plain.setNeedsLayout()
    plain.layoutIfNeeded()
    XCTAssertEqual(delegate.laidOut, ["plain"])

    let log = Log()
    let custom = StackLayer()
    custom.name = "custom"
    custom.log = log
    custom.delegate = delegate
    custom.setNeedsLayout()
    custom.layoutIfNeeded()
    XCTAssertEqual(log.calls, ["custom"])
    XCTAssertEqual(delegate.laidOut, ["plain"], "the override does not call the delegate")
  }

  func testSelfInvalidatingLayoutIsCutOff() {
    final class Restless: CALayer {
      var count = 0
      override func layoutSublayers() {
        count += 1
        superlayer?.sublayers?.first?.setNeedsLayout()  // marks itself again, forever
      }
    }
    let parent = CALayer()
    let restless = Restless()
    parent.addSublayer(restless)
    restless.setNeedsLayout()
    parent.layoutIfNeeded()
    XCTAssertLessThanOrEqual(restless.count, CALayer.maxLayoutPasses + 1)
    XCTAssertGreaterThan(restless.count, 1)
  }

  func testPreferredFrameSize() {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
    XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 40, height: 20))
    layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    XCTAssertEqual(layer.preferredFrameSize().width, 20, accuracy: 1e-9)
    XCTAssertEqual(layer.preferredFrameSize().height, 40, accuracy: 1e-9)
  }
}
