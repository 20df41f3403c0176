import Foundation

/// A basic animation whose progress follows a damped spring.
open class CASpringAnimation: CABasicAnimation {
  override class var laminaClass: CAAnimation.Type { CASpringAnimation.self }
  override class func makeInstance() -> CAAnimation { CASpringAnimation() }
  override class var accessors: [PropertyAccessor] { super.accessors + springAccessors }
  /// The mass on the spring.
  open var mass: CGFloat = 1
  /// The spring's stiffness.
  open var stiffness: CGFloat = 100
  /// The friction.
  open var damping: CGFloat = 10
  /// The initial speed, in units of the distance to travel per second.
  open var initialVelocity: CGFloat = 0
  /// Whether a damping above critical is honored as such (kept as data).
  open var allowsOverdamping = false

  /// A spring that takes about `perceptualDuration` seconds and overshoots by
  /// `bounce` (0: critically damped, toward 1: bouncier, below 0: slower),
  /// as Core Animation's: mass 1, stiffness (2π / duration)², damping
  /// 4π (1 − bounce) / duration (4π / (duration (1 + bounce)) below 0); its
  /// `duration` is the settling duration.
  public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
    self.init()
    let d = perceptualDuration > 0 ? perceptualDuration : 0.5
    let b = max(-1 + 1e-6, min(bounce, 1))
    mass = 1
    stiffness = CGFloat(pow(2 * .pi / d, 2))
    damping =
      b >= 0 ? CGFloat(4 * .pi * (1 - Double(b)) / d) : CGFloat(4 * .pi / (d * (1 + Double(b))))
    duration = settlingDuration
  }

  /// The spring's perceptual duration: 2π / √(stiffness / mass).
  open var perceptualDuration: CFTimeInterval {
    guard mass > 0, stiffness > 0 else { return 0 }
    return 2 * .pi / Double((stiffness / mass).squareRoot())
  }

  /// The spring's bounce: 1 − ζ when under- or critically damped, 1/ζ − 1
  /// when overdamped (ζ = damping / (2 √(stiffness · mass))).
  open var bounce: CGFloat {
    guard mass > 0, stiffness > 0 else { return 0 }
    let zeta = damping / (2 * (stiffness * mass).squareRoot())
    return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
  }

  /// Seconds until the spring is at rest: the time after which its distance
  /// to the end stays below 0.1 % of the travel.
  open var settlingDuration: CFTimeInterval {
    guard mass > 0, stiffness > 0, damping >= 0 else { return 0 }
    let w0 = Double((stiffness / mass).squareRoot())
    let zeta = Double(damping / (2 * (stiffness * mass).squareRoot()))
    let v0 = Double(initialVelocity)
    let step = 1.0 / 1000
    var t = 0.0
    var lastMoving = 0.0
    // Sampled at 1 ms up to a minute, the last time the spring was out of the band.
    while t < 60 {
      if abs(1 - springValue(t, w0: w0, zeta: zeta, v0: v0)) > 0.001 { lastMoving = t }
      if t - lastMoving > 1 { break }
      t += step
    }
    return (lastMoving * 1000).rounded(.up) / 1000
  }

  /// The spring's progress 0 → 1 at time `t` (unit mass-spring-damper from
  /// rest at 0 toward 1 with initial velocity `v0`). Finite for every
  /// input: an infinitely stiff spring is at 1 at once, one with no stiffness
  /// left (an enormous mass) or an enormous damping does not move, and the
  /// overdamped roots are computed without cancellation or overflow.
  func springValue(_ t: Double, w0: Double, zeta: Double, v0: Double) -> Double {
    guard t > 0 else { return 0 }
    if w0 == .infinity { return 1 }
    guard w0 > 0, w0.isFinite, zeta.isFinite else { return 0 }
    let value: Double
    if zeta < 1 {
      let wd = w0 * ((1 - zeta) * (1 + zeta)).squareRoot()
      let b = (zeta * w0 - v0) / wd
      value = 1 - exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
    } else {
      // s = √(ζ² − 1), without squaring ζ (which overflows past 1e154).
      let s = (zeta - 1).squareRoot() * (zeta + 1).squareRoot()
      if s < 1e-8 {
        value = 1 - exp(-w0 * t) * (1 + (w0 - v0) * t)
      } else {
        // The slow root as w0 / (ζ + s): ζ − s loses every digit for large ζ.
        let r1 = -w0 / (zeta + s)
        let r2 = -w0 * (zeta + s)
        let c2 = r2.isFinite ? -(v0 + r1) / (r1 - r2) : 0
        let c1 = -1 - c2
        let fast = r2.isFinite ? c2 * exp(r2 * t) : 0
        value = 1 + c1 * exp(r1 * t) + fast
      }
    }
    return value.isFinite ? value : 1
  }
}
