import Foundation
import Lamina
import LaminaDraw

/// Turns a layer tree into a `DrawList`: one walk of the tree computes every
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
///
/// A builder keeps what it derived (a `RenderTree`): build frames of the
/// same tree with the same builder, and each frame derives only the layers
/// that changed since the last one (see docs/rendering.md). What it draws
/// on the CPU and keeps across frames (bitmaps, path meshes, tiles, glyphs)
/// goes in its `caches`: a renderer's (`Renderer.caches`), so that frames
/// of one renderer share them, or a set of its own.
public struct FrameBuilder {
  /// Target size in pixels.
  public let width: Int, height: Int
  /// Where drawn content, path meshes, tiles and glyphs are kept.
  public let caches: RenderCaches
  /// Maps canvas points to target pixels (the canvas scale, and a tile offset).
  let canvasToPixels: CATransform3D
  let targetBounds: PixelRect
  var nextGroupID = 0
  /// Whether an odd number of the geometry flips that `flipped` counts are
  /// not in the matrices (a rasterized subtree is built in its own plane):
  /// facing is judged by the flips the matrices hold.
  var flipsOutsideMatrices = false
  /// The model layer being visited: items and passes made now are its
  /// (`DrawItem.source`, `GroupPass.source`).
  var currentLayer: ObjectIdentifier?
  /// The retained node of the visit being derived (`RenderTree`), whose
  /// layer's own drawing may reuse what it kept (`PathItemsMemo`).
  var memoNode: RenderTree.Node?
  /// The instance of each enclosing replicator being visited, outermost
  /// first: passes made now are for that copy (`GroupPass.instances`).
  var instanceIndices: [Int] = []
  /// Scene time in seconds, for what is a function of time while drawn
  /// (emitter particles).
  public var time: Double = 0
  var stats = FrameBuildStats()
  /// The layer a raster builder draws (its own `shouldRasterize` and
  /// opacity are applied by the quad that shows the raster).
  private var rasterRoot: ObjectIdentifier?
  /// New shape bitmaps of this frame, drawn together when the walk ends
  /// (nil for raster builders, which draw them as they go).
  let pendingShapes: PendingShapes?
  /// What earlier frames derived, reused where nothing changed (nil for
  /// raster builders).
  let retained: RenderTree?
  /// The retained nodes of the derivation under way.
  var scope = RenderTree.Scope(previous: [])
  /// False while visits may not be retained (replicator instances, which
  /// visit the same layers once per instance).
  var retaining = true
  /// What this frame's derivations depended on.
  let log: DerivationLog
  /// The glyph atlas's image version when the frame began.
  var atlasVersion = 0

  /// Shape layers are drawn by the GPU (paths); false draws them with Cairo.
  public var drawsShapesOnGPU = FrameBuilder.shapesOnGPUByDefault

  /// Whether a mask that is one opaque rectangle clips instead of going
  /// offscreen (`applyMask`); false renders every mask offscreen, for
  /// comparing the two.
  package var masksAsClips = true

  /// Beyond this many items, an opacity group is assumed to overlap itself.
  static let overlapCheckLimit = 256

  /// A builder for a canvas of `size` points rendered at `scale` pixels per
  /// point, keeping what it draws in `caches` (a renderer's, to share them
  /// with its other frames; a set of its own by default).
  public init(size: CGSize, scale: CGFloat, caches: RenderCaches = RenderCaches()) {
    self.caches = caches
    width = Int(saturating: size.width * scale, rounding: .toNearestOrAwayFromZero)
    height = Int(saturating: size.height * scale, rounding: .toNearestOrAwayFromZero)
    canvasToPixels = CATransform3DMakeScale(scale, scale, 1)
    targetBounds = PixelRect(x: 0, y: 0, width: width, height: height)
    pendingShapes = PendingShapes()
    retained = RenderTree()
    log = DerivationLog()
  }

  /// A builder that stretches a canvas of `size` points to exactly
  /// `pixelWidth`×`pixelHeight` pixels (the benchmark's `--size`).
  public init(
    size: CGSize, pixelWidth: Int, pixelHeight: Int, caches: RenderCaches = RenderCaches()
  ) {
    self.caches = caches
    width = pixelWidth
    height = pixelHeight
    canvasToPixels = CATransform3DMakeScale(
      CGFloat(pixelWidth) / max(size.width, 1), CGFloat(pixelHeight) / max(size.height, 1), 1)
    targetBounds = PixelRect(x: 0, y: 0, width: width, height: height)
    pendingShapes = PendingShapes()
    retained = RenderTree()
    log = DerivationLog()
  }

  /// A builder for the raster of `layer`: its plane scaled by `scale`, with
  /// room for whatever the subtree draws around its bounds.
  init(
    rasterOf layer: CALayer, scale: CGFloat, nextGroupID: Int, log: DerivationLog,
    caches: RenderCaches
  ) {
    self.caches = caches
    width = 0
    height = 0
    canvasToPixels = CATransform3DMakeScale(scale, scale, 1)
    let reach = 4 * Self.maxRasterSide
    targetBounds = PixelRect(x: -reach, y: -reach, width: 2 * reach, height: 2 * reach)
    self.nextGroupID = nextGroupID
    rasterRoot = ObjectIdentifier(layer)
    pendingShapes = nil
    retained = nil
    self.log = log
  }

  /// Builds the frame for `root`, laid on a canvas whose background is `background`.
  /// Layers that did not change since the last `build` of this builder
  /// are not walked again: their commands are those it kept.
  public mutating func build(root: CALayer, background: CGColor?) -> DrawList {
    stats = FrameBuildStats()
    caches.beginFrame()
    if let tree = retained {
      tree.previousTick = tree.tick
      tree.tick = LayerChangeClock.advance()
      nextGroupID = tree.nextGroupID
      atlasVersion = caches.glyphs.imagesVersion
      scope = RenderTree.Scope(previous: tree.root.taken)
    } else {
      nextGroupID = 0
    }
    var commands: [DrawCommand] = []
    let placedBefore = log.placedShapes
    visit(
      root, parentToTarget: canvasToPixels, parentSublayers: nil, flipped: false, into: &commands)
    stats.placedShapeLayers = log.placedShapes - placedBefore
    var images = pendingShapes?.finish(&commands, caching: caches.drawn) ?? [:]
    images.merge(finishGlyphs(&commands)) { a, _ in a }
    if let tree = retained {
      tree.root = scope
      tree.nextGroupID = nextGroupID
      finishRetained(tree, images: images, atlasVersion: caches.glyphs.imagesVersion)
    }
    return DrawList(
      width: width, height: height, background: premultiplied(background, opacity: 1),
      commands: commands, stats: stats)
  }

  // MARK: The walk

  /// Appends the draw commands of `layer` and its subtree, `layer`'s
  /// opacity applied: kept from the last frame when nothing they depend on
  /// changed (see `RenderTree`), else derived.
  mutating func visit(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool, into commands: inout [DrawCommand]
  ) {
    let enclosing = currentLayer
    let source = ObjectIdentifier(layer.model())
    currentLayer = source
    let (start, groups) = (commands.count, nextGroupID)
    defer { currentLayer = enclosing }
    if retaining, let tree = retained {
      visitRetained(
        layer, parentToTarget: parentToTarget, parentSublayers: parentSublayers, flipped: flipped,
        tree: tree, into: &commands)
    } else {
      derive(
        layer, parentToTarget: parentToTarget, parentSublayers: parentSublayers, flipped: flipped,
        into: &commands)
    }
    // The passes made just now for this layer (its sublayers' have theirs).
    if nextGroupID != groups, start <= commands.count {
      Self.claim(commands[start...], for: source)
    }
  }

  /// Names `source` as the layer of the passes among `commands` (and those
  /// nested in them) that have none yet.
  static func claim(_ commands: ArraySlice<DrawCommand>, for source: ObjectIdentifier) {
    for command in commands {
      guard case .group(let group) = command, group.source == nil else { continue }
      group.source = source
      claim(group.commands[...], for: source)
      if let mask = group.mask, mask.source == nil {
        mask.source = source
        claim(mask.commands[...], for: source)
      }
    }
  }

  /// Derives the draw commands of `layer` and its subtree, `layer`'s opacity applied.
  /// - Parameters:
  ///   - parentToTarget: maps the superlayer's (flattened) plane to target pixels.
  ///   - parentSublayers: the superlayer's `transformForSublayers` (nil when
  ///     it is the identity, or for the root).
  ///   - flipped: an odd number of ancestors flip their sublayers' geometry;
  ///     contents images are then flipped back so that they stay upright.
  mutating func derive(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool, into commands: inout [DrawCommand]
  ) {
    guard !layer.isHidden, layer.opacity > 0 else { return }
    var local = Self.transformToSuperlayer(layer)
    if let parentSublayers { local = local.concatenating(parentSublayers) }
    if layer is CATransformLayer {
      appendTransformLayer(
        layer, local: local, parentToTarget: parentToTarget, flipped: flipped, into: &commands)
      return
    }
    if let replicator = layer as? CAReplicatorLayer, replicator.preservesDepth {
      // Its own drawing is flat; its instances share one 3D space, sorted
      // like the sublayers of a transform layer.
      let start = commands.count
      let toTarget = Self.flattenedProduct(local, parentToTarget)
      appendBackground(layer, toTarget: toTarget, into: &commands)
      appendOwnCommands(layer, toTarget: toTarget, flipped: flipped, into: &commands)
      appendTransformLayer(
        layer, local: local, parentToTarget: parentToTarget, flipped: flipped, into: &commands)
      appendBorder(layer, toTarget: toTarget, into: &commands)
      applyOpacity(layer.opacity, from: start, in: &commands)
      return
    }
    // The layer's plane flattens into the parent's: z drops, x, y, w stay.
    let toTarget = Self.flattenedProduct(local, parentToTarget)
    if let transition = layer.transitionState {
      appendTransition(layer, transition, toTarget: toTarget, flipped: flipped, into: &commands)
      return
    }
    appendLayerAndSublayers(
      layer, toTarget: toTarget, flipped: flipped, opacity: 1, into: &commands)
  }

  /// Whether `derive` draws `layer` as its own drawing, then its
  /// sublayers, then its opacity, and nothing else: a layer of the class
  /// `CALayer` or `CAShapeLayer` itself (whose own drawing is its contents
  /// or its path) with no mask, clip, background, border, shadow, filters,
  /// compositing filter, rasterization or transition, each of which
  /// `appendLayerAndSublayers` would otherwise apply.
  static func isPlain(_ layer: CALayer) -> Bool {
    let kind = type(of: layer)
    return (kind == CALayer.self || kind == CAShapeLayer.self) && layer.transitionState == nil
      && !layer.shouldRasterize && layer.mask == nil && !layer.masksToBounds
      && !((layer.backgroundColor?.alpha ?? 0) > 0)
      && !(layer.borderWidth > 0 && (layer.borderColor?.alpha ?? 0) > 0)
      && !(layer.shadowOpacity > 0 && (layer.shadowColor?.alpha ?? 0) > 0)
      && (layer.filters?.isEmpty ?? true) && (layer.backgroundFilters?.isEmpty ?? true)
      && layer.compositingFilter == nil
  }

  /// A plain layer (`isPlain`) whose own values are those of its last
  /// derivation (its opacity aside): what `derive` and
  /// `appendLayerAndSublayers` make of it, without the steps that do
  /// nothing for it (its sublayers visited as there). False, with nothing
  /// added, for the rasterized subtree's root (derived in full).
  mutating func derivePlain(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool, into commands: inout [DrawCommand]
  ) -> Bool {
    guard rasterRoot != ObjectIdentifier(layer) else { return false }
    guard !layer.isHidden, layer.opacity > 0 else { return true }
    var local = Self.transformToSuperlayer(layer)
    if let parentSublayers { local = local.concatenating(parentSublayers) }
    let toTarget = Self.flattenedProduct(local, parentToTarget)
    if !layer.isDoubleSided && isBackFacing(toTarget, bounds: layer.bounds) != mirrored(flipped) {
      return true
    }
    let start = commands.count
    appendOwnCommands(layer, toTarget: toTarget, flipped: flipped, into: &commands)
    let sublayers = layer.storedSublayersForRendering
    if !sublayers.isEmpty {
      visitSublayers(sublayers, of: layer, toTarget: toTarget, flipped: flipped, into: &commands)
    }
    noteUnfaded(layer, from: start, in: commands)
    applyOpacity(layer.opacity, from: start, in: &commands)
    return true
  }

  /// Visits `sublayers` (`layer`'s) in their drawing order, each under
  /// `layer`'s map to the target and its sublayer transform.
  private mutating func visitSublayers(
    _ sublayers: [CALayer], of layer: CALayer, toTarget: CATransform3D, flipped: Bool,
    into commands: inout [DrawCommand]
  ) {
    let sublayerTransform = layer.transformForSublayers
    let forSublayers = CATransform3DIsIdentity(sublayerTransform) ? nil : sublayerTransform
    let sublayersFlipped = flipped != layer.isGeometryFlipped
    for sublayer in drawingOrder(sublayers) {
      visit(
        sublayer, parentToTarget: toTarget, parentSublayers: forSublayers,
        flipped: sublayersFlipped, into: &commands)
    }
  }

  /// A flattening layer: its own drawing, then its sublayers flattened into
  /// its plane, then its opacity (times `opacity`) over the lot.
  mutating func appendLayerAndSublayers(
    _ layer: CALayer, toTarget: CATransform3D, flipped: Bool, opacity: Float,
    into commands: inout [DrawCommand]
  ) {
    // A single-sided layer facing away hides its whole flattened rendering,
    // sublayers included, as Core Animation does (a card's back face must
    // not show its labels mirrored through the front). A superlayer's
    // `isGeometryFlipped` mirrors the plane without turning the layer away
    // (its contents stay upright; a rasterized subtree showed it, drawn
    // directly it was hidden: the finding alone seed 777644).
    if !layer.isDoubleSided && isBackFacing(toTarget, bounds: layer.bounds) != mirrored(flipped) {
      return
    }
    let isRasterRoot = rasterRoot == ObjectIdentifier(layer)
    if layer.shouldRasterize && !isRasterRoot,
      appendRasterized(
        layer, toTarget: toTarget, flipped: flipped, opacity: opacity, into: &commands)
    {
      return
    }
    let opacity = isRasterRoot ? 1 : layer.opacity * opacity
    let start = commands.count
    insertBackdrop(of: layer, toTarget: toTarget, at: start, in: &commands)
    appendBackground(layer, toTarget: toTarget, into: &commands)
    let contentsStart = commands.count
    appendOwnCommands(layer, toTarget: toTarget, flipped: flipped, into: &commands)
    // Particles, tiles and GL content are functions of time (or of
    // drawing that happens elsewhere): never kept from frame to frame.
    if let emitter = layer as? CAEmitterLayer {
      log.volatile += 1
      appendParticles(emitter, toTarget: toTarget, into: &commands)
    }
    if let tiled = layer as? CATiledLayer {
      log.volatile += 1
      appendTiles(tiled, toTarget: toTarget, into: &commands)
    }
    if let gl = layer as? CAOpenGLLayer {
      log.volatile += 1
      appendGLContent(gl, toTarget: toTarget, into: &commands)
    }
    let sublayers = layer.storedSublayersForRendering
    if let replicator = layer as? CAReplicatorLayer, !sublayers.isEmpty {
      let sublayerTransform = layer.transformForSublayers
      appendReplicatorInstances(
        replicator, toTarget: toTarget,
        sublayerTransform: CATransform3DIsIdentity(sublayerTransform) ? nil : sublayerTransform,
        flipped: flipped != layer.isGeometryFlipped, into: &commands)
    } else if !sublayers.isEmpty {
      visitSublayers(sublayers, of: layer, toTarget: toTarget, flipped: flipped, into: &commands)
    }
    if layer.masksToBounds {
      applyClip(of: layer, toTarget: toTarget, range: contentsStart..<commands.count, in: &commands)
    }
    appendBorder(layer, toTarget: toTarget, into: &commands)
    applyFilters(of: layer, toTarget: toTarget, from: start, in: &commands)
    if let mask = layer.mask {
      applyMask(
        mask, mode: layer.maskMode, toTarget: toTarget, flipped: flipped, from: start,
        in: &commands)
    }
    // The shadow is part of the layer's rendering: its opacity groups them.
    var moreShadow: [DrawItem] = []
    if let shadow = makeShadow(
      of: layer, toTarget: toTarget, flipped: flipped, from: start, in: commands,
      extraShadowItems: &moreShadow)
    {
      commands.insert(contentsOf: [shadow] + moreShadow.map { .item($0) }, at: start)
    }
    if !isRasterRoot { noteUnfaded(layer, from: start, in: commands) }
    applyOpacity(opacity, from: start, in: &commands)
    applyCompositingFilter(of: layer, from: start, in: &commands)
  }

  /// A `CATransformLayer` and its subtree: the planes of its sublayers (and
  /// of nested transform layers) share one 3D space, sorted back to front.
  /// Its opacity multiplies each plane's on its own: no compositing group.
  private mutating func appendTransformLayer(
    _ layer: CALayer, local: CATransform3D, parentToTarget: CATransform3D, flipped: Bool,
    into commands: inout [DrawCommand]
  ) {
    var planes: [Plane] = []
    collectPlanes(
      of: layer, toContext: local, opacity: layer is CATransformLayer ? layer.opacity : 1,
      flipped: flipped != layer.isGeometryFlipped,
      into: &planes)
    // Back to front by a BSP tree over the planes, splitting those that
    // intersect; coplanar planes keep sublayer order (Core Animation's rule).
    let sorter = DepthSorter(
      planes: planes.map {
        DepthSorter.Plane(rect: Self.sortingRect(of: $0.layer), toContext: $0.toContext)
      })
    var built: [Int: [DrawCommand]] = [:]
    let start = DispatchTime.now().uptimeNanoseconds
    let pieces = sorter.sorted()
    stats.depthSortMilliseconds += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    stats.sortedPlanes += planes.count
    stats.sortedPieces += pieces.count
    for piece in pieces {
      let plane = planes[piece.plane]
      let toTarget = Self.flattenedProduct(plane.toContext, parentToTarget)
      let planeCommands: [DrawCommand]
      if let cached = built[piece.plane] {
        planeCommands = cached
      } else {
        var fresh: [DrawCommand] = []
        if plane.ownDrawingOnly {
          appendBackground(plane.layer, toTarget: toTarget, into: &fresh)
          appendOwnCommands(plane.layer, toTarget: toTarget, flipped: plane.flipped, into: &fresh)
          appendBorder(plane.layer, toTarget: toTarget, into: &fresh)
          applyOpacity(plane.layer.opacity * plane.opacity, from: 0, in: &fresh)
        } else {
          appendLayerAndSublayers(
            plane.layer, toTarget: toTarget, flipped: plane.flipped, opacity: plane.opacity,
            into: &fresh)
        }
        if let tint = plane.tint {
          for i in fresh.indices { fresh[i].multiplyColor(tint) }
        }
        built[piece.plane] = fresh
        planeCommands = fresh
      }
      if piece.halfPlanes.isEmpty {
        commands += planeCommands
      } else if let targetToPlane = Homography(toTarget).inverse {
        for command in planeCommands {
          commands.append(command.clipped(by: piece.halfPlanes, targetToPlane: targetToPlane))
        }
      }
    }
  }

  /// A flat layer inside a 3D context, drawn as a unit with its subtree.
  private struct Plane {
    var layer: CALayer
    var toContext: CATransform3D
    var opacity: Float
    var flipped: Bool
    /// A replicator instance's color (straight RGBA), when not white.
    var tint: SIMD4<Float>? = nil
    /// Only the layer's own drawing (a depth-preserving replicator, whose
    /// instances are planes of their own).
    var ownDrawingOnly = false
  }

  /// Gathers the planes inside a 3D context. `toContext` maps `layer`'s space
  /// to the context's space (the flattening ancestor's, before flattening).
  private func collectPlanes(
    of layer: CALayer, toContext: CATransform3D, opacity: Float, flipped: Bool,
    tint: SIMD4<Float>? = nil, into planes: inout [Plane]
  ) {
    let sublayerTransform = layer.transformForSublayers
    // A replicator that preserves depth puts each instance in the context.
    var instances: [(CATransform3D, SIMD4<Float>?)] = [(CATransform3DIdentity, tint)]
    if let replicator = layer as? CAReplicatorLayer, replicator.preservesDepth {
      instances = Self.replicatorInstances(replicator).map { placement, color in
        (placement, color.map { c in tint.map { $0 * c } ?? c } ?? tint)
      }
    }
    for (placement, instanceTint) in instances {
      let forSublayers = placement.concatenating(sublayerTransform)
      // A sublayer that draws nothing (an empty replicator) is no plane:
      // its plane would split the planes it crosses, and their pieces'
      // seams are antialiased (the metamorphic finding insert-invisible
      // seed 604391: two empty replicators cut a turned shape in two).
      for sublayer in layer.storedSublayersForRendering where !Self.drawsNothing(sublayer) {
        let childToContext = Self.transformToSuperlayer(sublayer)
          .concatenating(forSublayers).concatenating(toContext)
        let nested = sublayer is CATransformLayer
        if nested || (sublayer as? CAReplicatorLayer)?.preservesDepth == true {
          // A transform layer's opacity multiplies each of its sublayers on
          // its own; a replicator's own drawing becomes a plane too.
          if !nested {
            planes.append(
              Plane(
                layer: sublayer, toContext: childToContext, opacity: opacity, flipped: flipped,
                tint: instanceTint, ownDrawingOnly: true))
          }
          collectPlanes(
            of: sublayer, toContext: childToContext, opacity: opacity * sublayer.opacity,
            flipped: flipped != sublayer.isGeometryFlipped, tint: instanceTint, into: &planes)
          continue
        }
        planes.append(
          Plane(
            layer: sublayer, toContext: childToContext, opacity: opacity, flipped: flipped,
            tint: instanceTint))
      }
    }
  }

  /// Siblings by increasing `zPosition`, stable in sublayer order.
  func drawingOrder(_ layers: [CALayer]) -> [CALayer] {
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

  // MARK: Matrices, fast

  /// `layer.transformToSuperlayer`, without general matrix products for the
  /// common identity transform: `T(−anchor) × transform × T(position, zPosition)`.
  static func transformToSuperlayer(_ layer: CALayer) -> CATransform3D {
    let a = layer.anchorInBounds
    let p = layer.position
    let z = layer.zPosition
    var m = layer.transform
    // T(−a) × M changes only the fourth row.
    m.m41 -= a.x * m.m11 + a.y * m.m21 + a.z * m.m31
    m.m42 -= a.x * m.m12 + a.y * m.m22 + a.z * m.m32
    m.m43 -= a.x * m.m13 + a.y * m.m23 + a.z * m.m33
    m.m44 -= a.x * m.m14 + a.y * m.m24 + a.z * m.m34
    // × T(p): every row gains w × p.
    m.m11 += m.m14 * p.x
    m.m12 += m.m14 * p.y
    m.m13 += m.m14 * z
    m.m21 += m.m24 * p.x
    m.m22 += m.m24 * p.y
    m.m23 += m.m24 * z
    m.m31 += m.m34 * p.x
    m.m32 += m.m34 * p.y
    m.m33 += m.m34 * z
    m.m41 += m.m44 * p.x
    m.m42 += m.m44 * p.y
    m.m43 += m.m44 * z
    return m
  }

  /// `local.flattened × parent`, skipping the work an affine `local` makes
  /// unnecessary.
  static func flattenedProduct(_ local: CATransform3D, _ parent: CATransform3D) -> CATransform3D {
    if local.m14 == 0 && local.m24 == 0 && local.m34 == 0 && local.m44 == 1
      && local.m11 == 1 && local.m12 == 0 && local.m21 == 0 && local.m22 == 1
    {
      // A translation: the parent's rows 1, 2 and 4, shifted.
      var m = parent
      m.m31 = 0
      m.m32 = 0
      m.m33 = 0
      m.m34 = 0
      m.m41 = local.m41 * parent.m11 + local.m42 * parent.m21 + parent.m41
      m.m42 = local.m41 * parent.m12 + local.m42 * parent.m22 + parent.m42
      m.m43 = local.m41 * parent.m13 + local.m42 * parent.m23 + parent.m43
      m.m44 = local.m41 * parent.m14 + local.m42 * parent.m24 + parent.m44
      return m
    }
    return local.flattened.concatenating(parent)
  }

  // MARK: Opacity groups

  /// Applies a subtree's opacity to the commands it appended (from `start`):
  /// multiplied into them when they do not overlap, else as one offscreen group.
  mutating func applyOpacity(
    _ opacity: Float, from start: Int, in commands: inout [DrawCommand]
  ) {
    guard opacity < 1, start < commands.count else { return }
    let range = start..<commands.count
    // A blend mode inside an opacity group blends with the group's own
    // (transparent) backdrop, and background filters filter it: the group
    // is isolated, so it needs its pass, one command or many (folded into
    // a lone layer with background filters, the opacity let them filter
    // the canvas: the metamorphic finding alone seed 5200190).
    let blends = commands[range].contains { $0.blendsWithBackdrop }
    if !blends && (range.count == 1 || !overlapsItself(commands[range])) {
      for i in range { commands[i].multiplyOpacity(opacity) }
      return
    }
    wrapTail(
      of: &commands, from: start, opacity: opacity,
      reason: "group opacity over \(range.count) overlapping commands")
  }

  /// True when any two commands may touch the same pixel.
  private func overlapsItself(_ commands: ArraySlice<DrawCommand>) -> Bool {
    if commands.count > Self.overlapCheckLimit { return true }
    let rects = commands.map(\.bounds)
    for i in rects.indices {
      for j in rects.indices where j > i && rects[i].intersects(rects[j]) { return true }
    }
    return false
  }

  // MARK: A layer's own drawing

  /// The contents of one layer (its background comes before, see `appendBackground`).
  private func appendOwnCommands(
    _ layer: CALayer, toTarget: CATransform3D, flipped: Bool, into commands: inout [DrawCommand]
  ) {
    displayIfNeeded(layer)
    let bounds = layer.bounds
    if !layer.isDoubleSided && isBackFacing(toTarget, bounds: bounds) != mirrored(flipped) { return }
    if let gradient = layer as? CAGradientLayer,
      let item = gradientItem(gradient, toTarget: toTarget)
    {
      commands.append(.item(item))
    }
    appendDrawnItems(layer, toTarget: toTarget, flipped: flipped, into: &commands)
    if let image = layer.contents as? CGImage {
      if NineSlice.applies(to: layer) {
        appendNineSlice(layer, image: image, toTarget: toTarget, flipped: flipped, into: &commands)
        return
      }
      let layout = ContentsLayout(layer: layer, image: image)
      if let rect = layout.rect, rect.width > 0, rect.height > 0 {
        let uv = flipped ? (layout.uv.0, layout.uv.3, layout.uv.2, layout.uv.1) : layout.uv
        let texels = SIMD2(
          Double(abs(uv.2 - uv.0)) * Double(image.width) / Double(rect.width),
          Double(abs(uv.3 - uv.1)) * Double(image.height) / Double(rect.height))
        let sampler = SamplerKey(
          minification: layer.minificationFilter, magnification: layer.magnificationFilter
        ).resolved(texelsPerPoint: texels, through: toTarget)
        if let item = makeItem(
          .image(image, sampler), rect: rect, uv: uv, toTarget: toTarget,
          color: SIMD4(repeating: 1), name: layer.name)
        {
          commands.append(.item(item))
        }
      }
    } else if let frame = layer.contents as? DMABufFrame {
      // A dma-buf frame: laid out as an image, sampled in place by the GPU.
      let layout = ContentsLayout(layer: layer, pixelWidth: frame.width, pixelHeight: frame.height)
      if let rect = layout.rect, rect.width > 0, rect.height > 0,
        let item = makeItem(
          .dmabuf(frame), rect: rect, uv: layout.uv, toTarget: toTarget,
          color: SIMD4(repeating: 1), name: layer.name)
      {
        commands.append(.item(item))
      }
    }
  }

  /// Whether the geometry flips in a layer's matrix mirror its plane: `flipped`
  /// (the parity of the flips above it) less those its matrices do not hold.
  func mirrored(_ flipped: Bool) -> Bool { flipped != flipsOutsideMatrices }

  /// True when the layer's plane shows its back: its projection is mirrored.
  /// A layer with empty bounds (a container) is judged by a unit square at
  /// its origin: its plane faces the same way.
  func isBackFacing(_ m: CATransform3D, bounds: CGRect) -> Bool {
    let bounds =
      bounds.width > 0 && bounds.height > 0
      ? bounds : CGRect(origin: bounds.origin, size: CGSize(width: 1, height: 1))
    let a = m.apply(bounds.minX, bounds.minY)
    let b = m.apply(bounds.maxX, bounds.minY)
    let c = m.apply(bounds.minX, bounds.maxY)
    // Orientation of the projected corners, sign-corrected by the w's.
    let det =
      (b.x * c.y - b.y * c.x) * a.w - (a.x * c.y - a.y * c.x) * b.w + (a.x * b.y - a.y * b.x) * c.w
    return det < 0
  }

  /// An item for `rect` of a layer, clipped where it crosses behind the eye;
  /// nil when nothing of it lands in the target.
  func makeItem(
    _ material: Material, rect: CGRect, uv: (Float, Float, Float, Float),
    toTarget m: CATransform3D, color: SIMD4<Float>, name: String?
  ) -> DrawItem? {
    var minX = CGFloat.infinity
    var minY = CGFloat.infinity
    var maxX = -CGFloat.infinity
    var maxY = -CGFloat.infinity
    func include(_ x: CGFloat, _ y: CGFloat) {
      let q = m.apply(x, y)
      let px = q.x / q.w
      let py = q.y / q.w
      minX = min(minX, px)
      maxX = max(maxX, px)
      minY = min(minY, py)
      maxY = max(maxY, py)
    }
    var clipped: [CGPoint]?
    if !EdgeGeometry.inFront(rect, m) {
      let polygon = EdgeGeometry.visiblePolygon(rect, m)
      if polygon.count < 3 { return nil }
      for p in polygon { include(p.x, p.y) }
      clipped = polygon
    } else {
      let box = Self.projectedBox(rect, m)
      (minX, minY, maxX, maxY) = (box.minX, box.minY, box.maxX, box.maxY)
    }
    guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite else { return nil }
    // One pixel more on each side: the reach of edge antialiasing.
    var reach = CGRect(x: minX - 1, y: minY - 1, width: maxX - minX + 2, height: maxY - minY + 2)
    if clipped == nil { reach = reach.union(Self.grownCorners(rect, m)) }
    let bounds = PixelRect(enclosing: reach).intersection(targetBounds)
    guard !bounds.isEmpty else { return nil }
    return DrawItem(
      material: material, clippedPolygon: clipped, rect: rect, uv: uv, matrix: m, color: color,
      bounds: bounds, layerName: name, source: currentLayer)
  }
}

extension FrameBuilder {
  /// Antialiasing grows an item's quad by a pixel across each edge
  /// (`EdgeGeometry.margins`, as the vertex builder grows it), which under a
  /// slanted projection moves its corners further than a pixel: the box of
  /// the grown corners on the target, which an item's bounds hold (damage,
  /// tiles and clips rely on every pixel drawn lying inside them). Null
  /// when the plane is seen edge-on or the grown rect reaches behind the eye.
  static func grownCorners(_ rect: CGRect, _ m: CATransform3D) -> CGRect {
    guard let margin = EdgeGeometry.margins(rect, m) else { return .null }
    let grown = rect.insetBy(dx: -margin.x, dy: -margin.y)
    guard EdgeGeometry.inFront(grown, m) else { return .null }
    let box = projectedBox(grown, m)
    return CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
  }

  /// The box of `rect`'s four corners through `m` (the rect in front of
  /// the eye), without an array: an allocation for every item otherwise.
  @inline(__always)
  static func projectedBox(_ rect: CGRect, _ m: CATransform3D)
    -> (minX: CGFloat, minY: CGFloat, maxX: CGFloat, maxY: CGFloat)
  {
    var box = (minX: CGFloat.infinity, minY: CGFloat.infinity, maxX: -CGFloat.infinity,
               maxY: -CGFloat.infinity)
    func include(_ x: CGFloat, _ y: CGFloat) {
      let q = m.apply(x, y)
      let (px, py) = (q.x / q.w, q.y / q.w)
      box = (min(box.minX, px), min(box.minY, py), max(box.maxX, px), max(box.maxY, py))
    }
    include(rect.minX, rect.minY)
    include(rect.maxX, rect.minY)
    include(rect.maxX, rect.maxY)
    include(rect.minX, rect.maxY)
    return box
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
