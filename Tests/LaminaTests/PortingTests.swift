import Lamina
import XCTest

// Layer code written the way iOS code is: subclasses with Apple's
// initializers, animations tagged by key-value coding, geometry in NSValue.
// That this file compiles with `import Lamina` is half of the test.

/// A pulsing circle, as tutorials subclass CAShapeLayer.
final class Pulse: CAShapeLayer {
  var radius: CGFloat = 20

  override init() {
    super.init()
    fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    path = CGPath(
      ellipseIn: CGRect(x: 0, y: 0, width: 2 * radius, height: 2 * radius), transform: nil)
  }

  override init(layer: Any) {
    super.init(layer: layer)
    if let pulse = layer as? Pulse { radius = pulse.radius }
  }

  required init?(coder: NSCoder) {
    fatalError("init(coder:) has not been implemented")
  }
}

/// A layer with a custom initializer and no `init(layer:)`, as many are.
final class Badge: CALayer {
  let count: Int

  init(count: Int) {
    self.count = count
    super.init()
    cornerRadius = 8
  }

  required init?(coder: NSCoder) {
    count = 0
    super.init(coder: coder)
  }
}

final class Confetti: CAEmitterCell {
  override init() {
    super.init()
    birthRate = 6
    lifetime = 4
    velocity = 120
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }
}

final class SlowFade: CABasicAnimation {
  override init() {
    super.init()
    keyPath = "opacity"
    duration = 2
  }

  required init?(coder: NSCoder) {
    super.init(coder: coder)
  }
}

final class LongerAnimations: CABasicAnimation {
  override class func defaultValue(forKey key: String) -> Any? {
    key == "duration" ? 3.0 : super.defaultValue(forKey: key)
  }
}

final class PortingTests: XCTestCase {
  func testFoundationGeometryComesWithLamina() {
    // CGFloat, CGPoint, CGSize, CGRect and URL are in scope with `import Lamina`
    // (Examples/iOS compiles files that import nothing else).
    let rect: CGRect = CGRect(origin: CGPoint(x: 1, y: 2), size: CGSize(width: 3, height: 4))
    let url: URL = URL(fileURLWithPath: "/tmp/x.png")
    XCTAssertEqual(rect.maxX, 4 as CGFloat)
    XCTAssertEqual(url.pathExtension, "png")
    XCTAssertEqual(CGVector(dx: 3, dy: 4).dy, 4)
    XCTAssertEqual(CGVector.zero, CGVector(dx: 0.0, dy: 0.0))
  }

  func testSubclassesWithApplesInitializers() {
    let pulse = Pulse()
    XCTAssertEqual(pulse.fillColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    XCTAssertEqual(Pulse(layer: pulse).radius, 20)
    let badge = Badge(count: 3)
    XCTAssertEqual(badge.cornerRadius, 8)
    XCTAssertEqual(badge.count, 3)
    XCTAssertEqual(Confetti().birthRate, 6)
    XCTAssertEqual(SlowFade().duration, 2)
    // Lamina's own classes keep their type through copies.
    for layer in [
      CALayer(), CAShapeLayer(), CAGradientLayer(), CATextLayer(), CAReplicatorLayer(),
      CAEmitterLayer(), CAScrollLayer(), CATransformLayer(), CATiledLayer(), CAOpenGLLayer(),
    ] {
      let presented = PresentationTree(root: layer).update(time: 0)
      XCTAssertTrue(type(of: presented) == type(of: layer), "\(layer)")
    }
  }

  func testPresentationOfASubclassShowsItsAnimatedValues() {
    let pulse = Pulse()
    pulse.position = CGPoint(x: 10, y: 10)
    let grow = CABasicAnimation(keyPath: "transform.scale")
    grow.fromValue = 1
    grow.toValue = 3
    grow.duration = 1
    pulse.add(grow, forKey: "grow")
    let tree = PresentationTree(root: pulse)
    let shown = tree.update(time: 0.5)
    // An instance of the Lamina class (Swift cannot call `init(layer:)`
    // through a metatype), with every value and the animation applied.
    XCTAssertTrue(shown is CAShapeLayer)
    XCTAssertEqual(shown.position, pulse.position)
    XCTAssertEqual(shown.value(forKeyPath: "transform.scale.x") as? CGFloat ?? 0, 2, accuracy: 1e-9)
    XCTAssertTrue(shown.model() === pulse)
    XCTAssertEqual((shown as? CAShapeLayer)?.path, pulse.path)
    // presentation() is typed Self: nil for it, with a warning once;
    // presentationLayer() has the copy.
    var warnings: [String] = []
    Diagnostics.handler = { warnings.append($0) }
    defer { Diagnostics.handler = nil }
    XCTAssertNil(pulse.presentation())
    XCTAssertNil(pulse.presentation())
    XCTAssertEqual(warnings.count, 1)
    XCTAssertTrue(warnings.first?.contains("presentation() of Pulse") == true, "\(warnings)")
    XCTAssertTrue(pulse.presentationLayer() is CAShapeLayer)
    XCTAssertNotNil(CAShapeLayer().presentation())
  }

  func testClassDefaultsOfSubclassesOfSubclasses() {
    final class Scroller: CAScrollLayer {
      override init() { super.init() }
      required init?(coder: NSCoder) { super.init(coder: coder) }
    }
    // CAScrollLayer's own default survives a subclass that overrides init().
    XCTAssertTrue(Scroller().masksToBounds)
    XCTAssertEqual(LongerAnimations().duration, 3)
    XCTAssertEqual(LongerAnimations(keyPath: "opacity").duration, 3)
    XCTAssertEqual(CABasicAnimation().duration, 0)
  }

  func testKeyValueCodingOnAnimations() {
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.setValue("intro", forKey: "tag")
    fade.setValue(0.5, forKey: "duration")
    fade.setValue(0.2, forKey: "fromValue")
    fade.setValue(true, forKey: "removedOnCompletion")
    XCTAssertEqual(fade.value(forKey: "tag") as? String, "intro")
    XCTAssertEqual(fade.duration, 0.5)
    XCTAssertEqual(fade.value(forKey: "keyPath") as? String, "opacity")
    XCTAssertEqual(fade.value(forKey: "fromValue") as? Double, 0.2)
    XCTAssertNil(fade.value(forKey: "never set"))
    // The tag travels with the copy a layer keeps, as in Core Animation.
    let layer = CALayer()
    layer.add(fade, forKey: "fade")
    XCTAssertEqual(layer.animation(forKey: "fade")?.value(forKey: "tag") as? String, "intro")
    let copy = fade.copy() as! CABasicAnimation
    XCTAssertEqual(copy.value(forKey: "tag") as? String, "intro")
    XCTAssertEqual(SlowFade().copy() is CABasicAnimation, true)
    let spring = CASpringAnimation(keyPath: "position.x")
    spring.setValue(5, forKey: "damping")
    XCTAssertEqual(spring.damping, 5)
    let group = CAAnimationGroup()
    group.setValue([fade], forKey: "animations")
    XCTAssertEqual(group.animations?.count, 1)
  }

  func testTagReadBackInAnimationDidStop() {
    final class Watcher: NSObject, CAAnimationDelegate {
      var stopped: [String] = []
      func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        if let tag = anim.value(forKey: "tag") as? String { stopped.append(tag) }
      }
    }
    var now = 100.0
    CAMediaClock.source = { now }
    defer { CAMediaClock.source = nil }
    let layer = CALayer()
    CATransaction.flush()
    let watcher = Watcher()
    let move = CABasicAnimation(keyPath: "position.x")
    move.toValue = 50
    move.duration = 1
    move.delegate = watcher
    move.setValue("slide-in", forKey: "tag")
    layer.add(move, forKey: "move")
    CATransaction.flush()
    now = 101.5
    CATransaction.flush()
    XCTAssertEqual(watcher.stopped, ["slide-in"])
  }

  func testAffineTransformAndEdgeAntialiasing() {
    let needle = CALayer()
    XCTAssertTrue(needle.affineTransform().isIdentity)
    let turn = CGAffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
    needle.setAffineTransform(turn)
    XCTAssertEqual(needle.transform, CATransform3DMakeAffineTransform(turn))
    let back = needle.affineTransform()
    XCTAssertEqual(back.a, turn.a, accuracy: 1e-12)
    XCTAssertEqual(back.b, turn.b, accuracy: 1e-12)
    XCTAssertEqual(back.tx, 0)
    XCTAssertEqual(
      needle.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? 0, .pi / 2, accuracy: 1e-9)
    XCTAssertFalse(needle.allowsEdgeAntialiasing)
    needle.allowsEdgeAntialiasing = true
    XCTAssertEqual(needle.value(forKey: "allowsEdgeAntialiasing") as? Bool, true)
    XCTAssertEqual(needle.edgeAntialiasingMask, .all)
    needle.edgeAntialiasingMask = [.layerLeftEdge, .layerRightEdge]
    XCTAssertEqual(needle.edgeAntialiasingMask.rawValue, 3)
    XCTAssertTrue(needle.allowsGroupOpacity)
    XCTAssertEqual(needle.cornerCurve, .circular)
    XCTAssertEqual(CALayer.cornerCurveExpansionFactor(.circular), 1)
  }

  func testLayersCompareByIdentityAsNSObjectsDo() {
    let root = CALayer()
    let a = CALayer()
    let b = CALayer()
    root.addSublayer(a)
    root.addSublayer(b)
    XCTAssertEqual(root.sublayers?.firstIndex(of: b), 1)
    XCTAssertTrue(root.sublayers?.contains(a) == true)
    XCTAssertNotEqual(a, b)
    XCTAssertEqual(Set([a, b, a]).count, 2)
  }

  func testNumbersAndValuesAsApplesTypes() {
    let dashes = CAShapeLayer()
    dashes.lineDashPattern = [6, 3]
    dashes.lineDashPattern = [NSNumber(value: 4), NSNumber(value: 2)]
    XCTAssertEqual(dashes.lineDashLengths, [4, 2])
    let gradient = CAGradientLayer()
    gradient.locations = [0, 0.5, 1]
    XCTAssertEqual(gradient.locations?.map(\.doubleValue), [0, 0.5, 1])
    let keyframes = CAKeyframeAnimation(keyPath: "opacity")
    keyframes.keyTimes = [0, 0.3, 1] as [NSNumber]
    XCTAssertEqual(keyframes.keyTimes?.count, 3)
    let t = CATransform3DMakeRotation(0.5, 0, 0, 1)
    XCTAssertEqual(NSValue(caTransform3D: t).caTransform3DValue, t)
    XCTAssertEqual(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue, CGPoint(x: 1, y: 2))
    // Boxed values animate as the values they hold.
    let layer = CALayer()
    let turn = CABasicAnimation(keyPath: "transform")
    turn.fromValue = NSValue(caTransform3D: CATransform3DIdentity)
    turn.toValue = NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1))
    turn.duration = 1
    let slide = CABasicAnimation(keyPath: "position")
    slide.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 0))
    slide.duration = 1
    layer.add(turn, forKey: "turn")
    layer.add(slide, forKey: "slide")
    let shown = PresentationTree(root: layer).update(time: 0.5)
    XCTAssertEqual(shown.transform.m11, 2, accuracy: 1e-9)
    XCTAssertEqual(shown.position.x, 50, accuracy: 1e-9)
    // Shimmer: animated locations given as a list of numbers.
    let shimmer = CABasicAnimation(keyPath: "locations")
    shimmer.fromValue = [-1.0, -0.5, 0.0]
    shimmer.toValue = [1.0, 1.5, 2.0]
    shimmer.duration = 1
    gradient.add(shimmer, forKey: "shimmer")
    let shownGradient = PresentationTree(root: gradient).update(time: 0.5) as? CAGradientLayer
    XCTAssertEqual(shownGradient?.locations?.map(\.doubleValue), [0, 0.5, 1])
  }

  func testActionsTableAndDelegateAreApplesTypes() {
    final class Drawer: NSObject, CALayerDelegate {
      func draw(_ layer: CALayer, in ctx: CGContext) {}
    }
    let layer = CALayer()
    layer.actions = ["position": NSNull(), "bounds": NSNull()]
    XCTAssertTrue(layer.actions?["position"] is NSNull)
    let drawer = Drawer()
    layer.delegate = drawer
    XCTAssertTrue(layer.delegate === drawer)
    XCTAssertNil(layer.action(forKey: "position"))
  }
}
