import Foundation

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
