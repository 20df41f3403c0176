import Foundation
import Lamina
import LaminaLottie
import LaminaScene

/// A file the commands take: a Lamina scene, or a Lottie animation (a JSON
/// document, a dotLottie archive or a `.tgs` sticker), told apart by its
/// content, never by a flag or its name.
package struct Document {
  /// The scene the outputs draw: the scene file's, or the animation's tree
  /// on a canvas of its `w` × `h` points.
  package let scene: Scene
  /// The animation, when the file is a Lottie document.
  package let lottie: LottieAnimation?
  /// How the animation was packaged (nil for a scene).
  package let kind: LottieFileKind?
  /// The name errors give the file (an archive's own, not its entry's).
  package let fileName: String

  /// Loads the file at `url`.
  package static func load(
    contentsOf url: URL, maxImageDimension: Int = SceneLoader.defaultMaxImageDimension,
    images: ImageCache? = nil, access: FileAccessPolicy = .confined,
    expressions: LottieExpressionPolicy? = nil
  ) throws -> Document {
    let name = url.lastPathComponent
    switch try sniff(url) {
    case .lottie(let kind, let data):
      let animation = try LottieAnimation.load(
        data: data, name: name, baseDirectory: url.deletingLastPathComponent(),
        options: lottieOptions(access, expressions))
      return Document(animation, kind: kind, fileName: name)
    case .scene(let data):
      // A pipe, read once already.
      let scene = try SceneLoader.load(
        data: data, baseURL: url.deletingLastPathComponent(), fileName: name,
        maxImageDimension: maxImageDimension, imageCache: images, access: access)
      return Document(scene: scene, lottie: nil, kind: nil, fileName: name)
    case .sceneFile:
      let scene = try SceneLoader.load(
        contentsOf: url, maxImageDimension: maxImageDimension, imageCache: images, access: access)
      return Document(scene: scene, lottie: nil, kind: nil, fileName: scene.fileName)
    }
  }

  /// Loads a document given inline (a batch job's object), named `name`;
  /// relative files are read from `base` (the working directory when nil).
  package static func load(
    json: JSON, data: () -> Data, base: URL?, name: String, maxImageDimension: Int,
    images: ImageCache?, access: FileAccessPolicy = .confined,
    expressions: LottieExpressionPolicy? = nil
  ) throws -> Document {
    if isLottie(json) {
      let animation = try LottieAnimation(
        data: data(), name: name,
        baseDirectory: base ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
        options: lottieOptions(access, expressions))
      return Document(animation, kind: .json, fileName: name)
    }
    let scene = try SceneLoader.load(
      json: json, baseURL: base, fileName: name, maxImageDimension: maxImageDimension,
      imageCache: images, access: access)
    return Document(scene: scene, lottie: nil, kind: nil, fileName: name)
  }

  /// Loads a document's bytes, already read (`batch --scene-root`), named
  /// `name`; relative files are read from `base`.
  package static func load(
    data: Data, base: URL, name: String, maxImageDimension: Int, images: ImageCache?,
    access: FileAccessPolicy = .confined, expressions: LottieExpressionPolicy? = nil
  ) throws -> Document {
    let kind = LottieFileKind(sniffing: data)
    if kind != .json || looksLottie(data, name: name) {
      let animation = try LottieAnimation.load(
        data: data, name: name, baseDirectory: base, options: lottieOptions(access, expressions))
      return Document(animation, kind: kind, fileName: name)
    }
    let scene = try SceneLoader.load(
      data: data, baseURL: base, fileName: name, maxImageDimension: maxImageDimension,
      imageCache: images, access: access)
    return Document(scene: scene, lottie: nil, kind: nil, fileName: name)
  }

  /// A Lottie import that reads image files as `access` allows and treats
  /// expressions as `expressions` says (when nil, as `LottieOptions`'
  /// default: `LAMINA_EXPRESSIONS`, else evaluate).
  private static func lottieOptions(
    _ access: FileAccessPolicy, _ expressions: LottieExpressionPolicy?
  ) -> LottieOptions {
    var options = LottieOptions()
    options.access = access
    if let expressions { options.expressions = expressions }
    return options
  }

  package init(_ animation: LottieAnimation, kind: LottieFileKind, fileName: String) {
    // Errors found while drawing name the file given (an archive, not its entry).
    let made = animation.makeScene()
    scene =
      made.fileName == fileName
      ? made
      : Scene(
        canvas: made.canvas, root: made.root, images: made.images,
        url: URL(fileURLWithPath: fileName))
    lottie = animation
    self.kind = kind
    self.fileName = fileName
  }

  private init(scene: Scene, lottie: LottieAnimation?, kind: LottieFileKind?, fileName: String) {
    self.scene = scene
    self.lottie = lottie
    self.kind = kind
    self.fileName = fileName
  }

  /// What a file holds, told by its content.
  package enum Sniffed {
    /// A Lottie animation, packaged as `kind`, and its bytes.
    case lottie(LottieFileKind, Data)
    /// Not Lottie: the scene loader reads the file (and reports what is
    /// wrong with it).
    case sceneFile
    /// Not Lottie, from a pipe or device already read: these bytes.
    case scene(Data)
  }

  /// Tells a Lottie animation from a scene. A regular file's first bytes
  /// tell an archive; a JSON document is parsed here only when it names
  /// both `fr` and `layers`. A pipe is read once, whatever it holds.
  package static func sniff(_ url: URL) throws -> Sniffed {
    var info = stat()
    guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR else { return .sceneFile }
    let regular = (info.st_mode & S_IFMT) == S_IFREG
    if !regular {
      let data = try readLimited(url, limit: LottieArchiveLimits.maxArchiveBytes)
      let kind = LottieFileKind(sniffing: data)
      if kind != .json || looksLottie(data, name: url.lastPathComponent) {
        return .lottie(kind, data)
      }
      return .scene(data)
    }
    guard let handle = FileHandle(forReadingAtPath: url.path) else { return .sceneFile }
    let head = (try? handle.read(upToCount: 4)) ?? Data()
    try? handle.close()
    let kind = LottieFileKind(sniffing: head)
    if kind != .json {
      return .lottie(kind, try readLimited(url, limit: LottieArchiveLimits.maxArchiveBytes))
    }
    guard Int(info.st_size) <= Limits.maxSceneFileBytes else { return .sceneFile }
    let data = try readLimited(url, limit: Limits.maxSceneFileBytes)
    return looksLottie(data, name: url.lastPathComponent) ? .lottie(.json, data) : .sceneFile
  }

  /// Whether JSON bytes are a Lottie document (only those that name both
  /// `fr` and `layers` are parsed).
  private static func looksLottie(_ data: Data, name: String) -> Bool {
    guard data.count <= Limits.maxSceneFileBytes, contains(data, "\"layers\""),
      contains(data, "\"fr\""), let json = try? SceneLoader.parseJSON(data, fileName: name)
    else { return false }
    return isLottie(json)
  }

  /// Whether a parsed document is a Lottie document (by its top-level keys
  /// and their kinds, as `LottieAnimation.isLottie` decides).
  package static func isLottie(_ json: JSON) -> Bool {
    guard case .object(let members) = json else { return false }
    var object: [String: Any] = [:]
    for (key, value) in members {
      switch value {
      case .null: object[key] = NSNull()
      case .bool(let b): object[key] = b
      case .number(let n): object[key] = n
      case .string(let s): object[key] = s
      // Only the top level matters: a container stands for itself, empty
      // of its contents but with its length.
      case .array(let items): object[key] = [Any](repeating: [String: Any](), count: items.count)
      case .object: object[key] = [String: Any]()
      }
    }
    return LottieAnimation.isLottie(object)
  }

  private static func contains(_ data: Data, _ text: String) -> Bool {
    data.range(of: Data(text.utf8)) != nil
  }

  private static func readLimited(_ url: URL, limit: Int) throws -> Data {
    guard let handle = FileHandle(forReadingAtPath: url.path) else {
      throw LottieArchiveError(file: url.lastPathComponent, message: "cannot be read")
    }
    defer { try? handle.close() }
    let data = (try? handle.read(upToCount: limit + 1)) ?? Data()
    guard data.count <= limit else {
      throw LottieArchiveError(
        file: url.lastPathComponent, message: "the file is over the limit of \(limit) bytes")
    }
    return data
  }

  /// The scene drawn at `scale` pixels per point (nil: the canvas's) over
  /// `background` (nil: the canvas's; a Lottie canvas is transparent). A
  /// Lottie canvas is `w` × `h` points at the scale, its pixel size rounded
  /// up (the animation is not stretched: the last column or row may be
  /// partly empty).
  package func scene(scale: Double?, background: CGColor?) -> Scene {
    var canvas = scene.canvas
    if let background { canvas.background = background }
    if let lottie {
      let s = CGFloat(scale ?? 1)
      canvas.scale = s
      canvas.width = (lottie.width * s - 1e-9).rounded(.up) / s
      canvas.height = (lottie.height * s - 1e-9).rounded(.up) / s
    } else if background == nil {
      return scene
    }
    return scene.replacingCanvas(canvas)
  }

  /// A scene whose time loops over the animation's `ip..op`
  /// (`LottieAnimation.makeLoopingScene`): what `lamina show` plays. A
  /// scene file is shown as it is.
  package func loopingScene() -> Scene {
    lottie?.makeLoopingScene() ?? scene
  }

  /// The animation fitted into `width` × `height` pixels as a player view
  /// shows it (`LottieAnimation.makeScene(fittingWidth:height:)`); nil for
  /// a scene (stretched to the size, as before).
  package func fit(width: Int, height: Int) -> (scene: Scene, scale: Double, x: Double, y: Double)?
  {
    lottie?.makeScene(fittingWidth: width, height: height)
  }

  /// What the importer left out, one line per kind: how often and where
  /// first (`render` prints them on standard error unless `--quiet`).
  package var leftOutSummary: [String] {
    guard let lottie else { return [] }
    var order: [String] = []
    var byKind: [String: [String]] = [:]
    for item in lottie.unsupported {
      if byKind[item.feature] == nil { order.append(item.feature) }
      byKind[item.feature, default: []].append(item.path)
    }
    return order.map { kind in
      let paths = byKind[kind] ?? []
      let count = paths.count == 1 ? "at" : "\(paths.count) times, first at"
      return "\(fileName): left out (not supported): \(kind) (\(count) \(paths.first ?? "?"))"
    }
  }
}
