import Foundation

/// The side a `CATransition`'s new appearance comes from.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let fromRight = Self(rawValue: "fromRight")
  public static let fromLeft = Self(rawValue: "fromLeft")
  public static let fromTop = Self(rawValue: "fromTop")
  public static let fromBottom = Self(rawValue: "fromBottom")
}
