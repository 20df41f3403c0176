import Foundation

/// Animations that run together, timed inside the group's time.
open class CAAnimationGroup: CAAnimation {
  override class var laminaClass: CAAnimation.Type { CAAnimationGroup.self }
  override class func makeInstance() -> CAAnimation { CAAnimationGroup() }
  override class var accessors: [PropertyAccessor] { super.accessors + groupAccessors }
  open var animations: [CAAnimation]?
}
