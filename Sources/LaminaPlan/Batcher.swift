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

/// Collects the items of one draw pass into batches: items that share a
/// program, textures, sampler, blending and gradient are one draw call
/// (every item its own when `batching` is off). An item joins the last
/// batch when it can; otherwise the earliest batch it can join that no
/// later batch overlaps (`OverlapGrid`): drawing it there, earlier than
/// its turn, changes no pixel, since nothing drawn between touches it. So
/// the faces of separate cubes, or the pieces of separate cards, share
/// draws although their programs alternate. An advanced blend mode always
/// starts a batch: it reads what earlier draws wrote, so it needs a
/// barrier before it.
struct Batcher {
  let batching: Bool
  let edgeCoverage: Bool
  private(set) var batches: [Batch] = []
  /// The vertices; the indices are kept per batch until `finish()`.
  private var geometry = PassGeometry()
  /// Whether the time spent making vertices is measured (`lamina bench`).
  var timesVertices = false
  /// Nanoseconds spent in `VertexBuilder`, when measured.
  private(set) var vertexNanoseconds: UInt64 = 0
  /// What each batch draws with (nil: a path batch, or a blend mode that
  /// takes no other item).
  private var keys: [Key?] = []
  /// The quad batches by a hash of their key, in order.
  private var batchesByKey: [Int: [Int]] = [:]
  /// Whether an earlier batch has the same key hash as each batch.
  private var hasEarlierTwin: [Bool] = []
  /// What the last batch draws with, kept beside it so that the next item
  /// compares with fields of the batcher, not copies out of an array
  /// (`lastIsQuad` false: a path or blend-mode batch, or none).
  private var lastIsQuad = false
  private var lastProgram = ProgramKey.solid
  private var lastResources = ItemResources(program: .solid)
  private var lastBlend = BlendMode.sourceOver
  private var lastEffect = false
  /// Each quad batch's indices, in its vertex format's list.
  private var batchIndices: [[UInt32]] = []
  /// The indices of the item being added.
  private var scratch: [UInt32] = []
  /// Pixels each batch touches, and for path batches each item's (so that
  /// a later path item can join an earlier batch it does not overlap).
  private var batchBounds: [PixelRect] = []
  private var pathItemBounds: [Int: [PixelRect]] = [:]
  /// The last batch that touches each part of the pass.
  private var grid: OverlapGrid

  /// How far back a path item looks for a batch to join.
  static let pathLookBack = 32

  /// What makes two items share a draw call.
  private struct Key: Equatable {
    var program: ProgramKey
    var resources: ItemResources
    var blend: BlendMode
    var effect: Bool

    static func == (a: Key, b: Key) -> Bool {
      a.effect == b.effect && a.program == b.program && a.resources.texture == b.resources.texture
        && a.resources.mask == b.resources.mask && a.resources.sampler == b.resources.sampler
        && a.blend == b.blend && a.resources.paint == b.resources.paint
    }

    /// A hash of what decides equality (a gradient by its kind).
    var hash: Int {
      var h = Hasher()
      h.combine(program)
      h.combine(effect)
      h.combine(blend)
      h.combine(resources.sampler)
      h.combine(resources.paint?.kind)
      for source in [resources.texture, resources.mask] {
        switch source {
        case .none: h.combine(0)
        case .image(let i): h.combine(1 &+ i &* 4)
        case .target(let id): h.combine(2 &+ id.index &* 4)
        case .dmabuf: h.combine(3)
        }
      }
      return h.finalize()
    }
  }

  /// A batcher for a pass that shows `region` (frame pixels, as items' bounds).
  init(batching: Bool, edgeCoverage: Bool, region: PixelRect) {
    self.batching = batching
    self.edgeCoverage = edgeCoverage
    grid = OverlapGrid(region)
  }

  var isEmpty: Bool { batches.isEmpty }

  /// Room for `items` plain quads (most lists are mostly those).
  mutating func reserve(items: Int) {
    geometry.vertices.reserveCapacity(items * 4)
  }

  /// The batches, each with its range of indices, and their geometry: the
  /// indices of each batch laid out in batch order.
  func finish() -> (batches: [Batch], geometry: PassGeometry) {
    var batches = batches
    var geometry = geometry
    geometry.indices.reserveCapacity(geometry.vertices.count / 4 * 6)
    geometry.effectIndices.reserveCapacity(geometry.effectVertices.count / 4 * 6)
    for i in batches.indices where batches[i].path == nil {
      if batches[i].usesEffectVertices {
        batches[i].firstIndex = geometry.effectIndices.count
        geometry.effectIndices += batchIndices[i]
      } else {
        batches[i].firstIndex = geometry.indices.count
        geometry.indices += batchIndices[i]
      }
      batches[i].indexCount = batchIndices[i].count
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
    // The common case first: the last batch shares the state and no
    // earlier batch may; the item's indices go straight into it.
    let sharesLast =
      lastIsQuad && lastEffect == effect && lastProgram == program
      && lastResources.texture == resources.texture && lastResources.mask == resources.mask
      && lastResources.sampler == resources.sampler && lastBlend == blend
      && lastResources.paint == resources.paint
    if batching, !composite, sharesLast, let last = keys.indices.last, !hasEarlierTwin[last] {
      let start = timesVertices ? StageClock.now() : 0
      let count =
        effect
        ? VertexBuilder.appendEffectItem(
          item, edgeCoverage: edgeCoverage, &geometry.effectVertices, &batchIndices[last])
        : VertexBuilder.appendItem(
          item, edgeCoverage: edgeCoverage, &geometry.vertices, &batchIndices[last])
      if timesVertices { vertexNanoseconds &+= StageClock.now() &- start }
      guard count > 0 else { return }
      batches[last].items += 1
      batchBounds[last] = batchBounds[last].union(bounds)
      grid.mark(bounds, batch: last)
      return
    }
    scratch.removeAll(keepingCapacity: true)
    let start = timesVertices ? StageClock.now() : 0
    let count =
      effect
      ? VertexBuilder.appendEffectItem(
        item, edgeCoverage: edgeCoverage, &geometry.effectVertices, &scratch)
      : VertexBuilder.appendItem(item, edgeCoverage: edgeCoverage, &geometry.vertices, &scratch)
    if timesVertices { vertexNanoseconds &+= StageClock.now() &- start }
    guard count > 0 else { return }
    let key = Key(program: program, resources: resources, blend: blend, effect: effect)
    if batching, !composite, let j = batchToJoin(key, bounds, sharesLast: sharesLast) {
      batchIndices[j] += scratch
      batches[j].items += 1
      batchBounds[j] = batchBounds[j].union(bounds)
      grid.mark(bounds, batch: j)
      return
    }
    keys.append(composite ? nil : key)
    (lastIsQuad, lastProgram, lastResources, lastBlend, lastEffect) = (
      !composite, program, resources, blend, effect
    )
    var twin = false
    if batching, !composite {
      let hash = key.hash
      twin = batchesByKey[hash] != nil
      batchesByKey[hash, default: []].append(keys.count - 1)
    }
    hasEarlierTwin.append(twin)
    batchIndices.append(scratch)
    batches.append(
      Batch(
        program: program, texture: resources.texture, mask: resources.mask,
        sampler: resources.sampler, blend: blend, usesEffectVertices: effect,
        paint: resources.paint, firstIndex: 0, indexCount: 0, items: 1,
        firstLayerName: item.layerName))
    batchBounds.append(bounds)
    grid.mark(bounds, batch: batches.count - 1)
  }

  /// The batch a quad of `key` covering `bounds` joins: the earliest that
  /// shares the key with no later batch touching `bounds` (the last one,
  /// at once, when it shares the key and no earlier batch may); nil: a
  /// new one.
  private func batchToJoin(
    _ key: Key, _ bounds: PixelRect, sharesLast lastShares: Bool
  ) -> Int? {
    guard let last = keys.indices.last else { return nil }
    if lastShares && !hasEarlierTwin[last] { return last }
    guard let candidates = batchesByKey[key.hash] else { return nil }
    let barrier = grid.lastBatch(touching: bounds)
    // The first candidate at or after the barrier (they are in order);
    // the candidates share the key's hash, so almost always the key.
    var low = 0
    var high = candidates.count
    while low < high {
      let mid = (low + high) / 2
      if candidates[mid] < barrier { low = mid + 1 } else { high = mid }
    }
    while low < candidates.count {
      let j = candidates[low]
      if keys[j] == key { return j }
      low += 1
    }
    return lastShares ? last : nil
  }

  /// Adds a path item: to an earlier path batch of the same key when no
  /// batch after it touches the item and none of that batch's items does
  /// (so that drawing it earlier changes no pixel), or as a new batch.
  private mutating func addPath(_ item: DrawItem, _ paint: PathPaint) {
    // The item's fields read once (across the module boundary each read is
    // a call and a copy).
    let bounds = item.bounds
    guard !paint.mesh.indices.isEmpty, !bounds.isEmpty else { return }
    if batching, let key = PathBatchKey(item, paint) {
      var j = batches.count - 1
      while j >= max(0, batches.count - Self.pathLookBack) {
        let touches =
          pathItemBounds[j].map { $0.contains { $0.intersects(bounds) } }
          ?? batchBounds[j].intersects(bounds)
        if let path = batches[j].path, !touches, PathBatchKey(path.paint, blend: key.blend) == key,
          batches[j].blend == key.blend
        {
          batches[j].path?.instances.append(PathInstance(item, paint))
          batches[j].items += 1
          batchBounds[j] = batchBounds[j].union(bounds)
          pathItemBounds[j]?.append(bounds)
          grid.mark(bounds, batch: j)
          return
        }
        if touches { break }
        j -= 1
      }
    }
    batches.append(
      Batch(
        program: .path, texture: nil, mask: nil, sampler: nil, blend: item.blend,
        usesEffectVertices: false, paint: nil, firstIndex: 0, indexCount: 0, items: 1,
        firstLayerName: item.layerName, path: PathBatch(item, paint)))
    batchBounds.append(bounds)
    pathItemBounds[batches.count - 1] = [bounds]
    keys.append(nil)
    lastIsQuad = false
    hasEarlierTwin.append(false)
    batchIndices.append([])
    grid.mark(bounds, batch: batches.count - 1)
  }

  /// The blend-mode variant of a program (every program an item draws with
  /// but the shadow's has one).
  static func blendVariant(of program: ProgramKey) -> ProgramKey? {
    switch program {
    case .solid: return .solidBlend
    case .image: return .imageBlend
    case .gradient(let kind, _): return .gradient(kind, blend: true)
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
