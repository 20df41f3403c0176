import Foundation
import Lamina

/// A subtree drawn once into a texture (`shouldRasterize`) and reused while
/// its draw list stays the same.
package final class RasterPass {
  /// Identifies the rendering: a hash of the subtree's draw list (every
  /// rect, matrix, color, image, effect and nested pass), its extent and scale.
  package let key: Int
  /// The texture's area in raster pixels (the layer's plane times
  /// `rasterizationScale`).
  package let region: PixelRect
  /// The subtree's draw list (its placeholder images replaced when the
  /// frame's walk ends, as the frame's own).
  package internal(set) var commands: [DrawCommand]

  init(key: Int, region: PixelRect, commands: [DrawCommand]) {
    self.key = key
    self.region = region
    self.commands = commands
  }
}

/// `shouldRasterize`: the layer and its subtree are built, as every frame,
/// into a draw list in the layer's own plane scaled by `rasterizationScale`;
/// the renderer draws that list into a cached texture only when its
/// signature (a hash of the list itself) is new, and the layer becomes one
/// textured quad under its transform. Hashing the built list rather than
/// the model's properties catches every change that alters the pixels,
/// whatever layer class made them, at the cost of building the subtree's
/// list (CPU, cheap) — the fill it saves is what costs on llvmpipe.
extension FrameBuilder {
  /// Largest raster side, in pixels.
  static let maxRasterSide = 4096
  /// Transparent raster pixels around a rasterized layer's content (even,
  /// so that the texture's corner stays on even plane pixels).
  static let rasterPadding = 2

  /// Appends `layer` rasterized; false when it cannot be (too large), in
  /// which case the caller draws it directly.
  mutating func appendRasterized(
    _ layer: CALayer, toTarget: CATransform3D, flipped: Bool, opacity: Float,
    into commands: inout [DrawCommand]
  ) -> Bool {
    let scale = max(layer.rasterizationScale, 0.01)
    let (inner, base) = buildInPlane(layer, scale: scale, flipped: flipped)
    let content = inner.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
    guard !content.isEmpty else { return true }
    // Transparent texels around the content: the texture is sampled
    // filtered, and at its edge the sampler repeats the edge texel, so a
    // layer at the texture's edge would be filtered against itself, and at
    // another edge when a sibling widens the texture (the metamorphic
    // finding alone seed 500214). Padded, every content edge is filtered
    // against transparent texels, wherever the texture's edge falls.
    let pad = Self.rasterPadding
    let extent = PixelRect(
      x: content.x - pad, y: content.y - pad, width: content.width + 2 * pad,
      height: content.height + 2 * pad)
    guard extent.width <= Self.maxRasterSide, extent.height <= Self.maxRasterSide else {
      return false
    }
    let (pass, rect) = Self.planePass(inner, extent: extent, scale: scale, groupBase: base)
    if let item = makeItem(
      .raster(pass), rect: rect, uv: (0, 0, 1, 1), toTarget: toTarget,
      color: SIMD4(repeating: layer.opacity * opacity), name: layer.name)
    {
      commands.append(.item(item))
    }
    return true
  }
}

extension FrameBuilder {
  /// `layer` and its subtree built in the layer's own plane scaled by
  /// `scale`, as a raster builder draws them, and the group id the built
  /// groups are numbered after.
  mutating func buildInPlane(_ layer: CALayer, scale: CGFloat, flipped: Bool)
    -> (commands: [DrawCommand], groupBase: Int)
  {
    var sub = FrameBuilder(
      rasterOf: layer, scale: scale, nextGroupID: nextGroupID, log: log, caches: caches)
    // Its matrices start in the layer's plane: the flips above it are not in them.
    sub.flipsOutsideMatrices = flipped
    var inner: [DrawCommand] = []
    sub.appendLayerAndSublayers(
      layer, toTarget: CATransform3DMakeScale(scale, scale, 1), flipped: flipped, opacity: 1,
      into: &inner)
    let base = nextGroupID
    nextGroupID = sub.nextGroupID
    return (inner, base)
  }

  /// A texture pass of plane `commands` covering `extent` (raster pixels at
  /// `scale` per point), keyed by what it draws (`salt` tells passes of
  /// different kinds apart), and the rect of the plane it covers. The
  /// texture starts at even plane pixels, as group targets do
  /// (`FramePlanner.targetArea`): its 2×2 derivative quads then line up with
  /// the plane's whatever the subtree's extent, so a sublayer that reaches to
  /// an odd coordinate does not change how its siblings are antialiased.
  static func planePass(
    _ commands: [DrawCommand], extent unaligned: PixelRect, scale: CGFloat, groupBase: Int,
    salt: String = ""
  ) -> (pass: RasterPass, rect: CGRect) {
    let extent = unaligned.evenCorner
    var hasher = Hasher()
    hasher.combine(salt)
    RasterSignature.combine(extent, &hasher)
    hasher.combine(Double(scale))
    RasterSignature.combine(commands, groupBase: groupBase, into: &hasher)
    let rect = CGRect(
      x: CGFloat(extent.x) / scale, y: CGFloat(extent.y) / scale,
      width: CGFloat(extent.width) / scale, height: CGFloat(extent.height) / scale)
    return (RasterPass(key: hasher.finalize(), region: extent, commands: commands), rect)
  }
}

/// Hashes a draw list: what each item draws and where (used to reuse
/// rasterized subtrees and masks, and to find damage between frames).
package enum RasterSignature {
  package static func combine(_ commands: [DrawCommand], groupBase: Int, into h: inout Hasher) {
    h.combine(commands.count)
    for command in commands {
      switch command {
      case .item(let item): combine(item, groupBase: groupBase, into: &h)
      case .group(let group): combine(group, groupBase: groupBase, into: &h)
      }
    }
  }

  static func combine(_ group: GroupPass, groupBase: Int, into h: inout Hasher) {
    // Not its id: ids only tell groups apart within a frame, and the
    // render tree keeps groups (with their ids) from earlier frames.
    h.combine(1)
    combine(group.bounds, &h)
    h.combine(group.opacity)
    h.combine(group.blend)
    h.combine(group.backdrop)
    if let clip = group.clip { combine(clip, &h) }
    for plane in group.clipPlanes { h.combine(plane) }
    if let filter = group.filter { h.combine(String(describing: filter.stages)) }
    if let shadow = group.shadow {
      h.combine(shadow.sigma)
      h.combine(shadow.offset.dx)
      h.combine(shadow.offset.dy)
      h.combine(shadow.color)
      combine(shadow.canvas, &h)
    }
    if let mask = group.mask {
      h.combine(group.maskMode)
      combine(mask, groupBase: groupBase, into: &h)
    }
    combine(group.commands, groupBase: groupBase, into: &h)
  }

  static func combine(_ item: DrawItem, groupBase: Int, into h: inout Hasher) {
    h.combine(2)
    switch item.material {
    case .solid: h.combine(0)
    case .image(let image, let sampler):
      h.combine(image.identifier)
      h.combine(sampler)
    case .group(let id): h.combine(id - groupBase)
    case .masked(let id, let mask, let mode):
      h.combine(id - groupBase)
      h.combine(mask - groupBase)
      h.combine(mode)
    case .shadow(let id): h.combine(id - groupBase)
    case .raster(let pass): h.combine(pass.key)
    case .filtered(let id): h.combine(id - groupBase)
    case .dmabuf(let frame): h.combine(frame)
    case .path(let paint): h.combine(paint)
    case .openGLLayer(let pass):
      h.combine(pass.key)
      h.combine(pass.generation)
      if pass.layer.isAsynchronous { h.combine(pass.time) }
    case .gradient(let paint):
      h.combine(paint.kind)
      h.combine(paint.parameters)
      h.combine(paint.focal)
      h.combine(paint.atPixelCorners)
      h.combine(paint.colors)
      h.combine(paint.locations)
    }
    let r = item.rect
    for v in [r.minX, r.minY, r.width, r.height] { h.combine(Double(v)) }
    h.combine(item.uv.u0)
    h.combine(item.uv.v0)
    h.combine(item.uv.u1)
    h.combine(item.uv.v1)
    h.combine(item.matrix)
    h.combine(item.color)
    h.combine(item.edgeMask)
    h.combine(item.antialiased)
    if let polygon = item.clippedPolygon {
      for p in polygon {
        h.combine(Double(p.x))
        h.combine(Double(p.y))
      }
    }
    if let shape = item.shape {
      combine(shape.shape, &h)
      h.combine(shape.mode.rawValue)
      h.combine(shape.width)
    }
    if let clip = item.clip { combine(clip, &h) }
    for plane in item.clipPlanes { h.combine(plane) }
    h.combine(item.blend)
  }

  static func combine(_ clip: ClipEffect, _ h: inout Hasher) {
    combine(clip.shape, &h)
    let m = clip.itemToClip.m
    for v in [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] { h.combine(v) }
  }

  static func combine(_ shape: RoundedRect, _ h: inout Hasher) {
    let r = shape.rect
    for v in [r.minX, r.minY, r.width, r.height] { h.combine(Double(v)) }
    h.combine(shape.radii)
  }

  package static func combine(_ rect: PixelRect, _ h: inout Hasher) {
    h.combine(rect.x)
    h.combine(rect.y)
    h.combine(rect.width)
    h.combine(rect.height)
  }
}
