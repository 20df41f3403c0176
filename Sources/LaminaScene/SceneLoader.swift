import Foundation
import Lamina

/// Reads scene files (format version 1, see `spec/scene-format.md`): strict
/// JSON, keys set in the order written through key-value coding, every
/// failure a `SceneError` that names the file and the JSON path.
///
/// Scene files are untrusted input: every number is checked where it is
/// read (finite, in its key's range), every count and total against the
/// `Limits` (docs/limits.md) before the work it bounds, image paths are
/// confined to the scene's folder unless a `FileAccessPolicy` allows more
/// (docs/security.md), and images are decoded only when a layer uses them,
/// once per file, within the image cache's budget, their headers checked
/// before their pixels are allocated.
///
/// ```swift
/// let scene = try SceneLoader.load(contentsOf: URL(fileURLWithPath: "scene.json"))
/// print(scene.canvas.width, scene.root.sublayers?.count ?? 0)
/// ```
public enum SceneLoader {
  /// The largest canvas side, in points.
  public static let maxCanvasSide = Limits.maxCanvasSide
  /// The largest canvas side, in pixels (side × scale).
  public static let maxCanvasPixels = Limits.maxCanvasPixelSide
  /// The largest canvas scale.
  public static let maxCanvasScale = Limits.maxCanvasScale
  /// The largest layer bounds side, in points.
  public static let maxLayerSide = Limits.maxLayerSide
  /// The largest `instanceCount` of a replicator layer.
  public static let maxInstanceCount = Limits.maxInstanceCount
  /// The largest width or height of an image, unless `load` is given another.
  public static let defaultMaxImageDimension = Limits.maxImageSide

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
  ///   - access: which image files the scene may read: by default only
  ///     those in its own folder and below (`FileAccessPolicy`).
  ///   - maxImageDimension: the largest image width or height accepted (a
  ///     renderer passes its maximum texture size).
  ///   - imageCache: decoded images shared with other loads; nil: this
  ///     load decodes its own (a new cache with the default budget). Its
  ///     `sceneBudgetBytes` bounds the decoded bytes of this one scene.
  public static func load(
    contentsOf url: URL, maxImageDimension: Int = defaultMaxImageDimension,
    imageCache: ImageCache? = nil, access: FileAccessPolicy = .confined
  ) throws -> Scene {
    let fileName = url.lastPathComponent
    let data = try read(url, fileName: fileName)
    let scene = try load(
      data: data, baseURL: url.deletingLastPathComponent(), fileName: fileName,
      maxImageDimension: maxImageDimension, imageCache: imageCache, access: access)
    return Scene(
      canvas: scene.canvas, root: scene.root, images: scene.images, url: url,
      layerPaths: scene.layerPaths, name: fileName)
  }

  /// The file's bytes, refused past `Limits.maxSceneFileBytes` before they
  /// are read (a pipe is read up to the limit).
  static func read(_ url: URL, fileName: String) throws -> Data {
    var info = stat()
    guard stat(url.path, &info) == 0 else {
      let reason = errno == ENOENT ? "no such file" : "permission denied or not a file"
      throw SceneError.unreadable(file: fileName, reason: reason)
    }
    let tooLarge = { (size: Int) in
      SceneError.limitExceeded(
        file: fileName, path: "the scene file",
        exceeded: LimitExceeded(
          what: "size in bytes", found: size, limit: Limits.maxSceneFileBytes,
          name: "maxSceneFileBytes"))
    }
    let regular = (info.st_mode & S_IFMT) == S_IFREG
    if regular, Int(truncatingIfNeeded: info.st_size) > Limits.maxSceneFileBytes {
      throw tooLarge(Int(truncatingIfNeeded: info.st_size))
    }
    guard (info.st_mode & S_IFMT) != S_IFDIR, let handle = FileHandle(forReadingAtPath: url.path)
    else {
      throw SceneError.unreadable(file: fileName, reason: "permission denied or not a file")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: Limits.maxSceneFileBytes + 1) ?? Data()
    } catch {
      throw SceneError.unreadable(file: fileName, reason: "permission denied or not a file")
    }
    if data.count > Limits.maxSceneFileBytes {
      throw tooLarge(regular ? data.count : Limits.maxSceneFileBytes + 1)
    }
    return data
  }

  /// Loads a scene from its bytes. `baseURL` is the folder image paths are
  /// relative to (the current directory when nil), and the folder they are
  /// confined to unless `access` allows more; `fileName` names the scene
  /// in error messages.
  public static func load(
    data: Data, baseURL: URL?, fileName: String,
    maxImageDimension: Int = defaultMaxImageDimension, imageCache: ImageCache? = nil,
    access: FileAccessPolicy = .confined
  ) throws -> Scene {
    guard data.count <= Limits.maxSceneFileBytes else {
      throw SceneError.limitExceeded(
        file: fileName, path: "the scene file",
        exceeded: LimitExceeded(
          what: "size in bytes", found: data.count, limit: Limits.maxSceneFileBytes,
          name: "maxSceneFileBytes"))
    }
    return try load(
      json: parseJSON(data, fileName: fileName), baseURL: baseURL, fileName: fileName,
      maxImageDimension: maxImageDimension, imageCache: imageCache, access: access)
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
    maxImageDimension: Int = defaultMaxImageDimension, imageCache: ImageCache? = nil,
    access: FileAccessPolicy = .confined
  ) throws -> Scene {
    var decoder = SceneDecoder(
      file: fileName, baseURL: baseURL, maxImageDimension: maxImageDimension,
      imageCache: imageCache, access: access)
    let scene = try decoder.scene(json)
    // Totals (instances, particles, layers once expanded) before anything is built.
    try scene.checkLimits(scene.root)
    return scene
  }

  static func message(for reason: JSONSyntaxError.Reason) -> String {
    switch reason {
    case .unexpected(let expected, let found): return "expected \(expected), found \(found)"
    case .invalidUTF8: return "string is not valid UTF-8"
    case .tooDeep(let limit): return "nesting deeper than \(limit) levels"
    case .notFinite(let text): return "\(text) is not a finite number"
    case .duplicateKey(let key): return "duplicate key \(MessageText.quoted(key))"
    case .invalidEscape: return "invalid escape sequence in string"
    case .controlCharacter: return "unescaped control character in string"
    }
  }
}
