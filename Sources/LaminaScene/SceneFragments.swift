import Foundation
import Lamina

/// Pieces of scene-format JSON decoded for a scene that is already
/// running: the value of one key path of a layer, a layer (with its
/// sublayers and animations), an animation, a timing function. A display's
/// control channel changes a live scene with them (docs/display.md).
///
/// Each piece is untrusted input under the rules of a scene file: the same
/// type checks, ranges and `Limits`, and the same `SceneError` messages,
/// with `source` in place of the file name and the JSON path of the piece
/// in the command (`set.value`, `add.layer.sublayers[2].opacity`).
///
///     let fragments = SceneFragments(scene: scene, source: "command")
///     let value = try fragments.value(json, forKeyPath: "opacity", of: layer, at: "set.value")
package struct SceneFragments {
  /// Names the input in errors, as a scene's file name does.
  package let source: String
  private let decoder: SceneDecoder

  /// Pieces for `scene`: images are named as in its `images` (those it
  /// has decoded); image files are read only as `access` allows, relative
  /// to the scene's folder.
  package init(
    scene: Scene, source: String, access: FileAccessPolicy = .confined,
    imageCache: ImageCache? = nil, maxImageDimension: Int = SceneLoader.defaultMaxImageDimension
  ) {
    self.source = source
    decoder = SceneDecoder(
      file: source, baseURL: scene.url?.deletingLastPathComponent(),
      maxImageDimension: maxImageDimension, imageCache: imageCache, access: access)
    for (name, image) in scene.images { decoder.state.images[name] = image }
  }

  /// The class name a scene file gives `layer` (`CATextLayer`), or the
  /// nearest class the format has.
  package static func className(of layer: CALayer) -> String {
    SceneLoader.layerClasses.first { type(of: layer) == $0.type }?.name ?? "CALayer"
  }

  /// The value `json` gives `keyPath` of `layer` (`string`, `position.x`,
  /// `transform.rotation.z`), checked as a scene file's value of that key
  /// would be; `path` is its JSON path for errors.
  package func value(_ json: JSON, forKeyPath keyPath: String, of layer: CALayer, at path: String)
    throws -> Any?
  {
    let type = Swift.type(of: layer)
    guard let kind = type.valueKind(forKeyPath: keyPath), SceneDecoder.isSettable(kind) else {
      throw SceneError.unknownKey(
        file: source, path: path, key: keyPath, owner: Self.className(of: layer))
    }
    let decoded = try decoder.value(json, kind: kind, at: path)
    try decoder.checkGeometry(keyPath, decoded, path)
    try decoder.checkRanges(keyPath, decoded, at: path)
    // Set through key-value coding by the control channel: boxed as
    // `value(forKey:)` gives it.
    return decoded.boxed
  }

  /// Whether a scene file may set a value of this kind (not sublayers,
  /// masks or objects: those are layers of their own).
  package static func isSettable(_ kind: CAValueKind) -> Bool { SceneDecoder.isSettable(kind) }

  /// Whether `keyPath`'s value is text (`string`), which a shell writes
  /// without JSON quotes.
  package static func isText(_ keyPath: String, of layer: CALayer) -> Bool {
    switch type(of: layer).valueKind(forKeyPath: keyPath) {
    case .string?, .text?, .enumeration?, .path?, .image?: return true
    default: return false
    }
  }

  /// A layer object of the scene format, with its sublayers, mask and
  /// animations; `path` is its JSON path for errors.
  package func layer(_ json: JSON, at path: String) throws -> CALayer {
    try decoder.layer(json, at: path)
  }

  /// An animation object of the scene format for `layer`.
  package func animation(_ json: JSON, for layer: CALayer, at path: String) throws -> CAAnimation {
    let animation = try decoder.animation(
      json, at: path, layerType: type(of: layer), className: Self.className(of: layer))
    // Added to a running scene, an animation that ends is removed, as in
    // Core Animation (a scene file's stay: files are stateless in time).
    animation.isRemovedOnCompletion = true
    return animation
  }

  /// A timing function: a name (`easeInEaseOut`) or four control points.
  package func timingFunction(_ json: JSON, at path: String) throws -> CAMediaTimingFunction {
    try decoder.timingFunction(json, path)
  }

  /// A finite number within the scene format's magnitude limit.
  package func number(_ json: JSON, at path: String) throws -> Double {
    Double(try decoder.number(json, path))
  }

  /// A string.
  package func string(_ json: JSON, at path: String) throws -> String {
    try decoder.string(json, path)
  }

  /// The JSON type mismatch error for `json` at `path`.
  package func wrongType(_ path: String, _ expected: String, _ json: JSON) -> SceneError {
    decoder.wrongType(path, expected, json)
  }
}

extension Scene {
  /// The layer a reference names: a JSON path of the scene's tree
  /// (`root`, `root.sublayers[2]`, `root.sublayers[0].mask`), or else the
  /// `name` of a layer (the first in the tree's order, depth first); nil
  /// when none matches.
  package func layer(named reference: String) -> CALayer? {
    if reference == "root" || reference.hasPrefix("root.") {
      return Self.layer(atPath: reference, in: root)
    }
    var stack: [CALayer] = [root]
    var visited = 0
    while let layer = stack.popLast() {
      visited += 1
      if visited > Limits.maxLayers * 4 { return nil }
      if layer.name == reference { return layer }
      if let mask = layer.mask { stack.append(mask) }
      stack.append(contentsOf: (layer.sublayers ?? []).reversed())
    }
    return nil
  }

  /// The layer at a JSON path from `root` (`root.sublayers[1].mask`).
  static func layer(atPath path: String, in root: CALayer) -> CALayer? {
    var layer = root
    var rest = path.dropFirst("root".count)
    while !rest.isEmpty {
      if rest.hasPrefix(".mask") {
        guard let mask = layer.mask else { return nil }
        layer = mask
        rest = rest.dropFirst(".mask".count)
      } else if rest.hasPrefix(".sublayers[") {
        rest = rest.dropFirst(".sublayers[".count)
        guard let close = rest.firstIndex(of: "]"), let i = Int(rest[..<close]),
          let sublayers = layer.sublayers, sublayers.indices.contains(i)
        else { return nil }
        layer = sublayers[i]
        rest = rest[rest.index(after: close)...]
      } else {
        return nil
      }
    }
    return layer
  }
}
