import CCairo
import Foundation
import Lamina

/// Everything that decides how a `CAShapeLayer` looks, as a value: the
/// key under which its rasterized bitmap is cached (with the scale).
public struct ShapeStyle: Hashable, Sendable {
  public var path: CGPath
  public var fillColor: CGColor?
  public var fillRule: CAShapeLayerFillRule
  public var strokeColor: CGColor?
  public var lineWidth: CGFloat
  public var lineCap: CAShapeLayerLineCap
  public var lineJoin: CAShapeLayerLineJoin
  public var miterLimit: CGFloat
  public var lineDashPattern: [CGFloat]?
  public var lineDashPhase: CGFloat
  public var strokeStart: CGFloat
  public var strokeEnd: CGFloat

  /// A fill of `path` (nonzero) in opaque black: the style of a solid
  /// layer's rect drawn as a path (the color is drawn apart).
  public init(filling path: CGPath) {
    self.path = path
    fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    fillRule = .nonZero
    strokeColor = nil
    lineWidth = 0
    lineCap = .butt
    lineJoin = .miter
    miterLimit = 10
    lineDashPattern = nil
    lineDashPhase = 0
    strokeStart = 0
    strokeEnd = 1
  }

  /// The style of `layer`; nil when it draws nothing.
  public init?(_ layer: CAShapeLayer) {
    guard let path = layer.path, !path.isEmpty else { return nil }
    let fills = (layer.fillColor?.alpha ?? 0) > 0
    let strokes =
      (layer.strokeColor?.alpha ?? 0) > 0 && layer.lineWidth > 0
      && layer.strokeEnd > layer.strokeStart
    guard fills || strokes else { return nil }
    self.path = path
    fillColor = fills ? layer.fillColor : nil
    fillRule = layer.fillRule
    strokeColor = strokes ? layer.strokeColor : nil
    lineWidth = layer.lineWidth
    lineCap = layer.lineCap
    lineJoin = layer.lineJoin
    miterLimit = layer.miterLimit
    lineDashPattern = layer.lineDashLengths
    lineDashPhase = layer.lineDashPhase
    strokeStart = layer.strokeStart
    strokeEnd = layer.strokeEnd
  }
}

/// A bitmap of drawn content and the rect it covers in the layer's bounds space.
public struct Raster {
  public let image: CGImage
  public let rect: CGRect

  public init(image: CGImage, rect: CGRect) {
    self.image = image
    self.rect = rect
  }
}

/// Fills and strokes `CAShapeLayer` paths with Cairo into bitmaps, at the
/// resolution the layer is shown at (see docs/drawing.md for why the CPU).
public enum ShapeRasterizer {
  /// The largest bitmap side; a larger shape is rasterized at a lower scale.
  public static let maxSide = 4096

  /// Where a shape's bitmap goes and how large it is, decided before it
  /// is drawn (so that a frame can place it and draw it later).
  public struct Plan: Sendable {
    public let style: ShapeStyle
    public let scale: CGFloat
    let x0: CGFloat, y0: CGFloat
    let width: Int, height: Int

    /// The area the bitmap covers, in the layer's points.
    public var rect: CGRect {
      CGRect(
        x: x0 / scale, y: y0 / scale, width: CGFloat(width) / scale,
        height: CGFloat(height) / scale)
    }
  }

  /// The plan for `style` at `scale` pixels per point; nil when it covers nothing.
  public static func plan(_ style: ShapeStyle, scale requested: CGFloat) -> Plan? {
    guard let box = extents(style), box.width > 0, box.height > 0 else { return nil }
    var scale = max(requested, 1e-3)
    let largest = max(box.width, box.height) * scale + 2
    if largest > CGFloat(maxSide) { scale *= CGFloat(maxSide - 2) / (largest - 2) }
    // The bitmap's pixels sit on the grid of multiples of 1/scale points, so
    // a layer shown at that scale on whole pixels maps texels to pixels.
    let x0 = (box.minX * scale).rounded(.down) - 1
    let y0 = (box.minY * scale).rounded(.down) - 1
    let x1 = (box.maxX * scale).rounded(.up) + 1
    let y1 = (box.maxY * scale).rounded(.up) + 1
    return Plan(
      style: style, scale: scale, x0: x0, y0: y0, width: Int(x1 - x0), height: Int(y1 - y0))
  }

  /// Rasterizes `style` at `scale` pixels per point; nil when it covers nothing.
  public static func rasterize(_ style: ShapeStyle, scale: CGFloat) -> Raster? {
    plan(style, scale: scale).flatMap(rasterize)
  }

  /// Draws a planned bitmap (safe to call from several threads at once).
  public static func rasterize(_ plan: Plan) -> Raster? {
    guard let bitmap = CairoBitmap(width: plan.width, height: plan.height) else { return nil }
    let cr = bitmap.context
    cairo_translate(cr, -plan.x0, -plan.y0)
    cairo_scale(cr, plan.scale, plan.scale)
    draw(plan.style, cr, tolerance: 0.1 / plan.scale)
    guard let image = bitmap.makeImage() else { return nil }
    return Raster(image: image, rect: plan.rect)
  }

  /// Draws the fill, then the stroke, in user space (points).
  static func draw(_ style: ShapeStyle, _ cr: OpaquePointer, tolerance: CGFloat) {
    if let fill = style.fillColor {
      cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
      self.fill(style, cr)
    }
    if let stroke = style.strokeColor {
      cairo_set_source_rgba(cr, stroke.red, stroke.green, stroke.blue, stroke.alpha)
      self.stroke(style, cr, tolerance: tolerance)
    }
  }

  /// Fills the path with the context's source, in user space.
  static func fill(_ style: ShapeStyle, _ cr: OpaquePointer) {
    cairo_new_path(cr)
    style.path.addTo(cr)
    cairo_set_fill_rule(
      cr, style.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    cairo_fill(cr)
  }

  /// Strokes the path (its trimmed part, dashed) with the context's source,
  /// in user space.
  static func stroke(_ style: ShapeStyle, _ cr: OpaquePointer, tolerance: CGFloat) {
    cairo_new_path(cr)
    addStrokePath(style, cr, tolerance: tolerance)
    setStrokeParameters(style, cr)
    cairo_stroke(cr)
  }

  /// The path to stroke: all of it, or the part between `strokeStart` and `strokeEnd`.
  private static func addStrokePath(_ style: ShapeStyle, _ cr: OpaquePointer, tolerance: CGFloat) {
    if style.strokeStart <= 0 && style.strokeEnd >= 1 {
      style.path.addTo(cr)
      return
    }
    // Curves cut at the trim points: Cairo caps them along their tangents there.
    PathTrimming.trimmedPath(style.path, start: style.strokeStart, end: style.strokeEnd).addTo(cr)
  }

  private static func setStrokeParameters(_ style: ShapeStyle, _ cr: OpaquePointer) {
    cairo_set_line_width(cr, style.lineWidth)
    switch style.lineCap {
    case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
    case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
    default: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    }
    switch style.lineJoin {
    case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
    case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
    default: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
    }
    // Core Graphics and Cairo share PostScript's miter limit (miter length / line width).
    cairo_set_miter_limit(cr, max(style.miterLimit, 1))
    if let dashes = style.lineDashPattern, !dashes.isEmpty, dashes.allSatisfy({ $0 >= 0 }),
      dashes.reduce(0, +) > 0
    {
      // An odd count repeats, as in Core Graphics and Cairo.
      cairo_set_dash(cr, dashes.map { Double($0) }, Int32(dashes.count), style.lineDashPhase)
    } else {
      cairo_set_dash(cr, nil, 0, 0)
    }
  }

  /// What the fill and stroke can touch, in points.
  static func extents(_ style: ShapeStyle) -> CGRect? {
    guard let bitmap = CairoBitmap(width: 1, height: 1) else { return nil }
    let cr = bitmap.context
    var box = CGRect.null
    var x0 = 0.0
    var y0 = 0.0
    var x1 = 0.0
    var y1 = 0.0
    if style.fillColor != nil {
      style.path.addTo(cr)
      cairo_path_extents(cr, &x0, &y0, &x1, &y1)
      box = box.union(CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0))
      cairo_new_path(cr)
    }
    if style.strokeColor != nil {
      // The whole path's stroke bounds the trimmed one's.
      style.path.addTo(cr)
      setStrokeParameters(style, cr)
      cairo_set_dash(cr, nil, 0, 0)
      cairo_stroke_extents(cr, &x0, &y0, &x1, &y1)
      var stroke = CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
      // Caps at trim points may reach past the untrimmed path's ends.
      if style.strokeStart > 0 || style.strokeEnd < 1 {
        stroke = stroke.insetBy(dx: -style.lineWidth, dy: -style.lineWidth)
      }
      box = box.union(stroke)
      cairo_new_path(cr)
    }
    return box.isNull ? nil : box
  }
}
