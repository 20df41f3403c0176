import Foundation
import Lamina

/// Turns a layer tree into a `Frame`: one walk of the tree computes every
/// layer's plane-to-target matrix, opacity and order, and emits draw items
/// back to front.
///
/// Core Animation's rules, as implemented here:
/// - a layer maps into its superlayer by `transformToSuperlayer`, and the
///   superlayer applies `transformForSublayers` (its `sublayerTransform`
///   about its anchor point) before its own transform;
/// - every layer flattens its subtree into its own plane (z is dropped), so a
///   sublayer's 3D transform changes its projected shape but never lets it
///   pierce its siblings; a `CATransformLayer` does not flatten, and its
///   sublayers are ordered by depth in the nearest flattening ancestor;
/// - siblings draw in order of increasing `zPosition`, stable in sublayer order;
/// - `opacity` is group opacity: an offscreen pass only when the subtree's
///   items overlap each other, otherwise the opacity is multiplied into them.
public struct FrameBuilder {
  /// Target size in pixels.
  public let width: Int, height: Int
  /// Maps canvas points to target pixels (the canvas scale, and a tile offset).
  let canvasToPixels: CATransform3D
  let targetBounds: PixelRect
  private var nextGroupID = 0

  /// Items closer than this (in homogeneous w) to the eye plane are clipped.
  static let nearW: CGFloat = 1e-4
  /// Beyond this many items, an opacity group is assumed to overlap itself.
  static let overlapCheckLimit = 256

  /// A builder for a canvas of `size` points rendered at `scale` pixels per point.
  public init(size: CGSize, scale: CGFloat) {
    width = Int((size.width * scale).rounded())
    height = Int((size.height * scale).rounded())
    canvasToPixels = CATransform3DMakeScale(scale, scale, 1)
    targetBounds = PixelRect(x: 0, y: 0, width: width, height: height)
  }

  /// A builder that stretches a canvas of `size` points to exactly
  /// `pixelWidth`×`pixelHeight` pixels (the benchmark's `--size`).
  public init(size: CGSize, pixelWidth: Int, pixelHeight: Int) {
    width = pixelWidth
    height = pixelHeight
    canvasToPixels = CATransform3DMakeScale(
      CGFloat(pixelWidth) / max(size.width, 1), CGFloat(pixelHeight) / max(size.height, 1), 1)
    targetBounds = PixelRect(x: 0, y: 0, width: width, height: height)
  }

  /// Builds the frame for `root`, laid on a canvas whose background is `background`.
  public mutating func build(root: CALayer, background: CGColor?) -> Frame {
    nextGroupID = 0
    let commands = visit(root, parentToTarget: canvasToPixels, parentSublayers: nil, flipped: false)
    return Frame(
      width: width, height: height, background: premultiplied(background, opacity: 1),
      commands: commands)
  }

  // MARK: The walk

  /// The draw commands of `layer` and its subtree, `layer`'s opacity applied.
  /// - Parameters:
  ///   - parentToTarget: maps the superlayer's (flattened) plane to target pixels.
  ///   - parentSublayers: the superlayer's `transformForSublayers` (nil for the root).
  ///   - flipped: an odd number of ancestors flip their sublayers' geometry;
  ///     contents images are then flipped back so that they stay upright.
  private mutating func visit(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool
  ) -> [DrawCommand] {
    guard !layer.isHidden, layer.opacity > 0 else { return [] }
    var local = layer.transformToSuperlayer
    if let parentSublayers { local = local.concatenating(parentSublayers) }
    // The layer's plane flattens into the parent's: z drops, x, y, w stay.
    let toTarget = local.flattened.concatenating(parentToTarget)
    if layer is CATransformLayer {
      return transformLayerCommands(
        layer, local: local, parentToTarget: parentToTarget, flipped: flipped)
    }
    var commands = ownCommands(layer, toTarget: toTarget, flipped: flipped)
    let sublayerTransform = layer.transformForSublayers
    let sublayersFlipped = flipped != layer.isGeometryFlipped
    for sublayer in drawingOrder(layer.storedSublayersForRendering) {
      commands += visit(
        sublayer, parentToTarget: toTarget, parentSublayers: sublayerTransform,
        flipped: sublayersFlipped)
    }
    return applyOpacity(layer.opacity, to: commands)
  }

  /// A `CATransformLayer` and its subtree: the planes of its sublayers (and
  /// of nested transform layers) share one 3D space, sorted back to front.
  private mutating func transformLayerCommands(
    _ layer: CALayer, local: CATransform3D, parentToTarget: CATransform3D, flipped: Bool
  ) -> [DrawCommand] {
    var planes: [(depth: CGFloat, order: Int, commands: [DrawCommand])] = []
    collectPlanes(
      of: layer, toContext: local, parentToTarget: parentToTarget, opacity: 1,
      flipped: flipped != layer.isGeometryFlipped, into: &planes)
    // Back to front: smaller z is farther from the viewer. Equal depths keep
    // sublayer order (Core Animation's rule for coplanar layers).
    planes.sort { $0.depth != $1.depth ? $0.depth < $1.depth : $0.order < $1.order }
    let commands = planes.flatMap(\.commands)
    return applyOpacity(layer.opacity, to: commands)
  }

  /// Gathers the planes inside a 3D context. `toContext` maps `layer`'s space
  /// to the context's space (the flattening ancestor's, before flattening).
  private mutating func collectPlanes(
    of layer: CALayer, toContext: CATransform3D, parentToTarget: CATransform3D,
    opacity: Float, flipped: Bool, into planes: inout [(depth: CGFloat, order: Int, commands: [DrawCommand])]
  ) {
    let sublayerTransform = layer.transformForSublayers
    for sublayer in layer.storedSublayersForRendering where !sublayer.isHidden && sublayer.opacity > 0 {
      let childToContext = sublayer.transformToSuperlayer
        .concatenating(sublayerTransform).concatenating(toContext)
      if sublayer is CATransformLayer {
        // A transform layer's opacity multiplies each of its sublayers on its own.
        collectPlanes(
          of: sublayer, toContext: childToContext, parentToTarget: parentToTarget,
          opacity: opacity * sublayer.opacity, flipped: flipped != sublayer.isGeometryFlipped,
          into: &planes)
        continue
      }
      let toTarget = childToContext.flattened.concatenating(parentToTarget)
      var commands = ownCommands(sublayer, toTarget: toTarget, flipped: flipped)
      let childSublayers = sublayer.transformForSublayers
      let childFlipped = flipped != sublayer.isGeometryFlipped
      for grandchild in drawingOrder(sublayer.storedSublayersForRendering) {
        commands += visit(
          grandchild, parentToTarget: toTarget, parentSublayers: childSublayers,
          flipped: childFlipped)
      }
      commands = applyOpacity(sublayer.opacity * opacity, to: commands)
      let b = sublayer.bounds
      let center = childToContext.apply(b.midX, b.midY)
      let depth = center.w != 0 ? center.z / center.w : center.z
      planes.append((depth, planes.count, commands))
    }
  }

  /// Siblings by increasing `zPosition`, stable in sublayer order.
  private func drawingOrder(_ layers: [CALayer]) -> [CALayer] {
    var ordered = true
    for i in layers.indices.dropFirst() where layers[i].zPosition < layers[i - 1].zPosition {
      ordered = false
      break
    }
    if ordered { return layers }
    return layers.enumerated().sorted {
      $0.element.zPosition != $1.element.zPosition
        ? $0.element.zPosition < $1.element.zPosition : $0.offset < $1.offset
    }.map(\.element)
  }

  // MARK: Opacity groups

  private mutating func applyOpacity(_ opacity: Float, to commands: [DrawCommand]) -> [DrawCommand] {
    guard opacity < 1, !commands.isEmpty else { return commands }
    if commands.count == 1 || !overlapsItself(commands) {
      return commands.map { var c = $0; c.multiplyOpacity(opacity); return c }
    }
    let bounds = commands.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
    nextGroupID += 1
    let group = GroupPass(
      id: nextGroupID, bounds: bounds, opacity: opacity, commands: commands,
      reason: "group opacity over \(commands.count) overlapping commands")
    return [.group(group)]
  }

  /// True when any two commands may touch the same pixel.
  private func overlapsItself(_ commands: [DrawCommand]) -> Bool {
    if commands.count > Self.overlapCheckLimit { return true }
    let rects = commands.map(\.bounds)
    for i in rects.indices {
      for j in rects.indices where j > i && rects[i].intersects(rects[j]) { return true }
    }
    return false
  }

  // MARK: A layer's own drawing

  /// Background and contents of one layer (in that order).
  private func ownCommands(_ layer: CALayer, toTarget: CATransform3D, flipped: Bool)
    -> [DrawCommand]
  {
    let bounds = layer.bounds
    if !layer.isDoubleSided && isBackFacing(toTarget, bounds: bounds) { return [] }
    var commands: [DrawCommand] = []
    if let background = layer.backgroundColor, background.alpha > 0, bounds.width > 0,
      bounds.height > 0
    {
      if let item = makeItem(
        .solid, rect: bounds, uv: (0, 0, 0, 0), toTarget: toTarget,
        color: premultiplied(background, opacity: 1), name: layer.name)
      {
        commands.append(.item(item))
      }
    }
    if let image = layer.contents as? CGImage {
      let layout = ContentsLayout(layer: layer, image: image)
      if let rect = layout.rect, rect.width > 0, rect.height > 0 {
        let sampler = SamplerKey(
          minification: layer.minificationFilter, magnification: layer.magnificationFilter)
        let uv = flipped ? (layout.uv.0, layout.uv.3, layout.uv.2, layout.uv.1) : layout.uv
        if let item = makeItem(
          .image(image, sampler), rect: rect, uv: uv, toTarget: toTarget,
          color: SIMD4(repeating: 1), name: layer.name)
        {
          commands.append(.item(item))
        }
      }
    }
    return commands
  }

  /// True when the layer's plane shows its back: its projection is mirrored.
  private func isBackFacing(_ m: CATransform3D, bounds: CGRect) -> Bool {
    let a = m.apply(bounds.minX, bounds.minY), b = m.apply(bounds.maxX, bounds.minY)
    let c = m.apply(bounds.minX, bounds.maxY)
    // Orientation of the projected corners, sign-corrected by the w's.
    let det = (b.x * c.y - b.y * c.x) * a.w - (a.x * c.y - a.y * c.x) * b.w + (a.x * b.y - a.y * b.x) * c.w
    return det < 0
  }

  /// An item for `rect` of a layer, clipped where it crosses behind the eye;
  /// nil when nothing of it lands in the target.
  private func makeItem(
    _ material: Material, rect: CGRect, uv: (Float, Float, Float, Float),
    toTarget m: CATransform3D, color: SIMD4<Float>, name: String?
  ) -> DrawItem? {
    var polygon = [
      CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
      CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY),
    ]
    if m.m14 != 0 || m.m24 != 0 || m.m44 <= Self.nearW {
      polygon = clip(polygon, a: m.m14, b: m.m24, c: m.m44 - Self.nearW)
      if polygon.count < 3 { return nil }
    }
    var minX = CGFloat.infinity, minY = CGFloat.infinity
    var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
    for p in polygon {
      let q = m.apply(p.x, p.y)
      let x = q.x / q.w, y = q.y / q.w
      minX = min(minX, x); maxX = max(maxX, x)
      minY = min(minY, y); maxY = max(maxY, y)
    }
    guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
    let bounds = PixelRect(enclosing: CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY))
      .intersection(targetBounds)
    guard !bounds.isEmpty else { return nil }
    return DrawItem(
      material: material, polygon: polygon, rect: rect, uv: uv, matrix: m, color: color,
      bounds: bounds, layerName: name)
  }

  /// Sutherland–Hodgman: keeps the part of a convex polygon where a·x + b·y + c ≥ 0.
  private func clip(_ polygon: [CGPoint], a: CGFloat, b: CGFloat, c: CGFloat) -> [CGPoint] {
    var out: [CGPoint] = []
    for i in polygon.indices {
      let p = polygon[i], q = polygon[(i + 1) % polygon.count]
      let dp = a * p.x + b * p.y + c, dq = a * q.x + b * q.y + c
      if dp >= 0 { out.append(p) }
      if (dp >= 0) != (dq >= 0) {
        let t = dp / (dp - dq)
        out.append(CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
      }
    }
    return out
  }
}

/// A color premultiplied by its alpha and an opacity.
func premultiplied(_ color: CGColor?, opacity: Float) -> SIMD4<Float> {
  guard let color else { return .zero }
  let a = Float(color.alpha) * opacity
  return SIMD4(Float(color.red) * a, Float(color.green) * a, Float(color.blue) * a, a)
}

extension CALayer {
  /// The sublayers the renderer walks (the mask is not one of them).
  var storedSublayersForRendering: [CALayer] { sublayers ?? [] }
}
