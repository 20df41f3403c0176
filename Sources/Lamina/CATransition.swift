import Foundation

/// How a `CATransition` replaces a layer's old appearance with its new one.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The new appearance fades in over the old.
  public static let fade = Self(rawValue: "fade")
  /// The new appearance slides in over the old.
  public static let moveIn = Self(rawValue: "moveIn")
  /// The new appearance pushes the old one out.
  public static let push = Self(rawValue: "push")
  /// The old appearance slides out, revealing the new one.
  public static let reveal = Self(rawValue: "reveal")
}

/// The side a `CATransition`'s new appearance comes from.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let fromRight = Self(rawValue: "fromRight")
  public static let fromLeft = Self(rawValue: "fromLeft")
  public static let fromTop = Self(rawValue: "fromTop")
  public static let fromBottom = Self(rawValue: "fromBottom")
}

/// The key Core Animation uses for transitions.
public let kCATransition = "transition"

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

/// A transition in progress on a presentation layer, for the renderer: the
/// layer's old appearance and how far the new one has come.
package struct TransitionState {
  package let from: CALayer
  package let type: CATransitionType
  package let subtype: CATransitionSubtype
  /// 0…1, after the timing function and start/end progress.
  package let progress: Double
}

extension CALayer {
  /// A copy of the layer and its whole subtree (sublayers and mask).
  package func deepCopy() -> CALayer {
    let copy = valueCopy()
    for sublayer in storedSublayers { copy.addSublayer(sublayer.deepCopy()) }
    if let mask { copy.mask = mask.deepCopy() }
    return copy
  }
}
