import Foundation
import XCTest

@testable import Lamina

/// Numbers at the edges of what input can give: conversions that would
/// trap, springs that went NaN, repeat counts past Int, arcs with infinite
/// angles. Each is finite (or a clean error) now.
final class NumericSafetyTests: XCTestCase {
  func testSaturatingConversions() {
    XCTAssertEqual(Int(saturating: Double.nan), 0)
    XCTAssertEqual(Int(saturating: Double.infinity), .max)
    XCTAssertEqual(Int(saturating: -Double.infinity), .min)
    XCTAssertEqual(Int(saturating: 1e300), .max)
    XCTAssertEqual(Int(saturating: -1e300), .min)
    // 2^63 is the first Double past Int.max.
    XCTAssertEqual(Int(saturating: 9_223_372_036_854_775_807.0), .max)
    XCTAssertEqual(Int(saturating: 2.5, rounding: .up), 3)
    XCTAssertEqual(Int(saturating: -2.5, rounding: .down), -3)
    XCTAssertEqual(Int(saturating: CGFloat(7.9)), 7)
    XCTAssertEqual(Int(saturating: Float(-7.9)), -7)
    XCTAssertEqual(Int(clamping: 1e9, to: 0...255), 255)
    XCTAssertEqual(Int(clamping: Double.nan, to: 3...9), 3)
    XCTAssertEqual(Int(clamping: -5.5, to: -10...10, rounding: .down), -6)
  }

  /// A spring of extreme damping or mass made its layer vanish (NaN).
  /// The overloads for Double, CGFloat and Float (no generic conversion)
  /// give what the generic one gives, for every rounding rule, at the edges
  /// of Int's range, at halves and over a spread of magnitudes.
  func testConcreteConversionsMatchTheGenericOne() {
    func generic<F: BinaryFloatingPoint>(_ v: F, _ rule: FloatingPointRoundingRule) -> Int {
      Int(saturating: v, rounding: rule)
    }
    func genericClamped<F: BinaryFloatingPoint>(_ v: F, _ rule: FloatingPointRoundingRule) -> Int {
      Int(clamping: v, to: -1000...1000, rounding: rule)
    }
    let rules: [FloatingPointRoundingRule] = [
      .toNearestOrAwayFromZero, .toNearestOrEven, .up, .down, .towardZero, .awayFromZero,
    ]
    var values: [Double] = [
      0, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1000.5, -1000.5, .nan, .infinity, -.infinity,
      9_223_372_036_854_775_807.0, -9_223_372_036_854_775_808.0,
      9_223_372_036_854_775_807.0.nextDown, (-9_223_372_036_854_775_808.0).nextUp, 1e300, -1e300,
    ]
    var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<500 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let magnitude = Double(seed >> 58)  // 0...63
      let fraction = Double(seed >> 11 & 0xFFFF) / 65536
      values.append((seed & 1 == 0 ? 1 : -1) * (pow(2, magnitude) * (1 + fraction)))
    }
    for v in values {
      for rule in rules {
        XCTAssertEqual(Int(saturating: v, rounding: rule), generic(v, rule), "\(v) \(rule)")
        XCTAssertEqual(
          Int(saturating: CGFloat(v), rounding: rule), generic(CGFloat(v), rule), "\(v) \(rule)")
        XCTAssertEqual(
          Int(saturating: Float(v), rounding: rule), generic(Float(v), rule), "\(v) \(rule)")
        XCTAssertEqual(
          Int(clamping: v, to: -1000...1000, rounding: rule), genericClamped(v, rule))
        XCTAssertEqual(
          Int(clamping: CGFloat(v), to: -1000...1000, rounding: rule),
          genericClamped(CGFloat(v), rule))
      }
    }
  }

  func testSpringsAreFiniteForEveryParameter() {
    let extremes: [CGFloat] = [1e-308, 1e-9, 1, 100, 1e9, 1e300]
    for mass in extremes {
      for stiffness in extremes {
        for damping in [0] + extremes {
          for velocity: CGFloat in [0, -1e9, 1e9] {
            let spring = CASpringAnimation()
            spring.mass = mass
            spring.stiffness = stiffness
            spring.damping = damping
            spring.initialVelocity = velocity
            for t in [0, 0.01, 0.5, 3, 1e6] {
              let p = spring.progress(at: t)
              XCTAssertTrue(
                p.isFinite,
                "mass \(mass) stiffness \(stiffness) damping \(damping) velocity \(velocity) at \(t): \(p)"
              )
            }
          }
        }
      }
    }
  }

  func testOverdampedSpringsSettleSlowlyAndExactly() {
    // ζ = 1e6: the slow root w0/(ζ + s) ≈ w0/2ζ; computed as ζ − s it was 0 or NaN.
    let spring = CASpringAnimation()
    spring.mass = 1
    spring.stiffness = 100
    spring.damping = 2e7
    let slow = 10.0 / (1e6 + (1e12 - 1).squareRoot())
    XCTAssertEqual(spring.progress(at: 1000), 1 - exp(-slow * 1000), accuracy: 1e-9)
    XCTAssertGreaterThan(spring.progress(at: 1000), 0)
    // An infinitely stiff spring is at its end at once; one of enormous mass does not move.
    spring.stiffness = 1e300
    spring.mass = 1e-300
    spring.damping = 10
    XCTAssertEqual(spring.progress(at: 0.001), 1)
    spring.stiffness = 1e-300
    spring.mass = 1e300
    XCTAssertEqual(spring.progress(at: 100), 0)
  }

  func testHugeRepeatCountsAndTinyDurationsStayInRange() {
    let animation = CABasicAnimation(keyPath: "opacity")
    animation.fromValue = 0
    animation.toValue = 1
    animation.duration = 1e-300
    animation.repeatCount = 1e30
    animation.isCumulative = true
    animation.isRemovedOnCompletion = false
    let layer = CALayer()
    layer.add(animation, forKey: "a")
    for t in [0.0, 1.5, 1e9] {
      let presented = PresentationTree(root: layer).update(time: t)
      XCTAssertTrue(presented.opacity.isFinite, "at \(t)")
    }
  }

  func testArcsWithInfiniteAnglesAddNothing() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addArc(
      center: .zero, radius: 10, startAngle: .infinity, endAngle: 0, clockwise: false)
    path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .nan, clockwise: true)
    XCTAssertEqual(path.elements.count, 1)
  }

  func testFlatteningACurveOfHugeDeviationIsBounded() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addCurve(
      to: CGPoint(x: 1, y: 1), control1: CGPoint(x: 1e300, y: -1e300),
      control2: CGPoint(x: -1e300, y: 1e300))
    let points = path.flattened(tolerance: 0.01).reduce(0) { $0 + $1.points.count }
    XCTAssertLessThanOrEqual(points, 1026)
  }

  func testTreeLimitsOfACodeBuiltTree() {
    // Trees built in Swift meet the same limits as files.
    let outer = CAReplicatorLayer()
    outer.instanceCount = 400
    let inner = CAReplicatorLayer()
    inner.instanceCount = 400
    inner.addSublayer(CALayer())
    outer.addSublayer(inner)
    XCTAssertThrowsError(try LayerTreeLimits.check(outer)) { error in
      guard let violation = error as? LimitViolation else { return XCTFail("\(error)") }
      XCTAssertTrue(violation.layer === inner)
      XCTAssertEqual(violation.key, "instanceCount")
      XCTAssertEqual(violation.exceeded.name, "maxInstances")
      XCTAssertEqual(violation.exceeded.found, "160400")
    }
    let moving = CALayer()
    moving.position = CGPoint(x: CGFloat.nan, y: 0)
    XCTAssertThrowsError(try LayerTreeLimits.check(moving)) { error in
      XCTAssertEqual(
        "\(error)",
        "a layer.position.x: position.x must be finite and within ±10000000: not a number, over the limit of 10000000 (maxCoordinate)"
      )
    }
    // Messages write no "inf" either.
    let far = CAShapeLayer()
    far.lineWidth = .infinity
    XCTAssertThrowsError(try LayerTreeLimits.check(far)) { error in
      XCTAssertFalse("\(error)".contains("inf,"), "\(error)")
      XCTAssertTrue("\(error)".contains("an infinite number"), "\(error)")
    }
  }
}
