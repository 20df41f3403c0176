import Lamina
import XCTest

// Custom animatable properties, the iOS way, with Lamina's two changes:
// a computed property over `value(forKey:)` instead of `@NSManaged`, and
// `PresentationCopyable` so that presentation copies are made with
// `init(layer:)` (docs/api-coverage.md).

/// Every kind of value a custom key animates.
final class Gauge: CALayer, PresentationCopyable {
  nonisolated(unsafe) static var copies = 0
  /// A stored property, copied by init(layer:) as on iOS.
  var label = "none"

  var level: CGFloat {
    get { value(forKey: "level") as? CGFloat ?? 0 }
    set { setValue(newValue, forKey: "level") }
  }

  override init() { super.init() }

  override init(layer: Any) {
    super.init(layer: layer)
    Gauge.copies += 1
    if let other = layer as? Gauge { label = other.label }
  }

  required init?(coder: NSCoder) { super.init(coder: coder) }

  override class func needsDisplay(forKey key: String) -> Bool {
    key == "level" || super.needsDisplay(forKey: key)
  }
}

/// Not final: `init(layer:)` is `required` for the conformance.
class OpenGauge: CALayer, PresentationCopyable {
  override init() { super.init() }
  override required init(layer: Any) { super.init(layer: layer) }
  required init?(coder: NSCoder) { super.init(coder: coder) }
}

final class SubGauge: OpenGauge {}

final class CustomAnimatablePropertyTests: XCTestCase {
  func animate(_ layer: CALayer, _ key: String, from: Any, to: Any) {
    let animation = CABasicAnimation(keyPath: key)
    animation.fromValue = from
    animation.toValue = to
    animation.duration = 1
    layer.add(animation, forKey: key)
  }

  func testKeysAreStoredAndEveryKindInterpolates() throws {
    let gauge = Gauge()
    gauge.level = 0.25
    XCTAssertEqual(gauge.level, 0.25)
    XCTAssertEqual(gauge.value(forKey: "level") as? CGFloat, 0.25)
    gauge.setValue(NSValue(cgPoint: .zero), forKey: "spot")
    gauge.setValue(CGSize.zero, forKey: "span")
    gauge.setValue(CGColor.black, forKey: "tint")
    gauge.setValue(NSValue(cgRect: .zero), forKey: "box")
    gauge.setValue(NSValue(caTransform3D: CATransform3DIdentity), forKey: "turn")
    gauge.setValue(Float(0), forKey: "weight")
    animate(gauge, "level", from: CGFloat(0), to: CGFloat(1))
    animate(
      gauge, "spot", from: NSValue(cgPoint: .zero), to: NSValue(cgPoint: CGPoint(x: 10, y: 20)))
    animate(gauge, "span", from: CGSize.zero, to: CGSize(width: 4, height: 8))
    animate(gauge, "tint", from: CGColor.black, to: CGColor.white)
    animate(
      gauge, "box", from: NSValue(cgRect: .zero),
      to: NSValue(cgRect: CGRect(x: 2, y: 4, width: 6, height: 8)))
    animate(
      gauge, "turn", from: NSValue(caTransform3D: CATransform3DIdentity),
      to: NSValue(caTransform3D: CATransform3DMakeTranslation(10, 0, 0)))
    animate(gauge, "weight", from: Float(0), to: Float(2))
    let shown = try XCTUnwrap(PresentationTree(root: gauge).update(time: 0.5) as? Gauge)
    XCTAssertEqual(shown.level, 0.5, accuracy: 1e-9)
    XCTAssertEqual((shown.value(forKey: "spot") as? NSValue)?.cgPointValue, CGPoint(x: 5, y: 10))
    XCTAssertEqual(shown.value(forKey: "span") as? CGSize, CGSize(width: 2, height: 4))
    let tint = try XCTUnwrap(shown.value(forKey: "tint") as? CGColor)
    XCTAssertEqual(tint.red, 0.5, accuracy: 1e-6)
    XCTAssertEqual(tint.alpha, 1, accuracy: 1e-6)
    XCTAssertEqual(
      (shown.value(forKey: "box") as? NSValue)?.cgRectValue, CGRect(x: 1, y: 2, width: 3, height: 4)
    )
    XCTAssertEqual(
      (shown.value(forKey: "turn") as? NSValue)?.caTransform3DValue.m41 ?? 0, 5, accuracy: 1e-9)
    XCTAssertEqual(shown.value(forKey: "weight") as? Float, 1)
    // The model keeps its values.
    XCTAssertEqual(gauge.level, 0.25)
  }

  func testPresentationCopiesAreInstancesOfTheSubclassMadeWithInitLayer() throws {
    let gauge = Gauge()
    gauge.label = "fuel"
    let before = Gauge.copies
    let shown = PresentationTree(root: gauge).update(time: 0)
    XCTAssertTrue(shown is Gauge)
    XCTAssertEqual((shown as? Gauge)?.label, "fuel")
    XCTAssertEqual(Gauge.copies, before + 1)
    XCTAssertTrue(shown.model() === gauge)
    // presentation(), typed Self, as on iOS.
    let saved = CAMediaClock.source
    CAMediaClock.source = { 0.5 }
    defer { CAMediaClock.source = saved }
    animate(gauge, "level", from: CGFloat(0), to: CGFloat(1))
    let presented = try XCTUnwrap(gauge.presentation())
    XCTAssertEqual(presented.level, 0.5, accuracy: 1e-9)
    XCTAssertEqual(presented.label, "fuel")
    // A class that is not final, and its subclass.
    XCTAssertTrue(PresentationTree(root: SubGauge()).update(time: 0) is SubGauge)
    XCTAssertNotNil(OpenGauge().presentation())
  }

  func testAnimatingAKeyTheClassDrawsDoesNotWarnAndRedraws() throws {
    var warnings: [String] = []
    let saved = Diagnostics.handler
    Diagnostics.handler = { warnings.append($0) }
    defer { Diagnostics.handler = saved }
    let gauge = Gauge()
    // Never set: the class's needsDisplay(forKey:) makes it a key of the class.
    animate(gauge, "level", from: CGFloat(0), to: CGFloat(1))
    XCTAssertEqual(warnings, [])
    animate(gauge, "levle", from: CGFloat(0), to: CGFloat(1))
    XCTAssertEqual(warnings.count, 1)
    gauge.removeAnimation(forKey: "levle")
    let tree = PresentationTree(root: gauge)
    let shown = tree.update(time: 0.25)
    XCTAssertEqual((shown as? Gauge)?.level ?? 0, 0.25, accuracy: 1e-9)
    XCTAssertTrue(shown.needsDisplay(), "the copy draws the animated value")
    // Setting the key on the model asks for a redraw too.
    let model = Gauge()
    model.displayIfNeeded()
    XCTAssertFalse(model.needsDisplay())
    model.level = 0.5
    XCTAssertTrue(model.needsDisplay())
  }
}
