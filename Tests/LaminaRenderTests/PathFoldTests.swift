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
}
