import Foundation

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
