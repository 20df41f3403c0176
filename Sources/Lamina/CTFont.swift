import Foundation

/// A font: a family name and a size in points, as far as Lamina needs one
/// (text is laid out by Pango, and fontconfig finds the files). Made with
/// Core Text's `CTFontCreateWithName`; accepted by `CATextLayer.font` (whose
/// `fontSize` wins over the font's size, as in Core Animation) and as the
/// `.font` attribute of an attributed `CATextLayer.string`.
public final class CTFont: Hashable, @unchecked Sendable, CustomStringConvertible {
  /// The family name (or a Pango font description, a family list ended by
  /// a comma and style words: "DejaVu Sans, Bold Italic").
  public let familyName: String
  public let size: CGFloat

  init(familyName: String, size: CGFloat) {
    self.familyName = familyName
    self.size = size
  }

  public static func == (a: CTFont, b: CTFont) -> Bool {
    a.familyName == b.familyName && a.size == b.size
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(familyName)
    hasher.combine(size)
  }

  public var description: String { "CTFont(\(familyName), \(size))" }
}

/// A font of `name` at `size` points (the matrix is ignored).
public func CTFontCreateWithName(
  _ name: String, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?
) -> CTFont {
  CTFont(familyName: name, size: size)
}

/// The font's size in points.
public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.size }

/// The font's family name.
public func CTFontCopyFamilyName(_ font: CTFont) -> String { font.familyName }

extension NSAttributedString.Key {
  /// A run's font (`CTFont`), as UIKit's and AppKit's key of the same name.
  public static let font = NSAttributedString.Key("NSFont")
  /// A run's color (`CGColor`), as UIKit's and AppKit's key of the same name.
  public static let foregroundColor = NSAttributedString.Key("NSColor")
}
