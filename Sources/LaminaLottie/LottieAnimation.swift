import Foundation
import Lamina
import LaminaScene

// STUB (helper i25b): the API of lottie-api.md with just enough behind it for
// the command, archives and tests around the importer to build and run. It
// reads w, h, fr, ip, op, markers and the layer count, and draws nothing.
// Helper i25a's importer replaces this file at the merge.

/// A Lottie (Bodymovin) document imported as a CALayer tree with CAAnimations.
public final class LottieAnimation {
  /// True when a parsed top-level JSON object looks like a Lottie document:
  /// it has `v`, `fr`, `ip`, `op`, `w`, `h` and `layers`.
  public static func isLottie(_ object: [String: Any]) -> Bool {
    ["v", "fr", "ip", "op", "w", "h", "layers"].allSatisfy { object[$0] != nil }
  }

  /// Loads a document from a file. Relative image assets are read from the
  /// document's folder (`baseDirectory` defaults to it).
  public convenience init(contentsOf url: URL, options: LottieOptions = LottieOptions()) throws {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw LottieError.unreadable(file: url.lastPathComponent, reason: "\(error)")
    }
    try self.init(
      data: data, name: url.lastPathComponent, baseDirectory: url.deletingLastPathComponent(),
      options: options)
  }

  /// Loads a document from bytes; `name` is the file name used in error messages.
  public init(
    data: Data, name: String, baseDirectory: URL?, options: LottieOptions = LottieOptions()
  ) throws {
    let json: JSON
    do {
      json = try SceneLoader.parseJSON(data, fileName: name)
    } catch {
      throw LottieError.invalid(file: name, path: "", message: "\(error)")
    }
    func number(_ key: String) throws -> Double {
      guard case .number(let value)? = json[key], value.isFinite else {
        throw LottieError.invalid(file: name, path: key, message: "expected a number")
      }
      return value
    }
    width = CGFloat(try number("w"))
    height = CGFloat(try number("h"))
    frameRate = try number("fr")
    inPoint = try number("ip")
    outPoint = try number("op")
    guard width > 0, height > 0, width <= 16384, height <= 16384 else {
      throw LottieError.invalid(file: name, path: "w", message: "expected a size in 1...16384")
    }
    guard frameRate > 0, frameRate <= 1000 else {
      throw LottieError.invalid(file: name, path: "fr", message: "expected a rate in (0, 1000]")
    }
    guard outPoint > inPoint else {
      throw LottieError.invalid(file: name, path: "op", message: "expected op > ip")
    }
    guard case .array(let layers)? = json["layers"] else {
      throw LottieError.invalid(file: name, path: "layers", message: "expected an array")
    }
    layerCount = layers.count
    var markers: [LottieMarker] = []
    if case .array(let items)? = json["markers"] {
      for (i, item) in items.enumerated() {
        guard case .string(let cm)? = item["cm"], case .number(let tm)? = item["tm"] else {
          throw LottieError.invalid(file: name, path: "markers[\(i)]", message: "expected cm, tm")
        }
        var dr = 0.0
        if case .number(let d)? = item["dr"] { dr = d }
        markers.append(LottieMarker(name: cm, startFrame: tm, durationFrames: dr))
      }
    }
    self.markers = markers
    unsupported = []
    self.name = name
    rootLayer = CALayer()
    rootLayer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    rootLayer.anchorPoint = .zero
    rootLayer.position = .zero
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
  public let layerCount: Int
  /// The tree: bounds (0, 0, w, h), anchor (0, 0), position (0, 0).
  public let rootLayer: CALayer
  private let name: String

  /// The document as a `Scene` (canvas w x h at scale 1, no background).
  public func makeScene() -> Scene {
    Scene(
      canvas: Canvas(width: width, height: height), root: rootLayer, images: [:],
      url: URL(fileURLWithPath: name))
  }

  /// Seconds (scene time) of a frame number on the document's numbering.
  public func time(ofFrame frame: Double) -> Double { (frame - inPoint) / frameRate }
}

public struct LottieOptions {
  public init() {}
  /// When set, an image asset that is not a data URI (`u` + `p`) is read
  /// through this instead of from the folder (dotLottie archives set it).
  public var assetData: ((_ relativePath: String) throws -> Data)? = nil
}

public struct LottieMarker: Equatable {
  public let name: String
  public let startFrame: Double
  public let durationFrames: Double
}

public struct LottieUnsupported: Equatable {
  public let feature: String
  public let path: String
}

/// Errors of loading: each names the file and the JSON path.
public enum LottieError: Error, CustomStringConvertible {
  case unreadable(file: String, reason: String)
  case invalid(file: String, path: String, message: String)

  public var description: String {
    switch self {
    case .unreadable(let file, let reason): return "\(file): \(reason)"
    case .invalid(let file, let path, let message):
      return "\(file): \(path.isEmpty ? "" : path + ": ")\(message)"
    }
  }
}
