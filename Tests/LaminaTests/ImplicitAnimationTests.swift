import Foundation
import XCTest

@testable import Lamina

/// Implicit animations, the action search and CATransaction, on a clock the
/// tests drive.
final class ImplicitAnimationTests: XCTestCase {
  nonisolated(unsafe) static var now = 100.0

  override func setUp() {
    Self.now = 100
    CAMediaClock.source = { ImplicitAnimationTests.now }
    CATransaction.flush()
  }

  override func tearDown() {
    CATransaction.flush()
    CAMediaClock.source = nil
  }

  /// A layer that has been through a commit, so that its changes animate.
  func liveLayer() -> CALayer {
    let layer = CALayer()
    layer.opacity = 1
    CATransaction.flush()
    return layer
  }

  func testAChangeInATransactionAnimatesOverAQuarterSecond() {
    let layer = liveLayer()
    CATransaction.begin()
    layer.opacity = 0
    CATransaction.commit()
    XCTAssertEqual(layer.opacity, 0)
    XCTAssertEqual(layer.animationKeys(), ["opacity"])
    let animation = layer.animation(forKey: "opacity") as! CABasicAnimation
    XCTAssertEqual(animation.duration, 0.25)
    XCTAssertEqual(animation.beginTime, 100)
    XCTAssertEqual(layer.presentation()!.opacity, 1, accuracy: 1e-6)
    Self.now = 100.125
    XCTAssertEqual(layer.presentation()!.opacity, 0.5, accuracy: 1e-6)
    Self.now = 100.25
    XCTAssertEqual(layer.presentation()!.opacity, 0, accuracy: 1e-6)
    CATransaction.flush()
    XCTAssertNil(layer.animationKeys(), "removed on completion")
  }

  func testSubclassPropertiesAnimateImplicitlyWhenSetDirectly() {
    let shape = CAShapeLayer()
    shape.strokeEnd = 1
    let gradient = CAGradientLayer()
    CATransaction.flush()
    CATransaction.begin()
    shape.strokeEnd = 0.2
    gradient.startPoint = CGPoint(x: 0, y: 0)
    CATransaction.commit()
    XCTAssertEqual(shape.animationKeys(), ["strokeEnd"])
    XCTAssertEqual(gradient.animationKeys(), ["startPoint"])
    Self.now = 100.125
    XCTAssertEqual(shape.presentation()?.strokeEnd ?? -1, 0.6, accuracy: 1e-6)
    XCTAssertEqual(gradient.presentation()?.startPoint.x ?? -1, 0.25, accuracy: 1e-6)
  }

  func testTheImplicitTransactionAndItsDurationSetting() {
    let layer = liveLayer()
    layer.position = CGPoint(x: 100, y: 0)  // outside begin/commit: the implicit transaction
    CATransaction.begin()
    CATransaction.setAnimationDuration(2)
    CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    CATransaction.commit()
    XCTAssertEqual(layer.animation(forKey: "position")?.duration, 0.25)
    XCTAssertEqual(layer.animation(forKey: "bounds")?.duration, 2)
    XCTAssertEqual(
      layer.animation(forKey: "bounds")?.timingFunction, CAMediaTimingFunction(name: .easeIn))
    Self.now = 100.125
    XCTAssertEqual(layer.presentation()!.position.x, 50, accuracy: 1e-9)
  }

  func testDisableActionsMeansNoAnimation() {
    let layer = liveLayer()
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    layer.opacity = 0
    layer.position = CGPoint(x: 5, y: 5)
    CATransaction.commit()
    XCTAssertNil(layer.animationKeys())
    XCTAssertEqual(layer.presentation()!.opacity, 0)
    // The setting ends with its transaction.
    layer.opacity = 1
    XCTAssertEqual(layer.animationKeys(), ["opacity"])
  }

  func testLayersBeingBuiltDoNotAnimate() {
    let layer = CALayer()
    layer.opacity = 0.5
    layer.position = CGPoint(x: 3, y: 4)
    XCTAssertNil(layer.animationKeys())
  }

  final class Delegate: CALayerDelegate {
    var asked: [String] = []
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
      asked.append(event)
      if event == "opacity" {
        let a = CABasicAnimation()
        a.duration = 3
        return a
      }
      if event == "position" { return NSNull() }
      return nil
    }
  }

  func testTheDelegatesActionWinsAndNSNullStopsTheSearch() {
    let layer = liveLayer()
    let delegate = Delegate()
    layer.delegate = delegate
    let fromActions = CABasicAnimation()
    fromActions.duration = 7
    layer.actions = ["opacity": fromActions, "bounds": fromActions, "zPosition": NSNull()]
    CATransaction.begin()
    layer.opacity = 0
    layer.position = CGPoint(x: 9, y: 9)
    layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
    layer.zPosition = 3
    layer.cornerRadius = 2
    CATransaction.commit()
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 3, "the delegate's action")
    XCTAssertNil(layer.animation(forKey: "position"), "NSNull from the delegate")
    XCTAssertEqual(layer.animation(forKey: "bounds")?.duration, 7, "the actions dictionary")
    XCTAssertNil(layer.animation(forKey: "zPosition"), "NSNull in actions")
    XCTAssertEqual(layer.animation(forKey: "cornerRadius")?.duration, 0.25, "the default action")
    XCTAssertEqual(delegate.asked, ["opacity", "position", "bounds", "zPosition", "cornerRadius"])
    // The delegate's animation runs from the old value to the new one.
    Self.now = 101.5
    XCTAssertEqual(layer.presentation()!.opacity, 0.5, accuracy: 1e-6)
  }

  func testStyleActionsAndDefaultActions() {
    let layer = liveLayer()
    let styled = CABasicAnimation()
    styled.duration = 5
    layer.style = ["actions": ["opacity": styled], "style": ["actions": ["position": NSNull()]]]
    layer.opacity = 0.2
    layer.position = CGPoint(x: 1, y: 1)
    layer.name = "not animatable"
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 5)
    XCTAssertNil(layer.animation(forKey: "position"))
    XCTAssertNil(layer.animation(forKey: "name"))
    XCTAssertNil(CALayer.defaultAction(forKey: "name"))
    XCTAssertNotNil(CAShapeLayer.defaultAction(forKey: "strokeEnd"))
    // A subclass's property animates when set by key.
    let shape = CAShapeLayer()
    CATransaction.flush()
    shape.setValue(0.5, forKey: "strokeEnd")
    XCTAssertEqual(shape.animationKeys(), ["strokeEnd"])
  }

  final class Observer: CAAnimationDelegate {
    var events: [String] = []
    func animationDidStart(_ anim: CAAnimation) { events.append("start") }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
      events.append("stop \(flag)")
    }
  }

  func testCompletionBlocksRunOnceWhenTheirAnimationsFinish() {
    let layer = liveLayer()
    var runs = 0
    CATransaction.begin()
    CATransaction.setCompletionBlock { runs += 1 }
    layer.opacity = 0
    CATransaction.commit()
    CATransaction.flush()
    XCTAssertEqual(runs, 0)
    Self.now = 100.2
    CATransaction.flush()
    XCTAssertEqual(runs, 0)
    Self.now = 100.3
    CATransaction.flush()
    XCTAssertEqual(runs, 1)
    Self.now = 101
    CATransaction.flush()
    XCTAssertEqual(runs, 1)
    // With no animation, at commit.
    CATransaction.begin()
    CATransaction.setCompletionBlock { runs += 1 }
    CATransaction.commit()
    XCTAssertEqual(runs, 2)
  }

  func testNestedTransactionsAndAnimationDelegates() {
    let layer = liveLayer()
    var outerRuns = 0
    var innerRuns = 0
    let observer = Observer()
    CATransaction.begin()
    CATransaction.setCompletionBlock { outerRuns += 1 }
    CATransaction.setAnimationDuration(1)
    CATransaction.begin()
    XCTAssertEqual(CATransaction.animationDuration(), 1, "inherited from the outer transaction")
    CATransaction.setAnimationDuration(0.5)
    CATransaction.setCompletionBlock { innerRuns += 1 }
    layer.opacity = 0
    CATransaction.commit()
    let explicit = CABasicAnimation(keyPath: "position.x")
    explicit.toValue = 10
    explicit.duration = 2
    explicit.delegate = observer
    layer.add(explicit, forKey: "move")
    CATransaction.commit()
    XCTAssertEqual(layer.animation(forKey: "opacity")?.duration, 0.5)
    Self.now = 100.1
    CATransaction.flush()
    XCTAssertEqual(observer.events, ["start"])
    Self.now = 100.6
    CATransaction.flush()
    XCTAssertEqual([innerRuns, outerRuns], [1, 0])
    Self.now = 102.1
    CATransaction.flush()
    XCTAssertEqual([innerRuns, outerRuns], [1, 1])
    XCTAssertEqual(observer.events, ["start", "stop true"])
  }

  func testRemovingAnAnimationStopsItUnfinished() {
    let layer = liveLayer()
    let observer = Observer()
    let a = CABasicAnimation(keyPath: "opacity")
    a.fromValue = 0
    a.delegate = observer
    layer.add(a, forKey: "fade")
    CATransaction.flush()
    layer.removeAnimation(forKey: "fade")
    CATransaction.flush()
    XCTAssertEqual(observer.events, ["start", "stop false"])
  }

  func testAFilterInputSetByKeyPathAnimatesThatInput() {
    let layer = CALayer()
    layer.filters = [CIFilter(name: "CIGaussianBlur")!]
    CATransaction.flush()
    CATransaction.begin()
    layer.setValue(30, forKeyPath: "filters.CIGaussianBlur.inputRadius")
    CATransaction.commit()
    XCTAssertEqual(layer.animationKeys(), ["filters.CIGaussianBlur.inputRadius"])
    Self.now += 0.125
    let shown = layer.presentation()!
    let radius = shown.value(forKeyPath: "filters.CIGaussianBlur.inputRadius") as? CGFloat
    XCTAssertEqual(Double(radius ?? -1), 20, accuracy: 1e-6)
    XCTAssertEqual(layer.value(forKeyPath: "filters.CIGaussianBlur.inputRadius") as? CGFloat, 30)
  }
}
