import Foundation
import Lamina
import LaminaFrame

/// Turns a frame's draw list into a `FramePlan`, without GL. For each tile
/// (or damaged rect) of the canvas it first plans the passes that make what
/// the canvas pass samples — groups (inner groups first), masks, filter
/// chains, blurred shadows, rasterized subtrees, `CAOpenGLLayer` content —
/// then the canvas pass itself, which a backdrop filter or a blend mode
/// without blend equations splits: what is drawn so far is copied, the copy
/// filtered or blended, and the pass goes on. Every pass gets its batches
/// (`Batcher`). `FramePlan.computeLifetimes` then works out when each
/// pooled target is last read (it goes back to the pool after that pass)
/// and the most offscreen memory held at once.
///
/// A group is rendered offscreen only when something needs it isolated
/// (`isolation(of:)`): a group of opacity 1 and nothing else is drawn in
/// place, and so is a group holding a single plain item, whose opacity is
/// then multiplied into it.
package struct FramePlanner {
  let options: PlanOptions
  let caches: PlanCaches
  package var plan: FramePlan

  /// The canvas region the group targets below were made for: groups are
  /// rendered per region (their targets cover the group within it), and
  /// shared while it stays the same (the damaged rects of one frame).
  private var scope: PixelRect?
  var groupTargets: [Int: TargetID] = [:]
  /// Texture coordinates of the blurred canvas's far corner, per shadow group.
  var shadowExtents: [Int: (Float, Float)] = [:]
  /// What each backdrop group captured, in canvas pixels.
  var backdropCanvas: [Int: PixelRect] = [:]
  /// Cache entries (masks, masked content, shadows) used or made this frame.
  var cachedPasses: [Int: TargetID] = [:]
  /// The mask atlas being filled (`FramePlanner+Atlas.swift`) and each
  /// atlas group's slot in it.
  var atlas: MaskAtlas?
  var atlasSlots: [Int: PixelRect] = [:]
  /// The canvas pixels each group's target (or atlas slot) holds: a group
  /// made for one region (a shadow's canvas) and drawn back in another (a
  /// clip's) is sampled where that region lies in it.
  var groupAreas: [Int: PixelRect] = [:]
  /// The masked groups of the frame that composite as their masks' paths
  /// (`FramePlanner+PathMasks.swift`).
  var pathMaskedGroups: Set<Int> = []
  /// Whether a run draws the group of each id whole (`drawsWholeOnCPU`),
  /// as found this frame.
  var cpuGroups: [Int: Bool] = [:]
  /// The bitmaps of runs of paths drawn on the CPU, kept across frames
  /// (`PlanOptions.cpuPaths`; the runner's); nil: drawn every time.
  package var pathRuns: PathRunCache?
  /// The prefix keys of the last frame planned whole
  /// (`FramePlanner+Prefix.swift`).
  package var lastPrefixKeys: [Int] = []
  private var rasters: [Int: TargetID] = [:]
  /// Each image's index in `plan.images`.
  private var imageIndices: [ObjectIdentifier: Int] = [:]
  private var openGLLayers: [UInt64: TargetID] = [:]
  /// Ids of the groups made for blended items without the blend equations
  /// (negative, so that they never meet the frame builder's).
  var fallbackGroupID = 0

  /// A planner for a frame of `width`×`height` pixels drawn on a canvas
  /// target of `canvasWidth`×`canvasHeight` (one tile).
  package init(
    width: Int, height: Int, canvasWidth: Int, canvasHeight: Int, options: PlanOptions,
    caches: PlanCaches
  ) {
    self.options = options
    self.caches = caches
    plan = FramePlan(width: width, height: height)
    _ = addTarget(width: canvasWidth, height: canvasHeight, role: .canvas, label: "canvas")
  }

  // MARK: The canvas

  /// Plans `frame` whole, tile by tile (tiles of the canvas target's size).
  package mutating func planTiles(_ frame: DrawList) {
    pathMaskedGroups = Self.pathMaskedGroups(frame.commands, options)
    let (tileWidth, tileHeight) = (plan.targets[0].width, plan.targets[0].height)
    var y = 0
    while y < frame.height {
      var x = 0
      while x < frame.width {
        let tile = PixelRect(
          x: x, y: y, width: min(tileWidth, frame.width - x),
          height: min(tileHeight, frame.height - y))
        enterScope(tile)
        let label = "canvas tile \(tile)"
        let oneTile = tile.width == frame.width && tile.height == frame.height
        if !(options.canvasPrefix && oneTile
          && planCanvasFromPrefix(frame, region: tile, label: label))
        {
          prepare(frame.commands, region: tile)
          drawList(
            frame.commands, into: FramePlan.canvas, region: tile, clear: frame.background,
            label: label)
        }
        plan.steps.append(
          .output(
            OutputStep(
              tile: tile, rect: PixelRect(x: 0, y: 0, width: tile.width, height: tile.height)))
        )
        x += tileWidth
      }
      y += tileHeight
    }
  }

  /// Plans only `rects` of `frame` (a one-tile canvas): each is cleared and
  /// drawn scissored, with the whole canvas's mapping, from the commands
  /// that touch it.
  package mutating func planDamage(_ frame: DrawList, rects: [PixelRect]) {
    pathMaskedGroups = Self.pathMaskedGroups(frame.commands, options)
    let canvas = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
    for rect in rects {
      let touching = frame.commands.filter { $0.bounds.intersects(rect) }
      enterScope(canvas)
      prepare(touching, region: canvas)
      drawList(
        touching, into: FramePlan.canvas, region: canvas, clear: frame.background, scissor: rect,
        label: "damaged \(rect)")
      plan.steps.append(.output(OutputStep(tile: rect, rect: rect)))
    }
  }

  private mutating func enterScope(_ region: PixelRect) {
    guard scope != region else { return }
    scope = region
    groupTargets = [:]
    shadowExtents = [:]
    backdropCanvas = [:]
    atlasSlots = [:]
    groupAreas = [:]
  }

  // MARK: What the passes sample

  /// Plans what `commands` sample, inner groups first, within `region`:
  /// group targets, rasters, `CAOpenGLLayer` content. Backdrops are
  /// captured while drawing.
  mutating func prepare(_ commands: [DrawCommand], region: PixelRect) {
    // By index, switched on first: items are large, and most need nothing here.
    for i in commands.indices {
      switch commands[i] {
      case .group(let group):
        guard !group.backdrop, group.bounds.intersects(region) else { continue }
        prepareGroup(group, region: region)
      case .item(let item):
        guard item.needsPreparation else { continue }
        switch item.material {
        case .raster(let pass) where item.bounds.intersects(region): prepareRaster(pass)
        case .openGLLayer(let pass) where item.bounds.intersects(region): prepareOpenGLLayer(pass)
        default: continue
        }
      }
    }
    // What these commands' groups put in the atlas is drawn before anything
    // that samples it.
    flushAtlas()
  }

  /// How a group reaches its parent.
  enum Isolation: Equatable {
    /// Drawn in place, its commands' opacity multiplied by this.
    case none(opacity: Float)
    /// Rendered offscreen, then composited.
    case offscreen
  }

  /// A group needs its own target only for what it applies to its rendering
  /// as a whole: an opacity over overlapping content, a mask, a clip or cut,
  /// filters, a blur, a blend mode.
  static func isolation(of group: GroupPass) -> Isolation {
    if group.mask != nil || group.shadow != nil || group.filter != nil || group.backdrop
      || group.clip != nil || !group.clipPlanes.isEmpty || group.blend != .sourceOver
    {
      return .offscreen
    }
    if group.opacity >= 1 { return .none(opacity: 1) }
    if group.commands.count == 1, case .item(let item) = group.commands[0],
      item.blend == .sourceOver
    {
      return .none(opacity: group.opacity)
    }
    return .offscreen
  }

  /// Plans the rendering of `group` within `region` (its inner groups and
  /// mask first); a mask's and a masked group's come from the cache when
  /// their draw lists were rendered before.
  mutating func prepareGroup(
    _ group: GroupPass, region: PixelRect, isMask: Bool = false, isolated: Bool = false
  ) {
    // Pieces of one group split by depth sorting share its rendering.
    if groupTargets[group.id] != nil { return }
    if !isMask && !isolated, case .none = Self.isolation(of: group) {
      prepare(group.commands, region: region)
      return
    }
    // A group a run draws whole needs no pass, nor do its groups and mask.
    if !isMask && !isolated, drawsWholeOnCPU(group) || drawsBlendedOnCPU(group) { return }
    if group.shadow != nil {
      prepareShadow(group)
      return
    }
    if group.filter != nil {
      prepareFiltered(group, region: region)
      return
    }
    // A masked gradient drawn as its mask's path needs no rendering.
    if !isMask, gradientMask(of: group) != nil { return }
    let area = Self.targetArea(group.bounds, region)
    guard !area.isEmpty else { return }
    groupAreas[group.id] = area
    // A mask that is one path is drawn by the composite itself: no pass.
    let drawnMask = isMask || pathMask(of: group) != nil ? nil : group.mask
    if !isMask, let mask = group.mask,
      Self.fitsAtlas(group, area: area, blendEquations: options.blendEquations)
    {
      let contentKey = Self.cacheKey(group.commands, area: area)
      let maskKey = Self.cacheKey(mask.commands, area: area)
      if !caches.holdsCachedPass(contentKey)
        || (drawnMask != nil && !caches.holdsCachedPass(maskKey))
      {
        deferToAtlas(group, mask: drawnMask, area: area, contentKey: contentKey, maskKey: maskKey)
        return
      }
    }
    if let drawnMask { prepareGroup(drawnMask, region: area, isMask: true) }
    var key: Int?
    if isMask || group.mask != nil { key = Self.cacheKey(group.commands, area: area) }
    let label = "group \(group.id) \(area): \(group.reason)"
    // A pooled target is of a size class of the area (`allocationSize`),
    // the area at its corner: a group whose bounds change from frame to
    // frame (a precomposition's opacity, a moving group) takes the pool's
    // target of the last frame instead of a new one (whose storage llvmpipe
    // clears page by page), and `textureRect` samples only the area. A
    // masked group and its mask keep their area's size: the composite
    // samples both at the same coordinates, and the cache keeps them.
    // (Bounded by the frame, not by the region the group is drawn for: a
    // group made first for a shadow's region and drawn again for the
    // canvas's takes a target of one size, so its pixels map alike.)
    let frame = PixelRect(x: 0, y: 0, width: plan.width, height: plan.height)
    let size = key == nil ? Self.allocationSize(area, within: frame) : (width: area.width, height: area.height)
    if let key, let cached = cachedTarget(key, width: size.width, height: size.height, label) {
      groupTargets[group.id] = cached
      return
    }
    prepare(group.commands, region: area)
    let target = addTarget(
      width: size.width, height: size.height,
      role: key.map { .cached(key: $0, hit: false) } ?? .pooled, label: label)
    drawList(
      group.commands, into: target,
      region: PixelRect(x: area.x, y: area.y, width: size.width, height: size.height),
      clear: .zero, label: label)
    groupTargets[group.id] = target
    if let key { cachedPasses[key] = target }
  }

  /// The size of the target made for a group's `area`: each side rounded
  /// up to a multiple of a quarter of its power of two (32 at least), not
  /// past `region` (the frame; nor smaller than the area),
  /// so that areas that change a little from frame to frame share a size
  /// and the pool's targets serve them.
  static func allocationSize(_ area: PixelRect, within region: PixelRect) -> (
    width: Int, height: Int
  ) {
    func rounded(_ side: Int, _ limit: Int) -> Int {
      guard side > 0 else { return side }
      var power = 1
      while power < side { power <<= 1 }
      let step = max(32, power / 4)
      let up = (side + step - 1) / step * step
      return max(side, min(up, limit))
    }
    return (
      rounded(area.width, region.x + region.width - area.x),
      rounded(area.height, region.y + region.height - area.y)
    )
  }

  /// Where a group's target lies: its bounds in the region, the corner moved
  /// to even pixels. Derivatives (dFdx, dFdy: the edge and shape coverage)
  /// are taken over 2×2 pixel quads that start at the target's corner, so a
  /// target at an odd corner would antialias a layer otherwise than the
  /// canvas, and otherwise as its siblings move the group's bounds.
  static func targetArea(_ bounds: PixelRect, _ region: PixelRect) -> PixelRect {
    bounds.intersection(region).evenCorner
  }

  /// The target of cache entry `key` when this frame made it already or the
  /// cache holds it; else nil (it is to be rendered).
  mutating func cachedTarget(_ key: Int, width: Int, height: Int, _ label: String) -> TargetID? {
    if let made = cachedPasses[key] { return made }
    guard caches.holdsCachedPass(key) else { return nil }
    let target = addTarget(
      width: width, height: height, role: .cached(key: key, hit: true), label: label)
    cachedPasses[key] = target
    return target
  }

  /// A rasterized subtree: drawn into its cached target unless the cache
  /// holds its signature.
  private mutating func prepareRaster(_ pass: RasterPass) {
    guard rasters[pass.key] == nil else { return }
    let region = pass.region
    let label = "raster \(region)"
    if caches.holdsRaster(pass.key) {
      rasters[pass.key] = addTarget(
        width: region.width, height: region.height, role: .raster(key: pass.key, hit: true),
        label: label)
      return
    }
    prepare(pass.commands, region: region)
    let target = addTarget(
      width: region.width, height: region.height, role: .raster(key: pass.key, hit: false),
      label: label)
    drawList(pass.commands, into: target, region: region, clear: .zero, label: label)
    rasters[pass.key] = target
  }

  /// A `CAOpenGLLayer`'s framebuffer, drawn first when it needs new content.
  private mutating func prepareOpenGLLayer(_ pass: GLLayerPass) {
    guard openGLLayers[pass.key] == nil else { return }
    let target = addTarget(
      width: pass.width, height: pass.height, role: .openGLLayer(pass.key),
      label: "CAOpenGLLayer \(pass.layer.name ?? "")")
    openGLLayers[pass.key] = target
    if caches.openGLLayerNeedsDrawing(pass) {
      plan.steps.append(.openGLLayer(OpenGLLayerStep(pass: pass, target: target)))
    }
  }

  // MARK: Drawing a list

  /// A draw pass being filled.
  struct OpenPass {
    var pass: DrawPass
    var batcher: Batcher
    /// Path items waiting to be drawn on the CPU as one image
    /// (`FramePlanner+CPUPaths.swift`), opacity applied.
    var run: [RunItem] = []
  }

  /// Plans drawing `commands` into `target`, which shows `region` at its
  /// origin: one draw pass, or several where a backdrop or a blend fallback
  /// reads what was drawn before it.
  mutating func drawList(
    _ commands: [DrawCommand], into target: TargetID, region: PixelRect, clear: SIMD4<Float>?,
    scissor: PixelRect? = nil, viewport: PixelRect? = nil, label: String
  ) {
    var open = OpenPass(
      pass: DrawPass(
        target: target, region: region, clear: clear, scissor: scissor, viewport: viewport,
        label: label),
      batcher: makeBatcher(region))
    open.batcher.reserve(items: commands.count)
    draw(commands, into: &open, opacity: 1)
    close(&open)
  }

  private mutating func draw(_ commands: [DrawCommand], into open: inout OpenPass, opacity: Float) {
    let region = open.pass.region
    for i in commands.indices {
      switch commands[i] {
      case .item(let item):
        guard item.bounds.intersects(region) else { continue }
        var command = commands[i]
        var item = item
        var fade = opacity
        if options.cpuPaths, Self.drawsOnCPU(item) {
          if opacity < 1 { item.multiplyOpacity(opacity) }
          if Self.joinsRun(item) {
            open.run.append(.path(item, nil))
            continue
          }
          flushRun(&open)
          // Drawn as a quad of its bitmap (its opacity in it).
          guard let quad = cpuQuad(item, region: region) else { continue }
          (item, command, fade) = (quad, .item(quad), 1)
        } else {
          flushRun(&open)
        }
        if item.hasCompositeBlend, !options.blendEquations {
          close(&open)
          blendFallback(command, into: open.pass.target, region: region, scissor: open.pass.scissor)
          continue
        }
        add(item, to: &open, opacity: fade)
      case .group(let group):
        guard group.bounds.intersects(region) else { continue }
        if case .none(let inner) = Self.isolation(of: group) {
          draw(group.commands, into: &open, opacity: opacity * inner)
          continue
        }
        if options.cpuPaths, let found = gradientMask(of: group) {
          // A gradient painted over its mask's path: the run draws it when
          // it draws the path (`FramePlanner+CPUPaths.swift`).
          if let (item, paint, gradient) = gradientMaskComposite(group, found, region: region) {
            var faded = item
            faded.multiplyOpacity(opacity)
            if Self.drawsOnCPU(faded), Self.joinsRun(faded) {
              open.run.append(.path(faded, gradient))
            } else {
              flushRun(&open)
              open.batcher.addGradientPainted(faded, paint, gradient)
            }
          }
          continue
        }
        if drawsWholeOnCPU(group) {
          // Drawn whole into the run: no pass for it or its mask.
          if let run = runGroup(group, region: region, opacity: opacity) {
            open.run.append(.group(run))
          }
          continue
        }
        flushRun(&open)
        if drawsBlendedOnCPU(group) {
          // Drawn whole on the CPU, blended by the GPU: no pass for it or its mask.
          guard let quad = blendedGroupQuad(group, region: region, opacity: opacity) else {
            continue
          }
          if !options.blendEquations {
            close(&open)
            blendFallback(
              .item(quad), into: open.pass.target, region: region, scissor: open.pass.scissor)
            continue
          }
          add(quad, to: &open)
          continue
        }
        if group.backdrop {
          close(&open)
          captureBackdrop(group, from: open.pass.target, region: region)
          if let item = compositeItem(group, region: region) { add(item, to: &open) }
          continue
        }
        if case .composite = group.blend, !options.blendEquations {
          close(&open)
          blendFallback(
            commands[i], into: open.pass.target, region: region, scissor: open.pass.scissor)
          continue
        }
        if let found = gradientMask(of: group) {
          if let (item, paint, gradient) = gradientMaskComposite(group, found, region: region) {
            var faded = item
            faded.multiplyOpacity(opacity)
            open.batcher.addGradientPainted(faded, paint, gradient)
          }
          continue
        }
        if let (item, paint, texture, texturePaint) = pathMaskComposite(group, region: region) {
          var faded = item
          faded.multiplyOpacity(opacity)
          open.batcher.addPainted(faded, paint, texture: .target(texture), texturePaint)
          continue
        }
        if let item = compositeItem(group, region: region) {
          add(item, to: &open, opacity: opacity)
        }
      }
    }
  }

  /// Ends the pass being filled (kept when it clears or draws something)
  /// and opens its continuation into the same target.
  private mutating func close(_ open: inout OpenPass) {
    flushRun(&open)
    if open.pass.clear != nil || !open.batcher.isEmpty {
      var pass = open.pass
      (pass.batches, pass.geometry) = open.batcher.finish()
      plan.steps.append(.draw(pass))
    }
    open.pass.clear = nil
    // The continuation draws over what this pass left: nothing to write again.
    open.pass.upload = nil
    open.pass.uploadReplacesClear = false
    open.pass.uploadSince = nil
    open.pass.batches = []
    plan.vertexNanoseconds &+= open.batcher.vertexNanoseconds
    open.batcher = makeBatcher(open.pass.region)
  }

  private func makeBatcher(_ region: PixelRect) -> Batcher {
    var batcher = Batcher(
      batching: options.batching, edgeCoverage: options.edgeCoverage, region: region)
    batcher.timesVertices = options.timesVertices
    batcher.mergedFillMaxPixels = options.mergedFillMaxPixels
    return batcher
  }

  mutating func add(_ item: DrawItem, to open: inout OpenPass, opacity: Float = 1) {
    var item = item
    if case .gradient(let paint) = item.material, paint.atPixelCorners,
      let folded = Self.cornerShiftFolded(item, paint)
    {
      item = folded
    }
    guard let resources = resources(for: item.material) else { return }
    guard opacity < 1 else { return open.batcher.add(item, resources) }
    var faded = item
    faded.multiplyOpacity(opacity)
    open.batcher.add(faded, resources)
  }

  /// A gradient item taking its color at each pixel's top-left corner
  /// (`CAGradientLayer.samplesAtPixelCorners`) drawn on an affine plane:
  /// the corner lies the same step of its texture coordinates from every
  /// pixel's center, so the step is folded into them and the item is drawn
  /// by the program that samples at the center, which spares llvmpipe the
  /// screen derivatives of every pixel (a fifth of a gradient's cost).
  /// Nil under a perspective.
  static func cornerShiftFolded(_ item: DrawItem, _ paint: GradientPaint) -> DrawItem? {
    let m = item.matrix
    let r = item.rect
    guard m.m14 == 0, m.m24 == 0, m.m44 != 0, r.width > 0, r.height > 0 else { return nil }
    // The plane's step for half a target pixel left and up (y down).
    let det = m.m11 * m.m22 - m.m21 * m.m12
    guard abs(det) > 1e-12 else { return nil }
    let (sx, sy) = (-0.5 * m.m44, -0.5 * m.m44)
    let dx = (m.m22 * sx - m.m21 * sy) / det
    let dy = (m.m11 * sy - m.m12 * sx) / det
    let uv = item.uv
    let du = Float(dx * CGFloat(uv.u1 - uv.u0) / r.width)
    let dv = Float(dy * CGFloat(uv.v1 - uv.v0) / r.height)
    var shifted = paint
    shifted.atPixelCorners = false
    var folded = item
    folded.material = .gradient(shifted)
    folded.uv = (uv.u0 + du, uv.v0 + dv, uv.u1 + du, uv.v1 + dv)
    return folded
  }

  package static let nearest = SamplerKey(minification: .nearest, magnification: .nearest)
  package static let linear = SamplerKey(minification: .linear, magnification: .linear)

  /// What a material is drawn with; nil when the target it samples was not
  /// made (nothing of it lies in the region).
  private mutating func resources(for material: Material) -> ItemResources? {
    func target(_ id: TargetID?) -> TextureSource? { id.map { .target($0) } }
    switch material {
    case .solid:
      return ItemResources(program: .solid)
    case .gradient(let paint):
      return ItemResources(
        program: .gradient(paint.kind, blend: false, corners: paint.atPixelCorners),
        sampler: paint.rampSamplesNearest ? Self.nearest : Self.linear, paint: paint)
    case .image(let image, let key):
      return ItemResources(program: .image, texture: .image(index(of: image)), sampler: key)
    case .group(let id), .filtered(let id):
      guard let texture = target(groupTargets[id]) else { return nil }
      return ItemResources(program: .image, texture: texture, sampler: Self.nearest)
    case .masked(let id, let mask, let mode):
      guard let texture = target(groupTargets[id]), let mask = target(groupTargets[mask]) else {
        return nil
      }
      return ItemResources(
        program: .image, texture: texture, mask: mask, maskMode: mode, sampler: Self.nearest)
    case .raster(let pass):
      guard let texture = target(rasters[pass.key]) else { return nil }
      return ItemResources(program: .image, texture: texture, sampler: Self.linear)
    case .openGLLayer(let pass):
      guard let texture = target(openGLLayers[pass.key]) else { return nil }
      return ItemResources(program: .image, texture: texture, sampler: Self.linear)
    case .dmabuf(let frame):
      return ItemResources(program: .image, texture: .dmabuf(frame), sampler: Self.linear)
    case .path:
      return ItemResources(program: .path)
    case .shadow(let id):
      guard let texture = target(groupTargets[id]) else { return nil }
      return ItemResources(program: .shadow, texture: texture, sampler: Self.linear)
    }
  }

  /// `image`'s index in the plan's images, added on first use.
  mutating func index(of image: CGImage) -> Int {
    let key = ObjectIdentifier(image)
    if let index = imageIndices[key] { return index }
    imageIndices[key] = plan.images.count
    plan.images.append(image)
    return plan.images.count - 1
  }

  // MARK: Targets

  /// A new target of the plan.
  mutating func addTarget(width: Int, height: Int, role: PlannedTarget.Role, label: String)
    -> TargetID
  {
    let id = TargetID(index: plan.targets.count)
    plan.targets.append(
      PlannedTarget(id: id, width: width, height: height, role: role, label: label))
    return id
  }

  func size(of target: TargetID) -> (width: Int, height: Int) {
    (plan.targets[target.index].width, plan.targets[target.index].height)
  }

  package init(options: PlanOptions, caches: PlanCaches, plan: FramePlan, groupTargets: [Int: TargetID] = [:], shadowExtents: [Int: (Float, Float)] = [:], backdropCanvas: [Int: PixelRect] = [:], cachedPasses: [Int: TargetID] = [:], atlas: MaskAtlas? = nil, atlasSlots: [Int: PixelRect] = [:], groupAreas: [Int: PixelRect] = [:]) {
    self.options = options
    self.caches = caches
    self.plan = plan
    self.groupTargets = groupTargets
    self.shadowExtents = shadowExtents
    self.backdropCanvas = backdropCanvas
    self.cachedPasses = cachedPasses
    self.atlas = atlas
    self.atlasSlots = atlasSlots
    self.groupAreas = groupAreas
  }
}
