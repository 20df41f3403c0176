import Foundation

/// Core Foundation's range: `location` and `length` in UTF-16 code units
/// (a `length` of 0 means "to the end" where Core Text takes a range).
public struct CFRange: Hashable, Sendable {
  public var location: CFIndex
  public var length: CFIndex
  public init() {
    location = 0
    length = 0
  }
  public init(location: CFIndex, length: CFIndex) {
    self.location = location
    self.length = length
  }
}

/// `CFRange(location:length:)`.
public func CFRangeMake(_ location: CFIndex, _ length: CFIndex) -> CFRange {
  CFRange(location: location, length: length)
}

/// Core Foundation's attributed string (toll-free bridged to
/// `NSAttributedString` on Apple; the same here).
public typealias CFAttributedString = NSAttributedString

// MARK: Attributes

/// A run's font (`CTFont`); the same key as `NSAttributedString.Key.font`.
public let kCTFontAttributeName: CFString = "NSFont"
/// A run's color (`CGColor`); black when absent.
public let kCTForegroundColorAttributeName: CFString = "CTForegroundColor"
/// A paragraph's style (`CTParagraphStyle`).
public let kCTParagraphStyleAttributeName: CFString = "NSParagraphStyle"
/// Extra space after each character, in points (a number).
public let kCTKernAttributeName: CFString = "NSKern"
/// A run's underline (a number: `CTUnderlineStyle`'s raw value).
public let kCTUnderlineStyleAttributeName: CFString = "NSUnderline"
/// A boolean: the run is drawn in the context's fill color, whatever its
/// foreground color attribute says.
public let kCTForegroundColorFromContextAttributeName: CFString =
  "CTForegroundColorFromContext"
/// The color of a run's underline (`CGColor`); the run's color when absent.
public let kCTUnderlineColorAttributeName: CFString = "CTUnderlineColor"
/// A color filled behind a run's glyphs, line high (`CGColor`).
public let kCTBackgroundColorAttributeName: CFString = "CTBackgroundColor"
/// How far a run's baseline is moved up, in points (a number).
public let kCTBaselineOffsetAttributeName: CFString = "CTBaselineOffset"
/// A number: positive raises the run as superscript, negative lowers it as
/// subscript (at a smaller size).
public let kCTSuperscriptAttributeName: CFString = "NSSuperScript"
/// A number: 0 only the ligatures the script needs, 1 the standard ones
/// (the default), 2 all of them.
public let kCTLigatureAttributeName: CFString = "NSLigature"
/// The width of the glyphs' outline, in percent of the font size (a
/// number): positive strokes without filling, negative fills and strokes,
/// 0 (the default) fills only. Drawn by `CTLineDraw` and `CTFrameDraw`.
public let kCTStrokeWidthAttributeName: CFString = "NSStrokeWidth"
/// The color of the glyphs' outline (`CGColor`); the run's color when absent.
public let kCTStrokeColorAttributeName: CFString = "NSStrokeColor"

/// How a run is underlined (`kCTUnderlineStyleAttributeName`).
public struct CTUnderlineStyle: OptionSet, Sendable {
  public let rawValue: Int32
  public init(rawValue: Int32) { self.rawValue = rawValue }
  public static let none = CTUnderlineStyle([])
  public static let single = CTUnderlineStyle(rawValue: 1)
  public static let thick = CTUnderlineStyle(rawValue: 2)
  public static let double = CTUnderlineStyle(rawValue: 9)
}

// MARK: Paragraph styles

/// How a paragraph's lines are aligned.
public enum CTTextAlignment: UInt8, Sendable {
  case left = 0
  case right = 1
  case center = 2
  case justified = 3
  case natural = 4
}

/// Where a paragraph's lines break, and how text that does not fit is cut.
public enum CTLineBreakMode: UInt8, Sendable {
  case byWordWrapping = 0
  case byCharWrapping = 1
  case byClipping = 2
  case byTruncatingHead = 3
  case byTruncatingTail = 4
  case byTruncatingMiddle = 5
}

/// Which paragraph setting a `CTParagraphStyleSetting` holds.
public enum CTParagraphStyleSpecifier: UInt32, Sendable {
  case alignment = 0
  case firstLineHeadIndent = 1
  case headIndent = 2
  case tailIndent = 3
  case tabStops = 4
  case defaultTabInterval = 5
  case lineBreakMode = 6
  case lineHeightMultiple = 7
  case maximumLineHeight = 8
  case minimumLineHeight = 9
  case lineSpacing = 10
  case paragraphSpacing = 11
  case paragraphSpacingBefore = 12
  case baseWritingDirection = 13
  case maximumLineSpacing = 14
  case minimumLineSpacing = 15
  case lineSpacingAdjustment = 16
  case lineBoundsOptions = 17
}

/// One setting of a paragraph style: which, and a pointer to its value
/// (read when the style is made).
public struct CTParagraphStyleSetting {
  public var spec: CTParagraphStyleSpecifier
  public var valueSize: Int
  public var value: UnsafeRawPointer
  public init(spec: CTParagraphStyleSpecifier, valueSize: Int, value: UnsafeRawPointer) {
    self.spec = spec
    self.valueSize = valueSize
    self.value = value
  }
}

/// A paragraph's style: Lamina reads its alignment, line break mode, line
/// spacing (`lineSpacing`, `lineSpacingAdjustment`, `minimumLineSpacing`),
/// indents, line heights, default tab interval and paragraph spacing;
/// other settings are not applied.
public final class CTParagraphStyle: @unchecked Sendable {
  public internal(set) var alignment: CTTextAlignment = .natural
  public internal(set) var lineBreakMode: CTLineBreakMode = .byWordWrapping
  /// Extra space between lines, in points.
  public internal(set) var lineSpacing: CGFloat = 0
  /// Where a paragraph's first line starts, and its other lines, from the
  /// frame's leading edge, in points.
  public internal(set) var firstLineHeadIndent: CGFloat = 0
  public internal(set) var headIndent: CGFloat = 0
  /// Positive: where lines end, from the leading edge; 0 or negative: how
  /// far before the trailing edge they end.
  public internal(set) var tailIndent: CGFloat = 0
  /// The natural line height multiplied by this (when positive), then kept
  /// between the minimum and maximum line heights (0: no limit).
  public internal(set) var lineHeightMultiple: CGFloat = 0
  public internal(set) var minimumLineHeight: CGFloat = 0
  public internal(set) var maximumLineHeight: CGFloat = 0
  /// The distance between tab stops, in points (0: Core Text's 28).
  public internal(set) var defaultTabInterval: CGFloat = 0
  /// Extra space after a paragraph, and before one (not before the
  /// first), in points.
  public internal(set) var paragraphSpacing: CGFloat = 0
  public internal(set) var paragraphSpacingBefore: CGFloat = 0
  init() {}

  /// Whether a line's height is set by the style (a multiple or limits).
  var setsLineHeight: Bool {
    lineHeightMultiple > 0 || minimumLineHeight > 0 || maximumLineHeight > 0
  }

  /// The height of a line whose natural height is `natural`, as the style
  /// sets it.
  func lineHeight(natural: CGFloat) -> CGFloat {
    var height = lineHeightMultiple > 0 ? natural * lineHeightMultiple : natural
    if maximumLineHeight > 0 { height = min(height, maximumLineHeight) }
    return max(height, minimumLineHeight)
  }
}

/// A paragraph style of `count` settings (nil or none: the defaults).
public func CTParagraphStyleCreate(
  _ settings: UnsafePointer<CTParagraphStyleSetting>?, _ count: Int
) -> CTParagraphStyle {
  let style = CTParagraphStyle()
  guard let settings, count > 0 else { return style }
  for setting in UnsafeBufferPointer(start: settings, count: count) {
    func byte() -> UInt8? { setting.valueSize >= 1 ? setting.value.load(as: UInt8.self) : nil }
    func number() -> CGFloat? {
      setting.valueSize == MemoryLayout<CGFloat>.size
        ? setting.value.loadUnaligned(as: CGFloat.self) : nil
    }
    switch setting.spec {
    case .alignment:
      if let raw = byte(), let value = CTTextAlignment(rawValue: raw) { style.alignment = value }
    case .lineBreakMode:
      if let raw = byte(), let value = CTLineBreakMode(rawValue: raw) {
        style.lineBreakMode = value
      }
    case .lineSpacing, .lineSpacingAdjustment, .minimumLineSpacing:
      if let value = number(), value.isFinite { style.lineSpacing = max(0, value) }
    case .firstLineHeadIndent:
      if let value = number(), value.isFinite { style.firstLineHeadIndent = max(0, value) }
    case .headIndent:
      if let value = number(), value.isFinite { style.headIndent = max(0, value) }
    case .tailIndent:
      if let value = number(), value.isFinite { style.tailIndent = value }
    case .lineHeightMultiple:
      if let value = number(), value.isFinite { style.lineHeightMultiple = max(0, value) }
    case .minimumLineHeight:
      if let value = number(), value.isFinite { style.minimumLineHeight = max(0, value) }
    case .maximumLineHeight:
      if let value = number(), value.isFinite { style.maximumLineHeight = max(0, value) }
    case .defaultTabInterval:
      if let value = number(), value.isFinite { style.defaultTabInterval = max(0, value) }
    case .paragraphSpacing:
      if let value = number(), value.isFinite { style.paragraphSpacing = max(0, value) }
    case .paragraphSpacingBefore:
      if let value = number(), value.isFinite { style.paragraphSpacingBefore = max(0, value) }
    default: break
    }
  }
  return style
}

/// Reads one setting of a paragraph style into `valueBuffer` (alignment,
/// line break mode: one byte; line spacing, indents, line heights, the tab
/// interval and paragraph spacing: a `CGFloat`); false for settings Lamina
/// does not keep or a buffer of the wrong size.
@discardableResult
public func CTParagraphStyleGetValueForSpecifier(
  _ style: CTParagraphStyle, _ spec: CTParagraphStyleSpecifier, _ valueBufferSize: Int,
  _ valueBuffer: UnsafeMutableRawPointer
) -> Bool {
  switch spec {
  case .alignment where valueBufferSize >= 1:
    valueBuffer.storeBytes(of: style.alignment.rawValue, as: UInt8.self)
  case .lineBreakMode where valueBufferSize >= 1:
    valueBuffer.storeBytes(of: style.lineBreakMode.rawValue, as: UInt8.self)
  default:
    let numbers: [CTParagraphStyleSpecifier: CGFloat] = [
      .lineSpacing: style.lineSpacing, .lineSpacingAdjustment: style.lineSpacing,
      .firstLineHeadIndent: style.firstLineHeadIndent, .headIndent: style.headIndent,
      .tailIndent: style.tailIndent, .lineHeightMultiple: style.lineHeightMultiple,
      .minimumLineHeight: style.minimumLineHeight, .maximumLineHeight: style.maximumLineHeight,
      .defaultTabInterval: style.defaultTabInterval, .paragraphSpacing: style.paragraphSpacing,
      .paragraphSpacingBefore: style.paragraphSpacingBefore,
    ]
    guard let value = numbers[spec], valueBufferSize == MemoryLayout<CGFloat>.size else {
      return false
    }
    valueBuffer.storeBytes(of: value, as: CGFloat.self)
  }
  return true
}
