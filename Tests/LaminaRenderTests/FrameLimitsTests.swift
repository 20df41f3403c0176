import Foundation
import Lamina
import LaminaRender
import LaminaScene
import XCTest

/// The frame limits are far above what real scenes ask: the benchmark
/// scenes with offscreen passes and filters (the others have none; grid,
/// text and particles have 10,000, 8,000 and 3,000 items), at their own
/// size and at a time where everything moves, use at most a quarter of each
/// limit (the totals are printed for the record).
final class FrameLimitsTests: XCTestCase {
  func testBenchmarkScenesStayWellInsideTheFrameLimits() throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Benchmarks/scenes")
    for name in ["blur.json", "cards.json", "kiosk.json", "masks.json"] {
      let scene = try SceneLoader.load(contentsOf: folder.appendingPathComponent(name))
      scene.root.layoutIfNeeded()
      let root = PresentationTree(root: scene.root).update(time: 10)
      try scene.checkLimits(root, time: 10)
      var builder = FrameBuilder(
        size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
        scale: scene.canvas.scale)
      builder.time = 10
      let frame = builder.build(root: root, background: scene.canvas.background)
      let (totals, _) = FrameLimits.totals(frame)
      print(
        "\(name): \(totals.passes) passes, \(totals.pixels) offscreen px, \(totals.filtered) filtered px, \(totals.items) items"
      )
      XCTAssertLessThanOrEqual(totals.passes * 4, Limits.maxOffscreenPasses, name)
      XCTAssertLessThanOrEqual(totals.pixels * 4, Limits.maxOffscreenPixels, name)
      XCTAssertLessThanOrEqual(totals.filtered * 4, Limits.maxFilteredPixels, name)
      XCTAssertLessThanOrEqual(totals.items * 4, Limits.maxDrawItems, name)
      XCTAssertNoThrow(try FrameLimits.check(frame), name)
    }
  }
}
