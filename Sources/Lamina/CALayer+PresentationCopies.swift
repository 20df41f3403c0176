import Foundation

/// A layer class whose presentation copies Lamina makes with the class's
/// own `init(layer:)`, as Core Animation makes every presentation copy.
///
/// Swift on Linux cannot call an initializer that is not `required`
/// through a metatype, and Apple's `init(layer:)` is not `required`; a
/// class says that Lamina may call it by adopting this protocol. Its
/// presentation copies are then instances of the class: `presentation()`
/// returns them, and their `draw(in:)` reads the animated values of the
/// class's keys. The iOS pattern of a custom animatable property ports
/// with two small changes (docs/api-coverage.md):
///
/// ```swift
/// final class ProgressLayer: CALayer, PresentationCopyable {
///   // iOS: @NSManaged var progress: CGFloat
///   var progress: CGFloat {
///     get { value(forKey: "progress") as? CGFloat ?? 0 }
///     set { setValue(newValue, forKey: "progress") }
///   }
///   override class func needsDisplay(forKey key: String) -> Bool {
///     key == "progress" || super.needsDisplay(forKey: key)
///   }
///   override func draw(in ctx: CGContext) { /* an arc of `progress` */ }
/// }
/// ```
///
/// A class that is not `final` writes its initializer
/// `override required init(layer: Any)`. Stored properties are copied by
/// `init(layer:)` when the copy is made (once per layer); values that
/// change or animate are kept under keys, as above.
public protocol PresentationCopyable: CALayer {
  init(layer: Any)
}

extension CALayer {
  /// A copy of this layer's values (not its sublayers): made with the
  /// class's `init(layer:)` when it is `PresentationCopyable`, else as an
  /// instance of its Lamina class.
  func valueCopy() -> CALayer {
    // Making a copy is no change of a layer: it opens no transaction.
    CATransaction.copying += 1
    defer { CATransaction.copying -= 1 }
    if let cls = type(of: self) as? PresentationCopyable.Type {
      return cls.init(layer: self)
    }
    let copy = type(of: self).laminaClass.makeInstance()
    copy.copyValues(from: self)
    return copy
  }

  /// Whether an animation of `keyPath` redraws the layer frame by frame:
  /// its class's `needsDisplay(forKey:)` says so for the key (the first
  /// component of the path).
  func redrawsWhenAnimating(_ keyPath: String) -> Bool {
    guard redisplaysOnChange, !keyPath.isEmpty else { return false }
    let key = String(keyPath.prefix { $0 != "." })
    return type(of: self).needsDisplay(forKey: key)
  }
}
