import Foundation

/// What an animation shows outside its active time.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let removed = Self(rawValue: "removed")
  public static let forwards = Self(rawValue: "forwards")
  public static let backwards = Self(rawValue: "backwards")
  public static let both = Self(rawValue: "both")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.removed, .forwards, .backwards, .both]
}

/// The named timing curves.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = Self(rawValue: "linear")
  public static let easeIn = Self(rawValue: "easeIn")
  public static let easeOut = Self(rawValue: "easeOut")
  public static let easeInEaseOut = Self(rawValue: "easeInEaseOut")
  public static let `default` = Self(rawValue: "default")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .`default`]
}

/// How a keyframe animation interpolates between its values.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = Self(rawValue: "linear")
  public static let discrete = Self(rawValue: "discrete")
  public static let paced = Self(rawValue: "paced")
  public static let cubic = Self(rawValue: "cubic")
  public static let cubicPaced = Self(rawValue: "cubicPaced")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
}

/// How a keyframe animation along a path turns the layer.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let auto = Self(rawValue: "auto")
  public static let autoReverse = Self(rawValue: "autoReverse")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.auto, .autoReverse]
}

/// Timing of animations (and of layers, in Core Animation): when an object
/// begins, how long it lasts, how fast and how often it plays.
public protocol CAMediaTiming: AnyObject {
  /// Seconds after the parent's time 0 when the object begins.
  var beginTime: CFTimeInterval { get set }
  /// Length of one repetition in seconds (0: the default 0.25 s for animations).
  var duration: CFTimeInterval { get set }
  /// Time scale relative to the parent.
  var speed: Float { get set }
  /// Offset added to the object's local time.
  var timeOffset: CFTimeInterval { get set }
  /// Number of repetitions (may be fractional, or `.infinity`).
  var repeatCount: Float { get set }
  /// Seconds to repeat for (an alternative to `repeatCount`).
  var repeatDuration: CFTimeInterval { get set }
  /// Whether each repetition plays backward after forward.
  var autoreverses: Bool { get set }
  /// What shows before and after the active time.
  var fillMode: CAMediaTimingFillMode { get set }
}

/// A cubic Bézier timing curve from (0, 0) to (1, 1), with two control points.
public final class CAMediaTimingFunction: Equatable, Hashable, @unchecked Sendable,
  CustomStringConvertible
{
  /// The first and second control points.
  public let controlPoints: (CGPoint, CGPoint)

  /// The curve from (0, 0) through control points (c1x, c1y), (c2x, c2y) to (1, 1).
  public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
    controlPoints = (
      CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)), CGPoint(x: CGFloat(c2x), y: CGFloat(c2y))
    )
  }

  /// A named curve: linear (0,0,1,1), easeIn (0.42,0,1,1), easeOut
  /// (0,0,0.58,1), easeInEaseOut (0.42,0,0.58,1), default (0.25,0.1,0.25,1).
  public convenience init(name: CAMediaTimingFunctionName) {
    switch name {
    case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
    case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
    case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
    case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
    default: self.init(controlPoints: 0, 0, 1, 1)
    }
  }

  /// The control point at `index` 0…3 (0 is (0, 0), 3 is (1, 1)) as `[x, y]`,
  /// Core Animation's `getControlPoint(at:values:)` returned instead of written.
  public func controlPoint(at index: Int) -> [Float] {
    switch index {
    case 1: return [Float(controlPoints.0.x), Float(controlPoints.0.y)]
    case 2: return [Float(controlPoints.1.x), Float(controlPoints.1.y)]
    case 3: return [1, 1]
    default: return [0, 0]
    }
  }

  /// Writes the control point at `index` into `values` (two floats), as Core Animation does.
  public func getControlPoint(at index: Int, values: UnsafeMutablePointer<Float>) {
    let p = controlPoint(at: index)
    values[0] = p[0]
    values[1] = p[1]
  }

  public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
    a.controlPoints.0 == b.controlPoints.0 && a.controlPoints.1 == b.controlPoints.1
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(controlPoints.0.x)
    hasher.combine(controlPoints.0.y)
    hasher.combine(controlPoints.1.x)
    hasher.combine(controlPoints.1.y)
  }

  public var description: String {
    "CAMediaTimingFunction(\(controlPoints.0.x), \(controlPoints.0.y), \(controlPoints.1.x), \(controlPoints.1.y))"
  }
}

/// Receives an animation's start and stop.
public protocol CAAnimationDelegate: AnyObject {
  func animationDidStart(_ anim: CAAnimation)
  func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

extension CAAnimationDelegate {
  public func animationDidStart(_ anim: CAAnimation) {}
  public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The base class of animations: timing, a timing function and a delegate.
/// Add one to a layer with `add(_:forKey:)`.
open class CAAnimation: CAMediaTiming {
  open var beginTime: CFTimeInterval = 0
  open var duration: CFTimeInterval = 0
  open var speed: Float = 1
  open var timeOffset: CFTimeInterval = 0
  open var repeatCount: Float = 0
  open var repeatDuration: CFTimeInterval = 0
  open var autoreverses = false
  open var fillMode: CAMediaTimingFillMode = .removed
  /// The pacing of the animation; nil means linear.
  open var timingFunction: CAMediaTimingFunction?
  /// Whether the animation is removed from its layer when it finishes.
  open var isRemovedOnCompletion = true
  /// Told when the animation starts and stops (held strongly, as in Core Animation).
  open var delegate: CAAnimationDelegate?

  public required init() {}

  /// The default value of `key` for animations, or nil.
  open class func defaultValue(forKey key: String) -> Any? { nil }

  /// A copy with the same values.
  open func copy() -> CAAnimation {
    let c = type(of: self).init()
    c.copyValues(from: self)
    return c
  }

  /// Copies every value of `other`; subclasses that add properties override and call super.
  open func copyValues(from other: CAAnimation) {
    beginTime = other.beginTime
    duration = other.duration
    speed = other.speed
    timeOffset = other.timeOffset
    repeatCount = other.repeatCount
    repeatDuration = other.repeatDuration
    autoreverses = other.autoreverses
    fillMode = other.fillMode
    timingFunction = other.timingFunction
    isRemovedOnCompletion = other.isRemovedOnCompletion
    delegate = other.delegate
  }
}

/// An animation of one key path of its layer.
open class CAPropertyAnimation: CAAnimation {
  /// The animated key path (`position`, `transform.rotation.y`, …).
  open var keyPath: String?
  /// Whether the animated value is added to the model value.
  open var isAdditive = false
  /// Whether each repetition builds on the end of the previous one.
  open var isCumulative = false

  public required init() {}

  /// An animation of `path`.
  public convenience init(keyPath path: String?) {
    self.init()
    keyPath = path
  }

  open override func copyValues(from other: CAAnimation) {
    super.copyValues(from: other)
    guard let o = other as? CAPropertyAnimation else { return }
    keyPath = o.keyPath
    isAdditive = o.isAdditive
    isCumulative = o.isCumulative
  }
}

/// An animation between two values: `fromValue`, `toValue` and `byValue`
/// combine as in Core Animation (any two, or one relative to the model value).
open class CABasicAnimation: CAPropertyAnimation {
  open var fromValue: Any?
  open var toValue: Any?
  open var byValue: Any?

  public required init() {}

  open override func copyValues(from other: CAAnimation) {
    super.copyValues(from: other)
    guard let o = other as? CABasicAnimation else { return }
    fromValue = o.fromValue
    toValue = o.toValue
    byValue = o.byValue
  }
}

/// An animation through a list of values (or along a path).
open class CAKeyframeAnimation: CAPropertyAnimation {
  /// The keyframe values.
  open var values: [Any]?
  /// The path a point property follows (instead of `values`).
  open var path: CGPath?
  /// The time of each keyframe as a fraction 0…1 of the duration.
  open var keyTimes: [CGFloat]?
  /// The pacing of each segment between keyframes.
  open var timingFunctions: [CAMediaTimingFunction]?
  open var calculationMode: CAAnimationCalculationMode = .linear
  /// Tension, continuity and bias of cubic segments (one per keyframe).
  open var tensionValues: [CGFloat]?
  open var continuityValues: [CGFloat]?
  open var biasValues: [CGFloat]?
  /// How the layer turns to follow `path`; nil keeps it unrotated.
  open var rotationMode: CAAnimationRotationMode?

  public required init() {}

  open override func copyValues(from other: CAAnimation) {
    super.copyValues(from: other)
    guard let o = other as? CAKeyframeAnimation else { return }
    values = o.values
    path = o.path
    keyTimes = o.keyTimes
    timingFunctions = o.timingFunctions
    calculationMode = o.calculationMode
    tensionValues = o.tensionValues
    continuityValues = o.continuityValues
    biasValues = o.biasValues
    rotationMode = o.rotationMode
  }
}

/// A basic animation whose progress follows a damped spring.
open class CASpringAnimation: CABasicAnimation {
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

  public required init() {}

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

  open override func copyValues(from other: CAAnimation) {
    super.copyValues(from: other)
    guard let o = other as? CASpringAnimation else { return }
    mass = o.mass
    stiffness = o.stiffness
    damping = o.damping
    initialVelocity = o.initialVelocity
    allowsOverdamping = o.allowsOverdamping
  }
}

/// Animations that run together, timed inside the group's time.
open class CAAnimationGroup: CAAnimation {
  open var animations: [CAAnimation]?

  public required init() {}

  open override func copyValues(from other: CAAnimation) {
    super.copyValues(from: other)
    if let o = other as? CAAnimationGroup { animations = o.animations }
  }
}
