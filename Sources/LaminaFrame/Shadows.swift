import Foundation
import Lamina

/// A shadow drawn from an offscreen rendering of the layer: its alpha,
/// blurred, tinted and offset (`Renderer+Shadows.swift`).
package struct ShadowBlur {
  /// Standard deviation of the Gaussian, in target pixels.
  package var sigma: Float
  /// The area rendered and blurred, in target pixels (the layer's drawing
  /// and the blur's reach around it).
  package var canvas: PixelRect
  /// Where the blurred canvas lands, relative to `canvas`, in target pixels.
  package var offset: (dx: Float, dy: Float)
  /// Premultiplied shadow color times `shadowOpacity`.
  package var color: SIMD4<Float>
}

/// Shadows. Fast path: when the layer's rendering is a rounded rect of one
/// alpha (an opaque background with everything inside it, or a background
/// alone, or a `shadowPath` that is a rect or rounded rect), the shadow is
/// one quad whose fragment shader integrates the Gaussian over the rounded
/// rect in the layer's own plane (`shape.glsl`): no offscreen pass, and the
/// shadow follows any transform. Otherwise the layer's rendering (or any
/// other `shadowPath`, filled by the shape rasterizer) is drawn offscreen
/// and blurred.
extension FrameBuilder {
  enum ShadowSource {
    case nothing
    case shape(RoundedRect, alpha: Float)
    /// Any other `shadowPath`: filled (nonzero winding) and blurred offscreen.
    case path(CGPath)
    case rendering
  }

  /// The command that draws `layer`'s shadow (behind `commands[start...]`,
  /// the layer's drawing), or nil.
  mutating func makeShadow(
    of layer: CALayer, toTarget: CATransform3D, flipped: Bool, from start: Int,
    in commands: [DrawCommand], extraShadowItems: inout [DrawItem]
  ) -> DrawCommand? {
    guard layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0,
      !layer.masksToBounds, start < commands.count || layer.shadowPath != nil
    else { return nil }
    let tint = premultiplied(color, opacity: layer.shadowOpacity)
    let sigma = max(0, layer.shadowRadius)
    let offset = layer.shadowOffset
    let sourceKind = Self.shadowSource(of: layer)
    switch sourceKind {
    case .nothing:
      return nil
    case .shape(var shape, let alpha):
      shape.rect = shape.rect.offsetBy(dx: offset.width, dy: offset.height)
      let reach = 3 * sigma + 1
      let quad = shape.rect.insetBy(dx: -reach, dy: -reach)
      let effect = ShapeEffect(shape: shape, mode: sigma > 0 ? .blur : .fill, width: Float(sigma))
      let color = tint * alpha
      // Under an opaque layer the shadow cannot show (the layer's opacity
      // applies to the two as one group): leave out the part
      // of the quad that the layer surely covers (its bounds inside the
      // corners, a couple of pixels in from its antialiased edge), and draw
      // the rest as four strips.
      var pieces: [(CGRect, UInt8)] = [(quad, 0b1111)]
      if alpha >= 1, layer.shadowPath == nil {
        let own = RoundedRect(layer: layer)
        let inset =
          CGFloat(own.radii.max()) + 2
          / max(Self.pixelsPerUnit(toTarget, own.rect.midX, own.rect.midY), 0.01)
        let hole = own.rect.insetBy(dx: inset, dy: inset).intersection(quad)
        if !hole.isNull, hole.width * hole.height > 0.2 * quad.width * quad.height {
          pieces = Self.frameStrips(outer: quad, hole: hole)
        }
      }
      var first: DrawCommand?
      for (rect, edges) in pieces where rect.width > 0 && rect.height > 0 {
        guard
          var item = makeItem(
            .solid, rect: rect, uv: (0, 0, 0, 0), toTarget: toTarget, color: color, name: layer.name
          )
        else { continue }
        item.shape = effect
        item.edgeMask = edges
        if first == nil { first = .item(item) } else { extraShadowItems.append(item) }
      }
      return first
    case .rendering, .path:
      // Under a perspective or a non-uniform stretch, offset and blur belong
      // in the layer's plane, not on the screen.
      if !Self.isSimilarity(toTarget),
        let planar = planeShadow(of: layer, toTarget: toTarget, flipped: flipped)
      {
        return planar
      }
      var source = Array(commands[start...])
      if case .path(let path) = sourceKind {
        // The path filled in black by the shape rasterizer (cached by
        // content, like any shape layer's bitmap), then blurred and tinted.
        let fill = CAShapeLayer()
        fill.bounds = layer.bounds
        fill.path = path
        fill.fillColor = .black
        source = []
        appendDrawnItems(fill, toTarget: toTarget, flipped: false, into: &source)
      }
      let sourceBounds = source.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) {
        $0.union($1.bounds)
      }
      guard !sourceBounds.isEmpty else { return nil }
      let b = layer.bounds
      let center = toTarget.apply(b.midX, b.midY)
      let moved = toTarget.apply(b.midX + offset.width, b.midY + offset.height)
      guard center.w > EdgeGeometry.nearW, moved.w > EdgeGeometry.nearW else { return nil }
      let dx = moved.x / moved.w - center.x / center.w
      let dy = moved.y / moved.w - center.y / center.w
      let sigmaPixels = sigma * Self.pixelsPerUnit(toTarget, b.midX, b.midY)
      let reach = Int(clamping: 3 * sigmaPixels, to: 0...(1 << 24), rounding: .up) + 1
      let canvas = PixelRect(
        x: sourceBounds.x - reach, y: sourceBounds.y - reach, width: sourceBounds.width + 2 * reach,
        height: sourceBounds.height + 2 * reach)
      let landed = PixelRect(
        enclosing: CGRect(
          x: CGFloat(canvas.x) + dx, y: CGFloat(canvas.y) + dy, width: CGFloat(canvas.width),
          height: CGFloat(canvas.height))
      ).intersection(targetBounds)
      guard !landed.isEmpty else { return nil }
      let group = makeGroup(
        source, bounds: landed, reason: "shadow of \(layer.name ?? "a layer") (blurred offscreen)")
      group.shadow = ShadowBlur(
        sigma: Float(sigmaPixels), canvas: canvas, offset: (Float(dx), Float(dy)), color: tint)
      return .group(group)
    }
  }

  /// True when `m` maps the plane to the target by a translation, rotation
  /// and uniform scale (possibly mirrored): a blur and an offset on the
  /// target are then the same as in the plane.
  static func isSimilarity(_ m: CATransform3D) -> Bool {
    guard m.m14 == 0, m.m24 == 0, m.m44 != 0 else { return false }
    let (a, b, c, d) = (m.m11, m.m12, m.m21, m.m22)
    let x = a * a + b * b
    let y = c * c + d * d
    return abs(x - y) <= 1e-6 * max(x, y) && abs(a * c + b * d) <= 1e-6 * max(x, y)
  }

  /// The shadow of a layer under a perspective (or a stretch), cast in its
  /// own plane as its content is: the layer is built again in its plane at
  /// the scale it is shown at, where its shadow is offset and blurred as on
  /// a flat screen; that shadow becomes a texture (`RasterPass`, cached by
  /// its draw list, so a turning layer renders it once) projected with the
  /// layer. Nil when it cannot be (a layer with a compositing filter, whose
  /// shadow is inside its blend group, or a shadow too large for a
  /// texture): the caller casts it on the target instead.
  mutating func planeShadow(of layer: CALayer, toTarget: CATransform3D, flipped: Bool)
    -> DrawCommand?
  {
    let scale = Self.shownScale(toTarget, layer.bounds)
    let (inner, base) = buildInPlane(layer, scale: scale, flipped: flipped)
    // The layer's own shadow comes first in its plane rendering.
    guard case .group(let shadow)? = inner.first, shadow.shadow != nil else { return nil }
    let extent = shadow.bounds
    guard !extent.isEmpty, extent.width <= Self.maxRasterSide,
      extent.height <= Self.maxRasterSide
    else { return nil }
    let (pass, rect) = Self.planePass(
      [.group(shadow)], extent: extent, scale: scale, groupBase: base, salt: "plane shadow")
    return makeItem(
      .raster(pass), rect: rect, uv: (0, 0, 1, 1), toTarget: toTarget,
      color: SIMD4(repeating: 1), name: layer.name
    ).map { .item($0) }
  }

  /// What casts the shadow of `layer`.
  static func shadowSource(of layer: CALayer) -> ShadowSource {
    if let path = layer.shadowPath {
      if let shape = roundedRect(of: path) { return .shape(shape, alpha: 1) }
      let box = path.boundingBoxOfPath
      return box.isNull || box.isEmpty ? .nothing : .path(path)
    }
    // Filters come before the shadow (it is cast from the filtered
    // rendering: a blurred layer casts a blurred shadow).
    if layer.mask != nil || !(layer.filters?.isEmpty ?? true) { return .rendering }
    // A layer that draws content of its own (a path, text, a gradient,
    // particles, tiles, GL) casts its shadow from that drawing.
    if layer is CAShapeLayer || layer is CATextLayer || layer is CAGradientLayer
      || layer is CAEmitterLayer || layer is CATiledLayer || layer is CAOpenGLLayer
    {
      return .rendering
    }
    let shape = RoundedRect(layer: layer)
    let alpha = Float(layer.backgroundColor?.alpha ?? 0)
    let visibleSublayers = layer.storedSublayersForRendering.filter { !drawsNothing($0) }
    let hasContents = layer.contents != nil
    let hasBorder = layer.borderWidth > 0 && (layer.borderColor?.alpha ?? 0) > 0
    if !hasContents && visibleSublayers.isEmpty && !hasBorder {
      return alpha > 0 ? .shape(shape, alpha: alpha) : .nothing
    }
    // An opaque cover of the rounded bounds: the background, or a sublayer
    // laid exactly over them with the same corners (a card's content view).
    // Whatever else lies inside it leaves the alpha at 1.
    var cover: CALayer?
    if alpha < 1 {
      cover = visibleSublayers.first { sublayer in
        (sublayer.backgroundColor?.alpha ?? 0) >= 1 && sublayer.opacity >= 1
          && CATransform3DIsIdentity(sublayer.transform) && sublayer.frame == layer.bounds
          && RoundedRect(layer: sublayer).radii == shape.radii && sublayer.shadowOpacity == 0
          && sublayer.mask == nil
          && (Self.clipsToBounds(sublayer)
            || (sublayer.contents == nil && sublayer.storedSublayersForRendering.allSatisfy { drawsNothing($0) }))
      }
      guard cover != nil else { return .rendering }
    }
    if let image = layer.contents as? CGImage {
      guard let rect = ContentsLayout(layer: layer, image: image).rect,
        inside(rect, shape)
      else { return .rendering }
    } else if hasContents {
      return .rendering
    }
    for sublayer in visibleSublayers where sublayer !== cover {
      guard drawsInside(sublayer, frame: sublayer.frame, shape) else { return .rendering }
    }
    return .shape(shape, alpha: 1)
  }

  /// Whether `sublayer`, at `frame` in the shadow's layer, draws only
  /// inside `shape` and casts no shadow of its own: its frame inside, and
  /// it clips its subtree or that draws nothing; or a container that
  /// draws nothing of its own, untransformed, whose sublayers draw inside
  /// (the identity container of the finding wrap-container seed 11: its
  /// frame reached past the layer, its only sublayer drew nothing, and the
  /// shadow went to the blurred path, 1/255 off the closed form per copy).
  /// Looks `depth` levels down.
  static func drawsInside(
    _ sublayer: CALayer, frame: CGRect, _ shape: RoundedRect, depth: Int = 8
  ) -> Bool {
    guard sublayer.shadowOpacity == 0, !frame.isNull else { return false }
    if inside(frame, shape),
      clipsToBounds(sublayer)
        || sublayer.storedSublayersForRendering.allSatisfy({ drawsNothing($0) })
    {
      return true
    }
    guard depth > 0, drawsNothingOfItsOwn(sublayer), sublayer.mask == nil,
      CATransform3DIsIdentity(sublayer.transform),
      CATransform3DIsIdentity(sublayer.sublayerTransform), !sublayer.isGeometryFlipped
    else { return false }
    // Its sublayers' frames, in the shadow's layer.
    let dx = frame.minX - sublayer.bounds.minX
    let dy = frame.minY - sublayer.bounds.minY
    return sublayer.storedSublayersForRendering.allSatisfy {
      drawsNothing($0)
        || drawsInside($0, frame: $0.frame.offsetBy(dx: dx, dy: dy), shape, depth: depth - 1)
    }
  }

  /// Whether `layer` draws nothing itself (what its sublayers draw aside),
  /// and changes nothing of what they draw but their opacity: as
  /// `drawsNothing` asks of it, without its sublayers.
  static func drawsNothingOfItsOwn(_ layer: CALayer) -> Bool {
    drawsNoContent(layer) && layer.delegate == nil && layer.contents == nil
      && (layer.backgroundColor?.alpha ?? 0) <= 0
      && (layer.borderWidth <= 0 || (layer.borderColor?.alpha ?? 0) <= 0)
      && (layer.filters?.isEmpty ?? true) && (layer.backgroundFilters?.isEmpty ?? true)
      && layer.compositingFilter == nil
  }

  /// Whether `layer` keeps its subtree inside its bounds: `masksToBounds`,
  /// which a `CATransformLayer` ignores, as Core Animation does (its
  /// sublayers drew outside its bounds while its superlayer's shadow was
  /// cast in closed form from the bounds alone: the finding wrap-container
  /// seed 778048).
  static func clipsToBounds(_ layer: CALayer) -> Bool {
    layer.masksToBounds && !(layer is CATransformLayer)
  }

  /// Whether `layer` and its sublayers add nothing to the alpha a shadow is
  /// cast from: hidden, transparent, or a layer that draws no content of its
  /// own (`drawsNoContent`) with no background,
  /// contents, border, shadow, delegate, mask or filters whose sublayers draw
  /// nothing either (an empty container). Such layers leave the closed-form
  /// shadow exact, as Core Animation casts the shadow of what is drawn.
  /// Looks `depth` levels down; deeper trees count as drawing.
  static func drawsNothing(_ layer: CALayer, depth: Int = 8) -> Bool {
    if layer.isHidden || layer.opacity <= 0 { return true }
    guard depth > 0, drawsNoContent(layer) || drawsOnlySublayers(layer), layer.delegate == nil,
      layer.contents == nil, (layer.backgroundColor?.alpha ?? 0) <= 0,
      layer.borderWidth <= 0 || (layer.borderColor?.alpha ?? 0) <= 0,
      layer.shadowOpacity <= 0, layer.mask == nil, layer.filters?.isEmpty ?? true,
      layer.backgroundFilters?.isEmpty ?? true, layer.compositingFilter == nil
    else { return false }
    return layer.storedSublayersForRendering.allSatisfy { drawsNothing($0, depth: depth - 1) }
  }

  /// A replicator, transform or scroll layer: it draws its sublayers
  /// (copied, in 3D, scrolled) and nothing else of its own, so with
  /// sublayers that draw nothing it draws nothing. (An empty replicator
  /// inserted under a layer sent its shadow offscreen: finding
  /// empty-replicator-sends-shadow-offscreen.) Not a container for
  /// `drawsInside`, which places sublayers by their frames alone.
  private static func drawsOnlySublayers(_ layer: CALayer) -> Bool {
    let kind = type(of: layer)
    return kind === CAReplicatorLayer.self || kind === CATransformLayer.self
      || kind === CAScrollLayer.self
  }

  /// A plain layer, a text layer with no string, a shape layer with no
  /// path or a gradient layer with no colors: classes that draw nothing of
  /// their own. (A gradient without colors counted as drawing: an empty one
  /// inserted under a layer sent its shadow from the closed form to the
  /// blurred rendering, whose area is a pixel wider, and a root filter
  /// that biases alpha filled that pixel: finding
  /// empty-gradient-sends-shadow-offscreen.)
  private static func drawsNoContent(_ layer: CALayer) -> Bool {
    if type(of: layer) === CALayer.self { return true }
    if type(of: layer) === CAGradientLayer.self, let gradient = layer as? CAGradientLayer {
      return gradient.cgColors.isEmpty
    }
    if type(of: layer) === CATextLayer.self, let text = layer as? CATextLayer {
      if text.string == nil { return true }
      if let string = text.string as? String { return string.isEmpty }
      if let string = text.string as? NSAttributedString { return string.length == 0 }
      return false
    }
    if type(of: layer) === CAShapeLayer.self, let shape = layer as? CAShapeLayer {
      return shape.path == nil
    }
    return false
  }

  private static func inside(_ rect: CGRect, _ shape: RoundedRect) -> Bool {
    EdgeGeometry.corners(rect).allSatisfy { contains(shape, Double($0.x), Double($0.y)) }
  }

  /// A rect, rounded rect or circle path, recognized by its elements.
  static func roundedRect(of path: CGPath) -> RoundedRect? {
    let box = path.boundingBoxOfPath
    guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
    if path.elements == CGPath(rect: box).elements { return RoundedRect(rect: box) }
    if box.width == box.height, path.elements == CGPath(ellipseIn: box).elements {
      return RoundedRect(rect: box, radii: SIMD4(repeating: Float(box.width / 2)))
    }
    if isCircle(path, in: box) {
      return RoundedRect(rect: box, radii: SIMD4(repeating: Float(box.width / 2)))
    }
    if case .moveTo(let p) = path.elements.first {
      for r in [p.x - box.minX, p.y - box.minY, box.maxX - p.x, box.maxY - p.y] where r > 0 {
        if path.elements == CGPath(roundedRect: box, cornerWidth: r, cornerHeight: r).elements {
          return RoundedRect(rect: box, radii: SIMD4(repeating: Float(r)))
        }
      }
    }
    return nil
  }

  /// True for one closed subpath whose every point lies on the circle
  /// inscribed in `box` (within a hundredth of the radius): arcs written as
  /// SVG `A` commands, or curves.
  private static func isCircle(_ path: CGPath, in box: CGRect) -> Bool {
    guard abs(box.width - box.height) <= box.width * 1e-3 else { return false }
    let polylines = path.flattened(tolerance: box.width * 1e-3)
    guard polylines.count == 1, let points = polylines.first?.points, points.count >= 8 else {
      return false
    }
    let r = box.width / 2
    return points.allSatisfy { p in
      abs(hypot(p.x - box.midX, p.y - box.midY) - r) <= r * 0.01
    }
  }

  /// Target pixels per unit of a plane near (x, y): the square root of the
  /// Jacobian's determinant.
  static func pixelsPerUnit(_ m: CATransform3D, _ x: CGFloat, _ y: CGFloat) -> CGFloat {
    let q = m.apply(x, y)
    guard q.w > EdgeGeometry.nearW else { return 1 }
    let w2 = q.w * q.w
    let a = (m.m11 * q.w - q.x * m.m14) / w2
    let b = (m.m21 * q.w - q.x * m.m24) / w2
    let c = (m.m12 * q.w - q.y * m.m14) / w2
    let d = (m.m22 * q.w - q.y * m.m24) / w2
    return abs(a * d - b * c).squareRoot()
  }
}
