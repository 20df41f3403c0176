import Foundation

// `Int(x)` of a Double, Float or CGFloat traps when x is NaN, infinite or
// beyond Int's range, and values derived from input reach it (a huge blur
// radius times a scale, a birth rate times a lifetime). Code in Sources/
// converts floating-point values only through these helpers or
// `Int(exactly:)`; a test (`IntConversionLintTests`) finds any other.

extension Int {
  /// `value` rounded by `rule`, clamped to `Int.min…Int.max`; NaN gives 0.
  /// For sizes and counts that a limit bounds afterwards: the clamp keeps the
  /// conversion from trapping, the limit turns the clamped value into an
  /// error.
  ///
  /// ```swift
  /// Int(saturating: 1e300)          // Int.max
  /// Int(saturating: 2.5, rounding: .up)  // 3
  /// ```
  @inlinable
  public init<F: BinaryFloatingPoint>(
    saturating value: F, rounding rule: FloatingPointRoundingRule = .towardZero
  ) {
    let rounded = value.rounded(rule)
    if rounded.isNaN {
      self = 0
    } else if rounded >= F(Int.max) {
      // F(Int.max) rounds up to 2^63, which does not convert.
      self = .max
    } else if rounded <= F(Int.min) {
      self = .min
    } else {
      // Whole and within range: the plain conversion, which does not trap
      // here (`Int(exactly:)` took a generic path, a tenth of a group
      // composite's time).
      self = Int(rounded)
    }
  }

  /// `value` rounded by `rule` and clamped to `range`; NaN gives the lower bound.
  @inlinable
  public init<F: BinaryFloatingPoint>(
    clamping value: F, to range: ClosedRange<Int>,
    rounding rule: FloatingPointRoundingRule = .towardZero
  ) {
    if value.isNaN {
      self = range.lowerBound
    } else {
      self = Swift.min(Swift.max(Int(saturating: value, rounding: rule), range.lowerBound), range.upperBound)
    }
  }
}
