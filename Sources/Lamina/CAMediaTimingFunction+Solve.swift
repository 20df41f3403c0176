import Foundation

extension CAMediaTimingFunction {
  /// The curve's output for input `x` (0…1): the y of the point of the
  /// Bézier whose x is `x`, to within 1e-10 in x.
  ///
  /// x(s) is solved for s by Newton's method from s = x, which converges in
  /// a few steps on nearly every curve; where the slope is too flat for
  /// Newton (or it leaves 0…1), bisection finishes the job (x(s) is monotonic
  /// since both control x lie in 0…1). Inputs outside 0…1 extend the curve
  /// by its end tangents.
  public func evaluate(at x: Double) -> Double {
    let x1 = Double(controlPoints.0.x)
    let y1 = Double(controlPoints.0.y)
    let x2 = Double(controlPoints.1.x)
    let y2 = Double(controlPoints.1.y)
    if x1 == y1 && x2 == y2 { return x }  // linear
    // Polynomial coefficients: b(s) = ((a s + b) s + c) s.
    let cx = 3 * x1
    let bx = 3 * (x2 - x1) - cx
    let ax = 1 - cx - bx
    let cy = 3 * y1
    let by = 3 * (y2 - y1) - cy
    let ay = 1 - cy - by
    func sx(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    func sy(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    func dx(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }
    if x <= 0 {
      // Before the start: along the first tangent (flat when it is undefined).
      let slope = x1 > 0 ? y1 / x1 : (x2 > 0 ? y2 / x2 : 0)
      return x * slope
    }
    if x >= 1 {
      let slope = x2 < 1 ? (y2 - 1) / (x2 - 1) : (x1 < 1 ? (y1 - 1) / (x1 - 1) : 0)
      return 1 + (x - 1) * slope
    }
    let epsilon = 1e-10
    var s = x
    for _ in 0..<8 {
      let error = sx(s) - x
      if abs(error) < epsilon { return sy(s) }
      let slope = dx(s)
      if abs(slope) < 1e-6 { break }
      s -= error / slope
      if s < 0 || s > 1 { break }
    }
    var lo = 0.0
    var hi = 1.0
    s = x
    for _ in 0..<60 {
      let value = sx(s)
      if abs(value - x) < epsilon { break }
      if value < x { lo = s } else { hi = s }
      s = (lo + hi) / 2
    }
    return sy(s)
  }
}
