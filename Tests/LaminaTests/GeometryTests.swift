import Lamina
import XCTest

func assertEqual(
  _ a: CGPoint, _ b: CGPoint, accuracy: CGFloat = 1e-9, file: StaticString = #filePath,
  line: UInt = #line
) {
  XCTAssertEqual(a.x, b.x, accuracy: accuracy, "\(a) != \(b)", file: file, line: line)
  XCTAssertEqual(a.y, b.y, accuracy: accuracy, "\(a) != \(b)", file: file, line: line)
}

func assertEqual(
  _ a: CGRect, _ b: CGRect, accuracy: CGFloat = 1e-9, file: StaticString = #filePath,
  line: UInt = #line
) {
  assertEqual(a.origin, b.origin, accuracy: accuracy, file: file, line: line)
  XCTAssertEqual(a.width, b.width, accuracy: accuracy, "\(a) != \(b)", file: file, line: line)
  XCTAssertEqual(a.height, b.height, accuracy: accuracy, "\(a) != \(b)", file: file, line: line)
}

final class GeometryTests: XCTestCase {
  func testFrameRoundTrip() {
    let layer = CALayer()
    layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
    XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
    XCTAssertEqual(layer.position, CGPoint(x: 60, y: 45))
    assertEqual(layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
  }

  func testFrameWithRotationIsBoundingBox() {
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    layer.position = CGPoint(x: 200, y: 100)
    layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    assertEqual(layer.frame, CGRect(x: 175, y: 50, width: 50, height: 100))
  }

  func testFrameThenAnchorPointMovesTheFrame() {
    let layer = CALayer()
    layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    layer.anchorPoint = .zero
    // Position stays at (50, 50), now pinning the top-left corner.
    assertEqual(layer.frame, CGRect(x: 50, y: 50, width: 100, height: 100))
    let other = CALayer()
    other.anchorPoint = .zero
    other.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
    XCTAssertEqual(other.position, .zero)
  }

  func testConvertWithTranslationAndBoundsOrigin() {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
    let a = CALayer()
    a.frame = CGRect(x: 50, y: 60, width: 100, height: 100)
    a.bounds.origin = CGPoint(x: 10, y: 20)
    root.addSublayer(a)
    let b = CALayer()
    b.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
    a.addSublayer(b)
    // b's (0,0) is at a's (5,5), which is 5-10, 5-20 from a's top-left at (50,60).
    assertEqual(root.convert(.zero, from: b), CGPoint(x: 45, y: 45))
    assertEqual(b.convert(CGPoint(x: 45, y: 45), from: root), .zero)
    assertEqual(b.convert(.zero, to: root), CGPoint(x: 45, y: 45))
    assertEqual(
      root.convert(CGRect(x: 0, y: 0, width: 10, height: 10), from: b),
      CGRect(x: 45, y: 45, width: 10, height: 10))
  }

  func testConvertWithRotation() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
    let a = CALayer()
    a.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    a.position = CGPoint(x: 100, y: 100)
    a.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    root.addSublayer(a)
    // a's (0,0) is 50 left and 25 up of the anchor; rotated a quarter turn
    // clockwise that is 25 right and 50 up: (125, 50).
    assertEqual(root.convert(.zero, from: a), CGPoint(x: 125, y: 50))
    assertEqual(a.convert(CGPoint(x: 125, y: 50), from: root), .zero)
  }

  func testConvertThroughSublayerPerspective() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
    root.position = CGPoint(x: 100, y: 100)
    var p = CATransform3DIdentity
    p.m34 = -1.0 / 500
    root.sublayerTransform = p
    let a = CALayer()
    a.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    a.position = CGPoint(x: 100, y: 100)
    a.zPosition = 100
    root.addSublayer(a)
    // a's corner (0,0) is at (50, 50, 100); relative to the anchor (100,100)
    // it is (-50, -50, 100); w = 1 - 100/500 = 0.8, so it projects to
    // (-62.5, -62.5) from the anchor.
    assertEqual(root.convert(.zero, from: a), CGPoint(x: 37.5, y: 37.5))
    assertEqual(a.convert(CGPoint(x: 37.5, y: 37.5), from: root), .zero, accuracy: 1e-9)
  }

  func testHitTest() {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
    let back = CALayer()
    back.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    let front = CALayer()
    front.frame = CGRect(x: 100, y: 100, width: 100, height: 100)
    root.addSublayer(back)
    root.addSublayer(front)
    XCTAssertTrue(root.hitTest(CGPoint(x: 150, y: 150)) === front)
    XCTAssertTrue(root.hitTest(CGPoint(x: 50, y: 50)) === back)
    XCTAssertTrue(root.hitTest(CGPoint(x: 250, y: 250)) === root)
    XCTAssertNil(root.hitTest(CGPoint(x: 350, y: 50)))
    // zPosition wins over sublayer order.
    back.zPosition = 1
    XCTAssertTrue(root.hitTest(CGPoint(x: 150, y: 150)) === back)
    // Hidden layers are skipped.
    back.isHidden = true
    XCTAssertTrue(root.hitTest(CGPoint(x: 150, y: 150)) === front)
    // masksToBounds clips sublayers that stick out.
    let child = CALayer()
    child.frame = CGRect(x: 90, y: 90, width: 50, height: 50)
    front.addSublayer(child)
    XCTAssertTrue(root.hitTest(CGPoint(x: 220, y: 220)) === child)
    front.masksToBounds = true
    XCTAssertTrue(root.hitTest(CGPoint(x: 220, y: 220)) === root)
  }

  func testHitTestWithBoundsOriginAndTransform() {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
    let a = CALayer()
    a.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
    a.position = CGPoint(x: 150, y: 150)
    a.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    root.addSublayer(a)
    XCTAssertTrue(root.hitTest(CGPoint(x: 150, y: 195)) === a)
    XCTAssertTrue(root.hitTest(CGPoint(x: 195, y: 150)) === root)
  }

  func testSublayerAPI() {
    let root = CALayer()
    let a = CALayer()
    let b = CALayer()
    let c = CALayer()
    let d = CALayer()
    root.addSublayer(a)
    root.addSublayer(b)
    root.insertSublayer(c, at: 0)
    XCTAssertEqual(
      root.sublayers?.map(ObjectIdentifier.init), [c, a, b].map(ObjectIdentifier.init))
    root.insertSublayer(d, below: b)
    XCTAssertTrue(root.sublayers?[2] === d)
    root.insertSublayer(c, above: b)  // moves c to the top
    XCTAssertEqual(
      root.sublayers?.map(ObjectIdentifier.init), [a, d, b, c].map(ObjectIdentifier.init))
    let e = CALayer()
    root.replaceSublayer(d, with: e)
    XCTAssertNil(d.superlayer)
    XCTAssertTrue(root.sublayers?[1] === e)
    b.removeFromSuperlayer()
    XCTAssertEqual(root.sublayers?.count, 3)
    // Re-adding elsewhere moves the layer.
    let other = CALayer()
    other.addSublayer(a)
    XCTAssertTrue(a.superlayer === other)
    XCTAssertEqual(root.sublayers?.count, 2)
    root.sublayers = [b]
    XCTAssertNil(e.superlayer)
    XCTAssertTrue(b.superlayer === root)
    root.sublayers = nil
    XCTAssertNil(root.sublayers)
  }
}
