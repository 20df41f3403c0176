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

  /// A color from sRGB components, Core Graphics' name for them.
  public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// macOS's generic RGB color: taken as sRGB here.
  public convenience init(genericRGBRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat)
  {
    self.init(red: red, green: green, blue: blue, alpha: alpha)
  }

  /// A gray level with alpha (macOS's generic gray space: the same gray here).
  public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
    self.init(gray: gray, alpha: alpha)
  }

  /// A color from the components of `space` (gray and alpha, or red, green,
  /// blue and alpha, read from `components`).
  public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
    if space.isGray {
      self.init(gray: components[0], alpha: components[1])
    } else {
      self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    }
  }

  /// The color's space: sRGB.
  public var colorSpace: CGColorSpace? { CGColorSpace() }

  /// The color itself (colors are immutable).
  public func copy() -> CGColor? { self }

  /// The color in `space`: itself for an RGB space; for a gray space, its
  /// Rec. 709 luma. The intent and options are accepted and ignored.
  public func converted(
    to space: CGColorSpace, intent: CGColorRenderingIntent, options: [AnyHashable: Any]?
  ) -> CGColor? {
    guard space.isGray else { return self }
    return CGColor(gray: 0.2126 * red + 0.7152 * green + 0.0722 * blue, alpha: alpha)
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

/// How colors map between spaces (accepted; Lamina's only space is sRGB).
public enum CGColorRenderingIntent: Int32, Sendable {
  case defaultIntent, absoluteColorimetric, relativeColorimetric, perceptual, saturation
}
