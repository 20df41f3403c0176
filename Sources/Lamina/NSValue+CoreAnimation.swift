import Foundation

// Boxing geometry in `NSValue`, as iOS code passes animation values
// (`animation.toValue = NSValue(caTransform3D: t)`). `caTransform3D` is
// QuartzCore's; the `cgPoint`/`cgSize`/`cgRect` names are UIKit's, here
// because animation code uses them with Core Animation all the time.

extension NSValue {
  /// The Objective-C type string of a boxed `CATransform3D` (16 doubles).
  static let transformType = "[16d]"

  /// A boxed transform.
  public convenience init(caTransform3D t: CATransform3D) {
    let values = t.values.map { Double($0) }
    self.init(
      bytes: values.withUnsafeBytes { $0.baseAddress! }, objCType: NSValue.transformType)
  }

  /// The boxed transform (the identity when the value holds no transform).
  public var caTransform3DValue: CATransform3D {
    guard String(cString: objCType) == NSValue.transformType else { return CATransform3DIdentity }
    var values = [Double](repeating: 0, count: 16)
    values.withUnsafeMutableBytes { getValue($0.baseAddress!) }
    return CATransform3D(values.map { CGFloat($0) })
  }

  /// A boxed point.
  public convenience init(cgPoint point: CGPoint) { self.init(point: point) }
  /// A boxed size.
  public convenience init(cgSize size: CGSize) { self.init(size: size) }
  /// A boxed rect.
  public convenience init(cgRect rect: CGRect) { self.init(rect: rect) }
  /// A boxed affine transform (as a 3D transform, as Core Animation takes it).
  public convenience init(cgAffineTransform t: CGAffineTransform) {
    self.init(caTransform3D: CATransform3DMakeAffineTransform(t))
  }

  public var cgPointValue: CGPoint { pointValue }
  public var cgSizeValue: CGSize { sizeValue }
  public var cgRectValue: CGRect { rectValue }
  public var cgAffineTransformValue: CGAffineTransform {
    CATransform3DGetAffineTransform(caTransform3DValue)
  }

  /// The geometry value boxed, for animations and key-value coding: a
  /// point, size, rect or transform; nil for any other value.
  var unboxedGeometry: Any? {
    switch String(cString: objCType) {
    case NSValue.transformType: return caTransform3DValue
    case let t where t.hasPrefix("{CGPoint"): return pointValue
    case let t where t.hasPrefix("{CGSize"): return sizeValue
    case let t where t.hasPrefix("{CGRect"): return rectValue
    default: return nil
    }
  }
}
