import Foundation
import Lamina

/// Mask layers: the masked layer's whole rendering (background, contents,
/// sublayers, border) goes offscreen, the mask's rendering goes offscreen
/// over the same pixels, and the composite multiplies the first by the
/// second's alpha. Both passes are cached by the signature of their draw
/// lists (`PlanExecutor.maskCache`): a mask moving over still content, or
/// content changing under a still mask, renders one pass, not two.
/// The mask is laid out as a sublayer of the masked layer
/// would be; its own mask, clips and opacity apply as for any layer, so
/// masks of masks nest.
extension FrameBuilder {
  /// A masked group covers only its overlap with its mask when the overlap
  /// is less than this share (one in) of the masked rendering.
  static let maskOverlapShare = 4

  /// `mode` (the masked layer's `maskMode`) says what of the mask's
  /// rendering multiplies: its alpha, its luminance, or one minus either
  /// (an inverted mask that draws nothing, or nothing over the content,
  /// hides nothing).
  mutating func applyMask(
    _ mask: CALayer, mode: CALayerMaskMode = .alpha, toTarget: CATransform3D, flipped: Bool,
    from start: Int, in commands: inout [DrawCommand]
  ) {
    let range = start..<commands.count
    guard !range.isEmpty else { return }
    var maskCommands: [DrawCommand] = []
    visit(
      mask, parentToTarget: toTarget, parentSublayers: nil, flipped: flipped, into: &maskCommands)
    // A mask that is one opaque rectangle lets through what a clip to it
    // does: no offscreen pass for the content, none for the mask. Exactly
    // so where the content is one command, or the rectangle's edges lie on
    // pixel edges; elsewhere overlapping items clipped one by one would
    // each take the edge's coverage (conflation), so they go offscreen.
    if masksAsClips, let (rect, plane) = Self.rectangle(of: maskCommands, mode: mode),
      range.count == 1 || Self.liesOnPixelEdges(rect, plane),
      Self.takeClipsInPlace(commands[range])
    {
      applyClip(
        RoundedRect(rect: rect), toTarget: plane, name: "mask \(mask.name ?? "")", range: range,
        in: &commands)
      return
    }
    func union(_ list: ArraySlice<DrawCommand>) -> PixelRect {
      list.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
    }
    // The group covers the masked rendering, not its overlap with the mask:
    // then a mask that moves leaves the content's pass (and its cached
    // texture) as it was, and only the mask renders again. Unless the
    // overlap is a small part of it (a full-screen solid under a dot of a
    // mask): then rendering the rest, and keeping it, costs more than
    // rendering the overlap again when the mask moves. Outside the mask's
    // rendering a mask that is not inverted lets nothing through.
    var bounds = union(commands[range])
    let maskBounds = union(maskCommands[...])
    guard !bounds.isEmpty, bounds.intersects(maskBounds) else {
      // The mask lets nothing through (an inverted one: everything).
      if !mode.isInverted { commands.removeSubrange(range) }
      return
    }
    let overlap = bounds.intersection(maskBounds)
    if !mode.isInverted, overlap.area * Self.maskOverlapShare < bounds.area { bounds = overlap }
    let maskGroup = makeGroup(maskCommands, bounds: bounds, reason: "mask \(mask.name ?? "")")
    wrapTail(of: &commands, from: start, bounds: bounds, reason: "masked layer") {
      $0.mask = maskGroup
      $0.maskMode = mode
    }
  }

  /// The rectangle (and its plane's mapping to the target) that the mask
  /// rendering `commands` lets through in `mode`, when that is all it
  /// does: one path fill of a rectangle, opaque, source-over, clipped by
  /// nothing, read by its alpha. Nil for anything else.
  static func rectangle(of commands: [DrawCommand], mode: CALayerMaskMode)
    -> (CGRect, CATransform3D)?
  {
    guard mode == .alpha, commands.count == 1, case .item(let item) = commands[0],
      case .path(let paint) = item.material, case .fill(let mesh) = paint.geometry,
      let rect = mesh.rect, item.color.w >= 1, item.clip == nil, item.shape == nil,
      item.clippedPolygon == nil, item.clipPlanes.isEmpty, item.blend == .sourceOver
    else { return nil }
    // Seen straight (scaled and moved, not turned or in perspective): the
    // clip's edge coverage is the mask's there; a turned edge rounds apart
    // by up to 11/255 (RectMaskClipTests), so such masks stay offscreen.
    let m = item.matrix
    guard m.m12 == 0, m.m21 == 0, m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m13 == 0, m.m23 == 0,
      m.m31 == 0, m.m32 == 0
    else { return nil }
    return (rect, m)
  }

  /// Whether a clip of `commands` goes onto each of them as it is, and
  /// draws what the masked group does: no item or group clipped already,
  /// no shadowed group (those `applyClip` would wrap in groups of their
  /// own: passes the mask atlas spares), and all in source-over (a blend
  /// mode inside a masked layer blends with the layer's isolated
  /// rendering, not with what is behind it).
  static func takeClipsInPlace(_ commands: ArraySlice<DrawCommand>) -> Bool {
    commands.allSatisfy {
      switch $0 {
      case .item(let item): return item.clip == nil && item.blend == .sourceOver
      case .group(let group):
        return group.clip == nil && group.shadow == nil && group.blend == .sourceOver
      }
    }
  }

  /// Whether `rect` of the plane `m` maps to the target (a scale and a
  /// translation, as `rectangle(of:mode:)` takes them) is a rectangle of
  /// whole target pixels: clipped to it, a pixel is in or out.
  static func liesOnPixelEdges(_ rect: CGRect, _ m: CATransform3D) -> Bool {
    func whole(_ v: CGFloat) -> Bool { abs(v - v.rounded()) < 1e-4 }
    return whole(rect.minX * m.m11 + m.m41) && whole(rect.maxX * m.m11 + m.m41)
      && whole(rect.minY * m.m22 + m.m42) && whole(rect.maxY * m.m22 + m.m42)
  }
}
