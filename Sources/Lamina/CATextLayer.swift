import Foundation

/// How a text layer aligns its lines.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let natural = Self(rawValue: "natural")
  public static let left = Self(rawValue: "left")
  public static let right = Self(rawValue: "right")
  public static let center = Self(rawValue: "center")
  public static let justified = Self(rawValue: "justified")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.natural, .left, .right, .center, .justified]
}

/// Where a text layer cuts text that does not fit.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let none = Self(rawValue: "none")
  public static let start = Self(rawValue: "start")
  public static let middle = Self(rawValue: "middle")
  public static let end = Self(rawValue: "end")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.none, .start, .middle, .end]
}

/// A layer that draws a string.
open class CATextLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CATextLayer.self }
  override package class func makeInstance() -> CALayer { CATextLayer() }

  /// The text: a `String`, or an `NSAttributedString` whose runs carry
  /// Core Text's attributes (`kCTFontAttributeName`,
  /// `kCTForegroundColorAttributeName`, `kCTKernAttributeName`,
  /// `kCTUnderlineStyleAttributeName`, and a `kCTParagraphStyleAttributeName`
  /// whose alignment applies), as on iOS.
  @exclusivity(unchecked) open var string: Any? {
    didSet { didChange(.string, oldValue) }
  }
  /// The font: a family name (`String`); nil for the default font.
  @exclusivity(unchecked) open var font: Any? {
    didSet { didChange(.font, oldValue) }
  }
  /// The font size in points.
  @exclusivity(unchecked) open var fontSize: CGFloat = 36 {
    didSet { didChange(.fontSize, oldValue) }
  }
  /// The text color; white by default.
  @exclusivity(unchecked) open var foregroundColor: CGColor? = .white {
    didSet { didChange(.foregroundColor, oldValue) }
  }
  /// Whether lines wrap at the bounds' width.
  @exclusivity(unchecked) open var isWrapped = false {
    didSet { didChange(.isWrapped, oldValue) }
  }
  @exclusivity(unchecked) open var alignmentMode: CATextLayerAlignmentMode = .natural {
    didSet { didChange(.alignmentMode, oldValue) }
  }
  @exclusivity(unchecked) open var truncationMode: CATextLayerTruncationMode = .none {
    didSet { didChange(.truncationMode, oldValue) }
  }
  /// Whether the text may be drawn with subpixel positioning.
  @exclusivity(unchecked) open var allowsFontSubpixelQuantization = false {
    didSet { didChange(.allowsFontSubpixelQuantization, oldValue) }
  }

  /// Whether this layer's text is drawn into its contents by `draw(in:)`,
  /// as on iOS: for subclasses (so that an overriding `draw(in:)` runs, and
  /// `super.draw(in:)` draws the string). A plain `CATextLayer`'s text is
  /// drawn by the renderer from its properties, at whatever scale it shows.
  package var drawsTextIntoContents: Bool { type(of: self) != CATextLayer.self }

  /// Draws the string in the bounds, as Core Animation's text layer does.
  /// Subclasses override it to draw around or instead of the text:
  ///
  /// ```swift
  /// class Badge: CATextLayer {
  ///   override func draw(in ctx: CGContext) {
  ///     ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
  ///     ctx.fillEllipse(in: bounds)
  ///     super.draw(in: ctx)   // the number on top
  ///   }
  /// }
  /// ```
  ///
  /// For a plain `CATextLayer` the renderer draws the text itself; this
  /// then draws what the delegate draws (`draw(_:in:)`), under the text.
  open override func draw(in ctx: CGContext) {
    guard drawsTextIntoContents else { return super.draw(in: ctx) }
    CGContext.textDrawer?(ctx, self)
  }

  /// The keys described as invalidating drawn text (the text keys,
  /// `contentsScale` and `bounds`) need a subclass's contents redrawn.
  open override class func needsDisplay(forKey key: String) -> Bool {
    guard self != CATextLayer.self else { return super.needsDisplay(forKey: key) }
    return LayerProperty.drawnTextKeys.contains(key) || super.needsDisplay(forKey: key)
  }

  /// The descriptions of the text layer's own properties (LayerProperty.swift).
  static let textProperties: [LayerProperty] = {
    typealias P = LayerProperty
    typealias C = Convert
    return [
      P.optional(.string, .text, \CATextLayer.string, range: .text, invalidates: .drawnText) {
        $0
      },
      P.optional(.font, .string, \CATextLayer.font, invalidates: .drawnText) { $0 },
      P.make(
        .fontSize, .number, \CATextLayer.fontSize, range: .fontSize, action: true,
        invalidates: .drawnText, C.cgFloat),
      P.optional(
        .foregroundColor, .color, \CATextLayer.foregroundColor, action: true,
        invalidates: .drawnText, C.color),
      P.make(.isWrapped, .bool, \CATextLayer.isWrapped, invalidates: .drawnText, C.bool),
      P.enumeration(
        .alignmentMode, \CATextLayer.alignmentMode, all: CATextLayerAlignmentMode.all,
        invalidates: .drawnText),
      P.enumeration(
        .truncationMode, \CATextLayer.truncationMode, all: CATextLayerTruncationMode.all,
        invalidates: .drawnText),
      P.make(
        .allowsFontSubpixelQuantization, .bool, \CATextLayer.allowsFontSubpixelQuantization,
        C.bool),
    ]
  }()

  override class var properties: [LayerProperty] { super.properties + textProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    guard let o = other as? CATextLayer else { return }
    string = o.string
    font = o.font
    fontSize = o.fontSize
    foregroundColor = o.foregroundColor
    isWrapped = o.isWrapped
    alignmentMode = o.alignmentMode
    truncationMode = o.truncationMode
    allowsFontSubpixelQuantization = o.allowsFontSubpixelQuantization
  }
}
