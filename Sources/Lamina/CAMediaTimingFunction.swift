import Foundation

/// A cubic Bézier timing curve from (0, 0) to (1, 1), with two control points.
public final class CAMediaTimingFunction: Equatable, Hashable, @unchecked Sendable,
  CustomStringConvertible
{
  /// The first and second control points.
  public let controlPoints: (CGPoint, CGPoint)

  /// The curve from (0, 0) through control points (c1x, c1y), (c2x, c2y) to (1, 1).
  public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
    controlPoints = (
      CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)), CGPoint(x: CGFloat(c2x), y: CGFloat(c2y))
    )
  }

  /// A named curve: linear (0,0,1,1), easeIn (0.42,0,1,1), easeOut
  /// (0,0,0.58,1), easeInEaseOut (0.42,0,0.58,1), default (0.25,0.1,0.25,1).
  public convenience init(name: CAMediaTimingFunctionName) {
    switch name {
    case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
    case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
    case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
    case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
    default: self.init(controlPoints: 0, 0, 1, 1)
    }
  }

  /// The control point at `index` 0…3 (0 is (0, 0), 3 is (1, 1)) as `[x, y]`,
  /// Core Animation's `getControlPoint(at:values:)` returned instead of written.
  public func controlPoint(at index: Int) -> [Float] {
    switch index {
    case 1: return [Float(controlPoints.0.x), Float(controlPoints.0.y)]
    case 2: return [Float(controlPoints.1.x), Float(controlPoints.1.y)]
    case 3: return [1, 1]
    default: return [0, 0]
    }
  }

  /// Writes the control point at `index` into `values` (two floats), as Core Animation does.
  public func getControlPoint(at index: Int, values: UnsafeMutablePointer<Float>) {
    let p = controlPoint(at: index)
    values[0] = p[0]
    values[1] = p[1]
  }

  public static func == (a: CAMediaTimingFunction, b: CAMediaTimingFunction) -> Bool {
    a.controlPoints.0 == b.controlPoints.0 && a.controlPoints.1 == b.controlPoints.1
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(controlPoints.0.x)
    hasher.combine(controlPoints.0.y)
    hasher.combine(controlPoints.1.x)
    hasher.combine(controlPoints.1.y)
  }

  public var description: String {
    "CAMediaTimingFunction(\(controlPoints.0.x), \(controlPoints.0.y), \(controlPoints.1.x), \(controlPoints.1.y))"
  }
}
