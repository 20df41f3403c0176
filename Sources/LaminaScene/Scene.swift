import Foundation
import Lamina

/// A loaded scene: the canvas, the layer tree and the images it uses.
public struct Scene {
  /// The output's size, scale and background.
  public let canvas: Canvas
  /// The root layer; its bounds default to the canvas, its position to the canvas center.
  public let root: CALayer
  /// The decoded images by their names in the file: those that a layer,
  /// an emitter cell or an animation uses (images are decoded when first
  /// used, once per file).
  public let images: [String: CGImage]
  /// Where the scene was read from, when it came from a file.
  public let url: URL?
  /// The JSON path of each layer the file made (`root.sublayers[2]`), by
  /// the layer's identity, so that errors found at a frame's time name the
  /// place in the file.
  let layerPaths: [ObjectIdentifier: String]
  /// The name errors give the scene (the loader's `fileName`).
  let name: String?

  public init(canvas: Canvas, root: CALayer, images: [String: CGImage], url: URL?) {
    self.init(canvas: canvas, root: root, images: images, url: url, layerPaths: [:], name: nil)
  }

  init(
    canvas: Canvas, root: CALayer, images: [String: CGImage], url: URL?,
    layerPaths: [ObjectIdentifier: String], name: String?
  ) {
    self.canvas = canvas
    self.root = root
    self.images = images
    self.url = url
    self.layerPaths = layerPaths
    self.name = name
  }

  /// The same scene drawn on `canvas` (another scale or background), its
  /// layer paths and name kept for errors.
  package func replacingCanvas(_ canvas: Canvas) -> Scene {
    Scene(
      canvas: canvas, root: root, images: images, url: url, layerPaths: layerPaths, name: name)
  }

  /// The name errors give the scene: its file's name.
  public var fileName: String { name ?? url?.lastPathComponent ?? "scene" }

  /// The JSON path of `layer` (a model layer of this scene, or a
  /// presentation layer made from one), or nil for a layer the file did not
  /// make (one added in code).
  public func path(of layer: CALayer) -> String? {
    layerPaths[ObjectIdentifier(layer.model())]
  }

  /// Where the model layer with identifier `id` (`ObjectIdentifier` of a
  /// layer of this scene) is in the file: its JSON path, and how many times
  /// replicators draw it where they multiply it
  /// (`root.sublayers[0].sublayers[1], drawn 100 times by replicators`);
  /// nil for a layer the file did not make.
  public func place(ofLayerWith id: ObjectIdentifier) -> String? {
    guard let path = layerPaths[id] else { return nil }
    // The instances of every enclosing replicator multiply.
    var copies: Double?
    var stack: [(CALayer, Double)] = [(root, 1)]
    while let (layer, factor) = stack.popLast(), copies == nil {
      if ObjectIdentifier(layer) == id {
        copies = factor
        break
      }
      let inner =
        (layer as? CAReplicatorLayer).map { factor * Double(max($0.instanceCount, 0)) } ?? factor
      for sublayer in layer.sublayers ?? [] { stack.append((sublayer, inner)) }
      if let mask = layer.mask { stack.append((mask, factor)) }
    }
    guard let copies, copies > 1 else { return path }
    return "\(path), drawn \(Self.seconds(copies)) times by replicators"
  }

  /// Where one copy of the model layer with identifier `id` is: its JSON
  /// path and, for each replicator that encloses it (outermost first), the
  /// index of the instance in `instances`
  /// (`root.sublayers[0].sublayers[0], in copy 417 of the replicator at
  /// root.sublayers[0]`); nil for a layer the file did not make, or when
  /// `instances` does not match its replicators.
  public func place(ofLayerWith id: ObjectIdentifier, copy instances: [Int]) -> String? {
    guard let path = layerPaths[id] else { return nil }
    // The replicators whose sublayers lead to the layer (not through a
    // replicator's mask, which it does not replicate).
    var replicators: [CAReplicatorLayer]?
    var stack: [(CALayer, [CAReplicatorLayer])] = [(root, [])]
    while let (layer, enclosing) = stack.popLast() {
      if ObjectIdentifier(layer) == id {
        replicators = enclosing
        break
      }
      let inner = (layer as? CAReplicatorLayer).map { enclosing + [$0] } ?? enclosing
      for sublayer in layer.sublayers ?? [] { stack.append((sublayer, inner)) }
      if let mask = layer.mask { stack.append((mask, enclosing)) }
    }
    guard let replicators, !replicators.isEmpty, replicators.count == instances.count else {
      return nil
    }
    let copies = zip(instances, replicators).map { index, replicator in
      "copy \(index) of the replicator at \(layerPaths[ObjectIdentifier(replicator)] ?? "a layer")"
    }
    return "\(path), in " + copies.joined(separator: " and ")
  }

  /// Checks a tree drawn from this scene (a presentation tree at `time`,
  /// or the model) against the `Limits` that animations can move past:
  /// every number geometry is built from, blur radii, counts and their
  /// totals once replicators and emitters are expanded. Throws
  /// `SceneError.limitExceeded` naming the file and the layer's JSON path.
  public func checkLimits(_ tree: CALayer, time: Double? = nil) throws {
    do {
      try LayerTreeLimits.check(tree)
    } catch let violation as LimitViolation {
      throw error(for: violation, time: time)
    }
  }

  /// The scene error for a violation found in this scene's tree.
  public func error(for violation: LimitViolation, time: Double? = nil) -> SceneError {
    var place =
      path(of: violation.layer) ?? violation.layer.name.map { "layer \(MessageText.quoted($0))" }
      ?? "a layer"
    if let key = violation.key { place += ".\(key)" }
    if let time { place += " at \(Self.seconds(time)) s" }
    return .limitExceeded(file: fileName, path: place, exceeded: violation.exceeded)
  }

  /// A time (or any number) as messages write it: whole numbers without a fraction.
  public static func seconds(_ t: Double) -> String {
    t == t.rounded() && abs(t) < 1e15 ? String(Int(saturating: t)) : String(t)
  }
}

/// The output of a scene: `width × scale` by `height × scale` pixels.
public struct Canvas: Equatable {
  /// Width in points.
  public var width: CGFloat
  /// Height in points.
  public var height: CGFloat
  /// Pixels per point.
  public var scale: CGFloat
  /// The color behind the root layer; nil for transparent.
  public var background: CGColor?

  public init(width: CGFloat, height: CGFloat, scale: CGFloat = 1, background: CGColor? = nil) {
    self.width = width
    self.height = height
    self.scale = scale
    self.background = background
  }

  /// The output's width in pixels.
  public var pixelWidth: Int { Int(saturating: width * scale, rounding: .toNearestOrAwayFromZero) }
  /// The output's height in pixels.
  public var pixelHeight: Int {
    Int(saturating: height * scale, rounding: .toNearestOrAwayFromZero)
  }

  /// Throws when the canvas at `scale` (its own when nil) exceeds
  /// `Limits.maxCanvasPixelSide` or `Limits.maxCanvasPixels`; `file` names
  /// the scene in the error.
  public func checkPixels(scale override: CGFloat? = nil, file: String) throws {
    let s = override ?? scale
    let w = width * s
    let h = height * s
    let what = override == nil ? "canvas" : "canvas at --scale \(Scene.seconds(Double(s)))"
    for (side, v) in [("width", w), ("height", h)] where !(v <= Limits.maxCanvasPixelSide) {
      throw SceneError.limitExceeded(
        file: file, path: "canvas.\(side)",
        exceeded: LimitExceeded(
          what: "\(what) \(side) in pixels", found: Scene.seconds(Double(v.rounded())),
          limit: Scene.seconds(Double(Limits.maxCanvasPixelSide)), name: "maxCanvasPixelSide"))
    }
    let area = Double(w.rounded()) * Double(h.rounded())
    if !(area <= Double(Limits.maxCanvasPixels)) {
      throw SceneError.limitExceeded(
        file: file, path: "canvas",
        exceeded: LimitExceeded(
          what: "\(what) pixels (width × height × scale²)", found: Scene.seconds(area),
          limit: String(Limits.maxCanvasPixels), name: "maxCanvasPixels"))
    }
    guard w.rounded() >= 1, h.rounded() >= 1 else {
      throw SceneError.outOfRange(
        file: file, path: "canvas", expected: "a \(what) of at least 1×1 pixels",
        found: "\(Scene.seconds(Double(w)))×\(Scene.seconds(Double(h))) pixels")
    }
  }
}
