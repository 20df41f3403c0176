@testable import Lamina
import XCTest

/// A layer subclass with a stored property that an animation drives, as
/// iOS code declares one `@NSManaged` (Core Animation then animates it in
/// the presentation layer). Swift on Linux has no `@NSManaged`; the
/// subclass routes its key through `value(forKey:)` and
/// `setValue(_:forKey:)` and copies it in `init(layer:)`. Lamina's
/// animations already reach such a key through those overrides; this test
/// records the adoption docs/api-coverage.md describes.
private final class RingLayer: CALayer, PresentationCopyable {
  // iOS: @NSManaged var sweep: CGFloat
  var sweep: CGFloat = 0

  override init() { super.init() }
  override init(layer: Any) {
    super.init(layer: layer)
    sweep = (layer as? RingLayer)?.sweep ?? 0
  }
  required init?(coder: NSCoder) { super.init(coder: coder) }

  override func value(forKey key: String) -> Any? {
    key == "sweep" ? sweep : super.value(forKey: key)
  }
  override func setValue(_ value: Any?, forKey key: String) {
    if key == "sweep" {
      sweep = value as? CGFloat ?? 0
    } else {
      super.setValue(value, forKey: key)
    }
  }
}

final class StoredPropertyAnimationTests: XCTestCase {
  func testAnAnimationDrivesTheStoredPropertyInThePresentation() throws {
    let ring = RingLayer()
    ring.sweep = 0.25
    let a = CABasicAnimation(keyPath: "sweep")
    a.fromValue = CGFloat(0)
    a.toValue = CGFloat(1)
    a.duration = 2
    ring.add(a, forKey: "sweep")
    XCTAssertTrue(ring.animates(keyPath: "sweep"))
    let presented = try XCTUnwrap(PresentationTree(root: ring).update(time: 0.5) as? RingLayer)
    XCTAssertEqual(presented.sweep, 0.25, accuracy: 1e-9)
    let later = try XCTUnwrap(PresentationTree(root: ring).update(time: 1.5) as? RingLayer)
    XCTAssertEqual(later.sweep, 0.75, accuracy: 1e-9)
    XCTAssertEqual(ring.sweep, 0.25, "the model keeps its value")
  }
}
