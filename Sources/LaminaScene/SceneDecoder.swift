import Foundation
import Lamina

/// Turns parsed JSON into a scene, checking every value against the spec.
struct SceneDecoder {
  let file: String
  let baseURL: URL?
  let maxImageDimension: Int
  /// Which image files the scene may read.
  let access: FileAccessPolicy
  /// What the decoding found so far: a reference, so that the value
  /// decoders (which do not mutate) can decode images on first use and
  /// record layers' paths.
  let state: State

  final class State {
    let imageCache: ImageCache
    /// The paths of the `images` entries as written, by name.
    var imageFiles: [String: String] = [:]
    /// The images decoded so far, by name.
    var images: [String: CGImage] = [:]
    /// The images decoded so far, by file identity: entries naming the same
    /// file share one decode.
    var decodedFiles: [AnyHashable: CGImage] = [:]
    /// Bytes of decoded pixels this scene holds.
    var decodedBytes = 0
    var layerPaths: [ObjectIdentifier: String] = [:]

    init(imageCache: ImageCache) { self.imageCache = imageCache }
  }

  init(
    file: String, baseURL: URL?, maxImageDimension: Int, imageCache: ImageCache? = nil,
    access: FileAccessPolicy = .confined
  ) {
    self.file = file
    self.baseURL = baseURL
    self.maxImageDimension = maxImageDimension
    self.access = access
    state = State(imageCache: imageCache ?? ImageCache())
  }

  // MARK: Errors

  func wrongType(_ path: String, _ expected: String, _ json: JSON) -> SceneError {
    .wrongType(file: file, path: path, expected: expected, found: json.kindDescription)
  }

  func members(_ json: JSON, _ path: String, _ expected: String) throws -> [(
    key: String, value: JSON
  )] {
    guard case .object(let m) = json else { throw wrongType(path, expected, json) }
    return m
  }

  // MARK: Top level

  mutating func scene(_ json: JSON) throws -> Scene {
    let top = try members(json, "the document", "an object")
    for (key, _) in top where !["lamina", "canvas", "images", "root"].contains(key) {
      throw SceneError.unknownKey(file: file, path: "the document", key: key, owner: "a scene")
    }
    guard let version = json["lamina"] else {
      throw SceneError.missingKey(file: file, path: "the document", key: "lamina")
    }
    guard case .number(let v) = version else { throw wrongType("lamina", "a number", version) }
    guard v == 1 else { throw SceneError.unsupportedVersion(file: file, found: format(v)) }
    guard let canvasJSON = json["canvas"] else {
      throw SceneError.missingKey(file: file, path: "the document", key: "canvas")
    }
    let canvas = try self.canvas(canvasJSON)
    if let imagesJSON = json["images"] { try loadImages(imagesJSON) }
    guard let rootJSON = json["root"] else {
      throw SceneError.missingKey(file: file, path: "the document", key: "root")
    }
    let root = try layer(rootJSON, at: "root", canvas: canvas)
    return Scene(
      canvas: canvas, root: root, images: state.images, url: nil, layerPaths: state.layerPaths,
      name: file)
  }

  func format(_ v: Double) -> String {
    v == v.rounded() && abs(v) < 1e15 ? String(Int(saturating: v)) : String(v)
  }

  func canvas(_ json: JSON) throws -> Canvas {
    let m = try members(json, "canvas", "an object")
    for (key, _) in m where !["width", "height", "scale", "background"].contains(key) {
      throw SceneError.unknownKey(file: file, path: "canvas", key: key, owner: "the canvas")
    }
    func side(_ key: String) throws -> CGFloat {
      guard let j = json[key] else {
        throw SceneError.missingKey(file: file, path: "canvas", key: key)
      }
      let v = try number(j, "canvas.\(key)")
      guard v > 0, v <= SceneLoader.maxCanvasSide else {
        throw SceneError.outOfRange(
          file: file, path: "canvas.\(key)",
          expected: "a size > 0 and ≤ \(format(Double(SceneLoader.maxCanvasSide))) points",
          found: format(Double(v)))
      }
      return v
    }
    let width = try side("width")
    let height = try side("height")
    var scale: CGFloat = 1
    if let j = json["scale"] {
      scale = try number(j, "canvas.scale")
      guard scale > 0, scale <= SceneLoader.maxCanvasScale else {
        throw SceneError.outOfRange(
          file: file, path: "canvas.scale",
          expected: "a scale > 0 and ≤ \(format(Double(SceneLoader.maxCanvasScale)))",
          found: format(Double(scale)))
      }
    }
    for (key, side) in [("width", width), ("height", height)]
    where side * scale > SceneLoader.maxCanvasPixels {
      throw SceneError.outOfRange(
        file: file, path: "canvas.\(key)",
        expected:
          "\(key) × scale ≤ \(format(Double(SceneLoader.maxCanvasPixels))) pixels",
        found:
          "\(format(Double(side))) × \(format(Double(scale))) = \(format(Double(side * scale)))")
    }
    var background: CGColor?
    if let j = json["background"] { background = try color(j, "canvas.background") }
    let canvas = Canvas(width: width, height: height, scale: scale, background: background)
    try canvas.checkPixels(file: file)
    return canvas
  }

  /// Reads the `images` entries: each names a file that must exist; none
  /// is decoded until a layer uses it.
  mutating func loadImages(_ json: JSON) throws {
    let m = try members(json, "images", "an object of image names and file paths")
    for (name, value) in m {
      let path = "images.\(name)"
      guard case .string(let relative) = value else {
        throw wrongType(path, "a file path string", value)
      }
      // Opened (allowed, a regular file) now, so that a scene naming a
      // file it may not read fails to load whether a layer uses it or not.
      _ = try open(relative, path)
      state.imageFiles[name] = relative
    }
  }

  /// The image entry `name`, decoded on first use (once per file, within
  /// the budget); `path` is the JSON path of the use, for errors.
  func decodedImage(named name: String, at path: String) throws -> CGImage? {
    if let image = state.images[name] { return image }
    guard let reference = state.imageFiles[name] else { return nil }
    let opened = try open(reference, "images.\(name)")
    let identity = ImageCache.identity(of: opened)
    if let image = state.decodedFiles[identity] {
      state.images[name] = image
      return image
    }
    let budget = state.imageCache.sceneBudgetBytes
    do {
      let image = try state.imageCache.image(opened, maxDimension: maxImageDimension) {
        header in
        // The scene's own total, from the header, before anything is decoded.
        let total = self.state.decodedBytes + header.decodedBytes
        guard total <= budget else {
          throw SceneError.limitExceeded(
            file: self.file, path: path,
            exceeded: LimitExceeded(
              what:
                "bytes of decoded images the scene uses (images.\(name) is \(header.width)x\(header.height))",
              found: total, limit: budget, name: "maxDecodedImageBytes"))
        }
      }
      state.decodedBytes += image.width * image.height * 4
      state.images[name] = image
      state.decodedFiles[identity] = image
      return image
    } catch let e as ImageError {
      throw SceneError.imageFailed(file: file, path: path, message: "images.\(name): \(e)")
    } catch let e as FileAccessError {
      throw SceneError.fileAccess(e)
    }
  }

  /// The image file `reference` names, opened if `access` allows it
  /// (relative to the scene's folder); `path` is its JSON path.
  func open(_ reference: String, _ path: String) throws -> AllowedFile {
    do {
      return try access.open(reference, from: baseURL, file: file, jsonPath: path)
    } catch let e as FileAccessError {
      throw SceneError.fileAccess(e)
    }
  }

  // MARK: Layers

  func layerClass(_ json: JSON, _ path: String) throws -> (String, CALayer.Type) {
    guard let c = json["class"] else { return ("CALayer", CALayer.self) }
    guard case .string(let name) = c else { throw wrongType("\(path).class", "a string", c) }
    guard let entry = SceneLoader.layerClasses.first(where: { $0.name == name }) else {
      throw SceneError.unknownClass(
        file: file, path: "\(path).class", name: name,
        allowed: SceneLoader.layerClasses.map(\.name))
    }
    return (entry.name, entry.type)
  }

  func layer(_ json: JSON, at path: String, canvas: Canvas? = nil) throws -> CALayer {
    let m = try members(json, path, "a layer object")
    let (className, type) = try layerClass(json, path)
    let layer = type.makeInstance()
    state.layerPaths[ObjectIdentifier(layer)] = path
    if let canvas {
      layer.bounds = CGRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
      layer.position = CGPoint(x: canvas.width / 2, y: canvas.height / 2)
    }
    for (key, value) in m {
      let keyPath = "\(path).\(key)"
      switch key {
      case "class":
        continue
      case LayerKey.sublayers.rawValue:
        guard case .array(let items) = value else {
          throw wrongType(keyPath, "a list of layer objects", value)
        }
        for (i, item) in items.enumerated() {
          layer.addSublayer(try self.layer(item, at: "\(keyPath)[\(i)]"))
        }
      case LayerKey.mask.rawValue:
        layer.mask = value == .null ? nil : try self.layer(value, at: keyPath)
      case "animations":
        guard case .array(let items) = value else {
          throw wrongType(keyPath, "a list of animation objects", value)
        }
        try checkCount(
          items, keyPath, limit: Limits.maxAnimationsPerLayer, name: "maxAnimationsPerLayer",
          what: "animations on one layer")
        for (i, item) in items.enumerated() {
          let animation = try self.animation(
            item, at: "\(keyPath)[\(i)]", layerType: type, className: className)
          layer.add(animation, forKey: nil)
        }
      default:
        guard let kind = type.valueKind(forKeyPath: key), Self.isSettable(kind) else {
          throw SceneError.unknownKey(file: file, path: path, key: key, owner: className)
        }
        let decoded = try self.value(value, kind: kind, at: keyPath)
        try checkGeometry(key, decoded, keyPath)
        try checkRanges(key, decoded, at: keyPath)
        layer.setLayerValue(decoded, forKeyPath: key)
      }
    }
    if let gradient = layer as? CAGradientLayer, let locations = gradient.locations,
      locations.count != gradient.cgColors.count
    {
      throw SceneError.invalidValue(
        file: file, path: "\(path).locations",
        message:
          "has \(locations.count) locations for \(gradient.cgColors.count) colors; give one per color or null"
      )
    }
    return layer
  }

  static func isSettable(_ kind: CAValueKind) -> Bool {
    switch kind {
    case .layer, .layers, .object: return false
    default: return true
    }
  }

  /// Sizes of a box (`bounds`, `frame`) must be ≥ 0 and not absurd;
  /// counts must be sane (the ranges of the properties' descriptions).
  func checkGeometry(_ key: String, _ value: LayerValue, _ path: String) throws {
    var sides: [CGFloat] = []
    switch Self.range(ofKeyPath: key) {
    case .box:
      let members = key.split(separator: ".").dropFirst()
      switch (members.first, value) {
      case (nil, .rect(let r)): sides = [r.size.width, r.size.height]
      case ("size", .size(let s)): sides = [s.width, s.height]
      case ("size", .number(let v)): sides = [CGFloat(v)]
      default: break
      }
    case .count:
      if case .integer(let n) = value, n < 0 || n > SceneLoader.maxInstanceCount {
        throw SceneError.outOfRange(
          file: file, path: path, expected: "a count from 0 to \(SceneLoader.maxInstanceCount)",
          found: String(n))
      }
    default: break
    }
    for s in sides where s < 0 || s > SceneLoader.maxLayerSide {
      throw SceneError.outOfRange(
        file: file, path: path,
        expected: "sizes ≥ 0 and ≤ \(format(Double(SceneLoader.maxLayerSide))) points",
        found: format(Double(s)))
    }
  }

  // MARK: Emitter cells and filters

  func emitterCell(_ json: JSON, at path: String) throws -> CAEmitterCell {
    let m = try members(json, path, "an emitter cell object")
    let cell = CAEmitterCell()
    for (key, value) in m {
      guard let kind = CAEmitterCell.valueKind(forKey: key) else {
        throw SceneError.unknownKey(file: file, path: path, key: key, owner: "CAEmitterCell")
      }
      let decoded = try self.value(value, kind: kind, at: "\(path).\(key)")
      // A cell's numbers are magnitudes, but for its pixels-per-point scale.
      let scale = LayerKey.contentsScale.rawValue
      try checkRanges(key == scale ? key : "cell.\(key)", decoded, at: "\(path).\(key)")
      cell.setLayerValue(decoded, forKey: key)
    }
    return cell
  }

  func filter(_ json: JSON, at path: String) throws -> CIFilter {
    _ = try members(json, path, "a filter object")
    guard let nameJSON = json["name"] else {
      throw SceneError.missingKey(file: file, path: path, key: "name")
    }
    guard case .string(let name) = nameJSON else {
      throw wrongType("\(path).name", "a filter name string", nameJSON)
    }
    guard let filter = CIFilter(name: name), !filter.isBlendMode else {
      throw SceneError.unknownFilter(
        file: file, path: "\(path).name", name: name, allowed: CIFilter.filterNames)
    }
    guard case .object(let m) = json else { return filter }
    for (key, value) in m where key != "name" {
      let keyPath = "\(path).\(key)"
      switch filter.inputKind(forKey: key) {
      case .number:
        let v = try number(value, keyPath)
        if key == kCIInputRadiusKey { try check(v, .blur, at: keyPath) }
        filter.setValue(v, forKey: key)
      case .vector:
        filter.setValue(CIVector(values: try numbers(value, keyPath, count: 4)), forKey: key)
      case nil:
        throw SceneError.unknownKey(file: file, path: path, key: key, owner: name)
      }
    }
    return filter
  }
}
