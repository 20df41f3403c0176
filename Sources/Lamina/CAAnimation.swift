import Foundation

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
