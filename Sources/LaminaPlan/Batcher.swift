import Foundation
import Lamina
import LaminaFrame

/// What an item is drawn with, resolved by the planner from its material.
struct ItemResources {
  var program: ProgramKey
  var texture: TextureSource?
  var mask: TextureSource?
  /// What of the mask multiplies (with `mask`).
  var maskMode = CALayerMaskMode.alpha
  var sampler: SamplerKey?
  var paint: GradientPaint?
}

/// Why a batch began instead of its item joining the batch before it: what
/// `lamina render --dump-plan` and `lamina bench` count, so that a frame's
/// draws can be traced to their causes.
package enum BatchBreak: String, CaseIterable, Sendable {
  /// The first batch of a pass (a new target, viewport or continuation).
  case pass
  /// Another program, or another kind of item (a quad after a path).
  case program
  /// Another texture, mask or sampler.
  case texture
  /// Another gradient.
  case paint
  /// Another blend mode, or one that reads what is drawn before it.
  case blend
  /// An earlier batch shares the key, but a batch after it overlaps the item.
  case overlap
  /// A clipped stroke or a depth-cut path (drawn alone).
  case clip
  /// A stroke of another cap or dash count.
  case stroke
  /// A large fill of another mesh (large fills batch as one mesh's instances).
  case mesh
  /// Batching is off.
  case unbatched
}

/// What makes items share a draw call: equal keys draw with one program,
/// the same textures, sampler, gradient and blending. One value, hashed
/// and compared in one place; a gradient hashes by its kind (its stops
/// decide equality).
struct BatchKey: Hashable {
  enum Kind: Hashable {
    /// Quads of the pass's vertices, in the plain or the effect format.
    case quads(effect: Bool)
    /// Path fills, of any meshes (one program draws them, `PathBatch`).
    case pathFills
    /// Path strokes of one cap and dash count (of any meshes).
    case pathStrokes(cap: Int32, dashes: Int)
    /// Large path fills of one mesh (`PlanOptions.mergedFillMaxPixels`),
    /// drawn as its instances by its pieces' programs.
    case pathLargeFills(mesh: UInt64)
  }

  var kind: Kind
  var program: ProgramKey
  var texture: TextureSource? = nil
  var mask: TextureSource? = nil
  var sampler: SamplerKey? = nil
  var paint: GradientPaint? = nil
  var blend: BlendMode

  static func == (a: BatchKey, b: BatchKey) -> Bool {
    a.kind == b.kind && a.program == b.program && a.texture == b.texture && a.mask == b.mask
      && a.sampler == b.sampler && a.blend == b.blend && a.paint == b.paint
  }

  func hash(into h: inout Hasher) {
    h.combine(kind)
    h.combine(program)
    h.combine(blend)
    h.combine(sampler)
    // A gradient by its kind and parameters: sixty gradients of one kind
    // must not share a bucket, where each would compare every one's stops.
    h.combine(paint?.kind)
    h.combine(paint?.parameters)
    h.combine(paint?.colors.count)
    h.combine(texture)
    h.combine(mask)
  }

  /// Why an item of this key cannot join a batch of `other`.
  func difference(from other: BatchKey) -> BatchBreak {
    switch (kind, other.kind) {
    case (.pathStrokes, .pathStrokes): if kind != other.kind { return .stroke }
    case (.pathLargeFills, .pathLargeFills): if kind != other.kind { return .mesh }
    case (.pathFills, .pathFills), (.quads, .quads): break
    default: return .program
    }
    if program != other.program { return .program }
    if texture != other.texture || mask != other.mask || sampler != other.sampler {
      return .texture
    }
    if paint != other.paint { return .paint }
    return .blend
  }

  /// The key of a path item, nil for one that draws alone (a clipped
  /// stroke, depth-sorting cuts, a blend mode reading the destination).
  init?(path item: DrawItem, _ paint: PathPaint) {
    guard item.clipPlanes.isEmpty, !item.blend.readsBackdrop else { return nil }
    if let stroke = paint.stroke {
      guard item.clip == nil else { return nil }
      kind = .pathStrokes(cap: stroke.cap.rawValue, dashes: stroke.dashes.count)
    } else {
      kind = .pathFills
    }
    program = .path
    blend = item.blend
  }

  init(
    kind: Kind, program: ProgramKey, texture: TextureSource?, mask: TextureSource?,
    sampler: SamplerKey?, paint: GradientPaint?, blend: BlendMode
  ) {
    (self.kind, self.program, self.texture, self.mask) = (kind, program, texture, mask)
    (self.sampler, self.paint, self.blend) = (sampler, paint, blend)
  }
}

/// Collects the items of one draw pass into batches: items that share a
/// `BatchKey` are one draw call (every item its own when `batching` is
/// off). An item joins the last batch when it can; otherwise the earliest
/// batch it can join that no later batch overlaps (`OverlapGrid`): drawing
/// it there, earlier than its turn, changes no pixel, since nothing drawn
/// between touches it. So the faces of separate cubes, or the pieces of
/// separate cards, share draws although their programs alternate. An
/// advanced blend mode always starts a batch: it reads what earlier draws
/// wrote, so it needs a barrier before it.
///
/// Path fills join the last batch when it is a fill batch, overlapping or
/// not: GL draws a draw's primitives in order, and each item's depth level
/// keeps its own pieces from painting a pixel twice (`PathBatch`). A
/// fill moves to an earlier fill batch only past batches it does not touch.
struct Batcher {
  let batching: Bool
  let edgeCoverage: Bool
  /// The pixels the pass draws (frame pixels).
  let region: PixelRect
  /// The vertices; the indices are kept per batch until `finish()`.
  private var geometry = PassGeometry()
  /// Whether the time spent making vertices is measured (`lamina bench`).
  var timesVertices = false
  /// Nanoseconds spent in `VertexBuilder`, when measured.
  private(set) var vertexNanoseconds: UInt64 = 0
  /// Fills over this many pixels draw by their pieces' programs
  /// (`PlanOptions.mergedFillMaxPixels`).
  var mergedFillMaxPixels = Int.max

  /// A batch being collected: what it draws with (nil: nothing joins it),
  /// its indices in its vertex format's list (quads), the pixels it
  /// touches, and each item's (paths, which may join past it when they
  /// touch none of them).
  private struct OpenBatch {
    var batch: Batch
    var key: BatchKey?
    var indices: [UInt32] = []
    var bounds: PixelRect
    var itemBounds: [PixelRect] = []
    /// Whether an earlier batch has the same key.
    var hasEarlierTwin = false
  }

  private var open: [OpenBatch] = []
  /// The last batch's key (nil: none, or one nothing joins), and of a quad
  /// batch its fields, which the next item compares with before it makes a
  /// key (10,000 items a frame join the last batch).
  private var lastKey: BatchKey?
  private var lastQuad: (
    effect: Bool, program: ProgramKey, texture: TextureSource?, mask: TextureSource?,
    sampler: SamplerKey?, blend: BlendMode, twin: Bool
  )?
  /// The batches of each key, in order.
  private var batchesByKey: [BatchKey: [Int]] = [:]
  /// The indices of the item being added.
  private var scratch: [UInt32] = []
  /// The last batch that touches each part of the pass.
  private var grid: OverlapGrid

  /// How far back a path item looks for a batch to join.
  static let pathLookBack = 32

  /// A batcher for a pass that shows `region` (frame pixels, as items' bounds).
  init(batching: Bool, edgeCoverage: Bool, region: PixelRect) {
    self.batching = batching
    self.edgeCoverage = edgeCoverage
    self.region = region
    grid = OverlapGrid(region)
  }

  var isEmpty: Bool { open.isEmpty }

  /// Room for `items` plain quads (most lists are mostly those).
  mutating func reserve(items: Int) {
    geometry.vertices.reserveCapacity(items * 4)
  }

  /// The batches, each with its range of indices, and their geometry: the
  /// indices of each batch laid out in batch order.
  func finish() -> (batches: [Batch], geometry: PassGeometry) {
    var geometry = geometry
    geometry.indices.reserveCapacity(geometry.vertices.count / 4 * 6)
    geometry.effectIndices.reserveCapacity(geometry.effectVertices.count / 4 * 6)
    let batches = open.map { entry -> Batch in
      var batch = entry.batch
      guard batch.path == nil else { return batch }
      if batch.usesEffectVertices {
        batch.firstIndex = geometry.effectIndices.count
        geometry.effectIndices += entry.indices
      } else {
        batch.firstIndex = geometry.indices.count
        geometry.indices += entry.indices
      }
      batch.indexCount = entry.indices.count
      return batch
    }
    return (batches, geometry)
  }

  /// Adds `item`, drawn with `resources`.
  mutating func add(_ item: DrawItem, _ resources: ItemResources) {
    if item.isPath, case .path(let paint) = item.material { return addPath(item, paint) }
    let bounds = item.bounds
    var program = resources.program
    let effect = item.hasEffects || resources.mask != nil
    if effect { program = .effect(Self.effectVariant(for: item, resources)) }
    var blend = item.blend
    if case .composite = blend {
      // Blend modes need a program that declares them; without one, source-over.
      if let variant = Self.blendVariant(of: program) {
        program = variant
      } else {
        blend = .sourceOver
      }
    }
    var composite = false
    if case .composite = blend { composite = true }
    // The common case first, before any key is made: the last batch is of
    // quads of this state (no gradient) and no earlier batch shares it.
    if batching, !composite, resources.paint == nil, let q = lastQuad, !q.twin,
      q.effect == effect, q.program == program, q.texture == resources.texture,
      q.mask == resources.mask, q.sampler == resources.sampler, q.blend == blend
    {
      return appendToLast(item, effect: effect, bounds)
    }
    let key = BatchKey(
      kind: .quads(effect: effect), program: program, texture: resources.texture,
      mask: resources.mask, sampler: resources.sampler, paint: resources.paint, blend: blend)
    // The common case first: the last batch shares the key and no earlier
    // batch may; the item's indices go straight into it.
    let last = open.count - 1
    // (The last key kept beside the batches: reading it out of `open`
    // copies it, per item of a 10,000-layer frame.)
    let sharesLast = last >= 0 && lastKey == key
    if batching, !composite, sharesLast, !open[last].hasEarlierTwin {
      return appendToLast(item, effect: effect, bounds)
    }
    scratch.removeAll(keepingCapacity: true)
    let start = timesVertices ? StageClock.now() : 0
    var exact = !effect
    var copies = !effect
    let count =
      effect
      ? VertexBuilder.appendEffectItem(
        item, edgeCoverage: edgeCoverage, region: region, &geometry.effectVertices, &scratch)
      : VertexBuilder.appendItem(
        item, edgeCoverage: edgeCoverage, region: region, &geometry.vertices, &scratch,
        exact: &exact, copies: &copies)
    if timesVertices { vertexNanoseconds &+= StageClock.now() &- start }
    guard count > 0 else { return }
    var overlapped = false
    if batching, !composite {
      if let j = batchToJoin(key, bounds, sharesLast: sharesLast, overlapped: &overlapped) {
        open[j].indices += scratch
        join(j, bounds, exact: exact, copies: copies)
        return
      }
    }
    let reason: BatchBreak =
      !batching ? .unbatched : composite ? .blend : overlapped ? .overlap : breakReason(key)
    begin(
      Batch(
        program: program, texture: resources.texture, mask: resources.mask,
        sampler: resources.sampler, blend: blend, usesEffectVertices: effect,
        paint: resources.paint, firstIndex: 0, indexCount: 0, items: 1,
        firstLayerName: item.layerName, breakReason: reason, exactRects: exact,
        copiesTexels: copies),
      key: composite ? nil : key, indices: scratch, bounds: bounds)
  }

  /// Adds a quad item's vertices and indices to the last batch.
  private mutating func appendToLast(_ item: DrawItem, effect: Bool, _ bounds: PixelRect) {
    let last = open.count - 1
    let start = timesVertices ? StageClock.now() : 0
    var exact = !effect
    var copies = !effect
    let count =
      effect
      ? VertexBuilder.appendEffectItem(
        item, edgeCoverage: edgeCoverage, region: region, &geometry.effectVertices,
        &open[last].indices)
      : VertexBuilder.appendItem(
        item, edgeCoverage: edgeCoverage, region: region, &geometry.vertices,
        &open[last].indices, exact: &exact, copies: &copies)
    if timesVertices { vertexNanoseconds &+= StageClock.now() &- start }
    if count > 0 { join(last, bounds, exact: exact, copies: copies) }
  }

  /// Why an item of `key` begins a batch, compared with the last batch.
  private func breakReason(_ key: BatchKey?) -> BatchBreak {
    guard let last = open.last else { return .pass }
    guard let key else { return open[open.count - 1].batch.path != nil ? .clip : .blend }
    guard let lastKey = last.key else { return last.batch.path != nil ? .clip : .blend }
    return key.difference(from: lastKey)
  }

  /// Adds an item to batch `j`.
  private mutating func join(
    _ j: Int, _ bounds: PixelRect, path: Bool = false, exact: Bool = false, copies: Bool = false
  ) {
    open[j].batch.items += 1
    open[j].batch.area += bounds.area
    if !exact { open[j].batch.exactRects = false }
    if !copies { open[j].batch.copiesTexels = false }
    open[j].bounds = open[j].bounds.union(bounds)
    if path { open[j].itemBounds.append(bounds) }
    grid.mark(bounds, batch: j)
  }

  /// Starts a batch.
  private mutating func begin(
    _ batch: Batch, key: BatchKey?, indices: [UInt32], bounds: PixelRect
  ) {
    let index = open.count
    var entry = OpenBatch(batch: batch, key: key, indices: indices, bounds: bounds)
    entry.batch.area = bounds.area
    if batch.path != nil { entry.itemBounds = [bounds] }
    if batching, let key, batch.path == nil {
      entry.hasEarlierTwin = batchesByKey[key] != nil
      batchesByKey[key, default: []].append(index)
    }
    open.append(entry)
    lastKey = key
    if let key, case .quads(let effect) = key.kind, key.paint == nil {
      lastQuad = (
        effect, key.program, key.texture, key.mask, key.sampler, key.blend, entry.hasEarlierTwin
      )
    } else {
      lastQuad = nil
    }
    grid.mark(bounds, batch: index)
  }

  /// The batch a quad of `key` covering `bounds` joins: the earliest that
  /// shares the key with no later batch touching `bounds` (the last one,
  /// at once, when it shares the key and no earlier batch may); nil: a
  /// new one (`overlapped`: one shares the key, but a later batch touches
  /// the item).
  private func batchToJoin(
    _ key: BatchKey, _ bounds: PixelRect, sharesLast lastShares: Bool, overlapped: inout Bool
  ) -> Int? {
    let last = open.count - 1
    guard last >= 0 else { return nil }
    if lastShares && !open[last].hasEarlierTwin { return last }
    guard let candidates = batchesByKey[key] else { return nil }
    let barrier = grid.lastBatch(touching: bounds)
    // The first candidate at or after the barrier (they are in order).
    var low = 0
    var high = candidates.count
    while low < high {
      let mid = (low + high) / 2
      if candidates[mid] < barrier { low = mid + 1 } else { high = mid }
    }
    if low < candidates.count { return candidates[low] }
    overlapped = !lastShares
    return lastShares ? last : nil
  }

  /// Adds a path item to the latest path batch of its key that no batch
  /// after it touches (so that drawing it earlier changes no pixel) and,
  /// for a stroke, none of whose items it touches; or as a new batch.
  private mutating func addPath(_ item: DrawItem, _ paint: PathPaint) {
    // The item's fields read once (across the module boundary each read is
    // a call and a copy).
    let bounds = item.bounds
    guard !paint.mesh.indices.isEmpty, !bounds.isEmpty else { return }
    var key = BatchKey(path: item, paint)
    let large = isLarge(paint, bounds)
    // A large fill batches with its mesh's, by the old rule: only past and
    // into batches it does not touch (its pieces are drawn kind by kind).
    if large, key != nil { key?.kind = .pathLargeFills(mesh: paint.mesh.serial) }
    var overlapped = false
    if batching, let key {
      var j = open.count - 1
      while j >= max(0, open.count - Self.pathLookBack) {
        // (A quad batch by its bounds, a path batch by its items'.)
        let touches =
          open[j].itemBounds.isEmpty
          ? open[j].bounds.intersects(bounds) : open[j].itemBounds.contains { $0.intersects(bounds) }
        // A fill batch draws its items in order, so a fill may join one it
        // touches; a stroke batch draws each kind of piece of all its
        // items at once, so a stroke joins only one it does not touch.
        if open[j].key == key, !touches || key.kind == .pathFills {
          open[j].batch.path?.append(item, paint, alone: large)
          join(j, bounds, path: true)
          return
        }
        if touches {
          overlapped = open[0...j].contains { $0.key == key }
          break
        }
        j -= 1
      }
    }
    let reason: BatchBreak =
      !batching ? .unbatched : key == nil ? .clip : overlapped ? .overlap : breakReason(key)
    begin(
      Batch(
        program: .path, texture: nil, mask: nil, sampler: nil, blend: item.blend,
        usesEffectVertices: false, paint: nil, firstIndex: 0, indexCount: 0, items: 1,
        firstLayerName: item.layerName, breakReason: reason,
        path: PathBatch(item, paint, alone: large)),
      key: key, indices: [], bounds: bounds)
  }

  /// Adds a path item painted with `texture` (a masked group's composite
  /// drawn as its mask's path, `FramePlanner.pathMask`): a batch of its
  /// own, which nothing joins.
  mutating func addPainted(
    _ item: DrawItem, _ paint: PathPaint, texture: TextureSource, _ texturePaint: TexturePaint
  ) {
    addAlone(item, paint, texture: texture, sampler: FramePlanner.nearest, reason: .texture) {
      $0.texturePaint = texturePaint
    }
  }

  /// Adds a path item painted with a gradient computed per pixel (a masked
  /// gradient's composite drawn as its mask's path,
  /// `FramePlanner.gradientMask`): a batch of its own, sampling the
  /// gradient's ramp.
  mutating func addGradientPainted(_ item: DrawItem, _ paint: PathPaint, _ gradient: GradientPainting) {
    let sampler = gradient.paint.rampSamplesNearest ? FramePlanner.nearest : FramePlanner.linear
    addAlone(item, paint, sampler: sampler, gradient: gradient.paint, reason: .program) {
      $0.gradientPaint = gradient
    }
  }

  /// A batch of `item` alone, its path batch set up by `setUp`.
  private mutating func addAlone(
    _ item: DrawItem, _ paint: PathPaint, texture: TextureSource? = nil, sampler: SamplerKey? = nil,
    gradient: GradientPaint? = nil, reason: BatchBreak, setUp: (inout PathBatch) -> Void
  ) {
    let bounds = item.bounds
    guard !paint.mesh.indices.isEmpty, !bounds.isEmpty else { return }
    var path = PathBatch(item, paint, alone: isLarge(paint, bounds))
    setUp(&path)
    begin(
      Batch(
        program: .path, texture: texture, mask: nil, sampler: sampler, blend: item.blend,
        usesEffectVertices: false, paint: gradient, firstIndex: 0, indexCount: 0, items: 1,
        firstLayerName: item.layerName, breakReason: reason, path: path),
      key: nil, indices: [], bounds: bounds)
  }

  /// Whether a fill covering `bounds` draws by its pieces' programs.
  private func isLarge(_ paint: PathPaint, _ bounds: PixelRect) -> Bool {
    paint.stroke == nil && bounds.width.multipliedReportingOverflow(by: bounds.height).partialValue
      > mergedFillMaxPixels
  }

  /// The blend-mode variant of a program (every program an item draws with
  /// but the shadow's has one).
  static func blendVariant(of program: ProgramKey) -> ProgramKey? {
    switch program {
    case .solid: return .solidBlend
    case .image: return .imageBlend
    case .gradient(let kind, _, let corners): return .gradient(kind, blend: true, corners: corners)
    case .effect(var variant):
      variant.blend = true
      return .effect(variant)
    default: return nil
    }
  }

  /// The effect shader variant an item needs.
  static func effectVariant(for item: DrawItem, _ resources: ItemResources) -> EffectVariant {
    var mode = 0
    if let shape = item.shape {
      switch shape.mode {
      case .fill: mode = 1
      case .ring: mode = 2
      case .blur:
        // See shape.glsl: the closed forms hold unless the blur is about
        // as wide as a tenth to 0.6 of the radius.
        let r = shape.shape.radii.max()
        mode = r > 0 && shape.width > 0.1 * r && shape.width < 0.6 * r ? 4 : 3
      }
    }
    let masked: Bool
    let textured: Bool
    switch item.material {
    case .solid: (masked, textured) = (false, false)
    case .masked: (masked, textured) = (true, true)
    default: (masked, textured) = (false, true)
    }
    var variant = EffectVariant(
      shapeMode: mode, textured: textured, gradient: masked ? nil : resources.paint?.kind,
      clip: item.clip != nil, masked: masked)
    if masked { variant.maskMode = resources.maskMode }
    if variant.gradient != nil { variant.gradientCorners = resources.paint?.atPixelCorners ?? false }
    return variant
  }
}

/// Which batch last touched each part of a pass, on a coarse grid of at
/// most 32×32 cells: the batches after the latest one any cell under a
/// rect names cannot touch the rect (a cell is marked by every batch that
/// draws in it).
struct OverlapGrid {
  private let origin: (x: Int, y: Int)
  private let cell: Int
  private let columns: Int, rows: Int
  private var last: [Int32]

  init(_ region: PixelRect) {
    origin = (region.x, region.y)
    cell = max(16, (max(region.width, region.height) + 31) / 32)
    columns = max(1, (region.width + cell - 1) / cell)
    rows = max(1, (region.height + cell - 1) / cell)
    last = [Int32](repeating: -1, count: columns * rows)
  }

  /// The cells under `rect` (clamped to the grid): first and last column
  /// and row.
  @inline(__always)
  private func cells(_ rect: PixelRect) -> (x0: Int, x1: Int, y0: Int, y1: Int)? {
    guard rect.width > 0, rect.height > 0 else { return nil }
    func index(_ v: Int, _ o: Int, _ n: Int) -> Int { min(max((v - o) / cell, 0), n - 1) }
    return (
      index(rect.x, origin.x, columns), index(rect.x + rect.width - 1, origin.x, columns),
      index(rect.y, origin.y, rows), index(rect.y + rect.height - 1, origin.y, rows)
    )
  }

  /// The latest batch drawing in a cell under `rect` (-1: none).
  func lastBatch(touching rect: PixelRect) -> Int {
    guard let c = cells(rect) else { return -1 }
    var latest: Int32 = -1
    last.withUnsafeBufferPointer { cells in
      var y = c.y0
      while y <= c.y1 {
        var i = y * columns + c.x0
        let end = y * columns + c.x1
        while i <= end {
          if cells[i] > latest { latest = cells[i] }
          i += 1
        }
        y += 1
      }
    }
    return Int(latest)
  }

  /// Notes that `batch` draws over `rect`. The first batch needs no mark:
  /// no batch comes before it, so no item can be held back by it.
  mutating func mark(_ rect: PixelRect, batch: Int) {
    guard batch > 0, let c = cells(rect) else { return }
    let b = Int32(clamping: batch)
    let columns = columns
    last.withUnsafeMutableBufferPointer { cells in
      var y = c.y0
      while y <= c.y1 {
        var i = y * columns + c.x0
        let end = y * columns + c.x1
        while i <= end {
          if cells[i] < b { cells[i] = b }
          i += 1
        }
        y += 1
      }
    }
  }
}
