import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// `isDoubleSided`: a layer turned away hides; a superlayer's
/// `isGeometryFlipped` mirrors the plane without turning anything away.
final class FacingTests: XCTestCase {
  func pixelsDrawn(_ json: String) throws -> Int {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-facing-\(getpid()).json")
    try json.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let image = try RenderTestSupport.render(url)
    var drawn = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x, y).a > 0 { drawn += 1 }
    }
    return drawn
  }

  /// The metamorphic finding alone seed 777644: a single-sided 10 × 10
  /// layer in a geometry-flipped superlayer was hidden when drawn directly
  /// and shown when its superlayer was rasterized.
  func testASingleSidedLayerInAFlippedSuperlayerShows() throws {
    for rasterized in [false, true] {
      for turned in [false, true] {
        let json = """
          {"lamina": 1, "canvas": {"width": 52, "height": 113},
           "root": {"sublayers": [{"frame": [10, 70, 40, 40], "isGeometryFlipped": true,
             "sublayers": [{"shouldRasterize": \(rasterized),
               "sublayers": [{"frame": [0, 0, 10, 10], "isDoubleSided": false,
                 "backgroundColor": "#6905cf"\(turned ? #", "transform": [{"rotate": [3.14159, 0, 1, 0]}]"# : "")}]}]}]}}
          """
        XCTAssertEqual(
          try pixelsDrawn(json), turned ? 0 : 100,
          "rasterized \(rasterized), turned away \(turned)")
      }
    }
  }
}
