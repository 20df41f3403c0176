import Foundation
import Lamina

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

/// Collects the items of one draw pass into batches: consecutive items that
/// share a program, textures, sampler, blending and gradient, and whose
/// indices follow each other, are one draw call (every item its own when
/// `batching` is off). An advanced blend mode always starts a batch: it
/// reads what earlier draws wrote, so it needs a barrier before it.
struct Batcher {
  let batching: Bool
  let edgeCoverage: Bool
  private(set) var batches: [Batch] = []
  private(set) var geometry = PassGeometry()
  /// What the last batch draws with, kept beside it so that the next item
  /// compares with fields of the batcher, not copies out of the array.
  private var lastProgram = ProgramKey.solid
  private var lastResources = ItemResources(program: .solid)
  private var lastBlend = BlendMode.sourceOver
  private var lastEffect = false
  /// Pixels each batch touches, and for path batches each item's (so that
  /// a later path item can join an earlier batch it does not overlap).
  private var batchBounds: [PixelRect] = []
  private var pathItemBounds: [Int: [PixelRect]] = [:]

  /// How far back a path item looks for a batch to join.
  static let pathLookBack = 32

  init(batching: Bool, edgeCoverage: Bool) {
    self.batching = batching
    self.edgeCoverage = edgeCoverage
  }

  var isEmpty: Bool { batches.isEmpty }

  /// Room for `items` plain quads (most lists are mostly those).
  mutating func reserve(items: Int) {
    geometry.vertices.reserveCapacity(items * 4)
    geometry.indices.reserveCapacity(items * 6)
  }

  /// Adds `item`, drawn with `resources`.
  mutating func add(_ item: DrawItem, _ resources: ItemResources) {
    if case .path(let paint) = item.material { return addPath(item, paint) }
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
    let first = effect ? geometry.effectIndices.count : geometry.indices.count
    let count =
      effect
      ? VertexBuilder.appendEffectItem(
        item, edgeCoverage: edgeCoverage, &geometry.effectVertices, &geometry.effectIndices)
      : VertexBuilder.appendItem(
        item, edgeCoverage: edgeCoverage, &geometry.vertices, &geometry.indices)
    guard count > 0 else { return }
    if batching, !composite, let i = batches.indices.last,
      batches[i].firstIndex + batches[i].indexCount == first, lastEffect == effect,
      lastProgram == program, lastResources.texture == resources.texture,
      lastResources.mask == resources.mask, lastResources.sampler == resources.sampler,
      lastBlend == blend, lastResources.paint == resources.paint
    {
      batches[i].indexCount += count
      batches[i].items += 1
      batchBounds[i] = batchBounds[i].union(item.bounds)
      return
    }
    (lastProgram, lastResources, lastBlend, lastEffect) = (program, resources, blend, effect)
    batches.append(
      Batch(
        program: program, texture: resources.texture, mask: resources.mask,
        sampler: resources.sampler, blend: blend, usesEffectVertices: effect,
        paint: resources.paint, firstIndex: first, indexCount: count, items: 1,
        firstLayerName: item.layerName))
    batchBounds.append(item.bounds)
  }

  /// Adds a path item: to an earlier path batch of the same key when no
  /// batch after it touches the item and none of that batch's items does
  /// (so that drawing it earlier changes no pixel), or as a new batch.
  private mutating func addPath(_ item: DrawItem, _ paint: PathPaint) {
    guard !paint.mesh.indices.isEmpty, !item.bounds.isEmpty else { return }
    if batching, let key = PathBatchKey(item, paint) {
      var j = batches.count - 1
      while j >= max(0, batches.count - Self.pathLookBack) {
        let touches =
          pathItemBounds[j].map { $0.contains { $0.intersects(item.bounds) } }
          ?? batchBounds[j].intersects(item.bounds)
        if let path = batches[j].path, !touches, PathBatchKey(item, path.paint) == key,
          batches[j].blend == item.blend
        {
          batches[j].path?.instances.append(PathInstance(item))
          batches[j].items += 1
          batchBounds[j] = batchBounds[j].union(item.bounds)
          pathItemBounds[j]?.append(item.bounds)
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
    batchBounds.append(item.bounds)
    pathItemBounds[batches.count - 1] = [item.bounds]
    // The next quad starts a batch of its own.
    lastProgram = .path
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
