import Foundation

/// A frame rate range, as `CADisplayLink` and animations state their
/// preference (Lamina keeps it as a hint).
public struct CAFrameRateRange: Equatable, Hashable, Sendable {
  public var minimum: Float
  public var maximum: Float
  public var preferred: Float?
  public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
    self.minimum = minimum
    self.maximum = maximum
    self.preferred = preferred
  }
  /// No preference: the display's rate.
  public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)
  /// Whether two ranges are the same.
  public func isEqual(to range: CAFrameRateRange) -> Bool { self == range }
}
