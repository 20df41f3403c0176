import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import LaminaTestSupport
import XCTest

/// Masked layers rendered this frame share two atlas targets (the masks',
/// the content's) and so two offscreen passes, whatever their number.
final class MaskAtlasTests: XCTestCase {
  static func root() -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 96, height: 80)
    root.position = CGPoint(x: 48, y: 40)
    return root
  }

  /// Colors and alpha that change across the image (every pixel differs).
  static func pattern(width: Int, height: Int) -> CGImage? {
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        let a = UInt8(255 - (x * 3 + y) % 128)
        let r = UInt8(x * 6 % 256) / 2
        let g = UInt8(y * 8 % 256) / 2
        rgba += [min(r, a), min(g, a), min(90, a), a]
      }
    }
    return CGImage(width: width, height: height, rgba: rgba)
  }

  func testAFrameOfMasksJSONTakesTwoOffscreenPasses() throws {
    let scene = DistributedTests.packageRoot.appendingPathComponent(
      "Benchmarks/scenes/masks.json")
    let renderer = try RenderTestSupport.renderer()
    let loaded = try SceneLoader.load(contentsOf: scene)
    func frame(_ time: Double) -> DrawList {
      var builder = FrameBuilder(
        size: CGSize(width: loaded.canvas.width, height: loaded.canvas.height),
        scale: loaded.canvas.scale, caches: renderer.caches)
      builder.time = time
      let root = PresentationTree(root: loaded.root).update(time: time)
      return builder.build(root: root, background: loaded.canvas.background)
    }
    // A first frame: nothing of it is in the cache.
    _ = try renderer.render(frame(0.5))
    XCTAssertEqual(renderer.counters.offscreenPasses, 2, "60 masked layers at t=0.5")
    // The masks moved over the same content: the mask atlas alone is drawn.
    _ = try renderer.render(frame(0.75))
    XCTAssertEqual(renderer.counters.offscreenPasses, 1, "60 masked layers at t=0.75")
    // The same frame again: both atlases come from the cache.
    _ = try renderer.render(frame(0.75))
    XCTAssertEqual(renderer.counters.offscreenPasses, 0)
  }

  /// Three masked layers (an image masked by an image, a color masked by a
  /// gradient, an image masked by a rounded rect, one of them at odd
  /// coordinates: targets and slots start at even pixels) render in the atlas exactly as each does alone in its own
  /// targets, and a static frame draws no mask twice.
  func testAtlasPixelsMatchEachMaskedLayerAlone() throws {
    let renderer = try RenderTestSupport.renderer()
    let photo = try XCTUnwrap(Self.pattern(width: 40, height: 30))
    func layers() -> [CALayer] {
      let a = CALayer()
      a.frame = CGRect(x: 4, y: 6, width: 40, height: 30)
      a.contents = photo
      let aMask = CALayer()
      aMask.frame = CGRect(x: 5, y: 3, width: 28, height: 22)
      aMask.contents = photo
      a.mask = aMask
      let b = CALayer()
      b.frame = CGRect(x: 52, y: 6, width: 36, height: 30)
      b.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)
      let bMask = CAGradientLayer()
      bMask.frame = b.bounds
      bMask.colors = [CGColor(gray: 0, alpha: 1), CGColor(gray: 0, alpha: 0)]
      b.mask = bMask
      let c = CALayer()
      c.frame = CGRect(x: 13, y: 45, width: 41, height: 27)
      c.contents = photo
      let cMask = CALayer()
      cMask.frame = CGRect(x: 3, y: 2, width: 30, height: 20)
      cMask.backgroundColor = CGColor(gray: 0, alpha: 1)
      cMask.cornerRadius = 7
      c.mask = cMask
      return [a, b, c]
    }
    let size = CGSize(width: 96, height: 80)
    let root = Self.root()
    for layer in layers() { root.addSublayer(layer) }
    let all = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 2)
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 0, "a static frame takes the atlases cached")
    for (i, layer) in layers().enumerated() {
      let alone = Self.root()
      alone.addSublayer(layer)
      let one = try renderer.render(layer: alone, size: size)
      let frame = layer.frame
      for y in Int(frame.minY)..<Int(frame.maxY) {
        for x in Int(frame.minX)..<Int(frame.maxX) {
          let (p, q) = (all.pixel(x, y), one.pixel(x, y))
          let dr = abs(Int(p.r) - Int(q.r))
          let dg = abs(Int(p.g) - Int(q.g))
          let db = abs(Int(p.b) - Int(q.b))
          let da = abs(Int(p.a) - Int(q.a))
          let d = max(max(dr, dg), max(db, da))
          XCTAssertEqual(d, 0, "layer \(i) at (\(x), \(y))")
          if d > 0 { return }
        }
      }
    }
  }

  /// Masks whose shapes combine in a blend mode (a Lottie layer's masks:
  /// each path screen-blended over the ones before) share the atlas as
  /// plain masks do, pixel for pixel as each masked layer in targets of
  /// its own: a slot starts cleared, and its viewport keeps what the blend
  /// reads to the slot (nepenthe's six masked layers: 12 offscreen targets
  /// before, 4 atlases now).
  func testMasksInABlendModeShareTheAtlas() throws {
    let renderer = try RenderTestSupport.renderer()
    // The atlas's route: on a software rasterizer these masks (a solid and
    // a blended path) are drawn whole on the CPU instead (CPUGroupTests).
    renderer.cpuGroups = false
    func layers() -> [CALayer] {
      (0..<2).map { i in
        let layer = CALayer()
        layer.frame = CGRect(x: 4 + CGFloat(i) * 46, y: 8, width: 40, height: 60)
        layer.backgroundColor = CGColor(red: 0.2, green: 0.5 + CGFloat(i) * 0.3, blue: 0.9, alpha: 1)
        let mask = CALayer()
        mask.frame = layer.bounds
        let base = CALayer()
        base.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
        base.backgroundColor = CGColor(gray: 0, alpha: 0.5)
        mask.addSublayer(base)
        let shape = CAShapeLayer()
        shape.path = CGPath(
          ellipseIn: CGRect(x: 3, y: 10 + CGFloat(i) * 5, width: 33, height: 40), transform: nil)
        shape.fillColor = CGColor(gray: 0, alpha: 0.8)
        shape.compositingFilter = "screenBlendMode"
        mask.addSublayer(shape)
        layer.mask = mask
        return layer
      }
    }
    let size = CGSize(width: 96, height: 80)
    let root = Self.root()
    for layer in layers() { root.addSublayer(layer) }
    let all = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 2, "two masked layers in the two atlases")
    for (i, layer) in layers().enumerated() {
      let alone = Self.root()
      alone.addSublayer(layer)
      let one = try renderer.render(layer: alone, size: size)
      let frame = layer.frame
      var differing = 0
      var covered = 0
      for y in Int(frame.minY)..<Int(frame.maxY) {
        for x in Int(frame.minX)..<Int(frame.maxX) {
          let (p, q) = (all.pixel(x, y), one.pixel(x, y))
          if (p.r, p.g, p.b, p.a) != (q.r, q.g, q.b, q.a) { differing += 1 }
          if p.a > 0 { covered += 1 }
        }
      }
      XCTAssertEqual(differing, 0, "layer \(i): pixels that differ from it alone")
      XCTAssertGreaterThan(covered, 600, "layer \(i): the mask lets the layer show")
    }
  }
}
