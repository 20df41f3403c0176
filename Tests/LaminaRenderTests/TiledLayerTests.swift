import Foundation
@_spi(Caches) import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

@testable import LaminaRender

/// CATiledLayer: content drawn tile by tile, only where it shows, at the
/// level of detail the scale needs, in a bounded cache.
final class TiledLayerTests: XCTestCase {
  /// 100-point squares colored by their column and row.
  final class Board: CATiledLayer {
    override func draw(in ctx: CGContext) {
      let clip = ctx.boundingBoxOfClipPath
      let c0 = Int(floor(clip.minX / 100)), c1 = Int(ceil(clip.maxX / 100))
      let r0 = Int(floor(clip.minY / 100)), r1 = Int(ceil(clip.maxY / 100))
      for r in r0..<r1 {
        for c in c0..<c1 {
          ctx.setFillColor(Board.color(c, r))
          ctx.fill(CGRect(x: CGFloat(c) * 100, y: CGFloat(r) * 100, width: 100, height: 100))
        }
      }
    }

    static func color(_ c: Int, _ r: Int) -> CGColor {
      CGColor(
        red: CGFloat(c % 5) / 4, green: CGFloat(r % 5) / 4, blue: (c + r) % 2 == 0 ? 1 : 0, alpha: 1
      )
    }
  }

  func scene(scale: CGFloat, offset: CGPoint) -> (CALayer, Board) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
    root.position = CGPoint(x: 100, y: 75)
    let board = Board()
    board.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
    board.anchorPoint = .zero
    board.position = CGPoint(x: -offset.x * scale, y: -offset.y * scale)
    board.transform = CATransform3DMakeScale(scale, scale, 1)
    board.levelsOfDetail = 4
    board.levelsOfDetailBias = 2
    root.addSublayer(board)
    return (root, board)
  }

  func testTilesShowTheDrawnContentWhereItBelongs() throws {
    let (root, _) = scene(scale: 1, offset: CGPoint(x: 12_340, y: 5_020))
    let renderer = try RenderTestSupport.renderer()
    let before = renderer.caches.tiles.drawnTiles
    let image = try renderer.render(layer: root, size: root.bounds.size)
    // 200×150 points from (12340, 5020): at most 2×2 tiles of 256 pixels.
    XCTAssertLessThanOrEqual(renderer.caches.tiles.drawnTiles - before, 4)
    for (x, y) in [(10, 10), (150, 20), (70, 120)] {
      let c = (12_340 + x) / 100, r = (5_020 + y) / 100
      let expected = Board.color(c, r)
      let p = image.pixel(x, y)
      XCTAssertEqual(Int(p.r), Int(expected.red * 255), accuracy: 2, "(\(x), \(y))")
      XCTAssertEqual(Int(p.g), Int(expected.green * 255), accuracy: 2, "(\(x), \(y))")
      XCTAssertEqual(Int(p.b), Int(expected.blue * 255), accuracy: 2, "(\(x), \(y))")
    }
  }

  func testLevelOfDetailFollowsTheScale() throws {
    for (scale, level) in [(1.0, 0), (0.3, 1), (0.1, 3), (2.5, -2), (8.0, -2)] as [(CGFloat, Int)] {
      let (root, _) = scene(scale: scale, offset: CGPoint(x: 9_000, y: 9_000))
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      let frame = builder.build(root: root, background: nil)
      let images = frame.allItems.compactMap { item -> CGImage? in
        if case .image(let image, _) = item.material { return image }
        return nil
      }
      XCTAssertFalse(images.isEmpty)
      // A tile spans 256 / 2^−ℓ points, so 256 × scale / 2^−ℓ pixels on screen.
      let tilePoints = 256 * pow(2, CGFloat(level))
      let item = frame.allItems[0]
      XCTAssertEqual(item.rect.width, tilePoints, accuracy: 1e-6, "scale \(scale)")
    }
  }

  func testPanningAcrossTheWholeLayerKeepsMemoryBounded() throws {
    func peakMB() -> Double {
      var usage = rusage()
      getrusage(RUSAGE_SELF.rawValue, &usage)
      return Double(usage.ru_maxrss) / 1024
    }
    let renderer = try RenderTestSupport.renderer()
    let start = peakMB()
    for step in 0..<40 {
      let (root, _) = scene(
        scale: 1, offset: CGPoint(x: CGFloat(step) * 495, y: CGFloat(step) * 300))
      _ = try renderer.render(layer: root, size: root.bounds.size)
    }
    XCTAssertLessThanOrEqual(renderer.caches.budget.bytes, renderer.caches.cpuBytes)
    // A 20,000-point square at one pixel per point would be 1.6 GB of RGBA;
    // panned across it, the process grows by at most the tile budget and
    // some slack.
    XCTAssertLessThan(peakMB() - start, 150)
  }

  func testThreeZoomLevelsGolden() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 300, height: 100)
    root.position = CGPoint(x: 150, y: 50)
    for (i, scale) in [0.15, 1, 3].enumerated() {
      let window = CALayer()
      window.frame = CGRect(x: CGFloat(i) * 100 + 2, y: 2, width: 96, height: 96)
      window.masksToBounds = true
      let board = Board()
      board.bounds = CGRect(x: 0, y: 0, width: 20_000, height: 20_000)
      board.anchorPoint = .zero
      board.position = CGPoint(x: -1_030 * scale, y: -970 * scale)
      board.transform = CATransform3DMakeScale(scale, scale, 1)
      board.levelsOfDetail = 4
      board.levelsOfDetailBias = 2
      window.addSublayer(board)
      root.addSublayer(window)
    }
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, background: .white)
    try RenderTestSupport.assertMatches(
      image, golden: "reftests/tiled_zoom_levels.png",
      tolerance: .fuzzy(maxDifference: 2, maxPixels: 0))
  }
}

/// A CAScrollLayer scrolled to show a rect of its content.
final class ScrollLayerRenderTests: XCTestCase {
  func testScrolledToARectGolden() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 160, height: 100)
    root.position = CGPoint(x: 80, y: 50)
    let scroller = CAScrollLayer()
    scroller.frame = CGRect(x: 20, y: 10, width: 120, height: 80)
    scroller.backgroundColor = CGColor(gray: 0.9, alpha: 1)
    scroller.borderWidth = 1
    let content = CALayer()
    content.frame = CGRect(x: 0, y: 0, width: 600, height: 400)
    for i in 0..<24 {
      let cell = CALayer()
      cell.frame = CGRect(
        x: CGFloat(i % 6) * 100 + 5, y: CGFloat(i / 6) * 100 + 5, width: 90, height: 90)
      cell.backgroundColor = CGColor(
        red: CGFloat(i % 6) / 5, green: CGFloat(i / 6) / 3, blue: 0.6, alpha: 1)
      cell.cornerRadius = 10
      content.addSublayer(cell)
    }
    scroller.addSublayer(content)
    root.addSublayer(scroller)
    // Cell 15 (column 3, row 2): x 305…395, y 205…295; scrolled as little as needed.
    scroller.scroll(CGRect(x: 305, y: 205, width: 90, height: 90))
    // Taller than the view (90 > 80): its top shows.
    XCTAssertEqual(scroller.bounds.origin, CGPoint(x: 275, y: 205))
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, background: .white)
    try RenderTestSupport.assertMatches(
      image, golden: "reftests/scroll_to_rect.png",
      tolerance: .fuzzy(maxDifference: 2, maxPixels: 0))
  }
}
