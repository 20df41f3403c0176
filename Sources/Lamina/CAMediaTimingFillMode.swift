import Foundation

/// What an animation shows outside its active time.
public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let removed = Self(rawValue: "removed")
  public static let forwards = Self(rawValue: "forwards")
  public static let backwards = Self(rawValue: "backwards")
  public static let both = Self(rawValue: "both")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.removed, .forwards, .backwards, .both]
}
