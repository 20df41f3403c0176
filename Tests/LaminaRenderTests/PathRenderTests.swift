import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Shape layers drawn by the GPU path renderer: what animating a stroke
/// costs after the first frame, and how close its pixels are to Cairo's.
final class PathRenderTests: XCTestCase {
  private var benchmarkScenes: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("Benchmarks/scenes")
  }

  /// Benchmarks/scenes/shapes.json: 150 shape layers animating strokeEnd
  /// (fills, round and miter joins, dashes). After the first frame a new
  /// strokeEnd uploads no texture, builds no mesh and uploads no mesh: the
  /// trims are evaluated per fragment from instance attributes.
  func testAnimatingStrokeEndOn150ShapesUploadsAndBuildsNothingAfterTheFirstFrame() throws {
    let renderer = try RenderTestSupport.renderer()
    // The GPU path renderer's uploads (on the CPU, the run is one a frame).
    let cpuPaths = renderer.cpuPaths
    renderer.cpuPaths = false
    defer { renderer.cpuPaths = cpuPaths }
    let scene = benchmarkScenes.appendingPathComponent("shapes.json")
    let first = try RenderTestSupport.render(scene, time: 0.1)
    let builds = renderer.caches.paths.builds
    var previous = first.straightPixels
    for time in [0.4, 0.7, 1.0] {
      let image = try RenderTestSupport.render(scene, time: time)
      XCTAssertEqual(renderer.counters.textureUploads, 0, "t=\(time)")
      XCTAssertEqual(renderer.counters.geometryUploads, 0, "t=\(time)")
      XCTAssertEqual(renderer.caches.paths.builds, builds, "t=\(time): no mesh rebuilt")
      // 150 layers, each a fill and a stroke: batched into a few dozen draws.
      XCTAssertLessThan(renderer.counters.drawCalls, 100, "t=\(time)")
      let pixels = image.straightPixels
      XCTAssertNotEqual(pixels, previous, "the strokes moved at t=\(time)")
      previous = pixels
    }
  }

  /// The GPU's shape_strokes (joins, caps, dashes, trims, translucent
  /// self-overlapping strokes) against Cairo's: the same shapes, the
  /// antialiased edge pixels differ (box-filter coverage of the distance
  /// to the edge against Cairo's exact area coverage), and a dash at the
  /// end of a closed dashed ellipse moves by under a pixel (arc lengths of
  /// different flattenings).
  func testStrokesMatchCairoWithinEdgeAntialiasing() throws {
    let scene = RenderTestSupport.fixtures.appendingPathComponent("reftests/shape_strokes.json")
    let gpu = try RenderTestSupport.render(scene, shapesOnGPU: true, cpuPaths: false)
    let cairo = try RenderTestSupport.render(scene, shapesOnGPU: false)
    let comparison = ImageComparison(actual: gpu.straightPixels, expected: cairo.straightPixels)
    XCTAssertLessThan(comparison.fractionOff, 0.02, comparison.summary)
    XCTAssertGreaterThan(comparison.psnr, 36, comparison.summary)
  }

  /// Fill rules: a self-intersecting star and nested rings, nonZero and
  /// evenOdd, against Cairo.
  func testFillRulesMatchCairo() throws {
    let scene = RenderTestSupport.fixtures.appendingPathComponent("reftests/path_fill_rules.json")
    let gpu = try RenderTestSupport.render(scene, shapesOnGPU: true, cpuPaths: false)
    let cairo = try RenderTestSupport.render(scene, shapesOnGPU: false)
    let comparison = ImageComparison(actual: gpu.straightPixels, expected: cairo.straightPixels)
    XCTAssertLessThan(comparison.fractionOff, 0.01, comparison.summary)
    XCTAssertGreaterThan(comparison.psnr, 38, comparison.summary)
  }
}
