import Foundation
import Lamina

// A composition's layers as a typed model: every layer's kind, timing,
// parenting and matte fields decoded for the whole composition at once
// (before any of its layers is built), and what each layer draws (its
// transform, blend mode, effects, shapes, solid) decoded the first time it
// is built. Both are kept by JSON path, so a precomposition asset used many
// times, a matte source and a parent are decoded once and shared by every
// use. Text layers and images are still read from the layer's JSON.
// The layers a composition expands to (`Builder.expandedCount`) are
// counted from these models, not from the JSON.

/// A layer's kind (`ty`).
enum LayerKind: Equatable {
  case precomposition
  case solid
  case image
  case null
  case shape
  case text
  /// A camera (13): what it sees is how the composition's 3D layers are
  /// projected (`CameraModel`); it draws nothing itself.
  case camera
  /// A kind drawn as nothing and reported (audio 6, video 9, …).
  case other(Int)

  init(type: Int) {
    switch type {
    case 0: self = .precomposition
    case 1: self = .solid
    case 2: self = .image
    case 3: self = .null
    case 4: self = .shape
    case 5: self = .text
    case 13: self = .camera
    default: self = .other(type)
    }
  }

  /// What a report calls a kind that is left out.
  var reportedName: String {
    if self == .camera { return "camera layer" }
    guard case .other(let type) = self else { return "\(self)" }
    let kinds = [
      6: "audio layer", 7: "video placeholder", 8: "image sequence", 9: "video layer",
      10: "placeholder", 11: "guide layer", 12: "adjustment layer", 13: "camera layer",
      15: "data layer",
    ]
    return kinds[type] ?? "layer type \(type)"
  }
}

/// A layer as its composition lists it.
struct LayerModel {
  /// Its JSON (text layers and images are still read from it).
  let node: Node
  /// Its place in the composition's `layers`.
  let index: Int
  let ind: Int?
  let parent: Int?
  let kind: LayerKind
  let ip: Double
  let op: Double
  let st: Double
  let sr: Double
  let isMatteSource: Bool
  let matteMode: Int
  let matteParent: Int?
  let hidden: Bool
  let is3D: Bool
  /// The asset a precomposition or image layer shows (`refId`).
  let refId: String?

  /// The layer's JSON path (`assets[1].layers[0]`).
  var path: String { node.path }
}

/// A composition's layers (the document's `layers`, a precomposition asset's).
struct CompositionModel {
  var layers: [LayerModel]
  /// The first layer of each `ind`.
  var byInd: [Int: LayerModel]
}

/// A layer mask (`masksProperties[i]`).
struct Mask {
  /// How the mask combines with the masks before it (`mode`).
  enum Mode: Equatable {
    case add, subtract, intersect, lighten, darken, difference
    /// `n`: the mask does nothing (a stroke effect may still follow its path).
    case none
    /// Any other letter: drawn as add (reported).
    case other(String)

    init(code: String) {
      switch code {
      case "a": self = .add
      case "s": self = .subtract
      case "i": self = .intersect
      case "l": self = .lighten
      case "d": self = .darken
      case "f": self = .difference
      case "n": self = .none
      default: self = .other(code)
      }
    }

    /// The letter the document writes.
    var code: String {
      switch self {
      case .add: return "a"
      case .subtract: return "s"
      case .intersect: return "i"
      case .lighten: return "l"
      case .darken: return "d"
      case .difference: return "f"
      case .none: return "n"
      case .other(let code): return code
      }
    }
  }

  var mode: Mode
  /// The mask's JSON path.
  var path: String
  /// `inv`: the path's outside.
  var inverted: Bool
  /// `pt`: the path, shape vectors (vertices, in and out tangents).
  var shape: Property
  /// `o`: 0–100.
  var opacity: Property
  /// `x`: the path offset by this many points.
  var expansion: Property
  /// `f`: horizontal and vertical feather.
  var feather: Property
}

/// What a layer draws besides its text and image, decoded once.
struct LayerContent {
  var name: String?
  /// Its transform (`ks`), with auto-orient (`ao`).
  var transform: TransformSpec
  /// Blend mode (`bm`), 0 for normal.
  var blendMode: Int
  var effects: [Effect]
  /// A shape layer's shapes.
  var shapes: ShapeList?
  /// A solid's size and colour (`sw`, `sh`, `sc`).
  var solid: (width: Double, height: Double, color: String)?
  /// Its masks (`masksProperties`), with the reports of decoding them.
  var masks: [Mask] = []
  var maskNotes: [LottieUnsupported] = []
  /// A precomposition's time remapping (`tm`), with the reports of decoding it.
  var timeRemap: Property?
  var timeRemapNotes: [LottieUnsupported] = []
  /// Reports of decoding its transform, made when it is built.
  var notes: [LottieUnsupported]
}

extension Decoder {
  /// The layers of a composition (`layers` of the document or of an
  /// asset), decoded once for every use.
  func compositionModel(_ layersNode: Node) throws -> CompositionModel {
    if let model = compositionModels[layersNode.path] { return model }
    let nodes = try layersNode.array()
    var layers: [LayerModel] = []
    layers.reserveCapacity(nodes.count)
    for (i, n) in nodes.enumerated() {
      guard n.isObject else { throw n.wrongType("a layer object") }
      let sr = try n.number("sr", default: 1)
      let ip = try n.number("ip", default: 0)
      let op = try n.number("op", default: 0)
      let st = try n.number("st", default: 0)
      for (key, v) in [("ip", ip), ("op", op), ("st", st)]
      where !(v.isFinite && abs(v) <= Limits.maxMagnitude) {
        throw (n.child(key) ?? n).invalid("\(v) is out of range")
      }
      // A negative stretch is After Effects' time reverse (the inner
      // composition runs backwards from `st`, as lottie-web reads it).
      guard sr.isFinite, abs(sr) >= 1e-6, abs(sr) <= 1e6 else {
        throw (n.child("sr") ?? n).invalid(
          "time stretch \(sr) must not be zero (at least 1e-06 and at most 1e+06 in magnitude)")
      }
      layers.append(
        LayerModel(
          node: n, index: i, ind: n.has("ind") ? try n.int("ind", default: 0) : nil,
          parent: n.has("parent") ? try n.int("parent", default: 0) : nil,
          kind: LayerKind(type: try n.int("ty", default: -1)), ip: ip, op: op, st: st, sr: sr,
          isMatteSource: n.bool("td"), matteMode: try n.int("tt", default: 0),
          matteParent: n.has("tp") ? try n.int("tp", default: 0) : nil, hidden: n.bool("hd"),
          is3D: n.bool("ddd"), refId: (try? n.string("refId")) ?? nil))
    }
    var byInd: [Int: LayerModel] = [:]
    for layer in layers { if let ind = layer.ind, byInd[ind] == nil { byInd[ind] = layer } }
    let model = CompositionModel(layers: layers, byInd: byInd)
    compositionModels[layersNode.path] = model
    return model
  }

  /// A layer's transform with its auto-orient, decoded once (a parent's
  /// is read by each of its children); with the reports of decoding it.
  func layerTransform(_ layer: LayerModel) throws -> (TransformSpec, [LottieUnsupported]) {
    if let t = layerTransforms[layer.path] { return t }
    var notes: [LottieUnsupported] = []
    var t = try collectingReports(into: &notes) {
      try transform(layer.node.child("ks"), layer3D: layer.is3D)
    }
    t.autoOrient = layer.node.bool("ao")
    layerTransforms[layer.path] = (t, notes)
    return (t, notes)
  }

  /// What a layer draws, decoded the first time it is built.
  func layerContent(_ layer: LayerModel) throws -> LayerContent {
    if let c = layerContents[layer.path] { return c }
    let n = layer.node
    let (transform, notes) = try layerTransform(layer)
    var content = LayerContent(
      name: (try? n.string("nm")) ?? nil, transform: transform,
      blendMode: try n.int("bm", default: 0),
      effects: try n.child("ef").map(effectList) ?? [], notes: notes)
    if let list = n.child("masksProperties")?.items, !list.isEmpty {
      content.masks = try collectingReports(into: &content.maskNotes) { try list.map(mask) }
    }
    switch layer.kind {
    case .shape:
      content.shapes = try shapeList(try n.required("shapes"))
    case .solid:
      let w = try n.number("sw", default: 0)
      let h = try n.number("sh", default: 0)
      guard w >= 0, h >= 0, w <= 1e6, h <= 1e6 else {
        throw n.invalid("solid size \(w) x \(h) is out of range")
      }
      content.solid = (w, h, try n.string("sc") ?? "#000000")
    case .precomposition:
      content.timeRemap = try collectingReports(into: &content.timeRemapNotes) {
        try n.child("tm").map { try property($0, [0]) }
      }
    default:
      break
    }
    layerContents[layer.path] = content
    return content
  }

  /// A mask (`masksProperties[i]`).
  func mask(_ m: Node) throws -> Mask {
    let mode = Mask.Mode(code: try m.string("mode") ?? "a")
    return Mask(
      mode: mode, path: m.path, inverted: m.bool("inv"),
      shape: try pathProperty(try m.required("pt")),
      opacity: try property(m.child("o"), [100]), expansion: try property(m.child("x"), [0]),
      feather: try property(m.child("f"), [0, 0]))
  }
}
