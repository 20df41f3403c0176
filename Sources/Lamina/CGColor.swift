import Foundation

/// An sRGB color with straight (non-premultiplied) components in 0…1.
public final class CGColor: Equatable, Hashable, @unchecked Sendable, CustomStringConvertible {
  public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

  /// A color from sRGB components; each is clamped to 0…1.
  public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
    self.red = clamp(red)
    self.green = clamp(green)
    self.blue = clamp(blue)
    self.alpha = clamp(alpha)
  }

  /// A gray level with alpha.
  public convenience init(gray: CGFloat, alpha: CGFloat) {
    self.init(red: gray, green: gray, blue: gray, alpha: alpha)
  }

  /// `#rrggbb` or `#rrggbbaa`; nil for any other text.
  public convenience init?(hex: String) {
    guard hex.hasPrefix("#") else { return nil }
    let digits = hex.dropFirst()
    guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
      let value = UInt64(digits, radix: 16)
    else { return nil }
    let v = digits.count == 6 ? (value << 8) | 0xff : value
    self.init(
      red: CGFloat((v >> 24) & 0xff) / 255, green: CGFloat((v >> 16) & 0xff) / 255,
      blue: CGFloat((v >> 8) & 0xff) / 255, alpha: CGFloat(v & 0xff) / 255)
  }

  /// The components `[r, g, b, a]`, as Core Graphics returns them for an RGB color.
  public var components: [CGFloat]? { [red, green, blue, alpha] }
  public var numberOfComponents: Int { 4 }

  /// The same color with another alpha.
  public func copy(alpha: CGFloat) -> CGColor? {
    CGColor(red: red, green: green, blue: blue, alpha: alpha)
  }

  public static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
  public static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
  public static let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)

  public static func == (a: CGColor, b: CGColor) -> Bool {
    a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(red)
    hasher.combine(green)
    hasher.combine(blue)
    hasher.combine(alpha)
  }

  public var description: String { "CGColor(r: \(red), g: \(green), b: \(blue), a: \(alpha))" }
}
