import Foundation

/// How the ends of stroked lines look.
public enum CGLineCap: Int32, Sendable {
  case butt, round, square
}

/// How the corners of stroked lines look.
public enum CGLineJoin: Int32, Sendable {
  case miter, round, bevel
}

/// What `drawPath(using:)` does with the current path.
/// How text is painted (`CGContext.setTextDrawingMode(_:)`).
public enum CGTextDrawingMode: Int32, Sendable {
  case fill = 0
  case stroke = 1
  case fillStroke = 2
  case invisible = 3
  case fillClip = 4
  case strokeClip = 5
  case fillStrokeClip = 6
  case clip = 7

  var fills: Bool {
    self == .fill || self == .fillStroke || self == .fillClip || self == .fillStrokeClip
  }
  var strokes: Bool {
    self == .stroke || self == .fillStroke || self == .strokeClip || self == .fillStrokeClip
  }
}

/// What a drawing backend paints text with besides its source (the fill
/// color): the text drawing mode and the stroke color.
package struct TextPaint {
  package var mode: CGTextDrawingMode
  package var stroke: CGColor
  package init(mode: CGTextDrawingMode, stroke: CGColor) {
    self.mode = mode
    self.stroke = stroke
  }
}

public enum CGPathDrawingMode: Int32, Sendable {
  case fill, eoFill, stroke, fillStroke, eoFillStroke
}

/// Whether a gradient's end colors extend beyond its start and end.
public struct CGGradientDrawingOptions: OptionSet, Sendable {
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }
  public static let drawsBeforeStartLocation = Self(rawValue: 1)
  public static let drawsAfterEndLocation = Self(rawValue: 2)
}

/// A color space. Lamina draws in sRGB only; the type exists so that Core
/// Graphics calls that name one port unchanged. A gray space's colors have
/// one component and alpha; every other space is sRGB.
public final class CGColorSpace: Sendable {
  public static let sRGB = "kCGColorSpaceSRGB"
  public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
  public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
  public static let linearGray = "kCGColorSpaceLinearGray"
  public static let displayP3 = "kCGColorSpaceDisplayP3"
  /// The space's name.
  public let name: String?
  /// Whether colors in the space are gray levels.
  public let isGray: Bool
  public init?(name: String) {
    self.name = name
    isGray = name.contains("Gray")
  }
  public init() {
    name = CGColorSpace.sRGB
    isGray = false
  }
  init(gray: Bool) {
    name = gray ? CGColorSpace.genericGrayGamma2_2 : CGColorSpace.sRGB
    isGray = gray
  }
  /// Components of a color in the space, alpha excluded.
  public var numberOfComponents: Int { isGray ? 1 : 3 }
}

/// The device RGB space: sRGB here.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace() }
/// The device gray space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(gray: true) }

/// Colors at locations, drawn by `CGContext.drawLinearGradient` and
/// `drawRadialGradient`.
public final class CGGradient: @unchecked Sendable {
  public let colors: [CGColor]
  public let locations: [CGFloat]

  /// A gradient of `colors` at `locations` (nil: evenly spaced from 0 to 1).
  public init?(colorsSpace: CGColorSpace?, colors: [CGColor], locations: [CGFloat]?) {
    guard !colors.isEmpty, locations == nil || locations?.count == colors.count else { return nil }
    self.colors = colors
    let n = colors.count
    self.locations = locations ?? (0..<n).map { n == 1 ? 0 : CGFloat($0) / CGFloat(n - 1) }
  }
}

/// A Core Graphics drawing context: the commonly used calls of Core
/// Graphics' `CGContext`, drawn by a 2D library that a backend module
/// provides (LaminaDraw draws with Cairo; it registers itself when
/// `LaminaDraw.install()` is called, which the renderer does before a layer
/// displays). This class is the interface; with no backend registered,
/// `CGContext.bitmap(…)` returns nil and layers do not draw.
///
/// Coordinates have their origin at the top left and y growing downward, as
/// in the context UIKit and `CALayer.draw(in:)` on iOS hand out (a bare Core
/// Graphics bitmap context has its origin at the bottom left).
///
/// ```swift
/// let context = CGContext.bitmap(width: 64, height: 64)!
/// context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
/// context.fillEllipse(in: CGRect(x: 0, y: 0, width: 64, height: 64))
/// let mask = context.makeImage()
/// ```
open class CGContext {
  /// Width and height of the bitmap, in pixels.
  public let width: Int, height: Int

  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The bounding box of the area drawing can reach, in user space: for a
  /// `CATiledLayer`'s tile, the tile's rect in the layer's space (so that
  /// `draw(in:)` can draw just that part); infinite otherwise.
  public package(set) var boundingBoxOfClipPath: CGRect = .infinite

  /// Makes bitmap contexts; set by the drawing backend.
  nonisolated(unsafe) public static var bitmapContextMaker: ((Int, Int) -> CGContext?)?

  /// Draws a text layer's string into a context (`CATextLayer.draw(in:)`);
  /// set by the drawing backend, which lays text out.
  nonisolated(unsafe) package static var textDrawer: ((CGContext, CATextLayer) -> Void)?

  /// A transparent bitmap context of `width`×`height` pixels, or nil when
  /// no drawing backend is registered or the bitmap cannot be allocated.
  public static func bitmap(width: Int, height: Int) -> CGContext? {
    guard width > 0, height > 0, width <= 16384, height <= 16384 else { return nil }
    return bitmapContextMaker?(width, height)
  }

  // MARK: Graphics state

  open func saveGState() {}
  open func restoreGState() {}
  open func setFillColor(_ color: CGColor) {}
  open func setStrokeColor(_ color: CGColor) {}
  open func setLineWidth(_ width: CGFloat) {}
  open func setLineCap(_ cap: CGLineCap) {}
  open func setLineJoin(_ join: CGLineJoin) {}
  open func setMiterLimit(_ limit: CGFloat) {}
  open func setLineDash(phase: CGFloat, lengths: [CGFloat]) {}
  /// Multiplies everything drawn afterwards by `alpha`.
  open func setAlpha(_ alpha: CGFloat) {}

  // MARK: Antialiasing and glyph placement
  //
  // As in Core Graphics, each quality has two switches: the context's
  // `allows…` (not part of the graphics state; true by default) and the
  // graphics state's `should…` (saved and restored with it; true by
  // default). A quality is on while both are true.

  /// Whether the context may antialias at all; antialiasing is on while
  /// this and `setShouldAntialias(_:)` are both true. Not part of the
  /// graphics state.
  ///
  /// ```swift
  /// override func draw(in ctx: CGContext) {
  ///   ctx.setShouldAntialias(false)   // hard edges, pixel art
  ///   ctx.fill(bounds.insetBy(dx: 0.5, dy: 0.5))
  /// }
  /// ```
  open func setAllowsAntialiasing(_ allowsAntialiasing: Bool) {}
  /// Whether shapes are antialiased from now on (part of the graphics
  /// state): false fills and strokes each pixel wholly or not at all.
  open func setShouldAntialias(_ shouldAntialias: Bool) {}
  // The font switches are accepted and change nothing: Lamina lays
  // text out once, with glyphs at unrounded positions (subpixel
  // positioning always on, no quantization), before any context draws it.

  /// Whether glyphs may sit at fractions of a pixel; with
  /// `setShouldSubpixelPositionFonts(_:)`, Core Graphics' subpixel positioning.
  /// Not part of the graphics state.
  open func setAllowsFontSubpixelPositioning(_ allowsFontSubpixelPositioning: Bool) {}
  /// Whether glyphs are placed at fractions of a pixel (part of the
  /// graphics state).
  open func setShouldSubpixelPositionFonts(_ shouldSubpixelPositionFonts: Bool) {}
  /// Whether glyph positions may be quantized to a few subpixel steps; with
  /// `setShouldSubpixelQuantizeFonts(_:)`. Not part of the graphics state.
  open func setAllowsFontSubpixelQuantization(_ allowsFontSubpixelQuantization: Bool) {}
  /// Whether glyph positions are quantized to subpixel steps (part of the
  /// graphics state).
  open func setShouldSubpixelQuantizeFonts(_ shouldSubpixelQuantizeFonts: Bool) {}
  /// Whether glyphs may be smoothed (Apple's "font smoothing", a heavier
  /// rendering of antialiased text); accepted, changes nothing (Pango draws
  /// glyphs with grayscale antialiasing). Not part of the graphics state.
  open func setAllowsFontSmoothing(_ allowsFontSmoothing: Bool) {}
  /// Whether glyphs are smoothed (part of the graphics state); accepted,
  /// changes nothing.
  open func setShouldSmoothFonts(_ shouldSmoothFonts: Bool) {}

  // MARK: Current transformation matrix

  open func translateBy(x: CGFloat, y: CGFloat) {}
  open func scaleBy(x: CGFloat, y: CGFloat) {}
  open func rotate(by angle: CGFloat) {}
  open func concatenate(_ transform: CGAffineTransform) {}

  // MARK: The current path (in user space at the time of each call)

  open func beginPath() {}
  open func move(to point: CGPoint) {}
  open func addLine(to point: CGPoint) {}
  open func addLines(between points: [CGPoint]) {
    guard let first = points.first else { return }
    move(to: first)
    for p in points.dropFirst() { addLine(to: p) }
  }
  open func addQuadCurve(to end: CGPoint, control: CGPoint) {}
  open func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {}
  open func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {}
  open func addRect(_ rect: CGRect) {}
  open func addEllipse(in rect: CGRect) {}
  open func addPath(_ path: CGPath) {}
  open func closePath() {}

  // MARK: Painting

  open func fillPath(using rule: CGPathFillRule = .winding) {}
  open func strokePath() {}
  open func drawPath(using mode: CGPathDrawingMode) {}
  open func fill(_ rect: CGRect) {}
  open func fill(_ rects: [CGRect]) { for r in rects { fill(r) } }
  open func stroke(_ rect: CGRect) {}
  open func stroke(_ rect: CGRect, width: CGFloat) {
    saveGState()
    setLineWidth(width)
    stroke(rect)
    restoreGState()
  }
  open func fillEllipse(in rect: CGRect) {}
  open func strokeEllipse(in rect: CGRect) {}
  open func strokeLineSegments(between points: [CGPoint]) {}
  /// Makes `rect` transparent.
  open func clear(_ rect: CGRect) {}

  // MARK: Clipping

  /// Intersects the clip with the current path (which it consumes).
  open func clip(using rule: CGPathFillRule = .winding) {}
  open func clip(to rect: CGRect) {}

  // MARK: Images and gradients

  /// Draws `image` stretched over `rect`, upright in this context's space.
  open func draw(_ image: CGImage, in rect: CGRect) {}
  open func drawLinearGradient(
    _ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions
  ) {}
  open func drawRadialGradient(
    _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint,
    endRadius: CGFloat, options: CGGradientDrawingOptions
  ) {}

  // MARK: Text (see CTLine.swift)

  /// The transform from text space to user space that Core Text draws
  /// glyphs with (identity: glyphs upright in a y-up space; in this
  /// context, whose y grows downward, a program flips the CTM first, as on
  /// iOS).
  open var textMatrix: CGAffineTransform = .identity
  /// Where `CTLineDraw` puts the line's origin (its baseline's start), in
  /// user space.
  open var textPosition: CGPoint = .zero
  /// How Core Text paints glyphs from now on: filled, stroked (in the
  /// stroke color and line width), both, or not at all; part of the saved
  /// graphics state. The clip modes paint as their fill and stroke parts
  /// say and do not add the glyphs to the clip.
  open func setTextDrawingMode(_ mode: CGTextDrawingMode) {}

  /// Draws with the backend's Cairo context (`cairo_t`), graphics state
  /// and clip applied, and this context's alpha over what is drawn; set by
  /// a drawing backend that draws text (LaminaDraw's). Nil: text is not drawn.
  package var cairoDrawing: ((_ draw: (OpaquePointer, TextPaint) -> Void) -> Void)?

  // MARK: Result

  /// The pixels drawn so far, as an image; nil without a backend.
  open func makeImage() -> CGImage? { nil }
}
