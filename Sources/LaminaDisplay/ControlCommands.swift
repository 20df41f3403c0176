import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// A command of the control channel that failed: the message (in the
/// scene format's terms) and the JSON path of the offending value.
struct ControlError: Error {
  let message: String
  let path: String

  init(_ message: String, path: String) {
    self.message = message
    self.path = path
  }

  init(_ error: Error, fallbackPath: String) {
    switch error {
    case let e as ControlError: self = e
    case let e as SceneError:
      self.init(e.description, path: e.jsonPath ?? fallbackPath)
    case let e as FileAccessError:
      self.init(e.description, path: SceneError.fileAccess(e).jsonPath ?? fallbackPath)
    default:
      self.init("\(error)", path: fallbackPath)
    }
  }
}

extension SceneError {
  /// The JSON path the error names, when it names one.
  var jsonPath: String? {
    switch self {
    case .missingKey(_, let path, _), .unknownKey(_, let path, _, _),
      .wrongType(_, let path, _, _), .outOfRange(_, let path, _, _),
      .invalidEnumValue(_, let path, _, _), .unknownClass(_, let path, _, _),
      .invalidColor(_, let path, _), .invalidTransform(_, let path, _),
      .unknownTransformStep(_, let path, _), .unknownImage(_, let path, _, _),
      .imageFailed(_, let path, _), .invalidPath(_, let path, _),
      .unknownFilter(_, let path, _, _), .unknownAnimationKeyPath(_, let path, _, _),
      .invalidValue(_, let path, _), .limitExceeded(_, let path, _):
      return path
    case .fileAccess(let e):
      if case .refused(_, let jsonPath, _, _) = e { return jsonPath }
      if case .tooLarge(_, let jsonPath, _, _, _) = e { return jsonPath }
      return nil
    case .unreadable, .syntax, .unsupportedVersion:
      return nil
    }
  }
}

/// One edit of a command, decoded and checked against the scene before
/// anything changes.
enum ControlEdit {
  case set(CALayer, keyPath: String, value: Any?)
  case add(parent: CALayer, index: Int?, layer: CALayer)
  case remove(CALayer)
  case addAnimation(CALayer, CAAnimation, key: String?)
  case removeAnimation(CALayer, key: String)
}

/// What the control channel may do beyond the scene: where snapshots go,
/// which scene files `replace` may read and how they load.
public struct ControlPolicy {
  /// The folder snapshots are written beneath (`--output-root`); nil: no snapshots.
  public var outputRoot: URL?
  /// Which files `replace` may read (relative to the shown scene's folder)
  /// and which image files added layers may name.
  public var access: FileAccessPolicy
  /// Loads a scene file `replace` names (already allowed by `access`).
  public var load: (URL) throws -> Scene
  /// A token every client sends first (`{"auth": TOKEN}`); nil: none.
  public var token: String?

  public init(
    outputRoot: URL? = nil, access: FileAccessPolicy = .confined, token: String? = nil,
    load: ((URL) throws -> Scene)? = nil
  ) {
    self.outputRoot = outputRoot
    self.access = access
    self.token = token
    self.load =
      load ?? { url in try SceneLoader.load(contentsOf: url, access: access) }
  }
}

/// Decodes the commands that change the scene and applies them on the
/// loop's thread (`DisplayEditor`). Every value is untrusted: decoded as a
/// scene file's would be, with the same limits and messages, `command` in
/// place of the file name.
struct ControlCommands {
  static let source = "command"
  /// The commands that go to the loop, and those answered by the channel.
  static let sceneCommands = [
    "set", "transaction", "add", "remove", "add-animation", "remove-animation", "replace",
    "get", "snapshot", "ping",
  ]
  static let channelCommands = ["auth", "subscribe", "unsubscribe"]

  let policy: ControlPolicy

  // MARK: Decoding edits

  func fragments(_ editor: DisplayEditor) -> SceneFragments {
    SceneFragments(scene: editor.scene, source: Self.source, access: policy.access)
  }

  func members(_ json: JSON, _ path: String, _ expected: String, allowed: [String]) throws
    -> [(key: String, value: JSON)]
  {
    guard case .object(let m) = json else {
      throw SceneError.wrongType(
        file: Self.source, path: path, expected: expected, found: json.kindDescription)
    }
    for (key, _) in m where !allowed.contains(key) {
      throw SceneError.unknownKey(
        file: Self.source, path: path, key: key, owner: "the \(path.split(separator: ".").last ?? "") command")
    }
    return m
  }

  func required(_ json: JSON, _ key: String, _ path: String) throws -> JSON {
    guard let value = json[key] else {
      throw SceneError.missingKey(file: Self.source, path: path, key: key)
    }
    return value
  }

  func layer(_ json: JSON, _ path: String, in editor: DisplayEditor) throws -> CALayer {
    guard case .string(let reference) = json else {
      throw SceneError.wrongType(
        file: Self.source, path: path, expected: "a layer name or JSON path string",
        found: json.kindDescription)
    }
    guard let layer = editor.layer(named: reference) else {
      throw ControlError(
        "\(Self.source): \(MessageText.place(path)): no layer named \(MessageText.quoted(reference)) in the scene",
        path: path)
    }
    return layer
  }

  func keyString(_ json: JSON, _ path: String) throws -> String {
    guard case .string(let key) = json, !key.isEmpty, key.utf8.count <= 256 else {
      throw SceneError.wrongType(
        file: Self.source, path: path, expected: "a key path string (1 to 256 bytes)",
        found: json.kindDescription)
    }
    return key
  }

  /// One edit (`{"set": {...}}` and the rest) at `path`.
  func edit(_ json: JSON, at path: String, in editor: DisplayEditor) throws -> ControlEdit {
    guard case .object(let m) = json, m.count == 1, let (name, body) = m.first else {
      throw SceneError.wrongType(
        file: Self.source, path: path,
        expected: "an object with one of set, add, remove, add-animation, remove-animation",
        found: json.kindDescription)
    }
    let here = path.isEmpty ? name : "\(path).\(name)"
    let pieces = fragments(editor)
    switch name {
    case "set":
      _ = try members(
        body, here, "a set object",
        allowed: ["layer", "key", "value", "text", "duration", "timingFunction", "disableActions"])
      let layer = try self.layer(try required(body, "layer", here), "\(here).layer", in: editor)
      let key = try keyString(try required(body, "key", here), "\(here).key")
      guard let kind = type(of: layer).valueKind(forKeyPath: key), SceneFragments.isSettable(kind)
      else {
        throw SceneError.unknownKey(
          file: Self.source, path: here, key: key, owner: SceneFragments.className(of: layer))
      }
      if let text = body["text"] {
        guard body["value"] == nil else {
          throw ControlError(
            "\(Self.source): \(MessageText.place(here)): give value or text, not both",
            path: "\(here).text")
        }
        guard case .string(let s) = text else {
          throw SceneError.wrongType(
            file: Self.source, path: "\(here).text", expected: "a string",
            found: text.kindDescription)
        }
        // Text as a shell writes it: JSON unless the key holds text.
        var json = JSON.string(s)
        if !SceneFragments.isText(key, of: layer),
          let parsed = try? SceneLoader.parseJSON(Data(s.utf8), fileName: Self.source)
        {
          json = parsed
        }
        let value = try pieces.value(json, forKeyPath: key, of: layer, at: "\(here).text")
        return .set(layer, keyPath: key, value: value)
      }
      let value = try pieces.value(
        try required(body, "value", here), forKeyPath: key, of: layer, at: "\(here).value")
      return .set(layer, keyPath: key, value: value)
    case "add":
      _ = try members(body, here, "an add object", allowed: ["parent", "index", "layer"])
      let parent = try self.layer(
        body["parent"] ?? .string("root"), "\(here).parent", in: editor)
      var index: Int?
      if let i = body["index"] {
        let count = parent.sublayers?.count ?? 0
        let v = try pieces.number(i, at: "\(here).index")
        guard v == v.rounded(), v >= 0, v <= Double(count) else {
          throw SceneError.outOfRange(
            file: Self.source, path: "\(here).index",
            expected: "a whole number from 0 to \(count) (the parent's sublayer count)",
            found: ControlJSON.number(v))
        }
        index = Int(v)
      }
      let layer = try pieces.layer(try required(body, "layer", here), at: "\(here).layer")
      return .add(parent: parent, index: index, layer: layer)
    case "remove":
      _ = try members(body, here, "a remove object", allowed: ["layer"])
      let layer = try self.layer(try required(body, "layer", here), "\(here).layer", in: editor)
      guard layer.superlayer != nil, layer !== editor.scene.root else {
        throw ControlError(
          "\(Self.source): \(MessageText.place("\(here).layer")): only a sublayer can be removed (not the root or a mask)",
          path: "\(here).layer")
      }
      return .remove(layer)
    case "add-animation":
      _ = try members(body, here, "an add-animation object", allowed: ["layer", "key", "animation"])
      let layer = try self.layer(try required(body, "layer", here), "\(here).layer", in: editor)
      let key = try body["key"].map { try keyString($0, "\(here).key") }
      let replaces = key.map { k in layer.animations.contains { $0.key == k } } ?? false
      if !replaces && layer.animations.count >= Limits.maxAnimationsPerLayer {
        throw SceneError.limitExceeded(
          file: Self.source, path: "\(here).layer",
          exceeded: LimitExceeded(
            what: "animations on one layer", found: layer.animations.count + 1,
            limit: Limits.maxAnimationsPerLayer, name: "maxAnimationsPerLayer"))
      }
      let animation = try pieces.animation(
        try required(body, "animation", here), for: layer, at: "\(here).animation")
      return .addAnimation(layer, animation, key: key)
    case "remove-animation":
      _ = try members(body, here, "a remove-animation object", allowed: ["layer", "key"])
      let layer = try self.layer(try required(body, "layer", here), "\(here).layer", in: editor)
      let key = try keyString(try required(body, "key", here), "\(here).key")
      guard layer.animations.contains(where: { $0.key == key }) else {
        throw ControlError(
          "\(Self.source): \(MessageText.place("\(here).key")): the layer has no animation \(MessageText.quoted(key))",
          path: "\(here).key")
      }
      return .removeAnimation(layer, key: key)
    default:
      throw SceneError.unknownKey(
        file: Self.source, path: path, key: name,
        owner: "an edit (set, add, remove, add-animation, remove-animation)")
    }
  }

  // MARK: Applying edits

  /// Applies `edits` in order; returns how to undo them.
  @discardableResult
  func apply(_ edits: [ControlEdit]) -> [() -> Void] {
    var undo: [() -> Void] = []
    for edit in edits {
      switch edit {
      case .set(let layer, let keyPath, let value):
        if keyPath == "frame" || keyPath.hasPrefix("frame.") {
          // A frame is derived from bounds, position, anchor point and
          // transform: setting the old one back need not restore them.
          let (bounds, position) = (layer.bounds, layer.position)
          layer.setValue(value, forKeyPath: keyPath)
          undo.append {
            layer.bounds = bounds
            layer.position = position
          }
        } else {
          // A member (`position.x`, `transform.rotation.z`) is put back
          // through its whole property, which recomposing need not restore.
          let top = keyPath.split(separator: ".").first.map(String.init) ?? keyPath
          let old = layer.value(forKeyPath: top)
          layer.setValue(value, forKeyPath: keyPath)
          undo.append { layer.setValue(old, forKeyPath: top) }
        }
      case .add(let parent, let index, let layer):
        let count = parent.sublayers?.count ?? 0
        parent.insertSublayer(layer, at: UInt32(min(index ?? count, count)))
        undo.append { layer.removeFromSuperlayer() }
      case .remove(let layer):
        guard let parent = layer.superlayer else { continue }
        let index = parent.sublayers?.firstIndex { $0 === layer } ?? 0
        layer.removeFromSuperlayer()
        undo.append { parent.insertSublayer(layer, at: UInt32(index)) }
      case .addAnimation(let layer, let animation, let key):
        let previous = key.flatMap { layer.animation(forKey: $0) }
        layer.add(animation, forKey: key)
        undo.append {
          if let key {
            layer.removeAnimation(forKey: key)
            if let previous { layer.add(previous, forKey: key) }
          }
        }
      case .removeAnimation(let layer, let key):
        let previous = layer.animation(forKey: key)
        layer.removeAnimation(forKey: key)
        undo.append { if let previous { layer.add(previous, forKey: key) } }
      }
    }
    return undo
  }

  /// Checks that the scene after `edits` stays within the limits (totals
  /// once replicators and emitters expand, layer counts, nesting): the
  /// edits are tried with actions disabled and undone, then applied for
  /// real only when the tree passed.
  func checkedApply(_ edits: [ControlEdit], in editor: DisplayEditor, path: String) throws {
    let scene = editor.scene
    CATransaction.begin()
    CATransaction.setDisableActions(true)
    let undo = apply(edits)
    var violation: Error?
    do {
      try scene.checkLimits(scene.root)
    } catch {
      violation = error
    }
    for step in undo.reversed() { step() }
    CATransaction.commit()
    if let violation {
      if case .limitExceeded(_, let place, let exceeded)? = violation as? SceneError {
        throw ControlError(
          "\(Self.source): \(MessageText.place(path)): \(exceeded) (at \(place) once applied)",
          path: path)
      }
      throw violation
    }
    apply(edits)
  }

  // MARK: Reading

  func get(_ body: JSON, at here: String, in editor: DisplayEditor) throws -> (CALayer, String, Bool)
  {
    _ = try members(body, here, "a get object", allowed: ["layer", "key", "presentation"])
    let layer = try self.layer(try required(body, "layer", here), "\(here).layer", in: editor)
    let key = try keyString(try required(body, "key", here), "\(here).key")
    guard type(of: layer).valueKind(forKeyPath: key) != nil else {
      throw SceneError.unknownKey(
        file: Self.source, path: here, key: key, owner: SceneFragments.className(of: layer))
    }
    var presentation = false
    if let p = body["presentation"] {
      guard case .bool(let b) = p else {
        throw SceneError.wrongType(
          file: Self.source, path: "\(here).presentation", expected: "true or false",
          found: p.kindDescription)
      }
      presentation = b
    }
    return (layer, key, presentation)
  }

  /// The file a snapshot writes: relative to the output root, a `.png`,
  /// allowed by the output rule (no `..` or links leading out).
  func snapshotURL(_ body: JSON, at here: String) throws -> URL {
    _ = try members(body, here, "a snapshot object", allowed: ["file"])
    guard let root = policy.outputRoot else {
      throw ControlError(
        "\(Self.source): \(here): snapshots are off; start lamina show with --output-root DIR",
        path: here)
    }
    let fileJSON = try required(body, "file", here)
    guard case .string(let name) = fileJSON else {
      throw SceneError.wrongType(
        file: Self.source, path: "\(here).file", expected: "a file name string",
        found: fileJSON.kindDescription)
    }
    let url = root.appendingPathComponent(name)
    guard !name.isEmpty, !name.hasPrefix("/"), !name.utf8.contains(0),
      name.lowercased().hasSuffix(".png"), name.utf8.count <= 1024,
      FileAccessPolicy.allowsWriting(url.path, in: root)
    else {
      throw ControlError(
        "\(Self.source): \(here).file: cannot write \(MessageText.quoted(name)): a snapshot is a .png file beneath --output-root (no absolute paths, no '..' or links that lead out)",
        path: "\(here).file")
    }
    return url
  }

  /// The scene file `replace` names, read as `policy.access` allows
  /// (relative to the shown scene's folder), loaded.
  func replacement(_ body: JSON, at here: String, in editor: DisplayEditor) throws -> Scene {
    _ = try members(body, here, "a replace object", allowed: ["file"])
    let fileJSON = try required(body, "file", here)
    guard case .string(let reference) = fileJSON else {
      throw SceneError.wrongType(
        file: Self.source, path: "\(here).file", expected: "a file path string",
        found: fileJSON.kindDescription)
    }
    let base = editor.scene.url?.deletingLastPathComponent()
    let allowed = try policy.access.open(
      reference, from: base, file: Self.source, jsonPath: "\(here).file")
    return try policy.load(URL(fileURLWithPath: allowed.path))
  }
}
