import Lamina
import XCTest

// `transform.translation` with points, written as iOS code writes it: Core
// Animation reads the two numbers of a CGPoint there as it does a CGSize's.
final class TranslationPointTests: XCTestCase {
  func layer() -> CALayer {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.position = CGPoint(x: 50, y: 50)
    return layer
  }

  /// Where the layer's transform moves its anchor, at `time` of a tree.
  func offset(_ layer: CALayer, at time: CFTimeInterval) -> CGPoint {
    let shown = PresentationTree(root: layer).update(time: time)
    return CGPoint(x: shown.transform.m41, y: shown.transform.m42)
  }

  func testSetValueWithAPointMovesTheLayer() {
    let layer = layer()
    layer.setValue(NSValue(cgPoint: CGPoint(x: 30, y: -12)), forKeyPath: "transform.translation")
    XCTAssertEqual(layer.transform.m41, 30)
    XCTAssertEqual(layer.transform.m42, -12)
    XCTAssertEqual(layer.frame.origin, CGPoint(x: 75, y: 33))
    // A size still works, and reads back as a size.
    layer.setValue(
      NSValue(cgSize: CGSize(width: 4, height: 5)), forKeyPath: "transform.translation")
    XCTAssertEqual(layer.transform.m41, 4)
    XCTAssertEqual(layer.transform.m42, 5)
    XCTAssertEqual(
      layer.value(forKeyPath: "transform.translation") as? CGSize, CGSize(width: 4, height: 5))
    // A bare CGPoint too.
    layer.setValue(CGPoint(x: -1, y: 2), forKeyPath: "transform.translation")
    XCTAssertEqual(layer.transform.m41, -1)
    XCTAssertEqual(layer.transform.m42, 2)
  }

  func testBasicAnimationFromPointToPoint() {
    let layer = layer()
    let move = CABasicAnimation(keyPath: "transform.translation")
    move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
    move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 40))
    move.duration = 2
    move.beginTime = 1
    move.isRemovedOnCompletion = false
    layer.add(move, forKey: "move")
    XCTAssertEqual(offset(layer, at: 2), CGPoint(x: 50, y: 20))
    XCTAssertEqual(offset(layer, at: 2.5), CGPoint(x: 75, y: 30))
    // Only a toValue: from the current translation (none).
    let to = CABasicAnimation(keyPath: "transform.translation")
    to.toValue = NSValue(cgPoint: CGPoint(x: 10, y: 10))
    to.duration = 1
    to.isRemovedOnCompletion = false
    let other = self.layer()
    other.add(to, forKey: nil)
    XCTAssertEqual(offset(other, at: 0.5), CGPoint(x: 5, y: 5))
    // Sizes keep working.
    let sized = CABasicAnimation(keyPath: "transform.translation")
    sized.fromValue = NSValue(cgSize: .zero)
    sized.toValue = NSValue(cgSize: CGSize(width: 8, height: -8))
    sized.duration = 1
    let third = self.layer()
    third.add(sized, forKey: nil)
    XCTAssertEqual(offset(third, at: 0.25), CGPoint(x: 2, y: -2))
  }

  func testAdditiveKeyframeValuesOfPoints() {
    let layer = layer()
    layer.setValue(
      NSValue(cgSize: CGSize(width: 5, height: 5)), forKeyPath: "transform.translation")
    let shake = CAKeyframeAnimation(keyPath: "transform.translation")
    shake.values = [CGPoint.zero, CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 20)].map {
      NSValue(cgPoint: $0)
    }
    shake.keyTimes = [0, 0.5, 1]
    shake.duration = 1
    shake.isAdditive = true
    layer.add(shake, forKey: nil)
    XCTAssertEqual(offset(layer, at: 0.25), CGPoint(x: 15, y: 5))
    XCTAssertEqual(offset(layer, at: 0.75), CGPoint(x: 25, y: 15))
  }

  func testKeyframePathDrivesTheTranslation() {
    let layer = layer()
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 60, y: 0))
    path.addLine(to: CGPoint(x: 60, y: 30))
    let follow = CAKeyframeAnimation(keyPath: "transform.translation")
    follow.path = path
    follow.keyTimes = [0, 0.5, 1]
    follow.duration = 1
    follow.isRemovedOnCompletion = false
    follow.fillMode = .forwards
    layer.add(follow, forKey: nil)
    XCTAssertEqual(offset(layer, at: 0.25), CGPoint(x: 30, y: 0))
    XCTAssertEqual(offset(layer, at: 0.75), CGPoint(x: 60, y: 15))
    XCTAssertEqual(offset(layer, at: 3), CGPoint(x: 60, y: 30))
  }
}
