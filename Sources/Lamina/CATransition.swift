import Foundation

/// Animates a change of a layer's whole appearance (its contents, its
/// sublayers, anything): added to a layer, it shows the layer as it looked
/// when the transition began turning into the layer as it is, by `type`
/// from `subtype`'s side. Timing, the timing function and the delegate work
/// as for any animation.
///
/// ```swift
/// let push = CATransition()
/// push.type = .push
/// push.subtype = .fromRight
/// page.add(push, forKey: kCATransition)
/// page.contents = nextImage
/// ```
open class CATransition: CAAnimation {
  open var type: CATransitionType = .fade
  open var subtype: CATransitionSubtype?
  /// Where in the transition it starts and ends, 0…1.
  open var startProgress: Float = 0
  open var endProgress: Float = 1
  /// A Core Image filter that performs the transition, in Core Animation.
  /// Lamina keeps the value but draws only the four `type`s.
  open var filter: Any?

  override class var laminaClass: CAAnimation.Type { CATransition.self }
  override class func makeInstance() -> CAAnimation { CATransition() }
  override class var accessors: [PropertyAccessor] { super.accessors + transitionAccessors }
}

/// The key Core Animation uses for transitions.
public let kCATransition = "transition"

extension CALayer {
  /// A copy of the layer and its whole subtree (sublayers and mask).
  package func deepCopy() -> CALayer {
    let copy = valueCopy()
    for sublayer in storedSublayers { copy.addSublayer(sublayer.deepCopy()) }
    if let mask { copy.mask = mask.deepCopy() }
    return copy
  }
}
