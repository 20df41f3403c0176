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
}
