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

  // The same for Double, CGFloat and Float, without the generic path: the
  // generic initializer's `Int(rounded)` of a CGFloat went through
  // `FixedWidthInteger._convert(from:)` (a frame building's item bounds
  // spent a tenth of their instructions there). The same values.

  /// `Int(saturating:rounding:)` of a Double.
  @inlinable @inline(__always)
  public init(saturating value: Double, rounding rule: FloatingPointRoundingRule = .towardZero) {
    let rounded = value.rounded(rule)
    if rounded.isNaN {
      self = 0
    } else if rounded >= Double(Int.max) {
      self = .max
    } else if rounded <= Double(Int.min) {
      self = .min
    } else {
      self = Int(rounded)
    }
  }

  /// `Int(saturating:rounding:)` of a CGFloat.
  @inlinable @inline(__always)
  public init(saturating value: CGFloat, rounding rule: FloatingPointRoundingRule = .towardZero) {
    self.init(saturating: Double(value), rounding: rule)
  }

  /// `Int(saturating:rounding:)` of a Float.
  @inlinable @inline(__always)
  public init(saturating value: Float, rounding rule: FloatingPointRoundingRule = .towardZero) {
    self.init(saturating: Double(value), rounding: rule)
  }

  /// `Int(clamping:to:rounding:)` of a Double.
  @inlinable @inline(__always)
  public init(
    clamping value: Double, to range: ClosedRange<Int>,
    rounding rule: FloatingPointRoundingRule = .towardZero
  ) {
    if value.isNaN {
      self = range.lowerBound
    } else {
      self = Swift.min(
        Swift.max(Int(saturating: value, rounding: rule), range.lowerBound), range.upperBound)
    }
  }

  /// `Int(clamping:to:rounding:)` of a CGFloat.
  @inlinable @inline(__always)
  public init(
    clamping value: CGFloat, to range: ClosedRange<Int>,
    rounding rule: FloatingPointRoundingRule = .towardZero
  ) {
    self.init(clamping: Double(value), to: range, rounding: rule)
  }
}
