import Foundation
import Lamina
import LaminaScene

/// A Lottie (Bodymovin) document imported as a CALayer tree with CAAnimations.
///
/// ```swift
/// let animation = try LottieAnimation(contentsOf: URL(fileURLWithPath: "loader.json"))
/// let image = try Renderer().render(layer: animation.rootLayer,
///   size: CGSize(width: animation.width, height: animation.height), time: 0.5)
/// ```
public final class LottieAnimation {
  /// True when a parsed top-level JSON object looks like a Lottie document:
  /// it has `v`, `fr`, `ip`, `op`, `w`, `h` and `layers`.
  public static func isLottie(_ object: [String: Any]) -> Bool {
    requiredKeys.allSatisfy { object[$0] != nil }
  }

  /// The keys that make a JSON object a Lottie document.
  public static let requiredKeys = ["v", "fr", "ip", "op", "w", "h", "layers"]

  /// Loads a document from a file. Relative image assets are read from the
  /// document's folder (`baseDirectory` defaults to it).
  public convenience init(contentsOf url: URL, options: LottieOptions = LottieOptions()) throws {
    let name = url.lastPathComponent
    let data: Data
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
      if let size = attributes[.size] as? Int, size > Limits.maxSceneFileBytes {
        throw LottieError.limitExceeded(
          file: name, path: "the Lottie file",
          exceeded: LimitExceeded(
            what: "size in bytes", found: size, limit: Limits.maxSceneFileBytes,
            name: "maxSceneFileBytes"))
      }
      data = try Data(contentsOf: url)
    } catch let e as LottieError {
      throw e
    } catch {
      throw LottieError.unreadable(file: name, reason: error.localizedDescription)
    }
    try self.init(data: data, name: name, baseDirectory: url.deletingLastPathComponent(), options: options)
    self.url = url
  }

  /// Loads a document from bytes; `name` is the file name used in error messages.
  public init(data: Data, name: String, baseDirectory: URL?, options: LottieOptions = LottieOptions()) throws {
    guard data.count <= Limits.maxSceneFileBytes else {
      throw LottieError.limitExceeded(
        file: name, path: "the Lottie file",
        exceeded: LimitExceeded(
          what: "size in bytes", found: data.count, limit: Limits.maxSceneFileBytes,
          name: "maxSceneFileBytes"))
    }
    let json: JSON
    do {
      json = try SceneLoader.parseJSON(data, fileName: name)
    } catch SceneError.syntax(let file, let line, let column, let message) {
      throw LottieError.syntax(file: file, line: line, column: column, message: message)
    }
    let root = Node(json: json, path: "", file: name)
    guard root.isObject else { throw LottieError.notLottie(file: name, missing: Self.requiredKeys) }
    let missing = Self.requiredKeys.filter { !root.has($0) }
    guard missing.isEmpty else { throw LottieError.notLottie(file: name, missing: missing) }
    let fr = try root.required("fr").number()
    let ip = try root.required("ip").number()
    let op = try root.required("op").number()
    let w = try root.required("w").number()
    let h = try root.required("h").number()
    guard fr.isFinite, fr > 0, fr <= 1000 else { throw try root.required("fr").invalid("frame rate \(fr) must be in (0, 1000]") }
    guard ip.isFinite, op.isFinite, abs(ip) <= Limits.maxMagnitude, abs(op) <= Limits.maxMagnitude else {
      throw try root.required("op").invalid("in and out points must be finite")
    }
    guard op - ip <= Double(options.limits.maxFrames) else {
      throw LottieError.limitExceeded(
        file: name, path: "op",
        exceeded: LimitExceeded(
          what: "frames between ip and op", found: Int(saturating: min(op - ip, 1e15)), limit: options.limits.maxFrames,
          name: "maxFrames"))
    }
    guard w.isFinite, h.isFinite, w > 0, h > 0, CGFloat(w) <= Limits.maxCanvasSide, CGFloat(h) <= Limits.maxCanvasSide
    else {
      throw try root.required("w").invalid(
        "size \(w) x \(h) must be positive and at most \(Int(Limits.maxCanvasSide)) points")
    }
    width = CGFloat(w)
    height = CGFloat(h)
    frameRate = fr
    inPoint = ip
    outPoint = op

    let builder = Builder(
      file: name, options: options, baseDirectory: baseDirectory, frameRate: fr, width: w, height: h)
    if let assets = root.child("assets") {
      for a in try assets.array() {
        guard a.isObject else { throw a.wrongType("an asset object") }
        let id = try a.required("id").string()
        if builder.assets[id] == nil { builder.assets[id] = a }
      }
    }
    try builder.decoder.decodeFonts(root)
    try builder.evaluateExpressions(root: root, inPoint: ip, outPoint: op)
    var markers: [LottieMarker] = []
    for m in try root.child("markers")?.array() ?? [] {
      markers.append(
        LottieMarker(
          name: try m.string("cm") ?? "", startFrame: try m.number("tm", default: 0),
          durationFrames: try m.number("dr", default: 0)))
    }
    self.markers = markers

    let layer = CALayer()
    layer.name = "lottie"
    layer.anchorPoint = .zero
    layer.bounds = CGRect(x: 0, y: 0, width: w, height: h)
    layer.position = .zero
    layer.timeOffset = ip / fr
    for l in try builder.composition(try root.required("layers"), depth: 0, chain: [], end: op) {
      layer.addSublayer(l)
    }
    rootLayer = layer
    unsupported = builder.unsupported
    layerCount = builder.layerCount
    self.name = name
  }

  public let width: CGFloat
  public let height: CGFloat
  public let frameRate: Double
  public let inPoint: Double
  public let outPoint: Double
  public var duration: Double { (outPoint - inPoint) / frameRate }
  public let markers: [LottieMarker]
  /// What the importer left out, one entry per occurrence.
  public let unsupported: [LottieUnsupported]
  /// Layers in the document, precomps expanded.
  public let layerCount: Int
  /// The tree: bounds (0, 0, w, h), anchor (0, 0), position (0, 0). Rendering it
  /// at layer time t seconds shows Lottie frame `inPoint + t * frameRate`.
  public let rootLayer: CALayer
  /// The file the document came from, when loaded from one.
  public private(set) var url: URL?
  /// The name errors use.
  public let name: String

  /// The document as a `Scene` (canvas w x h at scale 1, no background, root =
  /// rootLayer, url = the file), so every output of the command takes it.
  public func makeScene() -> Scene {
    Scene(canvas: Canvas(width: width, height: height), root: rootLayer, images: [:], url: url)
  }

  /// Seconds (scene time) of a frame number on the document's numbering.
  public func time(ofFrame frame: Double) -> Double { (frame - inPoint) / frameRate }

  /// The marker named `name`, if any.
  public func marker(named name: String) -> LottieMarker? { markers.first { $0.name == name } }
}

public struct LottieOptions {
  public init() {}
  /// When set, an image asset that is not a data URI (`u` + `p`) is read
  /// through this instead of from the folder (dotLottie archives set it).
  /// It throws when the asset is missing or refused.
  public var assetData: ((_ relativePath: String) throws -> Data)? = nil
  /// Which files beside the document an image asset may be read from
  /// (without `assetData`): by default the document's folder and below, as
  /// for scene files (docs/security.md).
  public var access = FileAccessPolicy.confined
  /// The limits the document meets before it is built.
  public var limits = LottieLimits()
  /// What to do with expressions: evaluate them (the default; one that
  /// fails fails the load), evaluate them and keep the keyframed value of
  /// one that fails, or leave them out. `LAMINA_EXPRESSIONS=fallback` (or
  /// `keyframed`, `evaluate`) in the environment sets the default, so the
  /// command takes it.
  public var expressions = LottieExpressionPolicy.environmentDefault ?? .evaluate
  /// The `lamina-expr` program expressions run in; by default the one
  /// named by `LAMINA_EXPRESSION_HELPER`, else the one beside the running
  /// executable.
  public var expressionHelper: URL? = nil
}

public struct LottieMarker: Equatable {
  public let name: String
  public let startFrame: Double
  public let durationFrames: Double
  public init(name: String, startFrame: Double, durationFrames: Double) {
    self.name = name
    self.startFrame = startFrame
    self.durationFrames = durationFrames
  }
}

public struct LottieUnsupported: Equatable {
  /// A short kind, e.g. "expression", "text animator", "effect: Fractal Noise".
  public let feature: String
  /// The JSON path, e.g. "layers[3].ef[0]".
  public let path: String
  public init(feature: String, path: String) {
    self.feature = feature
    self.path = path
  }
}
