import Lamina
import XCTest

func assertEqual(
  _ a: CATransform3D, _ b: CATransform3D, accuracy: CGFloat = 1e-9,
  file: StaticString = #filePath, line: UInt = #line
) {
  for (x, y) in zip(a.values, b.values) {
    XCTAssertEqual(x, y, accuracy: accuracy, "\(a) != \(b)", file: file, line: line)
  }
}

final class TransformTests: XCTestCase {
  let a: CGFloat = 0.3

  func testRotationAboutZ() {
    let c = cos(a)
    let s = sin(a)
    assertEqual(
      CATransform3DMakeRotation(a, 0, 0, 1),
      CATransform3D([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]))
    // A positive angle turns +x toward +y (clockwise on a y-down screen).
    let p = CATransform3DMakeRotation(.pi / 2, 0, 0, 1).apply(1, 0)
    XCTAssertEqual(p.x, 0, accuracy: 1e-12)
    XCTAssertEqual(p.y, 1, accuracy: 1e-12)
  }

  func testRotationAboutX() {
    let c = cos(a)
    let s = sin(a)
    assertEqual(
      CATransform3DMakeRotation(a, 1, 0, 0),
      CATransform3D([1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1]))
  }

  func testRotationAboutY() {
    let c = cos(a)
    let s = sin(a)
    assertEqual(
      CATransform3DMakeRotation(a, 0, 1, 0),
      CATransform3D([c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1]))
  }

  func testRotationAxisIsNormalizedAndZeroAxisIsIdentity() {
    assertEqual(CATransform3DMakeRotation(a, 0, 0, 5), CATransform3DMakeRotation(a, 0, 0, 1))
    XCTAssertEqual(CATransform3DMakeRotation(a, 0, 0, 0), CATransform3DIdentity)
  }

  func testConcatAppliesFirstThenSecond() {
    let t = CATransform3DMakeTranslation(10, 0, 0)
    let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    // Translate then rotate: (0,0) → (10,0) → (0,10).
    let p = CATransform3DConcat(t, r).apply(0, 0)
    XCTAssertEqual(p.x, 0, accuracy: 1e-12)
    XCTAssertEqual(p.y, 10, accuracy: 1e-12)
    // Rotate then translate: (0,0) → (0,0) → (10,0).
    let q = CATransform3DConcat(r, t).apply(0, 0)
    XCTAssertEqual(q.x, 10, accuracy: 1e-12)
    XCTAssertEqual(q.y, 0, accuracy: 1e-12)
  }

  func testChainingPrependsLikeCoreAnimation() {
    // CATransform3DTranslate(t, …) = Translation × t: the translation happens first.
    var t = CATransform3DMakeScale(2, 3, 1)
    t = CATransform3DTranslate(t, 5, 7, 0)
    assertEqual(t, CATransform3D([2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 1, 0, 10, 21, 0, 1]))
    let r = CATransform3DRotate(CATransform3DMakeTranslation(4, 0, 0), .pi / 2, 0, 0, 1)
    let p = r.apply(1, 0)
    XCTAssertEqual(p.x, 4, accuracy: 1e-12)
    XCTAssertEqual(p.y, 1, accuracy: 1e-12)
    let s = CATransform3DScale(CATransform3DMakeTranslation(1, 1, 1), 2, 2, 2)
    assertEqual(s, CATransform3D([2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 1, 1, 1]))
  }

  func testInvert() {
    var t = CATransform3DMakeRotation(0.7, 1, 2, 3)
    t = CATransform3DScale(t, 2, 0.5, 3)
    t = CATransform3DTranslate(t, 4, -5, 6)
    t.m34 = -1 / 500
    assertEqual(CATransform3DConcat(t, CATransform3DInvert(t)), CATransform3DIdentity)
    assertEqual(CATransform3DConcat(CATransform3DInvert(t), t), CATransform3DIdentity)
    // A singular matrix comes back unchanged.
    let singular = CATransform3DMakeScale(0, 1, 1)
    XCTAssertEqual(CATransform3DInvert(singular), singular)
  }

  func testIsAffine() {
    XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeRotation(a, 0, 0, 1)))
    XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeTranslation(1, 2, 0)))
    XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeTranslation(1, 2, 3)))
    XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeRotation(a, 0, 1, 0)))
    var p = CATransform3DIdentity
    p.m34 = -0.002
    XCTAssertFalse(CATransform3DIsAffine(p))
  }

  func testAffineRoundTrip() {
    let m = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
    let t = CATransform3DMakeAffineTransform(m)
    XCTAssertTrue(CATransform3DIsAffine(t))
    XCTAssertEqual(CATransform3DGetAffineTransform(t), m)
    assertEqual(t, CATransform3D([1, 2, 0, 0, 3, 4, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1]))
  }

  func testDecompositionRoundTrip() {
    let k = CATransform3D.Components(
      translation: (1, 2, 3), scale: (2, 3, 4), rotation: (0.1, -0.2, 0.3))
    let t = CATransform3D(components: k)
    let back = t.components
    XCTAssertEqual(back.translation.x, 1, accuracy: 1e-9)
    XCTAssertEqual(back.scale.y, 3, accuracy: 1e-9)
    XCTAssertEqual(back.rotation.x, 0.1, accuracy: 1e-9)
    XCTAssertEqual(back.rotation.y, -0.2, accuracy: 1e-9)
    XCTAssertEqual(back.rotation.z, 0.3, accuracy: 1e-9)
  }
}
