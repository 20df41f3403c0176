import Foundation

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
