import Foundation

// Conveniences Core Graphics and Core Foundation give Swift on Apple
// platforms: CF types are Equatable and Hashable (as `CFEqual` and
// `CFHash` define them), geometry has `equalTo(_:)`, and `CFString` exists.

/// Core Foundation's string (toll-free bridged to `NSString` on Apple; the
/// same here), so that `"Helvetica" as CFString` compiles.
public typealias CFString = NSString

/// A font of the family `name` at `size` points, from a `CFString`, as Core
/// Text's signature takes it.
public func CTFontCreateWithName(
  _ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
  CTFontCreateWithName(name as String, size, matrix)
}

/// Color spaces are equal when they are the same space (`CFEqual`): the
/// same name.
extension CGColorSpace: Hashable {
  public static func == (a: CGColorSpace, b: CGColorSpace) -> Bool {
    a.name == b.name && a.isGray == b.isGray
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(isGray)
  }
}

/// Images are equal when they are the same image (`CFEqual` of two
/// `CGImage`s compares identity, not pixels).
extension CGImage: Hashable {
  public static func == (a: CGImage, b: CGImage) -> Bool { a === b }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Gradients are equal when they are the same gradient (identity, as `CFEqual`).
extension CGGradient: Hashable {
  public static func == (a: CGGradient, b: CGGradient) -> Bool { a === b }

  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension CGGradientDrawingOptions: Hashable {}
extension CGBitmapInfo: Hashable {}

extension CGPoint {
  /// Whether the two points are equal (Core Graphics' `CGPointEqualToPoint`).
  public func equalTo(_ point: CGPoint) -> Bool { self == point }
}

extension CGSize {
  /// Whether the two sizes are equal (Core Graphics' `CGSizeEqualToSize`).
  public func equalTo(_ size: CGSize) -> Bool { self == size }
}

extension CGRect {
  /// Whether the two rectangles are equal (Core Graphics' `CGRectEqualToRect`):
  /// the same origin and size once standardized, as Core Graphics compares them.
  public func equalTo(_ rect: CGRect) -> Bool { standardized == rect.standardized }
}
