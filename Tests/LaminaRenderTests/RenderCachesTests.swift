import Foundation
@_spi(Caches) import Lamina
import XCTest

@testable import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaRender

/// The caches a renderer owns (`RenderCaches`): what one renderer keeps
/// from a tree never shows in another tree, the budget holds, and two
/// renderers share nothing.
final class RenderCachesTests: XCTestCase {
  /// A layer that draws its contents in `draw(in:)`: a disc of `color`
  /// over a band of a gradient between `color` and its complement.
  final class Drawn: CALayer {
    var color = CGColor.black

    override func draw(in ctx: CGContext) {
      let inverse = CGColor(
        red: 1 - color.red, green: 1 - color.green, blue: 1 - color.blue, alpha: 1)
      if let gradient = CGGradient(colorsSpace: nil, colors: [color, inverse], locations: nil) {
        ctx.drawLinearGradient(
          gradient, start: .zero, end: CGPoint(x: bounds.width, y: 0), options: [])
      }
      ctx.setFillColor(color)
      ctx.fillEllipse(in: bounds.insetBy(dx: 4, dy: 4))
    }
  }

  /// A small random generator, so that tree `i` is the same in both renders.
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    mutating func unit() -> CGFloat { CGFloat(next() % 1001) / 1000 }
    mutating func color(alpha: CGFloat = 1) -> CGColor {
      CGColor(red: unit(), green: unit(), blue: unit(), alpha: alpha)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  }

  /// Tree `seed`, 64×64 points: a gradient masked by a shape (as Lottie
  /// draws gradient fills), a filled and stroked shape, text, a layer that
  /// draws itself, an image, some rasterized, shadowed or masked; every
  /// color, path and position from the seed.
  static func tree(_ seed: Int) -> CALayer {
    var r = Random(state: UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
    root.position = CGPoint(x: 32, y: 32)
    root.backgroundColor = r.color()

    let gradient = CAGradientLayer()
    gradient.frame = CGRect(x: 2 + r.unit() * 8, y: 2 + r.unit() * 8, width: 40, height: 40)
    gradient.colors = (0..<(2 + r.below(3))).map { _ in r.color() }
    gradient.type = [.axial, .radial, .conic][r.below(3)]
    gradient.startPoint = CGPoint(x: r.unit(), y: r.unit())
    gradient.endPoint = CGPoint(x: r.unit(), y: r.unit())
    let gradientMask = CAShapeLayer()
    gradientMask.frame = gradient.bounds
    gradientMask.path = shapePath(&r, in: gradient.bounds)
    gradientMask.fillColor = .black
    gradient.mask = gradientMask
    root.addSublayer(gradient)

    let shape = CAShapeLayer()
    shape.frame = root.bounds
    shape.path = shapePath(&r, in: CGRect(x: 20 + r.unit() * 10, y: 20, width: 36, height: 30))
    shape.fillColor = r.color(alpha: 0.5 + r.unit() / 2)
    shape.strokeColor = r.color()
    shape.lineWidth = 1 + r.unit() * 4
    shape.strokeEnd = 0.3 + r.unit() * 0.7
    if r.below(4) == 0 { shape.shadowOpacity = 1; shape.shadowRadius = 2 }
    root.addSublayer(shape)

    let text = CATextLayer()
    text.frame = CGRect(x: 2, y: 44 + r.unit() * 4, width: 60, height: 16)
    text.string = "t\(seed) \(r.below(1000))"
    text.fontSize = 8 + r.unit() * 6
    text.foregroundColor = r.color()
    root.addSublayer(text)

    let drawn = Drawn()
    drawn.frame = CGRect(x: 40, y: 2 + r.unit() * 6, width: 20, height: 20)
    drawn.color = r.color()
    drawn.setNeedsDisplay()
    drawn.shouldRasterize = r.below(3) == 0
    root.addSublayer(drawn)

    var pixels: [UInt8] = []
    for _ in 0..<16 { pixels += [UInt8(r.below(256)), UInt8(r.below(256)), 200, 255] }
    let image = CALayer()
    image.frame = CGRect(x: 4 + r.unit() * 20, y: 30, width: 16, height: 12)
    image.contents = CGImage(width: 4, height: 4, rgba: pixels)
    if r.below(2) == 0 {
      let mask = CAShapeLayer()
      mask.frame = image.bounds
      mask.path = shapePath(&r, in: image.bounds)
      mask.fillColor = .black
      image.mask = mask
    }
    root.addSublayer(image)
    return root
  }

  /// An ellipse, a rounded rect or a star in `rect`.
  static func shapePath(_ r: inout Random, in rect: CGRect) -> CGPath {
    switch r.below(3) {
    case 0: return CGPath(ellipseIn: rect.insetBy(dx: r.unit() * 4, dy: r.unit() * 4))
    case 1:
      return CGPath(roundedRect: rect, cornerWidth: 2 + r.unit() * 8, cornerHeight: 4, transform: nil)
    default:
      let path = CGMutablePath()
      let points = 5 + r.below(4)
      for k in 0..<(2 * points) {
        let angle = CGFloat(k) * .pi / CGFloat(points)
        let radius = (k % 2 == 0 ? 0.5 : 0.2 + r.unit() * 0.2) * min(rect.width, rect.height)
        let p = CGPoint(x: rect.midX + radius * cos(angle), y: rect.midY + radius * sin(angle))
        if k == 0 { path.move(to: p) } else { path.addLine(to: p) }
      }
      path.closeSubpath()
      return path
    }
  }

  /// 200 different trees, one after another, on one renderer, each freed
  /// before the next is made (so new layers, paths, meshes and images can
  /// take the addresses of freed ones): every image is byte for byte the
  /// image a fresh renderer makes of the same tree. Once more on a renderer
  /// whose budget is small enough that its caches evict every frame.
  func testManyTreesOnOneRendererMatchAFreshRendererEach() throws {
    let size = CGSize(width: 64, height: 64)
    let shared = try Renderer()
    let small = try Renderer(cacheBytes: 2 << 20)
    var differing: [Int] = []
    var differingSmall: [Int] = []
    for seed in 0..<200 {
      // The trees live only in this scope: freed before the next are made.
      do {
        let fresh = try Renderer()
        let expected = try fresh.render(layer: Self.tree(seed), size: size, scale: 1)
        let got = try shared.render(layer: Self.tree(seed), size: size, scale: 1)
        let gotSmall = try small.render(layer: Self.tree(seed), size: size, scale: 1)
        if got.premultipliedPixels != expected.premultipliedPixels { differing.append(seed) }
        if gotSmall.premultipliedPixels != expected.premultipliedPixels {
          differingSmall.append(seed)
        }
        if seed == 0 {
          // The trees draw something of every kind.
          XCTAssertGreaterThan(fresh.caches.usage.pathCount, 0)
          XCTAssertGreaterThan(fresh.caches.glyphs.rasterizedGlyphs, 0)
          XCTAssertGreaterThan(fresh.cacheReport.textureCount, 2)
        }
      }
    }
    XCTAssertEqual(differing, [], "trees whose image differs from a fresh renderer's")
    XCTAssertEqual(differingSmall, [], "the same with a 2 MiB cache budget")
    let report = small.cacheReport
    XCTAssertGreaterThan(report.evictions, 0, "the small budget evicted")
    XCTAssertLessThanOrEqual(report.cpu.budgetedBytes, report.cpuBudgetBytes)
    XCTAssertLessThanOrEqual(report.textureBytes, report.textureBudgetBytes)
  }

  /// Shapes drawn by Cairo fill a small CPU budget: the bytes stay within
  /// it after every frame, entries are evicted least recently used first,
  /// and an evicted bitmap is drawn again (the same pixels) when needed.
  func testFillingTheBudgetEvictsAndRemakes() throws {
    let renderer = try Renderer(cacheBytes: 1 << 20)  // 256 KiB for the CPU caches
    let caches = renderer.caches
    XCTAssertEqual(caches.cpuBytes, 256 << 10)
    func frame(_ n: Int) throws -> RenderedImage {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 256, height: 64)
      root.position = CGPoint(x: 128, y: 32)
      for k in 0..<4 {
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: k * 64, y: 0, width: 64, height: 64)
        shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 60, height: 60))
        shape.fillColor = CGColor(
          red: CGFloat(n % 7) / 6, green: CGFloat(k) / 3, blue: CGFloat(n / 7) / 10, alpha: 1)
        root.addSublayer(shape)
      }
      var builder = FrameBuilder(size: root.bounds.size, scale: 1, caches: caches)
      builder.drawsShapesOnGPU = false  // bitmaps of 64×64 pixels: 16 KiB each
      return try renderer.render(builder.build(root: root, background: .white))
    }
    let first = try frame(0)
    XCTAssertEqual(caches.drawn.rasterizations, 4)
    _ = try frame(0)
    XCTAssertEqual(caches.drawn.rasterizations, 4, "held: nothing drawn again")
    for n in 1..<12 {
      _ = try frame(n)
      XCTAssertLessThanOrEqual(caches.budget.bytes, caches.cpuBytes, "frame \(n)")
      XCTAssertEqual(caches.usage.budgetedBytes, caches.budget.bytes)
    }
    // 48 bitmaps of about 16 KiB drawn into 256 KiB: about 16 held.
    XCTAssertEqual(caches.drawn.rasterizations, 48)
    XCTAssertLessThan(caches.drawn.count, 20)
    XCTAssertGreaterThan(caches.usage.evictions, 0)
    // Frame 0's bitmaps were the least recently used: evicted, drawn again.
    let again = try frame(0)
    XCTAssertEqual(caches.drawn.rasterizations, 52, "frame 0's four shapes drawn again")
    XCTAssertEqual(again.premultipliedPixels, first.premultipliedPixels)
    XCTAssertLessThanOrEqual(caches.budget.bytes, caches.cpuBytes)
  }

  /// The LRU order across the caches of one budget: the least recently
  /// used entry of any of them goes first; a value over the whole budget
  /// is handed back and not kept.
  func testOneBudgetEvictsTheLeastRecentlyUsedOfAllItsCaches() {
    let budget = CacheBudget(limit: 30)
    let a = LRUCache<String, Int>(budget: budget) { $0 }
    let b = LRUCache<Int, Int>(budget: budget) { $0 }
    a.insert(10, forKey: "x")
    b.insert(10, forKey: 1)
    a.insert(10, forKey: "y")
    XCTAssertEqual(a.value(forKey: "x"), 10)  // "x" is now newer than 1
    a.insert(10, forKey: "z")  // over 30: the oldest, b's 1, goes
    XCTAssertFalse(b.contains(1))
    XCTAssertEqual(b.evictions, 1)
    XCTAssertTrue(a.contains("x") && a.contains("y") && a.contains("z"))
    XCTAssertEqual(budget.bytes, 30)
    var made = 0
    XCTAssertEqual(b.value(forKey: 2) { made += 1; return 40 }, 40)
    XCTAssertEqual(made, 1)
    XCTAssertFalse(b.contains(2), "larger than the budget: not kept")
    XCTAssertEqual(budget.bytes, 30)
    budget.limit = 15  // lowering the limit evicts at once
    XCTAssertEqual(budget.bytes, 10)
    XCTAssertEqual(a.count, 1)
    XCTAssertTrue(a.contains("z"))
  }

  /// Two renderers share no cache: what one makes is not in the other's,
  /// which makes its own.
  func testTwoRenderersShareNothing() throws {
    let one = try Renderer()
    let other = try Renderer()
    XCTAssertFalse(one.caches === other.caches)
    XCTAssertFalse(one.caches.glyphs === other.caches.glyphs)
    let size = CGSize(width: 64, height: 64)
    let tree = Self.tree(7)
    let image = try one.render(layer: tree, size: size)
    XCTAssertGreaterThan(one.caches.paths.builds, 0)
    XCTAssertGreaterThan(one.caches.glyphs.rasterizedGlyphs, 0)
    XCTAssertGreaterThan(one.caches.drawn.count + one.caches.paths.count, 0)
    XCTAssertEqual(other.caches.usage, RenderCaches.Usage(), "the other's caches are empty")
    XCTAssertEqual(other.caches.glyphs.rasterizedGlyphs, 0)
    XCTAssertEqual(other.cacheReport.textureCount, 0)
    // The mesh of the shape's path, as the first renderer's cache holds it.
    let shape = try XCTUnwrap(tree.sublayers?.compactMap { $0 as? CAShapeLayer }.first)
    let path = try XCTUnwrap(shape.path)
    let level = PathFlattening.level(forScale: 1)
    let key = PathGeometryCache.Key.fill(path, evenOdd: false, level: level)
    XCTAssertTrue(one.caches.paths.entries.contains(key))
    XCTAssertFalse(other.caches.paths.entries.contains(key))
    let builds = one.caches.paths.builds
    let again = try other.render(layer: tree, size: size)
    XCTAssertEqual(again.premultipliedPixels, image.premultipliedPixels)
    XCTAssertTrue(other.caches.paths.entries.contains(key), "made by the other, for itself")
    XCTAssertEqual(one.caches.paths.builds, builds, "the first renderer built nothing more")
  }

  /// A path item's paint keys cached rasters and masks across frames (by
  /// its hash in `RasterSignature`): meshes made one after another, each
  /// freed before the next (which then often takes its address), never
  /// hash alike.
  func testPaintsOfFreedMeshesNeverHashAlike() throws {
    var hashes = Set<Int>()
    for i in 0..<100 {
      let cache = PathGeometryCache(budget: CacheBudget(limit: 1 << 20))
      let path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10 + i, height: 10))
      let mesh = try XCTUnwrap(cache.fill(path, evenOdd: false, level: 0))
      hashes.insert(PathPaint(geometry: .fill(mesh)).hashValue)
    }
    XCTAssertEqual(hashes.count, 100)
  }

  /// Layers are keyed by serials that are never handed out again: a new
  /// layer never has a freed one's.
  func testLayerSerialsAreNeverReused() {
    var seen = Set<UInt64>()
    for _ in 0..<1000 {
      let layer = CALayer()
      XCTAssertTrue(seen.insert(layer.serial).inserted)
    }
  }
}
