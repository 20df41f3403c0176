import Foundation

/// Turns the numbers a property animation interpolates into the transform
/// it sets, so that a rotation of more than half a turn animates as one
/// (interpolating matrices would take the short way round):
///
/// ```swift
/// let spin = CABasicAnimation(keyPath: "transform")
/// spin.valueFunction = CAValueFunction(name: .rotateZ)
/// spin.fromValue = 0
/// spin.toValue = 2 * CGFloat.pi
/// ```
open class CAValueFunction: NSObject {
  /// The function's name.
  public let name: CAValueFunctionName

  /// The function named `name`; nil for a name Core Animation does not define.
  public init?(name: CAValueFunctionName) {
    guard CAValueFunctionName.all.contains(name) else { return nil }
    self.name = name
    super.init()
  }

  /// The transform for `numbers` (one number, or three for `scale` and
  /// `translate`; one number there means the same for x, y and z); nil when
  /// the count does not fit.
  func transform(_ numbers: [Double]) -> CATransform3D? {
    guard let first = numbers.first.map({ CGFloat($0) }) else { return nil }
    let three: (CGFloat, CGFloat, CGFloat)? =
      numbers.count >= 3
      ? (CGFloat(numbers[0]), CGFloat(numbers[1]), CGFloat(numbers[2]))
      : numbers.count == 1 ? (first, first, first) : nil
    switch name {
    case .rotateX: return CATransform3DMakeRotation(first, 1, 0, 0)
    case .rotateY: return CATransform3DMakeRotation(first, 0, 1, 0)
    case .rotateZ: return CATransform3DMakeRotation(first, 0, 0, 1)
    case .scale: return three.map { CATransform3DMakeScale($0.0, $0.1, $0.2) }
    case .scaleX: return CATransform3DMakeScale(first, 1, 1)
    case .scaleY: return CATransform3DMakeScale(1, first, 1)
    case .scaleZ: return CATransform3DMakeScale(1, 1, first)
    case .translate: return three.map { CATransform3DMakeTranslation($0.0, $0.1, $0.2) }
    case .translateX: return CATransform3DMakeTranslation(first, 0, 0)
    case .translateY: return CATransform3DMakeTranslation(0, first, 0)
    case .translateZ: return CATransform3DMakeTranslation(0, 0, first)
    default: return nil
    }
  }

  /// The numbers that make the identity transform, shaped like `value`
  /// (one number, or three): 1 for scales, 0 otherwise.
  func identity(like value: LayerValue?) -> LayerValue {
    let one: Double = [.scale, .scaleX, .scaleY, .scaleZ].contains(name) ? 1 : 0
    if case .numbers(let n)? = value { return .numbers([Double](repeating: one, count: n.count)) }
    return .number(one)
  }

  open override var description: String { "CAValueFunction(\(name.rawValue))" }
}
