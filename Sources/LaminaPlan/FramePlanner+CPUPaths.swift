import Foundation
import Lamina
import LaminaDraw
import LaminaFrame

/// Paths drawn on the CPU (`PlanOptions.cpuPaths`, the default on a software
/// rasterizer): consecutive path items of a pass, in their order, are drawn
/// by Cairo into one bitmap of the pixels they cover, which the pass draws
/// as one textured quad in their place. On llvmpipe a path's coverage in
/// the fragment shader (a ribbon of thin pieces, an interior tested against
/// the depth buffer) costs several times what Cairo's scanlines cost, and
/// the bitmap is one upload (a 512×512 one: 0.04 ms) and one draw however
/// many paths it holds. A run whose items are the same as in an earlier
/// frame (same meshes, colors, transforms) takes that frame's bitmap
/// (`PathRunCache`). See docs/rendering.md, "Paths on the CPU".
extension FramePlanner {
  /// Whether `item`'s coverage is Cairo's: a path item of a shape layer on
  /// an affine plane, with no shape effect and no clip under a perspective
  /// (those stay on the GPU, as does a dash pattern too fine to draw, whose
  /// coverage the shader scales). A layer whose trim, dashes or line width
  /// animate (`PathPaint.animatesStroke`) stays on the GPU too, where a new
  /// value costs uniforms and the run around it keeps its bitmap from
  /// frame to frame, unless it is `inGroup`: part of a group a run draws
  /// whole (`drawsWholeOnCPU`), whose offscreen pass, drawn again every
  /// frame it animates, costs more than stroking it again (a HUD of
  /// animated trims inside a mask: 10.8 ms a frame against 4.6), or its
  /// stroke folds over itself (`PathPaint.foldsOnGPU`: only Cairo draws it
  /// right; under a clip in perspective or past `maxDashes` the GPU's
  /// ribbon draws it, folds and all).
  static func drawsOnCPU(_ item: DrawItem, inGroup: Bool = false) -> Bool {
    guard case .path(let paint) = item.material, paint.style != nil,
      !paint.animatesStroke || inGroup || paint.foldsOnGPU,
      item.shape == nil, (paint.stroke?.coverageScale ?? 1) == 1
    else { return false }
    // Cairo strokes each dash: a pattern whose dashes along the path number
    // more than `maxDashes` (a hostile file's 0.02-point dashes along a long
    // path: millions) is left to the GPU, which finds a pixel's dash by
    // arithmetic.
    if case .stroke(let mesh, let stroke) = paint.geometry, stroke.dashPeriod > 0,
      mesh.length / Double(stroke.dashPeriod) > Double(Self.maxDashes)
    {
      return false
    }
    if let clip = item.clip, !Self.isAffine(clip) { return false }
    return PathPaint.isDrawableOnCPU(item.matrix)
  }

  /// Whether a group drawn whole on the CPU draws `item` as a fill of its
  /// rect: a solid color (a solid layer, a background: a luma matte's
  /// white) with square corners and no border, on the frame's axes (its
  /// edges' coverage is then the area inside them both ways, FreeType's
  /// and the GPU's edge coverage alike: a solid is the same wherever it
  /// is drawn), every edge antialiased (a piece of a border or of a split
  /// rounded rect leaves its inner edges hard, which a fill would not),
  /// its clip (if any) affine. (Outside such groups solids stay the
  /// GPU's: a rect on whole pixels is a copy for llvmpipe's linear
  /// rasterizer.)
  static func isCPUSolid(_ item: DrawItem) -> Bool {
    guard case .solid = item.material, item.shape == nil, item.antialiased,
      item.edgeMask == 0b1111, item.rect.width > 0, item.rect.height > 0
    else { return false }
    let m = item.matrix
    guard m.m12 == 0, m.m21 == 0, PathPaint.isDrawableOnCPU(m) else { return false }
    if let clip = item.clip, !Self.isAffine(clip) { return false }
    return true
  }

  /// Whether a clip's map (its item's plane to the clip's) has no perspective.
  static func isAffine(_ clip: ClipEffect) -> Bool {
    clip.itemToClip.m.2 == 0 && clip.itemToClip.m.5 == 0
  }

  /// What a run draws: a path item, and the gradient it is painted with
  /// when its paint is one (a masked gradient's composite,
  /// `gradientMask(of:)`); or a group the CPU draws whole (`RunGroup`).
  enum RunItem {
    case path(DrawItem, GradientPainting?)
    case group(RunGroup)

    /// The frame pixels it may touch.
    var bounds: PixelRect {
      switch self {
      case .path(let item, _): return item.bounds
      case .group(let group): return group.box
      }
    }

    /// The path items it draws.
    var pathCount: Int {
      switch self {
      case .path: return 1
      case .group(let group):
        return group.items.reduce(0) { $0 + $1.pathCount }
          + (group.mask ?? []).reduce(0) { $0 + $1.pathCount }
      }
    }
  }

  /// A group drawn whole on the CPU in a run (`drawsWholeOnCPU`): its
  /// rendering (`items`) in a bitmap of its own over `box`, through its
  /// mask's (`mask`: the mask group's rendering), its clip and its
  /// `opacity` (the fade of the groups around it included), blended into
  /// the run. No pass renders it or its mask.
  struct RunGroup {
    var group: GroupPass
    var items: [RunItem]
    var mask: [RunItem]?
    /// The group's bounds within the region drawn (frame pixels).
    var box: PixelRect
    var opacity: Float
  }

  /// Whether a run draws `group` whole on the CPU: composited source
  /// over, uncut, without a shadow, a filter or a backdrop, its clip (if
  /// any) on an affine plane, and everything it and its mask draw taken by
  /// a run (`commandsDrawOnCPU`). On a software rasterizer its pass, its
  /// mask's pass and its composite cost more than drawing it into the
  /// run's bitmap (docs/rendering.md, "Paths on the CPU").
  mutating func drawsWholeOnCPU(_ group: GroupPass) -> Bool {
    group.blend == .sourceOver && composesOnCPU(group)
  }

  /// Whether `group`, composited with a blend mode of `compositingFilter`
  /// (`BlendMode.composite`), is drawn whole on the CPU as a quad of its
  /// own that the GPU blends: as `drawsWholeOnCPU`, but its bitmap is not
  /// part of a run (the blend reads the target). Its pass and its mask's
  /// are spared; the quad is blended as its composite would be (a
  /// transparent pixel of the bitmap leaves the target as it is, as the
  /// group's target does there).
  mutating func drawsBlendedOnCPU(_ group: GroupPass) -> Bool {
    guard case .composite = group.blend else { return false }
    return composesOnCPU(group)
  }

  /// The conditions of `drawsWholeOnCPU` but the blend mode.
  private mutating func composesOnCPU(_ group: GroupPass) -> Bool {
    guard options.cpuPaths, options.cpuGroups, group.shadow == nil,
      group.filter == nil || Self.colorFilters(of: group) != nil,
      !group.backdrop, group.clipPlanes.isEmpty
    else { return false }
    if let clip = group.clip, !Self.isAffine(clip) { return false }
    if let known = cpuGroups[group.id] { return known }
    // Marked false while it is looked at: a group met again inside itself
    // (which frame building does not make) is not drawn on the CPU.
    cpuGroups[group.id] = false
    var paths = false
    var whole = commandsDrawOnCPU(group.commands, paths: &paths)
    // A mask's rendering is its commands (as `prepareGroup(isMask:)` draws
    // them: frame building gives a mask group no opacity, clip or mask).
    if whole, let mask = group.mask {
      var maskPaths = false
      whole = commandsDrawOnCPU(mask.commands, paths: &maskPaths)
    }
    // A rendering of solids alone is the GPU's (a rect is a copy for the
    // linear rasterizer), whatever its mask: its pixels do not depend on
    // what else the group holds (the metamorphic finding alone seed
    // 5700193: a solid alone under a path mask, 25/255 at the mask's edge
    // between FreeType's coverage and the composite's).
    whole = whole && paths
    cpuGroups[group.id] = whole
    return whole
  }

  /// Whether a run takes everything `commands` draw: path items that join
  /// runs, gradients painted over a path, solids (`isCPUSolid`), groups
  /// drawn whole; `paths` set when they hold something but solids.
  mutating func commandsDrawOnCPU(_ commands: [DrawCommand], paths: inout Bool) -> Bool {
    for command in commands {
      switch command {
      case .item(let item):
        let solid = Self.isCPUSolid(item)
        guard solid || Self.drawsOnCPU(item, inGroup: true),
          Self.joinsRun(item) || Self.blendsInRun(item)
        else { return false }
        if !solid { paths = true }
      case .group(let group):
        if case .none = Self.isolation(of: group) {
          guard commandsDrawOnCPU(group.commands, paths: &paths) else { return false }
        } else if let (item, _, _, _) = gradientMask(of: group) {
          guard Self.drawsOnCPU(item, inGroup: true), group.clip.map(Self.isAffine) ?? true else {
            return false
          }
          paths = true
        } else {
          // A group's bitmap holds everything behind what it draws: blend
          // modes are the run's too. (Such a group holds paths.)
          guard drawsWholeOnCPU(group) || drawsBlendedOnCPU(group) else { return false }
          paths = true
        }
      }
    }
    return true
  }

  /// The run items of `commands` within `region`, at `opacity`: path
  /// items, gradients painted over a path, groups drawn whole (each
  /// command drawn on the CPU: `commandsDrawOnCPU`).
  mutating func runItems(_ commands: [DrawCommand], region: PixelRect, opacity: Float) -> [RunItem]
  {
    var items: [RunItem] = []
    for command in commands {
      switch command {
      case .item(var item):
        guard item.bounds.intersects(region) else { continue }
        if opacity < 1 { item.multiplyOpacity(opacity) }
        items.append(.path(item, nil))
      case .group(let group):
        guard group.bounds.intersects(region) else { continue }
        if case .none(let inner) = Self.isolation(of: group) {
          items += runItems(group.commands, region: region, opacity: opacity * inner)
        } else if let found = gradientMask(of: group) {
          guard let (made, _, gradient) = gradientMaskComposite(group, found, region: region)
          else { continue }
          var item = made
          item.multiplyOpacity(opacity)
          items.append(.path(item, gradient))
        } else if let run = runGroup(group, region: region, opacity: opacity) {
          items.append(.group(run))
        }
      }
    }
    return items
  }

  /// `group` (which `drawsWholeOnCPU`) as a run item within `region`;
  /// nil when none of it is there.
  mutating func runGroup(_ group: GroupPass, region: PixelRect, opacity: Float) -> RunGroup? {
    var box = group.bounds.intersection(region)
    guard !box.isEmpty else { return nil }
    let items = runItems(group.commands, region: box, opacity: 1)
    let mask = group.mask.map { runItems($0.commands, region: box, opacity: 1) }
    // The group's bitmap (cleared, drawn, composited pixel by pixel) over
    // what its items can touch, and what its mask lets through where only
    // the mask's paint does (alpha and luminance: transparent is out).
    guard let drawn = Self.union(items) else { return nil }
    box = box.intersection(drawn)
    if let mask, group.maskMode == .alpha || group.maskMode == .luminance {
      guard let shown = Self.union(mask) else { return nil }
      box = box.intersection(shown)
    }
    guard !box.isEmpty else { return nil }
    return RunGroup(
      group: group, items: items, mask: mask, box: box, opacity: group.opacity * opacity)
  }

  /// The frame pixels `items` may touch; nil for none.
  static func union(_ items: [RunItem]) -> PixelRect? {
    var box: PixelRect?
    for item in items where !item.bounds.isEmpty {
      box = box.map { $0.union(item.bounds) } ?? item.bounds
    }
    return box
  }

  /// The group's filters as the CPU applies them: color filters only,
  /// none coloring transparent pixels (a bias of alpha above zero); nil
  /// when it has others (a blur) or none.
  static func colorFilters(of group: GroupPass) -> [PathRunRasterizer.ColorFilter]? {
    guard let chain = group.filter, !chain.stages.isEmpty else { return nil }
    var filters: [PathRunRasterizer.ColorFilter] = []
    for stage in chain.stages {
      guard case .color(let matrix, let bias) = stage, matrix.count == 16, bias.w <= 0 else {
        return nil
      }
      filters.append(PathRunRasterizer.ColorFilter(matrix: matrix, bias: bias))
    }
    return filters
  }

  /// `group` (which `drawsBlendedOnCPU`) within `region` as a quad of its
  /// bitmap (its mask, clip and `opacity` in it) with its blend mode; nil
  /// when none of it is there.
  mutating func blendedGroupQuad(_ group: GroupPass, region: PixelRect, opacity: Float)
    -> DrawItem?
  {
    guard let run = runGroup(group, region: region, opacity: opacity),
      let image = runImage([.group(run)], run.box, background: nil)
    else { return nil }
    var quad = Self.quad(image, run.box)
    quad.blend = group.blend
    return quad
  }

  /// The most dashes along a path that Cairo strokes.
  static let maxDashes = 10_000

  /// Whether a CPU path item joins the run being collected: source over
  /// and uncut. Another blend mode, or the half-planes of a piece cut by
  /// depth sorting, make it a run of its own drawn as a quad with that
  /// blend mode and those planes (`cpuQuad`), so that its coverage is
  /// Cairo's wherever it is drawn.
  static func joinsRun(_ item: DrawItem) -> Bool {
    item.blend == .sourceOver && item.clipPlanes.isEmpty
  }

  /// Whether a CPU path item blended with a mode of `compositingFilter` is
  /// drawn in the run of a group drawn whole on the CPU, whose bitmap holds
  /// everything behind it, blended there by the CPU (`BlendModePixels`).
  /// (A pass's run holds what is behind only when nothing came before it;
  /// blending there would put every path of the pass in one run, drawn
  /// again whenever one of them moves: intelia_logo_animation 13.4 ms a
  /// frame against 8.0.)
  static func blendsInRun(_ item: DrawItem) -> Bool {
    blendModeIndex(item.blend) != nil && item.clipPlanes.isEmpty
  }

  /// A composite blend mode's index in `CIFilter.blendModeNames`, the
  /// CPU's `BlendModePixels.Mode`; nil for source over and the rest.
  static func blendModeIndex(_ blend: BlendMode) -> Int? {
    guard case .composite(let name) = blend else { return nil }
    return CIFilter.blendModeNames.firstIndex(of: name)
  }

  /// Draws the pass's run of CPU path items, if any: into the target
  /// directly when nothing but the clear came before it in the pass (the
  /// bitmap holds the clear color under the paths: one upload, no draw),
  /// else as one image item.
  mutating func flushRun(_ open: inout OpenPass) {
    guard !open.run.isEmpty else { return }
    let items = open.run
    open.run.removeAll(keepingCapacity: true)
    var box = items[0].bounds
    for entry in items.dropFirst() { box = box.union(entry.bounds) }
    box = box.intersection(open.pass.region)
    guard !box.isEmpty else { return }
    let direct =
      options.samples == 1 && open.pass.clear != nil && open.pass.upload == nil
      && open.batcher.isEmpty
    // Written over all the clear covers (the scissor's part, or the whole
    // region), the bitmap holding the clear color around the paths: no clear.
    let scissor = Self.scissorInRegion(open.pass)
    let clearArea = scissor ?? open.pass.region
    let replacesClear = direct && options.clearsByUpload && !clearArea.isEmpty
    if replacesClear { box = box.union(clearArea) }
    guard let image = runImage(items, box, background: direct ? open.pass.clear : nil) else {
      return
    }
    if direct {
      // A scissored pass (a damaged rect) writes only the scissor's part.
      // (Cairo draws the whole run still: a path cut at the bitmap's edge
      // rasterizes a level differently there, which a damaged rect redrawn
      // alone would show against the whole frame.)
      let written = scissor.map { box.intersection($0) } ?? box
      if !written.isEmpty {
        open.pass.upload = (index(of: image), box, written)
        open.pass.uploadReplacesClear = replacesClear
        // The image is the last frame's (the same, or drawn again over
        // it): where the target still holds that, only what differs goes.
        open.pass.uploadSince = pathRuns?.lastSince.map { since in
          let d = since.damage
          return (since.image, PixelRect(x: box.x + d.x, y: box.y + d.y, width: d.z, height: d.w))
        }
      }
      return
    }
    add(Self.quad(image, box), to: &open)
  }

  /// The pass's scissor in the frame's pixels (the region's), or nil.
  static func scissorInRegion(_ pass: DrawPass) -> PixelRect? {
    guard let s = pass.scissor else { return nil }
    let v = pass.viewport
    return PixelRect(
      x: s.x + pass.region.x - (v?.x ?? 0), y: s.y + pass.region.y - (v?.y ?? 0),
      width: s.width, height: s.height)
  }

  /// A CPU path item that does not join runs (`joinsRun`), as a quad of its
  /// bitmap with its blend mode and its cutting planes (moved from the
  /// layer's plane to the quad's, the frame's pixels); nil when it covers
  /// nothing in `region`.
  mutating func cpuQuad(_ item: DrawItem, region: PixelRect) -> DrawItem? {
    let box = item.bounds.intersection(region)
    guard !box.isEmpty, let image = runImage([.path(item, nil)], box, background: nil) else {
      return nil
    }
    var quad = Self.quad(image, box)
    quad.blend = item.blend
    if !item.clipPlanes.isEmpty {
      let t = Self.affine(item.matrix).inverted()
      quad.clipPlanes = item.clipPlanes.map { p in
        SIMD3(
          p.x * Double(t.a) + p.y * Double(t.b), p.x * Double(t.c) + p.y * Double(t.d),
          p.x * Double(t.tx) + p.y * Double(t.ty) + p.z)
      }
    }
    return quad
  }

  /// The bitmap of `items` over `box` (frame pixels), from the cache when
  /// an earlier frame drew the same.
  mutating func runImage(_ items: [RunItem], _ box: PixelRect, background: SIMD4<Float>?)
    -> CGImage?
  {
    var keys: [PathRunKey.Element] = []
    keys.reserveCapacity(items.count)
    let elements = Self.elements(items, corner: box, keys: &keys, ramps: pathRuns)
    let key = PathRunKey(
      parts: keys, bounds: SIMD4(box.x, box.y, box.width, box.height), background: background)
    let scratch = pathRuns?.scratch
    let order = options.texelOrder
    let units = Self.units(keys, items, box)
    var pixels = box.area
    var redrawn = false
    let make = { (damage: SIMD4<Int>?) -> CGImage? in
      // Drawing again a damaged part, the elements that do not reach it
      // are left out.
      var drawn = elements
      pixels = box.area
      redrawn = damage != nil
      if let d = damage, let units {
        pixels = d.z * d.w
        drawn = zip(elements, units.boxes).filter { _, b in
          b.x < d.x + d.z && d.x < b.x + b.z && b.y < d.y + d.w && d.y < b.y + b.w
        }.map(\.0)
      }
      return PathRunRasterizer.render(
        drawn, width: box.width, height: box.height, background: background, scratch: scratch,
        order: order, redrawing: damage)
    }
    var made = false
    let image =
      pathRuns.map { cache in
        cache.image(key, units: units) {
          made = true
          return make($0)
        }
      }
      ?? {
        made = true
        return make(nil)
      }()
    guard let image else { return nil }
    if made {
      plan.cpuPathRunPixels += pixels
      if redrawn { plan.cpuPathRunsRedrawn += 1 }
    }
    plan.cpuPathRuns += 1
    plan.cpuPathItems += items.reduce(0) { $0 + $1.pathCount }
    return image
  }

  /// Where each of `items` (a run over `box`) begins and ends in `keys`
  /// (the elements' keys, a part or a group's whole nest each) and the
  /// pixels each may touch in the bitmap; nil when an item made no element
  /// (then elements and items do not pair).
  static func units(_ keys: [PathRunKey.Element], _ items: [RunItem], _ box: PixelRect)
    -> PathRunUnits?
  {
    var ends: [Int] = []
    ends.reserveCapacity(items.count)
    var depth = 0
    for (i, key) in keys.enumerated() {
      switch key {
      case .part, .solid: if depth == 0 { ends.append(i + 1) }
      case .group: depth += 1
      case .end:
        depth -= 1
        if depth == 0 { ends.append(i + 1) }
      case .mask, .filters: break
      }
    }
    guard ends.count == items.count else { return nil }
    let boxes = items.map { item -> SIMD4<Int> in
      let b = item.bounds.intersection(box)
      return SIMD4(b.x - box.x, b.y - box.y, b.width, b.height)
    }
    return PathRunUnits(ends: ends, boxes: boxes)
  }

  /// `items` as the rasterizer's elements, placed in the pixels of a
  /// bitmap whose corner is `corner`'s, and their keys.
  static func elements(
    _ items: [RunItem], corner: PixelRect, keys: inout [PathRunKey.Element], ramps: PathRunCache?
  ) -> [PathRunRasterizer.Element] {
    var elements: [PathRunRasterizer.Element] = []
    elements.reserveCapacity(items.count)
    let origin = CGAffineTransform(translationX: -CGFloat(corner.x), y: -CGFloat(corner.y))
    for entry in items {
      switch entry {
      case .path(let item, let gradient):
        if let mode = Self.blendModeIndex(item.blend) {
          // Drawn into a bitmap of its own over its pixels, then blended.
          let box = item.bounds.intersection(corner)
          guard !box.isEmpty else { continue }
          var plain = item
          plain.blend = .sourceOver
          let place = SIMD4(box.x - corner.x, box.y - corner.y, box.width, box.height)
          keys.append(.group(box: place, opacity: 1, maskMode: -1, clip: nil, blend: mode))
          let content = Self.elements(
            [.path(plain, gradient)], corner: box, keys: &keys, ramps: ramps)
          keys.append(.end)
          elements.append(
            .group(
              PathRunRasterizer.Group(
                elements: content, mask: nil, maskMode: 0, opacity: 1, clip: nil, box: place,
                blend: mode)))
          continue
        }
        let style: ShapeStyle
        let paint: PathPaint?
        switch item.material {
        case .path(let p):
          guard let s = p.style else { continue }
          (style, paint) = (s, p)
        case .solid:
          // A solid's rect (`isCPUSolid`), filled.
          (style, paint) = (ShapeStyle(filling: CGPath(rect: item.rect, transform: nil)), nil)
        default: continue
        }
        let transform = Self.affine(item.matrix).concatenating(origin)
        // A map that is not finite draws nothing (on the GPU too), and
        // keeps NaN out of the cache's keys.
        guard Self.isFinite(transform) else { continue }
        var clip: PathRunRasterizer.Clip?
        if let c = item.clip {
          // The clip's plane to the bitmap: back to the item's plane, then on.
          clip = PathRunRasterizer.Clip(
            rect: c.shape.rect, radii: c.shape.radii,
            transform: Self.affine(c.itemToClip).inverted().concatenating(transform))
        }
        let shader = gradient.map {
          Self.shader(
            $0, alpha: item.color.w, bitmapToPlane: transform.inverted(),
            corner: SIMD2(Float(corner.x), Float(corner.y)), ramps: ramps)
        }
        let stroke = paint?.stroke != nil
        elements.append(
          .part(
            PathRunRasterizer.Part(
              style: style, stroke: stroke, color: item.color, transform: transform,
              clip: clip, shader: shader)))
        guard let paint else {
          keys.append(.solid(rect: item.rect, color: item.color, transform: transform, clip: clip))
          continue
        }
        keys.append(
          .part(
            PathRunKey.Part(
              paint: paint, style: PathRunKey.Style(style, stroke: stroke),
              color: item.color, transform: transform,
              clip: clip,
              gradient: gradient)))
      case .group(let run):
        let group = run.group
        let box = SIMD4(run.box.x - corner.x, run.box.y - corner.y, run.box.width, run.box.height)
        var clip: PathRunRasterizer.Clip?
        if let c = group.clip {
          // Target pixels to the clip's plane, inverted, then to the box's pixels.
          let toBox = CGAffineTransform(translationX: -CGFloat(run.box.x), y: -CGFloat(run.box.y))
          let transform = Self.affine(c.itemToClip).inverted().concatenating(toBox)
          guard Self.isFinite(transform) else { continue }
          clip = PathRunRasterizer.Clip(
            rect: c.shape.rect, radii: c.shape.radii, transform: transform)
        }
        let mode: Int
        switch group.maskMode {
        case .alpha: mode = 0
        case .alphaInverted: mode = 1
        case .luminance: mode = 2
        case .luminanceInverted: mode = 3
        }
        let blend = Self.blendModeIndex(group.blend)
        let filters = Self.colorFilters(of: group) ?? []
        keys.append(
          .group(
            box: box, opacity: run.opacity, maskMode: group.mask == nil ? -1 : mode,
            clip: clip, blend: blend ?? -1))
        if !filters.isEmpty { keys.append(.filters(filters)) }
        let content = Self.elements(run.items, corner: run.box, keys: &keys, ramps: ramps)
        var mask: [PathRunRasterizer.Element]?
        if let items = run.mask {
          keys.append(.mask)
          mask = Self.elements(items, corner: run.box, keys: &keys, ramps: ramps)
        }
        keys.append(.end)
        elements.append(
          .group(
            PathRunRasterizer.Group(
              elements: content, mask: mask, maskMode: mode, opacity: run.opacity, clip: clip,
              box: box, blend: blend, colorFilters: filters)))
      }
    }
    return elements
  }

  /// `gradient` as the CPU paints it over a bitmap whose pixels reach the
  /// path's plane through `bitmapToPlane`, the bitmap's corner at `corner`
  /// in the canvas's pixels (gradient.glsl's noise is anchored there).
  static func shader(
    _ gradient: GradientPainting, alpha: Float, bitmapToPlane: CGAffineTransform,
    corner: SIMD2<Float>, ramps: PathRunCache?
  ) -> GradientShader {
    let paint = gradient.paint
    let h = gradient.planeToGradient.map { CGFloat($0) }
    // The plane's (x, y, 1) to the gradient's point: both planes affine.
    let planeToGradient = CGAffineTransform(
      a: h[0] / h[8], b: h[1] / h[8], c: h[3] / h[8], d: h[4] / h[8], tx: h[6] / h[8],
      ty: h[7] / h[8])
    let kind: GradientShader.Kind
    switch paint.kind {
    case .axial: kind = .axial
    case .radial: kind = .radial
    case .focal: kind = .focal(paint.focal)
    case .conic: kind = .conic
    }
    let (scale, offset) = GradientProgram.rampMapping(paint)
    return GradientShader(
      kind: kind, parameters: paint.parameters,
      ramp: ramps?.ramp(for: paint) ?? GradientShader.Ramp(paint.rampTexels()), rampScale: scale,
      rampOffset: offset,
      nearest: paint.rampSamplesNearest, alpha: alpha,
      toGradient: bitmapToPlane.concatenating(planeToGradient), noiseOrigin: corner)
  }

  static func isFinite(_ t: CGAffineTransform) -> Bool {
    t.a.isFinite && t.b.isFinite && t.c.isFinite && t.d.isFinite && t.tx.isFinite
      && t.ty.isFinite
  }

  /// A bitmap of frame pixels drawn over `box`, texel for pixel.
  static func quad(_ image: CGImage, _ box: PixelRect) -> DrawItem {
    DrawItem(
      material: .image(image, Self.nearest),
      rect: CGRect(x: box.x, y: box.y, width: box.width, height: box.height), uv: (0, 0, 1, 1),
      matrix: CATransform3DIdentity, color: SIMD4(repeating: 1), bounds: box, layerName: nil,
      antialiased: false)
  }
}

/// A run's elements as units of its key (`FramePlanner.units`): where
/// each ends in the key's elements, and the pixels it may touch in the
/// bitmap (x, y, width, height; empty: none).
struct PathRunUnits {
  var ends: [Int]
  var boxes: [SIMD4<Int>]

  /// The elements of unit `i` in `key`.
  func slice(_ i: Int, of key: PathRunKey) -> ArraySlice<PathRunKey.Element> {
    key.parts[(i == 0 ? 0 : ends[i - 1])..<ends[i]]
  }

  /// The pixels that differ between the bitmap of `old` (with `units`)
  /// and that of `new` (with these): the boxes of the units that differ,
  /// both their old and their new, as one box (x, y, width, height;
  /// empty: none). Units are paired by place where the counts agree (a
  /// unit that moved changes only its own pixels), else past the common
  /// beginning and end.
  func damage(from old: PathRunKey, _ units: PathRunUnits, to new: PathRunKey) -> SIMD4<Int> {
    var box: SIMD4<Int>?
    func add(_ b: SIMD4<Int>) {
      guard b.z > 0, b.w > 0 else { return }
      guard let a = box else {
        box = b
        return
      }
      let x0 = min(a.x, b.x)
      let y0 = min(a.y, b.y)
      box = SIMD4(x0, y0, max(a.x + a.z, b.x + b.z) - x0, max(a.y + a.w, b.y + b.w) - y0)
    }
    func same(_ i: Int, _ j: Int) -> Bool {
      units.boxes[i] == boxes[j] && units.slice(i, of: old) == slice(j, of: new)
    }
    let (m, n) = (units.ends.count, ends.count)
    if m == n {
      for i in 0..<n where !same(i, i) {
        add(units.boxes[i])
        add(boxes[i])
      }
    } else {
      var first = 0
      while first < min(m, n) && same(first, first) { first += 1 }
      var last = 0
      while last < min(m, n) - first && same(m - 1 - last, n - 1 - last) { last += 1 }
      for i in first..<(m - last) { add(units.boxes[i]) }
      for j in first..<(n - last) { add(boxes[j]) }
    }
    return box ?? SIMD4(0, 0, 0, 0)
  }
}

/// What a run of CPU path items draws: equal keys draw equal bitmaps.
struct PathRunKey: Hashable {
  /// A part, or a group's start (its box in the pixels of what it is drawn
  /// into, its opacity, its mask mode or -1 without a mask, its clip, its
  /// blend mode's index or -1 for source over),
  /// then its elements, its mask's after `mask`, and `end`.
  enum Element: Hashable {
    case part(Part)
    case group(
      box: SIMD4<Int>, opacity: Float, maskMode: Int, clip: PathRunRasterizer.Clip?, blend: Int)
    case mask
    case end
    /// The color filters of the group just begun.
    case filters([PathRunRasterizer.ColorFilter])
    /// A solid's rect filled (`FramePlanner.isCPUSolid`), placed and clipped.
    case solid(
      rect: CGRect, color: SIMD4<Float>, transform: CGAffineTransform,
      clip: PathRunRasterizer.Clip?)
  }

  struct Part: Hashable {
    /// The mesh stands for the path (and its fill rule or join); the style
    /// for what Cairo reads of it beyond the mesh's key.
    var paint: PathPaint
    var style: Style
    var color: SIMD4<Float>
    var transform: CGAffineTransform
    var clip: PathRunRasterizer.Clip?
    /// The paint when it is a gradient.
    var gradient: GradientPainting? = nil
  }

  /// The stroke's parameters as Cairo reads them (a mesh is shared by miter
  /// limits that the GPU draws alike but Cairo does not), or the fill rule.
  struct Style: Hashable {
    var evenOdd = false
    var lineWidth: CGFloat = 0
    var cap = 0, join = 0
    var miterLimit: CGFloat = 0
    var dashes: [CGFloat]? = nil
    var dashPhase: CGFloat = 0
    var start: CGFloat = 0, end: CGFloat = 1

    init(_ style: ShapeStyle, stroke: Bool) {
      guard stroke else {
        evenOdd = style.fillRule == .evenOdd
        return
      }
      lineWidth = style.lineWidth
      cap = style.lineCap == .round ? 1 : style.lineCap == .square ? 2 : 0
      join = style.lineJoin == .round ? 1 : style.lineJoin == .bevel ? 2 : 0
      miterLimit = style.miterLimit
      dashes = style.lineDashPattern
      dashPhase = style.lineDashPhase
      start = style.strokeStart
      end = style.strokeEnd
    }
  }

  var parts: [Element]
  /// The bitmap's place: x, y, width, height.
  var bounds: SIMD4<Int>
  /// The clear color under the paths, when the bitmap replaces the target's pixels.
  var background: SIMD4<Float>?
}

extension FramePlanner {
  /// An affine plane-to-target map as Core Graphics writes it.
  static func affine(_ m: CATransform3D) -> CGAffineTransform {
    let w = m.m44
    return CGAffineTransform(
      a: m.m11 / w, b: m.m12 / w, c: m.m21 / w, d: m.m22 / w, tx: m.m41 / w, ty: m.m42 / w)
  }

  static func affine(_ h: Homography) -> CGAffineTransform {
    let m = h.m
    let w = m.8
    return CGAffineTransform(
      a: CGFloat(m.0 / w), b: CGFloat(m.1 / w), c: CGFloat(m.3 / w), d: CGFloat(m.4 / w),
      tx: CGFloat(m.6 / w), ty: CGFloat(m.7 / w))
  }
}

/// The bitmaps of the runs of CPU path items of the last frame, kept for
/// the next: a run whose items did not change is not drawn again, and its
/// image (the same object) keeps its texture. Bitmaps no frame used since
/// the last `endFrame` are dropped then, and their textures with them; past
/// `maxEntries` (plans made and never run), the least recently used half.
/// A frame holds a few runs: they are found by comparing keys, which stops
/// at the bitmap's place or the first part that differs, rather than by
/// hashing every part of every run (5 % of a frame of hundreds of paths
/// that all move, where nothing is ever found).
package final class PathRunCache {
  private struct Entry {
    var key: PathRunKey
    var units: PathRunUnits?
    var image: CGImage
    var used: Bool
    var lastUse: UInt64
  }

  private var entries: [Entry] = []
  private var clock: UInt64 = 0
  /// The most bitmaps held: more runs than a frame has.
  static let maxEntries = 1024
  /// Runs drawn by Cairo since the cache was made (not taken from it).
  package private(set) var drawn = 0

  package init() {}

  /// The bitmap of `key` (its elements as `units`): the cached one, or
  /// `make`'s, cached. When a bitmap of the last frame over the same place
  /// that no run of this frame took differs from `key`'s in at most
  /// `maxDamageShare` of it, its pixels are taken from the cache into
  /// `scratch.earlier` and `make` is handed the box where they differ: it
  /// draws only that again, into them (else it is handed nil).
  func image(
    _ key: PathRunKey, units: PathRunUnits? = nil, make: (SIMD4<Int>?) -> CGImage?
  ) -> CGImage? {
    clock &+= 1
    if let i = entries.firstIndex(where: {
      $0.key.bounds == key.bounds && $0.key.parts.count == key.parts.count && $0.key == key
    }) {
      entries[i].used = true
      entries[i].lastUse = clock
      lastSince = (entries[i].image.identifier, SIMD4(0, 0, 0, 0))
      return entries[i].image
    }
    lastSince = nil
    var made: CGImage?
    if let units, let earlier = earlier(for: key, units) {
      made = make(earlier.damage)
      scratch.earlier = nil
      if made != nil {
        redrawn += 1
        lastSince = (earlier.image, earlier.damage)
      }
    }
    guard let image = made ?? make(nil) else { return nil }
    drawn += 1
    if entries.count >= Self.maxEntries {
      entries.sort { $0.lastUse > $1.lastUse }
      for old in entries[(entries.count / 2)...] { dropped.append(old.image.identifier) }
      entries.removeLast(entries.count - entries.count / 2)
    }
    entries.append(Entry(key: key, units: units, image: image, used: true, lastUse: clock))
    return image
  }

  /// The most of a bitmap's pixels drawn again over an earlier bitmap;
  /// past it, the bitmap is drawn whole.
  static let maxDamageShare = 0.6

  /// Runs drawn again only where they differ from an earlier bitmap.
  package private(set) var redrawn = 0

  /// What the last `image(_:units:make:)` gave: the bitmap of the last
  /// frame's image with this identifier, but for the pixels of the box
  /// (x, y, width, height: empty for the same image, kept); nil for a
  /// bitmap made whole.
  package private(set) var lastSince: (image: UInt64, damage: SIMD4<Int>)?

  /// The pixels of the bitmap of the last frame over `key`'s place and
  /// background, when it is the only one kept there and no run of this
  /// frame took it, taken from the cache (into `scratch.earlier`), and the
  /// box where `key` (with `units`) draws otherwise; nil when there is
  /// none, the box is too large, or something else still holds its image.
  private func earlier(for key: PathRunKey, _ units: PathRunUnits) -> (
    damage: SIMD4<Int>, image: UInt64
  )? {
    // The only bitmap kept over that place: of two, the one taken could be
    // another run's of this frame that had not changed, which would then
    // be drawn whole again (intelia_logo_animation's runs share places).
    let place = entries.indices.filter {
      entries[$0].key.bounds == key.bounds && entries[$0].key.background == key.background
    }
    guard place.count == 1, let i = place.first, !entries[i].used, let old = entries[i].units
    else { return nil }
    var damage = units.damage(from: entries[i].key, old, to: key)
    // Drawn again from the bitmap's left edge: Cairo clamps what a stroke
    // covers left of a clip into the clip's first column (FreeType keeps
    // it in a cell of its own), so a damage cut there would differ there.
    if damage.z > 0 { damage = SIMD4(0, damage.y, damage.x + damage.z, damage.w) }
    let area = Double(key.bounds.z) * Double(key.bounds.w)
    guard Double(damage.z) * Double(damage.w) <= Self.maxDamageShare * area else { return nil }
    let (oldKey, lastUse) = (entries[i].key, entries[i].lastUse)
    var image: CGImage? = Self.takeImage(&entries, at: i)
    let identifier = image!.identifier
    guard let pixels = PathRunScratch.takePixels(of: &image) else {
      // Still held elsewhere (a plan not yet run): kept as it was, unused.
      entries.insert(
        Entry(key: oldKey, units: old, image: image!, used: false, lastUse: lastUse), at: i)
      return nil
    }
    // Its texture goes with it.
    dropped.append(identifier)
    scratch.earlier = pixels
    return (damage, identifier)
  }

  /// Entry `i`'s image, the entry removed (not inlined: the entry goes
  /// when this returns, so that the caller may hold the image alone).
  @inline(never)
  private static func takeImage(_ entries: inout [Entry], at i: Int) -> CGImage {
    entries.remove(at: i).image
  }

  /// Drops the bitmaps not used since the last call; returns their images'
  /// identifiers (for the texture cache to release).
  package func endFrame() -> [UInt64] {
    let unused = entries.filter { !$0.used }.map(\.image)
    let identifiers = dropped + unused.map(\.identifier)
    dropped.removeAll()
    entries.removeAll { !$0.used }
    for i in entries.indices { entries[i].used = false }
    // Their pixels may be the next frame's runs.
    scratch.endFrame(recycling: unused)
    return identifiers
  }

  /// The memory runs are drawn into, kept between frames.
  package let scratch = PathRunScratch()
  /// Images dropped past `maxEntries` since the last `endFrame`, for the
  /// texture cache to release.
  private var dropped: [UInt64] = []

  /// Bitmaps held.
  package var count: Int { entries.count }

  /// Gradient ramps (`GradientPaint.rampTexels`) of the stops drawn lately.
  private var ramps: [GradientStops: GradientShader.Ramp] = [:]

  /// The ramp of `paint`'s stops, made once while they are drawn (at most
  /// `maxRamps` kept: past them, all dropped).
  func ramp(for paint: GradientPaint) -> GradientShader.Ramp {
    let stops = paint.stops
    if let ramp = ramps[stops] { return ramp }
    if ramps.count >= Self.maxRamps { ramps.removeAll() }
    let ramp = GradientShader.Ramp(paint.rampTexels())
    ramps[stops] = ramp
    return ramp
  }

  static let maxRamps = 64
}
