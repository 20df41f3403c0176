import CCairo
import Foundation
import Lamina

/// `CGContext` drawn by Cairo into an ARGB32 bitmap. Cairo's model is Core
/// Graphics' (a current path built in user space under a transformation
/// matrix, a saved graphics-state stack, clip by path), so each call maps
/// to one or two Cairo calls; fill and stroke colors, which Cairo does not
/// keep apart, live in the saved state here.
final class CairoContext: CGContext {
  private let bitmap: CairoBitmap
  private var cr: OpaquePointer { bitmap.context }
  private struct State {
    var fill = CGColor.black
    var stroke = CGColor.black
    var alpha: CGFloat = 1
    var textMode = CGTextDrawingMode.fill
    var shouldAntialias = true
  }
  private var state = State()
  private var saved: [State] = []
  /// The context's `setAllowsAntialiasing(_:)`, which the graphics state does not keep.
  private var allowsAntialiasing = true

  init?(pixelWidth: Int, pixelHeight: Int) {
    guard let bitmap = CairoBitmap(width: pixelWidth, height: pixelHeight) else { return nil }
    self.bitmap = bitmap
    super.init(width: pixelWidth, height: pixelHeight)
    cairo_set_line_width(cr, 1)
    cairo_set_miter_limit(cr, 10)
    cairoDrawing = { [unowned self] draw in self.drawWithCairo(draw) }
  }

  /// Core Text's drawing: `draw` paints with Cairo (Pango's glyphs), with
  /// the fill color as the source and the text drawing mode and stroke
  /// color given, multiplied by the context's alpha. The current path is
  /// kept, as drawing text in Core Graphics keeps it.
  private func drawWithCairo(_ draw: (OpaquePointer, TextPaint) -> Void) {
    let path = cairo_copy_path(cr)
    defer {
      cairo_new_path(cr)
      if let path {
        if path.pointee.status == CAIRO_STATUS_SUCCESS { cairo_append_path(cr, path) }
        cairo_path_destroy(path)
      }
    }
    cairo_save(cr)
    defer { cairo_restore(cr) }
    let fill = state.fill
    cairo_set_source_rgba(cr, fill.red, fill.green, fill.blue, fill.alpha)
    let paint = TextPaint(mode: state.textMode, stroke: state.stroke)
    guard state.alpha < 1 else { return draw(cr, paint) }
    cairo_push_group(cr)
    draw(cr, paint)
    cairo_pop_group_to_source(cr)
    cairo_paint_with_alpha(cr, state.alpha)
  }

  override func saveGState() {
    cairo_save(cr)
    saved.append(state)
  }

  override func restoreGState() {
    guard let last = saved.popLast() else { return }
    cairo_restore(cr)
    state = last
    // Cairo restored the antialias of the save; `allows…` may have changed since.
    applyAntialias()
  }

  /// Cairo's antialias for fills, strokes and clips: on while the context
  /// allows it and the state asks for it, as Core Graphics decides.
  private func applyAntialias() {
    let on = allowsAntialiasing && state.shouldAntialias
    cairo_set_antialias(cr, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
  }

  override func setAllowsAntialiasing(_ allows: Bool) {
    allowsAntialiasing = allows
    applyAntialias()
  }
  override func setShouldAntialias(_ should: Bool) {
    state.shouldAntialias = should
    applyAntialias()
  }

  override func setFillColor(_ color: CGColor) { state.fill = color }
  override func setStrokeColor(_ color: CGColor) { state.stroke = color }
  override func setTextDrawingMode(_ mode: CGTextDrawingMode) { state.textMode = mode }
  override func setLineWidth(_ width: CGFloat) { cairo_set_line_width(cr, max(width, 0)) }
  override func setLineCap(_ cap: CGLineCap) {
    cairo_set_line_cap(
      cr,
      cap == .round
        ? CAIRO_LINE_CAP_ROUND : cap == .square ? CAIRO_LINE_CAP_SQUARE : CAIRO_LINE_CAP_BUTT)
  }
  override func setLineJoin(_ join: CGLineJoin) {
    cairo_set_line_join(
      cr,
      join == .round
        ? CAIRO_LINE_JOIN_ROUND : join == .bevel ? CAIRO_LINE_JOIN_BEVEL : CAIRO_LINE_JOIN_MITER)
  }
  override func setMiterLimit(_ limit: CGFloat) { cairo_set_miter_limit(cr, max(limit, 1)) }
  override func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
    if lengths.isEmpty || lengths.contains(where: { $0 < 0 }) || lengths.reduce(0, +) <= 0 {
      cairo_set_dash(cr, nil, 0, 0)
    } else {
      cairo_set_dash(cr, lengths.map { Double($0) }, Int32(lengths.count), phase)
    }
  }
  override func setAlpha(_ alpha: CGFloat) { state.alpha = max(0, min(alpha, 1)) }

  override func translateBy(x: CGFloat, y: CGFloat) { cairo_translate(cr, x, y) }
  override func scaleBy(x: CGFloat, y: CGFloat) { cairo_scale(cr, x, y) }
  override func rotate(by angle: CGFloat) { cairo_rotate(cr, angle) }
  override func concatenate(_ t: CGAffineTransform) {
    var m = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
    cairo_transform(cr, &m)
  }

  override func beginPath() { cairo_new_path(cr) }
  override func move(to p: CGPoint) { cairo_move_to(cr, p.x, p.y) }
  override func addLine(to p: CGPoint) { cairo_line_to(cr, p.x, p.y) }
  override func addQuadCurve(to end: CGPoint, control: CGPoint) {
    let path = CGMutablePath()
    path.move(to: currentPoint)
    path.addQuadCurve(to: end, control: control)
    path.addTo(cr, skippingMove: true)
  }
  override func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
    cairo_curve_to(cr, control1.x, control1.y, control2.x, control2.y, end.x, end.y)
  }
  override func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool
  ) {
    // Core Graphics' `clockwise` runs through decreasing angles, as Cairo's arc_negative.
    if clockwise {
      cairo_arc_negative(cr, center.x, center.y, radius, startAngle, endAngle)
    } else {
      cairo_arc(cr, center.x, center.y, radius, startAngle, endAngle)
    }
  }
  override func addRect(_ r: CGRect) { cairo_rectangle(cr, r.minX, r.minY, r.width, r.height) }
  override func addEllipse(in r: CGRect) { CGPath(ellipseIn: r).addTo(cr) }
  override func addPath(_ path: CGPath) { path.addTo(cr) }
  override func closePath() { cairo_close_path(cr) }

  private var currentPoint: CGPoint {
    var x = 0.0
    var y = 0.0
    cairo_get_current_point(cr, &x, &y)
    return CGPoint(x: x, y: y)
  }

  private func source(_ c: CGColor) {
    cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * state.alpha)
  }

  override func fillPath(using rule: CGPathFillRule) {
    cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    source(state.fill)
    cairo_fill(cr)
  }
  override func strokePath() {
    source(state.stroke)
    cairo_stroke(cr)
  }
  override func drawPath(using mode: CGPathDrawingMode) {
    switch mode {
    case .fill, .eoFill:
      fillPath(using: mode == .eoFill ? .evenOdd : .winding)
    case .stroke:
      strokePath()
    case .fillStroke, .eoFillStroke:
      cairo_set_fill_rule(
        cr, mode == .eoFillStroke ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
      source(state.fill)
      cairo_fill_preserve(cr)
      strokePath()
    }
  }
  override func fill(_ r: CGRect) {
    cairo_new_path(cr)
    addRect(r)
    fillPath(using: .winding)
  }
  override func stroke(_ r: CGRect) {
    cairo_new_path(cr)
    addRect(r)
    strokePath()
  }
  override func fillEllipse(in r: CGRect) {
    cairo_new_path(cr)
    addEllipse(in: r)
    fillPath(using: .winding)
  }
  override func strokeEllipse(in r: CGRect) {
    cairo_new_path(cr)
    addEllipse(in: r)
    strokePath()
  }
  override func strokeLineSegments(between points: [CGPoint]) {
    cairo_new_path(cr)
    var i = 0
    while i + 1 < points.count {
      move(to: points[i])
      addLine(to: points[i + 1])
      i += 2
    }
    strokePath()
  }
  override func clear(_ r: CGRect) {
    cairo_save(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
    cairo_new_path(cr)
    addRect(r)
    cairo_fill(cr)
    cairo_restore(cr)
  }

  override func clip(using rule: CGPathFillRule) {
    cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    cairo_clip(cr)
  }
  override func clip(to r: CGRect) {
    cairo_new_path(cr)
    addRect(r)
    clip(using: .winding)
  }

  override func draw(_ image: CGImage, in rect: CGRect) {
    guard rect.width != 0, rect.height != 0, let surface = Self.surface(image) else { return }
    defer { cairo_surface_destroy(surface) }
    cairo_save(cr)
    cairo_translate(cr, rect.minX, rect.minY)
    cairo_scale(cr, rect.width / CGFloat(image.width), rect.height / CGFloat(image.height))
    cairo_set_source_surface(cr, surface, 0, 0)
    cairo_pattern_set_extend(cairo_get_source(cr), CAIRO_EXTEND_PAD)
    cairo_new_path(cr)
    cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
    cairo_clip(cr)
    cairo_paint_with_alpha(cr, state.alpha)
    cairo_restore(cr)
  }

  override func drawLinearGradient(
    _ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions
  ) {
    guard let pattern = cairo_pattern_create_linear(start.x, start.y, end.x, end.y) else { return }
    paint(gradient, pattern, options)
  }

  override func drawRadialGradient(
    _ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint,
    endRadius: CGFloat, options: CGGradientDrawingOptions
  ) {
    guard
      let pattern = cairo_pattern_create_radial(
        startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius)
    else { return }
    paint(gradient, pattern, options)
  }

  /// Paints a gradient over the clip. Core Graphics draws nothing beyond the
  /// ends unless asked; Cairo extends both ends or neither, so either option
  /// extends both (a documented difference).
  private func paint(
    _ gradient: CGGradient, _ pattern: OpaquePointer, _ options: CGGradientDrawingOptions
  ) {
    defer { cairo_pattern_destroy(pattern) }
    for (color, location) in zip(gradient.colors, gradient.locations) {
      cairo_pattern_add_color_stop_rgba(
        pattern, Double(location), color.red, color.green, color.blue, color.alpha)
    }
    let extend =
      options.contains(.drawsBeforeStartLocation) || options.contains(.drawsAfterEndLocation)
    cairo_pattern_set_extend(pattern, extend ? CAIRO_EXTEND_PAD : CAIRO_EXTEND_NONE)
    cairo_save(cr)
    cairo_set_source(cr, pattern)
    cairo_paint_with_alpha(cr, state.alpha)
    cairo_restore(cr)
  }

  override func makeImage() -> CGImage? { bitmap.makeImage() }

  /// A text layer's string, laid out in its bounds in user space (the
  /// layer's bounds space, as `draw(in:)` receives it).
  func drawText(of layer: CATextLayer) {
    guard let style = TextStyle(layer) else { return }
    cairo_save(cr)
    cairo_translate(cr, layer.bounds.minX, layer.bounds.minY)
    TextRasterizer.show(style, in: cr, alpha: state.alpha)
    cairo_restore(cr)
  }

  /// A Cairo surface with `image`'s pixels, premultiplied.
  static func surface(_ image: CGImage) -> OpaquePointer? {
    guard
      let surface = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(image.width), Int32(image.height)),
      cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      let data = cairo_image_surface_get_data(surface)
    else { return nil }
    let stride = Int(cairo_image_surface_get_stride(surface))
    image.pixels.withUnsafeBufferPointer { p in
      for y in 0..<image.height {
        let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<image.width {
          let i = (y * image.width + x) * 4
          let a = UInt32(p[i + 3])
          func premultiply(_ c: UInt8) -> UInt32 {
            let v = UInt32(c) * a + 128
            return (v + (v >> 8)) >> 8
          }
          row[x] =
            a << 24 | premultiply(p[i]) << 16 | premultiply(p[i + 1]) << 8 | premultiply(p[i + 2])
        }
      }
    }
    cairo_surface_mark_dirty(surface)
    return surface
  }
}

/// Registers Lamina's drawing backend: `CGContext.bitmap(…)`, and so
/// `CALayer.display()`, draw with Cairo from then on. Idempotent.
public enum LaminaDraw {
  public static func install() { _ = installed }

  private static let installed: Bool = {
    CGContext.bitmapContextMaker = { CairoContext(pixelWidth: $0, pixelHeight: $1) }
    CGContext.textDrawer = { context, layer in (context as? CairoContext)?.drawText(of: layer) }
    return true
  }()
}
