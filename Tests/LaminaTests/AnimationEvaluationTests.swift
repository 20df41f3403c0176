import Foundation
import XCTest

@testable import Lamina

/// Values of basic, keyframe and spring animations, additive and
/// cumulative ones, and the interpolation of each kind of value.
final class AnimationEvaluationTests: XCTestCase {
  func presented(_ layer: CALayer, _ animation: CAAnimation, at time: Double) -> CALayer {
    animation.isRemovedOnCompletion = false
    layer.add(animation, forKey: nil)
    return PresentationTree(root: layer).update(time: time)
  }

  func x(_ animation: CAAnimation, at time: Double, model: CGFloat = 100) -> CGFloat {
    let layer = CALayer()
    layer.position = CGPoint(x: model, y: 0)
    return presented(layer, animation, at: time).position.x
  }

  func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil)
    -> CABasicAnimation
  {
    let a = CABasicAnimation(keyPath: keyPath)
    a.fromValue = from
    a.toValue = to
    a.byValue = by
    a.duration = 1
    return a
  }

  // MARK: Basic

  func testFromToByCombinations() {
    let cases: [(Double?, Double?, Double?, CGFloat)] = [
      (10, 20, nil, 15),  // from → to
      (10, nil, 20, 20),  // from → from + by
      (nil, 50, 20, 40),  // to − by → to
      (10, nil, nil, 55),  // from → model
      (nil, 50, nil, 75),  // model → to
      (nil, nil, 20, 110),  // model → model + by
    ]
    for (from, to, by, expected) in cases {
      let a = basic("position.x", from: from, to: to, by: by)
      XCTAssertEqual(
        x(a, at: 0.5), expected, accuracy: 1e-9,
        "from \(String(describing: from)) to \(String(describing: to)) by \(String(describing: by))"
      )
    }
  }

  func testAdditiveAddsToTheModelValue() {
    let a = basic("position.x", from: 0, to: 10)
    a.isAdditive = true
    XCTAssertEqual(x(a, at: 0.5), 105, accuracy: 1e-9)
    // Two animations: the later additive one adds to the earlier one's value.
    let layer = CALayer()
    let first = basic("position.x", from: 0, to: 40)
    first.isRemovedOnCompletion = false
    layer.add(first, forKey: "first")
    XCTAssertEqual(presented(layer, a, at: 0.5).position.x, 25, accuracy: 1e-9)
  }

  func testCumulativeBuildsOnEachRepetition() {
    let a = basic("position.x", from: 0, to: 10)
    a.isCumulative = true
    a.repeatCount = 3
    XCTAssertEqual(x(a, at: 0.5), 5, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 1.5), 15, accuracy: 1e-9)
    XCTAssertEqual(x(a, at: 2.5), 25, accuracy: 1e-9)
    let k = CAKeyframeAnimation(keyPath: "position.x")
    k.values = [0, 4, 10]
    k.isCumulative = true
    k.repeatCount = 2
    k.duration = 1
    XCTAssertEqual(x(k, at: 1.25), 12, accuracy: 1e-9)
  }

  // MARK: Spring

  /// The damped oscillator m·x″ + c·x′ + k·(x − 1) = 0 from x = 0,
  /// x′ = v0, integrated with RK4 at 1e-4 s.
  func integratedSpring(
    mass m: Double, stiffness k: Double, damping c: Double, v0: Double, until t: Double
  )
    -> Double
  {
    var x = 0.0
    var v = v0
    let h = 1e-4
    func acc(_ x: Double, _ v: Double) -> Double { (-k * (x - 1) - c * v) / m }
    for _ in 0..<Int((t / h).rounded()) {
      let k1x = v
      let k1v = acc(x, v)
      let k2x = v + h / 2 * k1v
      let k2v = acc(x + h / 2 * k1x, v + h / 2 * k1v)
      let k3x = v + h / 2 * k2v
      let k3v = acc(x + h / 2 * k2x, v + h / 2 * k2v)
      let k4x = v + h * k3v
      let k4v = acc(x + h * k3x, v + h * k3v)
      x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
      v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
    }
    return x
  }

  func testSpringFollowsTheDampedOscillator() {
    // Under-, critically and over-damped, one with an initial velocity.
    for (m, k, c, v0) in [(1.0, 100.0, 10.0, 0.0), (1, 100, 20, 0), (1, 100, 30, 0), (2, 50, 4, 3)]
    {
      let s = CASpringAnimation(keyPath: "position.x")
      s.fromValue = 0
      s.toValue = 100
      s.mass = CGFloat(m)
      s.stiffness = CGFloat(k)
      s.damping = CGFloat(c)
      s.initialVelocity = CGFloat(v0)
      s.duration = 5
      for t in [0.05, 0.1, 0.3, 0.7, 1.5] {
        let expected = 100 * integratedSpring(mass: m, stiffness: k, damping: c, v0: v0, until: t)
        XCTAssertEqual(
          Double(x(s, at: t)), expected, accuracy: 1e-6, "m \(m) k \(k) c \(c) v0 \(v0) at \(t)")
      }
    }
    // Closed form by hand: ζ = 0.5, ω0 = 10, ωd = √75: x(t) = 1 − e^(−5t)(cos ωd t + 5/ωd sin ωd t).
    let wd = 75.0.squareRoot()
    let s = CASpringAnimation()
    XCTAssertEqual(
      s.progress(at: 0.2), 1 - exp(-1) * (cos(wd * 0.2) + 5 / wd * sin(wd * 0.2)), accuracy: 1e-12)
    // Settles (within 0.1 %) about when e^(−5t) ≈ 0.001 at the latest.
    XCTAssertGreaterThan(s.settlingDuration, 1.0)
    XCTAssertLessThan(s.settlingDuration, 1.45)
  }

  // MARK: Keyframes

  func keyframe(_ keyPath: String, _ values: [Any], mode: CAAnimationCalculationMode = .linear)
    -> CAKeyframeAnimation
  {
    let k = CAKeyframeAnimation(keyPath: keyPath)
    k.values = values
    k.calculationMode = mode
    k.duration = 1
    return k
  }

  func testLinearKeyframesWithKeyTimesAndSegmentTimingFunctions() {
    let k = keyframe("position.x", [0, 10, 30])
    k.keyTimes = [0, 0.2, 1]
    XCTAssertEqual(x(k, at: 0.1), 5, accuracy: 1e-9)
    XCTAssertEqual(x(k, at: 0.6), 20, accuracy: 1e-9)
    k.timingFunctions = [
      CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(name: .easeIn),
    ]
    XCTAssertEqual(x(k, at: 0.6), 10 + 20 * 0.315356819, accuracy: 1e-5)
    // Without key times: evenly spaced.
    XCTAssertEqual(x(keyframe("position.x", [0, 10, 30]), at: 0.75), 20, accuracy: 1e-9)
  }

  func testDiscreteKeyframes() {
    let k = keyframe("position.x", [1, 2, 3], mode: .discrete)
    XCTAssertEqual(x(k, at: 0.2), 1)
    XCTAssertEqual(x(k, at: 0.4), 2)
    XCTAssertEqual(x(k, at: 0.9), 3)
    k.keyTimes = [0, 0.5, 0.6, 1]
    XCTAssertEqual(x(k, at: 0.55), 2)
    XCTAssertEqual(x(k, at: 0.45), 1)
  }

  func testPacedKeyframesMoveAtConstantSpeed() {
    // Distances 10 and 30: half the time is 20 along.
    let k = keyframe("position.x", [0, 10, 40], mode: .paced)
    k.keyTimes = [0, 0.9, 1]  // ignored
    XCTAssertEqual(x(k, at: 0.5), 20, accuracy: 1e-9)
    XCTAssertEqual(x(k, at: 0.125), 5, accuracy: 1e-9)
    let layer = CALayer()
    let p = keyframe(
      "position", [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 0), CGPoint(x: 30, y: 40)], mode: .paced)
    let shown = presented(layer, p, at: 0.5).position
    XCTAssertEqual(shown.x, 30, accuracy: 1e-9)
    XCTAssertEqual(shown.y, 5, accuracy: 1e-9)
  }

  func testCubicKeyframesAreCatmullRom() {
    // Segment 0 at u = 0.5: tangents 5 and 0 → h10·5 + h01·10 = 0.625 + 5.
    let k = keyframe("position.x", [0, 10, 0, 10], mode: .cubic)
    XCTAssertEqual(x(k, at: 1.0 / 6), 5.625, accuracy: 1e-9)
    XCTAssertEqual(x(k, at: 0.5), 5, accuracy: 1e-9)
    XCTAssertEqual(x(k, at: 1.0 / 3), 10, accuracy: 1e-9)
    // Uneven key times scale the tangents: segment 0 (0.2 s of 1) with
    // tangents 5 and 10 × 2·0.2/(0.2 + 0.8) = 4 → 0.625 + 5 − 0.5.
    let uneven = keyframe("position.x", [0, 10, 20], mode: .cubic)
    uneven.keyTimes = [0, 0.2, 1]
    XCTAssertEqual(x(uneven, at: 0.1), 5.125, accuracy: 1e-9)
    // Tension 1 flattens the tangents: plain Hermite with zero slopes.
    k.tensionValues = [1, 1, 1, 1]
    XCTAssertEqual(x(k, at: 1.0 / 6), 5, accuracy: 1e-9)
  }

  func testCubicPacedKeyframesHaveConstantSpeed() {
    let k = keyframe("position.x", [0, 10, 40], mode: .cubicPaced)
    // Monotonic values: the spline's length is 40, so speed 40 per second.
    for t in [0.1, 0.25, 0.5, 0.8] {
      XCTAssertEqual(Double(x(k, at: t)), 40 * t, accuracy: 0.05, "at \(t)")
    }
  }

  func testPathKeyframesWithRotationModes() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 100, y: 0))
    path.addLine(to: CGPoint(x: 100, y: 100))
    let k = CAKeyframeAnimation(keyPath: "position")
    k.path = path
    k.duration = 1
    k.calculationMode = .paced
    k.rotationMode = .auto
    let shown = presented(CALayer(), k, at: 0.75)
    XCTAssertEqual(shown.position.x, 100, accuracy: 1e-6)
    XCTAssertEqual(shown.position.y, 50, accuracy: 1e-6)
    XCTAssertEqual(
      shown.value(forKeyPath: "transform.rotation.z") as! CGFloat, .pi / 2, accuracy: 1e-9)
    k.rotationMode = .autoReverse
    let reversed = presented(CALayer(), k, at: 0.25)
    XCTAssertEqual(reversed.position.x, 50, accuracy: 1e-6)
    XCTAssertEqual(
      abs(reversed.value(forKeyPath: "transform.rotation.z") as! CGFloat), .pi, accuracy: 1e-9)
    // Linear mode: each element is one keyframe interval.
    k.calculationMode = .linear
    k.rotationMode = nil
    let linear = presented(CALayer(), k, at: 0.75)
    XCTAssertEqual(linear.position.y, 50, accuracy: 1e-6)
  }

  // MARK: Value kinds

  func testTransformInterpolatesByDecomposition() {
    let a = basic(
      "transform", from: CATransform3DIdentity, to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
    let shown = presented(CALayer(), a, at: 0.5).transform
    assertEqual(shown, CATransform3DMakeRotation(.pi / 4, 0, 0, 1))
    // Scale and translation mix linearly, rotation about y by angle.
    let from = CATransform3DMakeScale(1, 1, 1)
    let to = CATransform3DTranslate(CATransform3DMakeRotation(2, 0, 1, 0), 0, 0, 0)
      .concatenating(CATransform3DMakeScale(3, 3, 3)).concatenating(
        CATransform3DMakeTranslation(100, 0, 0))
    let half = CATransform3D.interpolate(from, to, 0.5)
    let expected = CATransform3DMakeRotation(1, 0, 1, 0).concatenating(
      CATransform3DMakeScale(2, 2, 2)
    )
    .concatenating(CATransform3DMakeTranslation(50, 0, 0))
    assertEqual(half, expected)
  }

  func testDecompositionRoundTripsWithPerspectiveAndSkew() {
    var t = CATransform3DMakeRotation(0.7, 1, 2, 3)
      .concatenating(CATransform3DMakeScale(2, -0.5, 1.5))
      .concatenating(CATransform3DMakeTranslation(10, -20, 30))
    t.m21 += 0.3  // skew
    var p = CATransform3DIdentity
    p.m34 = -1.0 / 500
    t = t.concatenating(p)
    let d = t.decomposed()!
    // Equal up to the homogeneous factor m44 (the same projective map).
    func normalized(_ m: CATransform3D) -> CATransform3D {
      CATransform3D(m.values.map { $0 / m.m44 })
    }
    assertEqual(CATransform3D(decomposed: d), normalized(t))
    assertEqual(
      CATransform3D.interpolate(t, CATransform3DIdentity, 1e-12), normalized(t), accuracy: 1e-6)
  }

  func testTransformByValues() {
    let by = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    let to = CATransform3DMakeTranslation(10, 0, 0)
    // by + to: starts at to × by⁻¹, ends at to.
    let a = basic("transform", to: to, by: by)
    assertEqual(presented(CALayer(), a, at: 0).transform, to.concatenating(CATransform3DInvert(by)))
    assertEqual(
      presented(CALayer(), basic("transform", to: to, by: by), at: 0.999999).transform, to,
      accuracy: 1e-4)
    // from + by: ends at from × by.
    let b = basic("transform", from: to, by: by)
    b.fillMode = .forwards
    assertEqual(presented(CALayer(), b, at: 2).transform, to.concatenating(by))
  }

  func testRotationKeyPathInterpolatesByAngle() {
    let a = basic("transform.rotation.z", from: 0, to: 2 * Double.pi)
    // Half of a full turn is a half turn, not the identity a matrix mix would give.
    assertEqual(presented(CALayer(), a, at: 0.5).transform, CATransform3DMakeRotation(.pi, 0, 0, 1))
    let quarter = presented(
      CALayer(), basic("transform.rotation.z", from: 0, to: 2 * Double.pi), at: 0.25)
    assertEqual(quarter.transform, CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
  }

  func testColorsInterpolateComponentWise() {
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let shown = presented(CALayer(), basic("backgroundColor", from: red, to: blue), at: 0.25)
    XCTAssertEqual(shown.backgroundColor, CGColor(red: 0.75, green: 0, blue: 0.25, alpha: 1))
    // Straight RGBA: a transparent red to opaque blue passes through half-alpha purple.
    let clearRed = CGColor(red: 1, green: 0, blue: 0, alpha: 0)
    let mid = presented(CALayer(), basic("backgroundColor", from: clearRed, to: blue), at: 0.5)
    XCTAssertEqual(mid.backgroundColor, CGColor(red: 0.5, green: 0, blue: 0.5, alpha: 0.5))
  }

  func testGeometryAndListsAndPaths() {
    let layer = CALayer()
    let bounds = presented(
      layer,
      basic(
        "bounds", from: CGRect(x: 0, y: 0, width: 10, height: 20),
        to: CGRect(x: 10, y: 10, width: 30, height: 40)),
      at: 0.5
    ).bounds
    XCTAssertEqual(bounds, CGRect(x: 5, y: 5, width: 20, height: 30))
    let shadow = presented(
      CALayer(),
      basic("shadowOffset", from: CGSize(width: 0, height: 0), to: CGSize(width: 4, height: -8)),
      at: 0.25)
    XCTAssertEqual(shadow.shadowOffset, CGSize(width: 1, height: -2))

    let gradient = CAGradientLayer()
    let colors = basic(
      "colors", from: [CGColor.black, CGColor.white], to: [CGColor.white, CGColor.black])
    let g = presented(gradient, colors, at: 0.5) as! CAGradientLayer
    XCTAssertEqual(
      g.colors as? [CGColor], [CGColor(gray: 0.5, alpha: 1), CGColor(gray: 0.5, alpha: 1)])
    let locations = presented(
      CAGradientLayer(), basic("locations", from: [0.0, 1.0], to: [0.5, 0.5]), at: 0.5)
    XCTAssertEqual((locations as! CAGradientLayer).locations, [0.25, 0.75])

    let from = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
    let to = CGPath(rect: CGRect(x: 10, y: 10, width: 30, height: 30))
    let shape =
      presented(CAShapeLayer(), basic("path", from: from, to: to), at: 0.5) as! CAShapeLayer
    XCTAssertEqual(shape.path, CGPath(rect: CGRect(x: 5, y: 5, width: 20, height: 20)))
    // Different structures: discrete.
    let ellipse = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10))
    let early =
      presented(CAShapeLayer(), basic("path", from: from, to: ellipse), at: 0.25) as! CAShapeLayer
    XCTAssertEqual(early.path, from)
  }

  func testDiscreteValuesSwitchHalfway() {
    let a = basic("isHidden", from: false, to: true)
    XCTAssertFalse(presented(CALayer(), a, at: 0.4).isHidden)
    XCTAssertTrue(presented(CALayer(), basic("isHidden", from: false, to: true), at: 0.6).isHidden)
  }

  // MARK: Presentation tree

  func testPresentationTreeReusesLayersAndFollowsTheModel() {
    let root = CALayer()
    let a = CALayer()
    let b = CALayer()
    root.addSublayer(a)
    let tree = PresentationTree(root: root)
    let first = tree.update(time: 0)
    let firstA = first.sublayers![0]
    XCTAssertTrue(firstA.model() === a)
    XCTAssertTrue(tree.update(time: 1) === first)
    XCTAssertTrue(first.sublayers![0] === firstA)
    root.addSublayer(b)
    a.opacity = 0.5
    let second = tree.update(time: 2)
    XCTAssertEqual(second.sublayers!.count, 2)
    XCTAssertTrue(second.sublayers![0] === firstA)
    XCTAssertEqual(firstA.opacity, 0.5)
    XCTAssertTrue(second.sublayers![1].model() === b)
    XCTAssertTrue(second.sublayers![1].superlayer === second)
    // Masks are presentation layers too, and animate.
    let mask = CALayer()
    let fade = basic("opacity", from: 0, to: 1)
    fade.isRemovedOnCompletion = false
    mask.add(fade, forKey: nil)
    b.mask = mask
    let third = tree.update(time: 0.25)
    XCTAssertTrue(third.sublayers![1].mask?.model() === mask)
    XCTAssertEqual(third.sublayers![1].mask!.opacity, 0.25, accuracy: 1e-6)
  }

  func testHitTestingUsesPresentationValues() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.position = CGPoint(x: 100, y: 50)
    let mover = CALayer()
    mover.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
    mover.position = CGPoint(x: 10, y: 50)
    root.addSublayer(mover)
    let move = basic("position.x", from: 10, to: 190)
    move.isRemovedOnCompletion = false
    mover.add(move, forKey: nil)
    let tree = PresentationTree(root: root)
    tree.update(time: 0.5)
    XCTAssertTrue(tree.hitTest(CGPoint(x: 100, y: 50)) === mover)
    XCTAssertTrue(tree.hitTest(CGPoint(x: 10, y: 50)) === root)
    XCTAssertTrue(root.hitTest(CGPoint(x: 10, y: 50)) === mover, "the model is where it was")
  }

  func testPresentationUsesTheClock() {
    let layer = CALayer()
    let a = basic("opacity", from: 0, to: 1)
    a.beginTime = 10
    layer.add(a, forKey: nil)
    CAMediaClock.source = { 10.5 }
    defer { CAMediaClock.source = nil }
    XCTAssertEqual(layer.presentation()!.opacity, 0.5, accuracy: 1e-6)
    XCTAssertTrue(layer.presentation()!.model() === layer)
    XCTAssertEqual(layer.opacity, 1)
  }

  func assertEqual(
    _ a: CATransform3D, _ b: CATransform3D, accuracy: CGFloat = 1e-9,
    file: StaticString = #filePath,
    line: UInt = #line
  ) {
    for (x, y) in zip(a.values, b.values) {
      XCTAssertEqual(x, y, accuracy: accuracy, "\(a) ≠ \(b)", file: file, line: line)
    }
  }

  func testFilterInputAnimatesByKeyPath() {
    let layer = CALayer()
    let blur = CIFilter(name: "CIGaussianBlur")!
    let tint = CIFilter(name: "CIColorMatrix")!
    layer.filters = [blur, tint]
    layer.add(basic("filters.CIGaussianBlur.inputRadius", from: 0, to: 20), forKey: "blur")
    let fade = basic(
      "filters.CIColorMatrix.inputAVector", from: [0, 0, 0, 1.0], to: [0, 0, 0, 0.0])
    let shown = presented(layer, fade, at: 0.25)
    let radius = shown.value(forKeyPath: "filters.CIGaussianBlur.inputRadius") as? CGFloat
    XCTAssertEqual(Double(radius ?? -1), 5, accuracy: 1e-9)
    let alpha = shown.value(forKeyPath: "filters.CIColorMatrix.inputAVector") as? CIVector
    XCTAssertEqual(Double(alpha?.values[3] ?? -1), 0.75, accuracy: 1e-9)
    // The model and its filter objects keep their values.
    XCTAssertEqual(layer.value(forKeyPath: "filters.CIGaussianBlur.inputRadius") as? CGFloat, 10)
    XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 10)
    XCTAssertEqual(
      tint.value(forKey: "inputAVector") as? CIVector, CIVector(x: 0, y: 0, z: 0, w: 1))
  }
}
