import Foundation

/// The names of the value functions.
public struct CAValueFunctionName: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }
  /// One number, an angle in radians, about the x axis.
  public static let rotateX = Self(rawValue: "rotateX")
  /// One number, an angle in radians, about the y axis.
  public static let rotateY = Self(rawValue: "rotateY")
  /// One number, an angle in radians, about the z axis.
  public static let rotateZ = Self(rawValue: "rotateZ")
  /// Three numbers: the x, y and z scales.
  public static let scale = Self(rawValue: "scale")
  public static let scaleX = Self(rawValue: "scaleX")
  public static let scaleY = Self(rawValue: "scaleY")
  public static let scaleZ = Self(rawValue: "scaleZ")
  /// Three numbers: the x, y and z translations.
  public static let translate = Self(rawValue: "translate")
  public static let translateX = Self(rawValue: "translateX")
  public static let translateY = Self(rawValue: "translateY")
  public static let translateZ = Self(rawValue: "translateZ")
  /// Every name Core Animation defines.
  public static let all: [Self] = [
    .rotateX, .rotateY, .rotateZ, .scale, .scaleX, .scaleY, .scaleZ, .translate, .translateX,
    .translateY, .translateZ,
  ]
}
