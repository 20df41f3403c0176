import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// A stroke wider than twice a curve's tightest bend folds over itself on
/// the inside of the bend; the GPU's per-segment coverage would draw seams
/// there (the metamorphic finding scale-2 seed 10015: 250/255 on 107
/// pixels), so such strokes are drawn by Cairo, as Core Graphics draws
/// them: one union.
final class PathFoldTests: XCTestCase {
  func testTightestBendOfACircleIsItsRadius() throws {
    let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 60, height: 60), transform: nil)
    let contours = try XCTUnwrap(PathFlattening.contours(circle, tolerance: 0.25))
    let bend = try XCTUnwrap(contours.map(\.tightestBend).min())
    XCTAssertEqual(bend, 30, accuracy: 3)
    // A polyline has no smooth points: its corners are joins.
    let zigzag = CGMutablePath()
    zigzag.move(to: .zero)
    zigzag.addLine(to: CGPoint(x: 10, y: 10))
    zigzag.addLine(to: CGPoint(x: 20, y: 0))
    let lines = try XCTUnwrap(PathFlattening.contours(zigzag, tolerance: 0.25))
    XCTAssertEqual(lines.map(\.tightestBend).min(), .infinity)
  }

  func testAStrokeThatFoldsInsideACurveDrawsAsCairoDrawsIt() throws {
    let scene = """
      {"lamina": 1, "canvas": {"width": 20, "height": 16, "scale": 8, "background": "#ffffff"},
       "root": {"sublayers": [{"class": "CAShapeLayer",
         "path": "M 13.5 2 C 7 7.5 4.5 9 2 8.5 S 8.5 9 11.5 10",
         "strokeColor": "#43c26a", "lineWidth": 6}]}}
      """
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-fold-\(getpid()).json")
    try scene.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let gpu = try RenderTestSupport.render(url)
    let wasOnGPU = FrameBuilder.shapesOnGPUByDefault
    FrameBuilder.shapesOnGPUByDefault = false
    defer { FrameBuilder.shapesOnGPUByDefault = wasOnGPU }
    let cairo = try RenderTestSupport.render(url)
    XCTAssertEqual(gpu.width, 160)
    var worst = 0
    for y in 0..<gpu.height {
      for x in 0..<gpu.width {
        let (p, q) = (gpu.pixel(x, y), cairo.pixel(x, y))
        worst = max(worst, abs(Int(p.g) - Int(q.g)), abs(Int(p.r) - Int(q.r)))
      }
    }
    XCTAssertEqual(worst, 0)
  }

  /// The folding stroke of `testAStrokeThatFoldsInsideACurveDrawsAsCairoDrawsIt`
  /// (at 1 point a pixel) inside a masked layer, over a fill.
  func foldScene(stroked: Bool = true) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 40, height: 32)
    root.position = CGPoint(x: 20, y: 16)
    root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    let holder = CALayer()
    holder.frame = root.bounds
    let fold = CAShapeLayer()
    fold.frame = root.bounds
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 27, y: 4))
    path.addCurve(
      to: CGPoint(x: 4, y: 17), control1: CGPoint(x: 14, y: 15), control2: CGPoint(x: 9, y: 18))
    path.addCurve(
      to: CGPoint(x: 23, y: 20), control1: CGPoint(x: -1, y: 16), control2: CGPoint(x: 17, y: 18))
    fold.path = path
    fold.fillColor = nil
    fold.strokeColor = stroked ? CGColor(red: 0.26, green: 0.76, blue: 0.42, alpha: 1) : nil
    fold.lineWidth = 12
    holder.addSublayer(fold)
    let mask = CAShapeLayer()
    mask.frame = root.bounds
    mask.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 34, height: 26), transform: nil)
    mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.8)
    holder.mask = mask
    root.addSublayer(holder)
    return root
  }

  /// Where paths are drawn on the CPU, a stroke that folds is a path item
  /// Cairo strokes in the frame's pixels (`PathPaint.foldsOnGPU`), not a
  /// bitmap of its layer: its masked layer is drawn whole in the run (no
  /// pass), with the pixels of the layer drawn by Cairo and masked
  /// offscreen.
  func testOnTheCPURouteAFoldingStrokeIsAPathOfTheRun() throws {
    let (cpu, counters) = try RenderTestSupport.renderLayer(foldScene()) { renderer in
      renderer.cpuPaths = true
    }
    XCTAssertEqual(counters.offscreenPasses, 0)
    XCTAssertEqual(counters.cpuPathRuns, 1)
    // The stroke and the mask's fill.
    XCTAssertEqual(counters.cpuPathItems, 2)
    let (drawn, drawnCounters) = try RenderTestSupport.renderLayer(foldScene()) { renderer in
      renderer.cpuPaths = false
    }
    // The layer's bitmap, masked in a pass of its own.
    XCTAssertEqual(drawnCounters.offscreenPasses, 1)
    // The same stroke by Cairo, in the frame's pixels against the layer's
    // bitmap sampled into them: within 24 levels but at a few pixels of
    // its edges (28 at 2 of them).
    let comparison = ImageComparison(
      actual: cpu.straightPixels, expected: drawn.straightPixels, threshold: 24)
    XCTAssertLessThanOrEqual(comparison.pixelsOff, 4, comparison.summary)
    let (without, _) = try RenderTestSupport.renderLayer(foldScene(stroked: false)) { renderer in
      renderer.cpuPaths = true
    }
    let shown = ImageComparison(
      actual: cpu.straightPixels, expected: without.straightPixels, threshold: 8)
    XCTAssertGreaterThan(shown.pixelsOff, 600, "the stroke shows")
  }
}
