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
  /// Core Animation's names: the layer turns to the path's tangent.
  public static let rotateAuto = auto
  /// The layer turns to the path's tangent plus half a turn.
  public static let rotateAutoReverse = autoReverse
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
///
/// As in Core Animation, an animation is key-value coding compliant: its
/// properties are reachable by key, and any other key stores a value on the
/// animation (a tag that `animationDidStop(_:finished:)` reads back):
///
/// ```swift
/// let fade = CABasicAnimation(keyPath: "opacity")
/// fade.setValue("intro", forKey: "tag")
/// // … in the delegate:
/// if anim.value(forKey: "tag") as? String == "intro" { … }
/// ```
open class CAAnimation: NSObject, NSCopying, CAMediaTiming {
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
  /// The frame rate the animation would like to run at (a hint; Lamina
  /// draws at the display's or the sequence's rate).
  open var preferredFrameRateRange = CAFrameRateRange.default
  /// Values stored for keys that are not properties of the class.
  var attributes: [String: Any] = [:]

  /// An animation with Core Animation's default values (and the class's
  /// `defaultValue(forKey:)` overrides). Subclasses override it as on iOS.
  public override init() {
    super.init()
    applyClassDefaults()
  }

  /// An animation decoded from an archive. Lamina archives no animations:
  /// this makes one with the default values, so that subclasses written for
  /// iOS (`required init?(coder: NSCoder)`) compile and may call it.
  public required init?(coder: NSCoder) {
    super.init()
    applyClassDefaults()
  }

  /// The Lamina class this class is or derives from: what copies are made
  /// of (Swift cannot call a non-`required` initializer through a
  /// metatype). Each Lamina animation class overrides it and `makeInstance()`.
  class var laminaClass: CAAnimation.Type { CAAnimation.self }

  /// A new instance of `laminaClass`.
  class func makeInstance() -> CAAnimation { CAAnimation() }

  /// The default value of `key` for animations of this class, or nil.
  /// Subclasses override it to change the initial values of properties
  /// (read when an animation is made) or to give other keys a value.
  open class func defaultValue(forKey key: String) -> Any? { nil }

  /// Whether `key` would be archived (Lamina archives nothing; true, as
  /// Core Animation answers for its own keys).
  open func shouldArchiveValue(forKey key: String) -> Bool { true }

  /// A copy with the same values (as an instance of the animation's Lamina
  /// class, for a subclass defined outside Lamina), as `NSCopying` makes it.
  open func copy(with zone: NSZone? = nil) -> Any {
    let c = type(of: self).makeInstance()
    c.copyValues(from: self)
    return c
  }

  /// `copy()` typed: the copy `add(_:forKey:)` and actions attach.
  func animationCopy() -> CAAnimation {
    (copy(with: nil) as? CAAnimation) ?? self
  }

  /// Copies every value of `other`: each key of the class's accessors
  /// (CAAnimation+KeyValueCoding.swift), in order, then the values no
  /// accessor names. Subclasses that add properties of their own override
  /// it and call super.
  open func copyValues(from other: CAAnimation) {
    for copy in Self.animationTable.copies { copy(self, other) }
    preferredFrameRateRange = other.preferredFrameRateRange
    attributes = other.attributes
  }

  // MARK: Key-value coding (see CAAnimation+KeyValueCoding.swift)

  /// The accessors of this class's keys; subclasses append theirs.
  class var accessors: [PropertyAccessor] { CAAnimation.animationAccessors }

  /// The value for `key`: a property, a value stored for a key the class
  /// does not have, or else the class's `defaultValue(forKey:)`.
  open func value(forKey key: String) -> Any? { animationValue(forKey: key) }

  /// Sets the property for `key` (converting numbers, enumeration strings
  /// and geometry, as `CALayer.setValue(_:forKey:)` does); any other key is
  /// stored and read back by `value(forKey:)`.
  open func setValue(_ value: Any?, forKey key: String) { setAnimationValue(value, forKey: key) }

  /// The value at a dotted key path (`fromValue` or a stored key; struct
  /// members as `CALayer` reads them).
  open func value(forKeyPath keyPath: String) -> Any? { animationValue(forKeyPath: keyPath) }

  /// Sets the value at a dotted key path.
  open func setValue(_ value: Any?, forKeyPath keyPath: String) {
    setAnimationValue(value, forKeyPath: keyPath)
  }
}

/// A frame rate range, as `CADisplayLink` and animations state their
/// preference (Lamina keeps it as a hint).
public struct CAFrameRateRange: Equatable, Hashable, Sendable {
  public var minimum: Float
  public var maximum: Float
  public var preferred: Float?
  public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
    self.minimum = minimum
    self.maximum = maximum
    self.preferred = preferred
  }
  /// No preference: the display's rate.
  public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)
  /// Whether two ranges are the same.
  public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}

/// An animation of one key path of its layer.
open class CAPropertyAnimation: CAAnimation {
  override class var laminaClass: CAAnimation.Type { CAPropertyAnimation.self }
  override class func makeInstance() -> CAAnimation { CAPropertyAnimation() }
  override class var accessors: [PropertyAccessor] { super.accessors + propertyAccessors }
  /// The animated key path (`position`, `transform.rotation.y`, …).
  open var keyPath: String?
  /// Whether the animated value is added to the model value.
  open var isAdditive = false
  /// Whether each repetition builds on the end of the previous one.
  open var isCumulative = false

  /// An animation of `path`.
  public convenience init(keyPath path: String?) {
    self.init()
    keyPath = path
  }

  /// Turns the interpolated value into the value set on `keyPath` (a
  /// transform from angles, scales or translations); nil sets it directly.
  open var valueFunction: CAValueFunction?
}

/// An animation between two values: `fromValue`, `toValue` and `byValue`
/// combine as in Core Animation (any two, or one relative to the model value).
open class CABasicAnimation: CAPropertyAnimation {
  override class var laminaClass: CAAnimation.Type { CABasicAnimation.self }
  override class func makeInstance() -> CAAnimation { CABasicAnimation() }
  override class var accessors: [PropertyAccessor] { super.accessors + basicAccessors }
  open var fromValue: Any?
  open var toValue: Any?
  open var byValue: Any?
}

/// An animation through a list of values (or along a path).
open class CAKeyframeAnimation: CAPropertyAnimation {
  override class var laminaClass: CAAnimation.Type { CAKeyframeAnimation.self }
  override class func makeInstance() -> CAAnimation { CAKeyframeAnimation() }
  override class var accessors: [PropertyAccessor] { super.accessors + keyframeAccessors }
  /// The keyframe values.
  open var values: [Any]?
  /// The path a point property follows (instead of `values`).
  open var path: CGPath?
  /// The time of each keyframe as a fraction 0…1 of the duration.
  open var keyTimes: [NSNumber]?
  /// The pacing of each segment between keyframes.
  open var timingFunctions: [CAMediaTimingFunction]?
  open var calculationMode: CAAnimationCalculationMode = .linear
  /// Tension, continuity and bias of cubic segments (one per keyframe).
  open var tensionValues: [NSNumber]?
  open var continuityValues: [NSNumber]?
  open var biasValues: [NSNumber]?
  /// How the layer turns to follow `path`; nil keeps it unrotated.
  open var rotationMode: CAAnimationRotationMode?
}

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

/// Animations that run together, timed inside the group's time.
open class CAAnimationGroup: CAAnimation {
  override class var laminaClass: CAAnimation.Type { CAAnimationGroup.self }
  override class func makeInstance() -> CAAnimation { CAAnimationGroup() }
  override class var accessors: [PropertyAccessor] { super.accessors + groupAccessors }
  open var animations: [CAAnimation]?
}
