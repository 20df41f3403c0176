import Foundation
import Lamina

/// Reads scene files (format version 1, see `spec/scene-format.md`): strict
/// JSON, keys set in the order written through key-value coding, every
/// failure a `SceneError` that names the file and the JSON path.
///
/// ```swift
/// let scene = try SceneLoader.load(contentsOf: URL(fileURLWithPath: "scene.json"))
/// print(scene.canvas.width, scene.root.sublayers?.count ?? 0)
/// ```
public enum SceneLoader {
  /// The largest canvas side, in points.
  public static let maxCanvasSide: CGFloat = 16384
  /// The largest canvas side, in pixels (side × scale).
  public static let maxCanvasPixels: CGFloat = 32768
  /// The largest canvas scale.
  public static let maxCanvasScale: CGFloat = 8
  /// The largest layer bounds side, in points.
  public static let maxLayerSide: CGFloat = 1_000_000
  /// The largest `instanceCount` of a replicator layer.
  public static let maxInstanceCount = 100_000
  /// The largest width or height of an image, unless `load` is given another.
  public static let defaultMaxImageDimension = 16384

  /// The layer classes a scene may name.
  public static let layerClasses: [(name: String, type: CALayer.Type)] = [
    ("CALayer", CALayer.self), ("CATransformLayer", CATransformLayer.self),
    ("CAGradientLayer", CAGradientLayer.self), ("CAShapeLayer", CAShapeLayer.self),
    ("CATextLayer", CATextLayer.self), ("CAReplicatorLayer", CAReplicatorLayer.self),
    ("CAScrollLayer", CAScrollLayer.self), ("CAEmitterLayer", CAEmitterLayer.self),
    ("CATiledLayer", CATiledLayer.self),
  ]

  /// Loads the scene file at `url`; image paths are relative to its folder.
  /// - Parameters:
  ///   - maxImageDimension: the largest image width or height accepted (a
  ///     renderer passes its maximum texture size).
  ///   - imageCache: decoded images shared with other loads (nil: this load
  ///     decodes its own).
  public static func load(
    contentsOf url: URL, maxImageDimension: Int = defaultMaxImageDimension,
    imageCache: ImageCache? = nil
  ) throws -> Scene {
    let fileName = url.lastPathComponent
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      let reason =
        FileManager.default.fileExists(atPath: url.path)
        ? "permission denied or not a file"
        : "no such file"
      throw SceneError.unreadable(file: fileName, reason: reason)
    }
    let scene = try load(
      data: data, baseURL: url.deletingLastPathComponent(), fileName: fileName,
      maxImageDimension: maxImageDimension, imageCache: imageCache)
    return Scene(canvas: scene.canvas, root: scene.root, images: scene.images, url: url)
  }

  /// Loads a scene from its bytes. `baseURL` is the folder image paths are
  /// relative to (the current directory when nil); `fileName` names the
  /// scene in error messages.
  public static func load(
    data: Data, baseURL: URL?, fileName: String,
    maxImageDimension: Int = defaultMaxImageDimension, imageCache: ImageCache? = nil
  ) throws -> Scene {
    try load(
      json: parseJSON(data, fileName: fileName), baseURL: baseURL, fileName: fileName,
      maxImageDimension: maxImageDimension, imageCache: imageCache)
  }

  /// Parses a JSON document with the scene format's strict reader (keys in
  /// the order written); a syntax error is a `SceneError.syntax` naming
  /// `fileName`, the line and the column.
  package static func parseJSON(_ data: Data, fileName: String) throws -> JSON {
    do {
      return try JSONParser.parse(data)
    } catch let e as JSONSyntaxError {
      throw SceneError.syntax(
        file: fileName, line: e.line, column: e.column,
        message: (e.path.map { "\($0): " } ?? "") + message(for: e.reason))
    }
  }

  /// Loads a scene from its parsed JSON (a scene inside another document,
  /// such as a batch job line).
  package static func load(
    json: JSON, baseURL: URL?, fileName: String,
    maxImageDimension: Int = defaultMaxImageDimension, imageCache: ImageCache? = nil
  ) throws -> Scene {
    var decoder = SceneDecoder(
      file: fileName, baseURL: baseURL, maxImageDimension: maxImageDimension,
      imageCache: imageCache)
    return try decoder.scene(json)
  }

  static func message(for reason: JSONSyntaxError.Reason) -> String {
    switch reason {
    case .unexpected(let expected, let found): return "expected \(expected), found \(found)"
    case .invalidUTF8: return "string is not valid UTF-8"
    case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
    case .notFinite(let text): return "\(text) is not a finite number"
    case .duplicateKey(let key): return "duplicate key '\(key)'"
    case .invalidEscape: return "invalid escape sequence in string"
    case .controlCharacter: return "unescaped control character in string"
    }
  }
}
