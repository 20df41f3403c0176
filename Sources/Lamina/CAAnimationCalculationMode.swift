import Foundation

/// How a keyframe animation interpolates between its values.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let linear = Self(rawValue: "linear")
  public static let discrete = Self(rawValue: "discrete")
  public static let paced = Self(rawValue: "paced")
  public static let cubic = Self(rawValue: "cubic")
  public static let cubicPaced = Self(rawValue: "cubicPaced")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.linear, .discrete, .paced, .cubic, .cubicPaced]
}
