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
