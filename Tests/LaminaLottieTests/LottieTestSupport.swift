import Foundation
import Lamina
import LaminaLottie
import LaminaRender
import XCTest

/// Small Lottie documents written in the tests, and ways to look into the trees.
enum LottieTestSupport {
  /// A document of `w` x `h` at 60 fps over frames 0..<60 with these layers (JSON text).
  /// The Fixtures folder in the test bundle (read-only copies).
  static var fixtures: URL {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
  }

  nonisolated(unsafe) private static var sharedRenderer: Renderer?

  /// One renderer for the tests that render (made on first use).
  static func renderer() throws -> Renderer {
    if let made = sharedRenderer { return made }
    let made = try Renderer()
    sharedRenderer = made
    return made
  }

  static func document(
    layers: String, assets: String = "[]", extra: String = "", w: Int = 100, h: Int = 100, op: Int = 60
  ) -> String {
    """
    {"v": "5.7.0", "fr": 60, "ip": 0, "op": \(op), "w": \(w), "h": \(h), "assets": \(assets),
     "layers": \(layers)\(extra.isEmpty ? "" : ", " + extra)}
    """
  }

  static func load(_ json: String, name: String = "test.json", options: LottieOptions = LottieOptions()) throws
    -> LottieAnimation
  {
    try LottieAnimation(data: Data(json.utf8), name: name, baseDirectory: nil, options: options)
  }

  /// The message of the error loading `json` throws.
  static func error(_ json: String, options: LottieOptions = LottieOptions()) -> String {
    do {
      _ = try load(json, options: options)
      return "no error"
    } catch {
      return "\(error)"
    }
  }

  /// A shape layer with these shape items.
  static func shapeLayer(_ shapes: String, ind: Int = 1, extra: String = "") -> String {
    """
    {"ty": 4, "ind": \(ind), "nm": "shape\(ind)", "ip": 0, "op": 60, "st": 0,
     "ks": {"p": {"a": 0, "k": [0, 0]}}, "shapes": \(shapes)\(extra.isEmpty ? "" : ", " + extra)}
    """
  }

  static let redFill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#

  static func rect(x: Double = 50, y: Double = 50, w: Double = 20, h: Double = 20) -> String {
    #"{"ty": "rc", "p": {"a": 0, "k": [\#(x), \#(y)]}, "s": {"a": 0, "k": [\#(w), \#(h)]}, "r": {"a": 0, "k": 0}}"#
  }

  /// The presentation of the tree at scene time `t`.
  static func presentation(_ a: LottieAnimation, at t: Double) -> CALayer {
    PresentationTree(root: a.rootLayer).update(time: t)
  }

  static func all(_ layer: CALayer) -> [CALayer] {
    [layer] + (layer.sublayers ?? []).flatMap(all) + (layer.mask.map(all) ?? [])
  }

  static func first<T: CALayer>(_ type: T.Type, in layer: CALayer) -> T? {
    all(layer).compactMap { $0 as? T }.first
  }

  static func named(_ name: String, in layer: CALayer) -> CALayer? {
    all(layer).first { $0.name == name }
  }

  /// Where a point of `layer` lands in the root's coordinates.
  static func point(_ p: CGPoint, of layer: CALayer, in root: CALayer) -> CGPoint {
    layer.convert(p, to: root)
  }
}
