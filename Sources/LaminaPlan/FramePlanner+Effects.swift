import Foundation
import Lamina
import LaminaFrame

/// The passes of effects that work on a whole rendering: blurred shadows,
/// filter chains, backdrop filters, and blend modes without the blend
/// equations; and the quads that put their results back.
extension FramePlanner {
  // MARK: Shadows

  /// A shadow group's commands rendered over its canvas, then blurred: a
  /// box downsample by a power of two that keeps the Gaussian at most 3
  /// texels wide (so at most 19 taps a pass), a horizontal and a vertical
  /// pass, and the composite samples the small texture bilinearly. The
  /// result is kept in the cache by what the layer draws and where: a layer
  /// that did not change casts the same shadow without a pass.
  mutating func prepareShadow(_ group: GroupPass) {
    guard let shadow = group.shadow else { return }
    let canvas = shadow.canvas
    guard !canvas.isEmpty else { return }
    let sigma = max(shadow.sigma, 0)
    let factor = Self.blurDownsampleFactor(sigma: sigma)
    let w = (canvas.width + factor - 1) / factor
    let h = (canvas.height + factor - 1) / factor
    shadowExtents[group.id] = (
      Float(canvas.width) / Float(w * factor), Float(canvas.height) / Float(h * factor)
    )
    var hasher = Hasher()
    hasher.combine(0x5AD0)
    RasterSignature.combine(canvas, &hasher)
    hasher.combine(sigma)
    RasterSignature.combine(group.commands, groupBase: group.id, into: &hasher)
    let key = hasher.finalize()
    let label = "shadow \(group.id): \(group.reason)"
    if let cached = cachedTarget(key, width: w, height: h, label) {
      groupTargets[group.id] = cached
      return
    }
    let source = renderOffscreen(group.commands, canvas: canvas, label: label)
    let blurred = downsampledBlur(source, sigma: sigma, factor: factor)
    plan.targets[blurred.index].role = .cached(key: key, hit: false)
    groupTargets[group.id] = blurred
    cachedPasses[key] = blurred
  }

  /// The factor a blur of `sigma` texels runs downsampled by: the largest
  /// power of two up to 16 that keeps at least 3 texels a sigma.
  static func blurDownsampleFactor(sigma: Float) -> Int {
    var factor = 1
    while Float(factor) * 3 < sigma && factor < 16 { factor *= 2 }
    return factor
  }

  // MARK: Filters

  /// A filtered group: its commands into a target covering its whole bounds
  /// (a blur reads across tile edges), then the filter chain over it.
  mutating func prepareFiltered(_ group: GroupPass, region: PixelRect) {
    guard let chain = group.filter else { return }
    // At an even corner, as group targets (`targetArea`): the layers'
    // derivative-based coverage then does not depend on how far a sublayer
    // moves the group's bounds.
    let canvas = group.bounds.evenCorner
    guard !canvas.isEmpty, canvas.intersects(region) else { return }
    let source = renderOffscreen(
      group.commands, canvas: canvas, label: "filters \(group.id): \(group.reason)")
    groupTargets[group.id] = filter(source, with: chain)
  }

  /// `commands` (their inner groups first) rendered into a new target
  /// covering `canvas`.
  mutating func renderOffscreen(_ commands: [DrawCommand], canvas: PixelRect, label: String)
    -> TargetID
  {
    prepare(commands, region: canvas)
    let target = addTarget(
      width: canvas.width, height: canvas.height, role: .pooled, label: label)
    drawList(commands, into: target, region: canvas, clear: .zero, label: label)
    return target
  }

  /// `chain` over `source`: a color filter in one pass, a blur in two
  /// (downsampled when large, and scaled back so that the result is shown
  /// pixel for pixel).
  mutating func filter(_ source: TargetID, with chain: FilterChain) -> TargetID {
    var current = source
    for stage in chain.stages {
      switch stage {
      case .color(let matrix, let bias):
        let (w, h) = size(of: current)
        current = effect(
          .colorMatrix(matrix: matrix, bias: bias), from: current, width: w, height: h,
          sampler: Self.nearest)
      case .blur(let sigma):
        current = blurFilter(current, sigma: sigma)
      }
    }
    return current
  }

  /// A Gaussian blur of `sigma` texels that keeps `source`'s size: a large
  /// one runs downsampled, then scales back up, so an 8-point blur at 6×
  /// costs what a 4-pixel one does.
  mutating func blurFilter(_ source: TargetID, sigma: Float) -> TargetID {
    let factor = Self.blurDownsampleFactor(sigma: sigma)
    guard factor > 1 else { return blurPasses(source, sigma: sigma) }
    let (w, h) = size(of: source)
    let blurred = downsampledBlur(source, sigma: sigma, factor: factor)
    return effect(
      .upsample(factor: factor), from: blurred, width: w, height: h, sampler: Self.linear)
  }

  /// `source` box-filtered down by `factor` and blurred at that size, so
  /// that shown bilinearly at full size it is a Gaussian of `sigma` texels:
  /// the downsample (variance f²/12) and the bilinear upsample (f²/6)
  /// already blur, so the passes take what is left.
  mutating func downsampledBlur(_ source: TargetID, sigma: Float, factor: Int) -> TargetID {
    var current = source
    if factor > 1 {
      let (w, h) = size(of: source)
      current = effect(
        .downsample(factor: factor), from: current, width: (w + factor - 1) / factor,
        height: (h + factor - 1) / factor, sampler: Self.linear)
    }
    let f = Float(factor)
    let residual = factor > 1 ? sigma * sigma - f * f / 4 : sigma * sigma
    let passSigma = max(residual, 0).squareRoot() / f
    if passSigma > 0.3 { current = blurPasses(current, sigma: passSigma) }
    return current
  }

  /// A separable Gaussian of `sigma` texels: a horizontal pass, then a vertical one.
  mutating func blurPasses(_ source: TargetID, sigma: Float) -> TargetID {
    let (w, h) = size(of: source)
    let across = effect(
      .blur(dx: 1, dy: 0, sigma: sigma), from: source, width: w, height: h, sampler: Self.linear)
    return effect(
      .blur(dx: 0, dy: 1, sigma: sigma), from: across, width: w, height: h, sampler: Self.linear)
  }

  /// One full-target pass of `kind` over a new `width`×`height` target, reading `input`.
  mutating func effect(
    _ kind: EffectPass.Kind, from input: TargetID, width: Int, height: Int, sampler: SamplerKey
  ) -> TargetID {
    let output = addTarget(
      width: width, height: height, role: .pooled, label: plan.targets[input.index].label)
    plan.steps.append(
      .effect(
        EffectPass(
          kind: kind, inputs: [input], sampler: sampler, output: output,
          viewport: PixelRect(x: 0, y: 0, width: width, height: height))))
    return output
  }

  // MARK: Reading what is drawn

  /// A backdrop group: what `target` shows behind it (its bounds and the
  /// filter's reach, within `region`) is copied and filtered, for
  /// `compositeItem` to draw back through the group's clip.
  mutating func captureBackdrop(_ group: GroupPass, from target: TargetID, region: PixelRect) {
    guard let chain = group.filter else { return }
    let reach = chain.reach
    let canvas = PixelRect(
      x: group.bounds.x - reach, y: group.bounds.y - reach,
      width: group.bounds.width + 2 * reach, height: group.bounds.height + 2 * reach
    ).intersection(region)
    guard !canvas.isEmpty else { return }
    let label = "backdrop \(group.id): \(group.reason)"
    let copy = addTarget(width: canvas.width, height: canvas.height, role: .pooled, label: label)
    plan.steps.append(
      .copy(
        CopyPass(
          source: target,
          rect: PixelRect(
            x: canvas.x - region.x, y: canvas.y - region.y, width: canvas.width,
            height: canvas.height),
          destination: copy, label: label)))
    groupTargets[group.id] = filter(copy, with: chain)
    backdropCanvas[group.id] = canvas
  }

  /// A blended item or group without the blend equations: its rendering
  /// (the group's target, or the item drawn offscreen) and a copy of what
  /// `target` shows behind it go through `blend.frag`, which writes the
  /// blended result over the area.
  mutating func blendFallback(
    _ command: DrawCommand, into target: TargetID, region: PixelRect, scissor: PixelRect?
  ) {
    guard let name = command.blendModeName,
      let mode = CIFilter.blendModeNames.firstIndex(of: name)
    else { return }
    // What is blended: the item drawn offscreen, or the group as its
    // composite draws it (through its clip, mask and cut planes, which the
    // blend pass, a plain rectangle, knows nothing of).
    var isolated: DrawItem?
    var group: GroupPass?
    switch command {
    case .group(let g):
      if g.clip != nil || g.mask != nil || !g.clipPlanes.isEmpty {
        isolated = compositeItem(g, region: region)
      } else {
        group = g
      }
    case .item(let item):
      isolated = item
    }
    if var item = isolated {
      item.blend = .sourceOver
      fallbackGroupID -= 1
      let wrapper = GroupPass(
        id: fallbackGroupID, bounds: item.bounds, opacity: 1, commands: [.item(item)],
        reason: "\(name) without blend equations")
      prepareGroup(wrapper, region: region, isolated: true)
      group = wrapper
    }
    guard let group, let source = groupTargets[group.id] else { return }
    // The rendering covers the area it was made for: this region's, or
    // another pass's that drew the same group before (a layer's shadow and
    // its masked composite read one rendering), whose corner is then not
    // this area's (the metamorphic finding blend-fallback seed 5301450: a
    // blended text layer drawn 10 pixels off in its second pass).
    let made = groupAreas[group.id] ?? Self.targetArea(group.bounds, region)
    let area = Self.targetArea(group.bounds, region).intersection(made)
    guard !area.isEmpty else { return }
    let slot = atlasSlots[group.id] ?? PixelRect(x: 0, y: 0, width: 0, height: 0)
    let label = "behind \(name)"
    let backdrop = addTarget(width: area.width, height: area.height, role: .pooled, label: label)
    let x = area.x - region.x
    let y = area.y - region.y
    let rect = PixelRect(x: x, y: y, width: area.width, height: area.height)
    plan.steps.append(
      .copy(CopyPass(source: target, rect: rect, destination: backdrop, label: label)))
    plan.steps.append(
      .effect(
        EffectPass(
          kind: .blend(
            mode: mode, name: name, originX: x, originY: y,
            sourceX: slot.x + area.x - made.x, sourceY: slot.y + area.y - made.y,
            opacity: group.opacity),
          inputs: [source, backdrop], sampler: Self.nearest, output: target, viewport: rect,
          scissor: scissor)))
  }

  // MARK: Compositing

  /// The quad that puts a rendered group back in its parent, pixel for pixel
  /// (through its mask and clip), or a blurred shadow at its offset. Both
  /// keep the group's cut planes: a plane that depth sorting splits draws
  /// each piece's shadow within that piece, so that a later piece's shadow
  /// does not cover an earlier piece's content (the particles of
  /// `emitter-shadow-in-transform-layer.json`; the finding alone seed 996727).
  func compositeItem(_ group: GroupPass, region: PixelRect) -> DrawItem? {
    guard groupTargets[group.id] != nil else { return nil }
    if let shadow = group.shadow {
      let c = shadow.canvas
      let rect = CGRect(
        x: CGFloat(c.x) + CGFloat(shadow.offset.dx), y: CGFloat(c.y) + CGFloat(shadow.offset.dy),
        width: CGFloat(c.width), height: CGFloat(c.height))
      let extent = shadowExtents[group.id] ?? (1, 1)
      return DrawItem(
        material: .shadow(group.id), clippedPolygon: nil, rect: rect,
        uv: (0, 0, extent.0, extent.1), matrix: CATransform3DIdentity,
        color: shadow.color * group.opacity, bounds: group.bounds, layerName: nil,
        antialiased: false, clipPlanes: group.clipPlanes)
    }
    if group.filter != nil {
      // The filtered target covers the group's whole bounds (a backdrop's:
      // what was captured).
      let b = backdropCanvas[group.id] ?? group.bounds.evenCorner
      // Of a group's target, its bounds only: the row and column the even
      // corner adds align the target, and are not the group's (a filter
      // that adds alpha showed them, outside the frame's damage: the
      // finding partial-redraw seed 778661).
      let shown = backdropCanvas[group.id] == nil ? group.bounds.intersection(b) : b
      guard !shown.isEmpty, b.width > 0, b.height > 0 else { return nil }
      let uv = (
        Float(shown.x - b.x) / Float(b.width), Float(shown.y - b.y) / Float(b.height),
        Float(shown.maxX - b.x) / Float(b.width), Float(shown.maxY - b.y) / Float(b.height)
      )
      var item = DrawItem(
        material: .filtered(group.id), clippedPolygon: nil,
        rect: CGRect(x: shown.x, y: shown.y, width: shown.width, height: shown.height), uv: uv,
        matrix: CATransform3DIdentity, color: SIMD4(repeating: group.opacity),
        bounds: shown.intersection(region), layerName: nil, antialiased: false,
        clipPlanes: group.clipPlanes)
      item.clip = group.clip
      item.blend = group.blend
      return item
    }
    // Only what the group's target holds was drawn.
    var area = Self.targetArea(group.bounds, region)
    if let made = groupAreas[group.id] { area = area.intersection(made) }
    guard !area.isEmpty else { return nil }
    let rect = CGRect(x: area.x, y: area.y, width: area.width, height: area.height)
    let material: Material =
      group.mask.map { .masked(group.id, mask: $0.id, mode: group.maskMode) } ?? .group(group.id)
    var item = DrawItem(
      material: material, clippedPolygon: nil, rect: rect, uv: textureRect(of: group, area: area),
      matrix: CATransform3DIdentity, color: SIMD4(repeating: group.opacity), bounds: area,
      layerName: nil, antialiased: false, clipPlanes: group.clipPlanes)
    item.clip = group.clip
    item.blend = group.blend
    return item
  }
}
