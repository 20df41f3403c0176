import Foundation

/// An axis-aligned rectangle of whole pixels in a render target.
public struct PixelRect: Equatable, Sendable, CustomStringConvertible {
  public var x: Int, y: Int, width: Int, height: Int

  @inlinable
  public init(x: Int, y: Int, width: Int, height: Int) {
    (self.x, self.y, self.width, self.height) = (x, y, width, height)
  }

  @inlinable
  public var maxX: Int { x + width }
  @inlinable
  public var maxY: Int { y + height }
  @inlinable
  public var isEmpty: Bool { width <= 0 || height <= 0 }
  @inlinable
  public var area: Int { isEmpty ? 0 : width * height }

  /// The smallest pixel rect that holds `rect` (pixel coordinates), its
  /// edges clamped to ±2³⁰ (far past any target); NaN makes it empty.
  init(enclosing rect: CGRect) {
    let range = -(1 << 30)...(1 << 30)
    let x0 = Int(clamping: rect.minX, to: range, rounding: .down)
    let y0 = Int(clamping: rect.minY, to: range, rounding: .down)
    let x1 = Int(clamping: rect.maxX, to: range, rounding: .up)
    let y1 = Int(clamping: rect.maxY, to: range, rounding: .up)
    self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
  }

  @inlinable
  public func intersection(_ other: PixelRect) -> PixelRect {
    let x0 = max(x, other.x)
    let y0 = max(y, other.y)
    let x1 = min(maxX, other.maxX)
    let y1 = min(maxY, other.maxY)
    return PixelRect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
  }

  @inlinable
  public func union(_ other: PixelRect) -> PixelRect {
    if isEmpty { return other }
    if other.isEmpty { return self }
    let x0 = min(x, other.x)
    let y0 = min(y, other.y)
    return PixelRect(
      x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
  }

  @inlinable
  public func intersects(_ other: PixelRect) -> Bool { !intersection(other).isEmpty }

  public var description: String { "[\(x), \(y), \(width)x\(height)]" }

  /// This rect grown left and up to the even pixel at or before its
  /// corner: targets start there so that their 2×2 derivative quads line up
  /// with the plane's.
  package var evenCorner: PixelRect {
    guard !isEmpty else { return self }
    let x0 = x - (x & 1)
    let y0 = y - (y & 1)
    return PixelRect(x: x0, y: y0, width: width + x - x0, height: height + y - y0)
  }
}
