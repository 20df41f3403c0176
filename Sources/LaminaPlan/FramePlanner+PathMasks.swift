import Foundation
import Lamina
import LaminaFrame

/// Masks that are one path. A masked group composites as its rendering
/// times its mask's alpha; when the mask's rendering is one path item (a
/// Lottie layer's mask, the shape of a gradient fill or stroke), that
/// product is the path painted with the group's rendering: the composite
/// draws the path's mesh, its coverage computed as the path's own, and
/// samples the group's texture at each pixel it covers (`TEXTURE_PAINT`,
/// `path_coverage.glsl`). No pass renders the mask, and the composite
/// shades the path's pixels, not the group's whole bounds.
extension FramePlanner {
  /// The ids of the masked groups of `commands` whose every instance (a
  /// group is drawn more than once: in its shadow's pass and in place,
  /// clipped otherwise each time) composites as its mask's path: their
  /// masks are not rendered, so no instance may need them.
  static func pathMaskedGroups(_ commands: [DrawCommand], _ options: PlanOptions) -> Set<Int> {
    guard options.pathMasks else { return [] }
    var eligible: [Int: Bool] = [:]
    func walk(_ commands: [DrawCommand]) {
      for case .group(let group) in commands {
        if group.mask != nil {
          eligible[group.id] = (eligible[group.id] ?? true) && pathMaskItem(of: group) != nil
        }
        walk(group.commands)
        if let mask = group.mask { walk(mask.commands) }
      }
    }
    walk(commands)
    return Set(eligible.compactMap { $0.value ? $0.key : nil })
  }

  /// The mask item of `group` when the composite can draw it: one path
  /// item read by its alpha, source-over, clipped and cut by nothing, in an
  /// affine plane (the shader maps target pixels to texture coordinates
  /// linearly across a piece), its group plain; and `group` composited in
  /// source-over, with no cut, shadow or filter of its own (a clip of the
  /// group's becomes the path's).
  static func pathMaskItem(of group: GroupPass) -> (DrawItem, PathPaint)? {
    guard group.maskMode == .alpha, let mask = group.mask,
      mask.commands.count == 1, mask.mask == nil, mask.shadow == nil, mask.filter == nil,
      !mask.backdrop, mask.clip == nil, mask.clipPlanes.isEmpty, mask.blend == .sourceOver,
      mask.opacity >= 1, group.clipPlanes.isEmpty, group.blend == .sourceOver, !group.backdrop,
      group.shadow == nil, group.filter == nil,
      case .item(let item) = mask.commands[0], case .path(let paint) = item.material,
      item.blend == .sourceOver, item.clip == nil, item.shape == nil,
      item.clippedPolygon == nil, item.clipPlanes.isEmpty
    else { return nil }
    let m = item.matrix
    guard m.m14 == 0, m.m24 == 0, m.m44 == 1 else { return nil }
    return (item, paint)
  }

  /// `pathMaskItem(of:)` for a group of this frame whose every instance
  /// has one (`pathMaskedGroups`).
  func pathMask(of group: GroupPass) -> (DrawItem, PathPaint)? {
    guard pathMaskedGroups.contains(group.id) else { return nil }
    return Self.pathMaskItem(of: group)
  }

  /// The composite of a group whose mask is one path (`pathMask`): the
  /// path item at the group's opacity, clipped by the group's clip, within
  /// what the group's target holds, that target, and where it samples it.
  /// Nil for other groups, or when nothing of the group was rendered.
  func pathMaskComposite(_ group: GroupPass, region: PixelRect) -> (
    DrawItem, PathPaint, TargetID, TexturePaint
  )? {
    guard let (mask, paint) = pathMask(of: group), let id = groupTargets[group.id]
    else { return nil }
    let (w, h) = size(of: id)
    var area = Self.targetArea(group.bounds, region)
    let made = groupAreas[group.id] ?? area
    area = area.intersection(made)
    guard w > 0, h > 0, !area.isEmpty else { return nil }
    var item = mask
    item.bounds = item.bounds.intersection(area)
    guard !item.bounds.isEmpty else { return nil }
    item.multiplyOpacity(group.opacity)
    if let clip = group.clip {
      // The group's clip maps target pixels (the composite quad's plane);
      // the path's plane reaches them through its matrix.
      var moved = clip
      moved.itemToClip = Homography(item.matrix).then(clip.itemToClip)
      item.clip = moved
    }
    // Target pixel p lies at base + p - made in the texture (as
    // `textureRect` maps the quad's corners).
    let base = atlasSlots[group.id] ?? PixelRect(x: 0, y: 0, width: w, height: h)
    let scale = SIMD2(1 / Float(w), 1 / Float(h))
    let offset = SIMD2(Float(base.x - made.x), Float(base.y - made.y)) * scale
    let rect = SIMD4(
      Float(base.x + area.x - made.x) / Float(w), Float(base.y + area.y - made.y) / Float(h),
      Float(base.x + area.maxX - made.x) / Float(w), Float(base.y + area.maxY - made.y) / Float(h))
    return (item, paint, id, TexturePaint(scale: scale, offset: offset, rect: rect))
  }

  /// The composite of a group whose mask is one path (`pathMask`) and
  /// whose rendering is one gradient (a Lottie gradient fill or stroke, a
  /// `CAGradientLayer` masked by a shape): the path item painted with the
  /// gradient computed per pixel (`GRADIENT_PAINT`), at the group's and
  /// the gradient's opacity, clipped by the group's clip. The group needs
  /// no pass at all: `found` is what `gradientMask(of:)` gave for it. Nil
  /// when nothing of it is in `region`.
  func gradientMaskComposite(
    _ group: GroupPass, _ found: (DrawItem, PathPaint, GradientPainting, Float), region: PixelRect
  ) -> (DrawItem, PathPaint, GradientPainting)? {
    let (mask, paint, gradient, alpha) = found
    var item = mask
    item.bounds = item.bounds.intersection(Self.targetArea(group.bounds, region))
    guard !item.bounds.isEmpty else { return nil }
    item.multiplyOpacity(group.opacity * alpha)
    if let clip = group.clip {
      var moved = clip
      moved.itemToClip = Homography(item.matrix).then(clip.itemToClip)
      item.clip = moved
    }
    return (item, paint, gradient)
  }

  /// `gradientPainting(of:mask:)` for a group whose mask is one path.
  func gradientMask(of group: GroupPass) -> (DrawItem, PathPaint, GradientPainting, Float)? {
    guard let (mask, paint) = pathMask(of: group),
      let (gradient, alpha) = Self.gradientPainting(of: group, mask: mask)
    else { return nil }
    return (mask, paint, gradient, alpha)
  }

  /// The gradient a group's rendering is, and its opacity, when the group
  /// draws one gradient item alone (source-over, unclipped, uncut, white at
  /// some opacity) in an affine plane, and the mask path's pixels lie
  /// inside that item's quad (the gradient's own antialiased edges, which
  /// the path's paint leaves out, are then outside every pixel it draws).
  static func gradientPainting(of group: GroupPass, mask: DrawItem) -> (GradientPainting, Float)? {
    guard group.commands.count == 1, case .item(let item) = group.commands[0],
      case .gradient(let gradient) = item.material, item.blend == .sourceOver, item.clip == nil,
      item.shape == nil, item.clippedPolygon == nil, item.clipPlanes.isEmpty,
      item.rect.width > 0, item.rect.height > 0
    else { return nil }
    let c = item.color
    let m = item.matrix
    guard c.x == c.w, c.y == c.w, c.z == c.w, m.m14 == 0, m.m24 == 0, m.m44 == 1,
      let targetToLayer = Homography(m).inverse
    else { return nil }
    // The layer's point to gradient.glsl's: the item's texture
    // coordinates run linearly over its rect.
    let r = item.rect
    let uv = item.uv
    let sx = Double(uv.u1 - uv.u0) / Double(r.width)
    let sy = Double(uv.v1 - uv.v0) / Double(r.height)
    let toGradient = Homography(
      m: (sx, 0, 0, 0, sy, 0, Double(uv.u0) - Double(r.minX) * sx, Double(uv.v0) - Double(r.minY) * sy, 1))
    let targetToGradient = targetToLayer.then(toGradient)
    let (u0, u1) = (Double(min(uv.u0, uv.u1)), Double(max(uv.u0, uv.u1)))
    let (v0, v1) = (Double(min(uv.v0, uv.v1)), Double(max(uv.v0, uv.v1)))
    // The path's bounds in its plane, grown by as far as its pieces reach
    // past them (pixels, in points of the plane where a pixel is longest).
    var paint = gradient
    var planeToTarget = Homography(mask.matrix)
    let n = mask.matrix
    if paint.atPixelCorners, n.m14 == 0, n.m24 == 0, n.m44 == 1 {
      // An affine path: the color's place at the pixel's top-left corner
      // is the same shift of the point everywhere, folded in here rather
      // than taken from screen derivatives per pixel (GRADIENT_AT_CORNERS).
      planeToTarget = planeToTarget.then(Homography(m: (1, 0, 0, 0, 1, 0, -0.5, -0.5, 1)))
      paint.atPixelCorners = false
    }
    let planeToGradient = planeToTarget.then(targetToGradient)
    let j = Homography(mask.matrix).m
    let (j11, j12, j21, j22): (Double, Double, Double, Double) = (j.0, j.1, j.3, j.4)
    let mid: Double = (j11 * j11 + j12 * j12 + j21 * j21 + j22 * j22) / 2
    let det: Double = abs(j11 * j22 - j12 * j21)
    // The smallest singular value of the plane's linear part.
    let smallest: Double = max(mid - max(mid * mid - det * det, 0).squareRoot(), 0).squareRoot()
    guard smallest > 1e-9 else { return nil }
    let reach = Double(FillTessellator.boundsReach + 1) / smallest
    let r0 = mask.rect.insetBy(dx: -reach, dy: -reach)
    for (x, y) in [(r0.minX, r0.minY), (r0.maxX, r0.minY), (r0.minX, r0.maxY), (r0.maxX, r0.maxY)] {
      let q = planeToGradient.apply(CGPoint(x: x, y: y))
      guard q.x >= u0, q.x <= u1, q.y >= v0, q.y <= v1 else { return nil }
    }
    let h = planeToGradient.m
    let columns = [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7, h.8].map { Float($0) }
    return (GradientPainting(paint: paint, planeToGradient: columns), c.w)
  }
}
