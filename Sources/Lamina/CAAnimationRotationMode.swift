import Foundation

/// How a keyframe animation along a path turns the layer.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let auto = Self(rawValue: "auto")
  public static let autoReverse = Self(rawValue: "autoReverse")
  /// Core Animation's names: the layer turns to the path's tangent.
  public static let rotateAuto = auto
  /// The layer turns to the path's tangent plus half a turn.
  public static let rotateAutoReverse = autoReverse
  /// Every value Core Animation defines.
  public static let all: [Self] = [.auto, .autoReverse]
}
