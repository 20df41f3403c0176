import Foundation
import Lamina
import XCTest

@testable import LaminaDraw

/// Shapes drawn on the CPU with Cairo (no GL): where the bitmap goes, its
/// size at a scale, and what its pixels hold.
final class ShapeRasterizerTests: XCTestCase {
  func shape(_ path: CGPath, fill: CGColor? = .black, stroke: CGColor? = nil, width: CGFloat = 0)
    -> ShapeStyle
  {
    let layer = CAShapeLayer()
    layer.path = path
    layer.fillColor = fill
    layer.strokeColor = stroke
    layer.lineWidth = width
    guard let style = ShapeStyle(layer) else { fatalError("a shape with a path has a style") }
    return style
  }

  /// Straight RGBA of pixel (x, y).
  func pixel(_ raster: Raster, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * raster.image.width + x) * 4
    return Array(raster.image.pixels[i..<i + 4])
  }

  func testARectFillsItsPixelsAndNothingAround() throws {
    let style = shape(CGPath(rect: CGRect(x: 10, y: 20, width: 30, height: 10), transform: nil))
    let raster = try XCTUnwrap(ShapeRasterizer.rasterize(style, scale: 2))
    // At 2 pixels a point the 30×10 rect is 60×20 pixels, and the bitmap holds it.
    XCTAssertGreaterThanOrEqual(raster.image.width, 60)
    XCTAssertGreaterThanOrEqual(raster.image.height, 20)
    XCTAssertLessThanOrEqual(raster.rect.minX, 10)
    XCTAssertGreaterThanOrEqual(raster.rect.maxX, 40)
    // The rect's middle is opaque black; its pixel count is its area.
    let cx = Int((25 - raster.rect.minX) * 2)
    let cy = Int((25 - raster.rect.minY) * 2)
    XCTAssertEqual(pixel(raster, cx, cy), [0, 0, 0, 255])
    var covered = 0
    for y in 0..<raster.image.height {
      for x in 0..<raster.image.width where pixel(raster, x, y)[3] > 127 { covered += 1 }
    }
    XCTAssertEqual(covered, 60 * 20)
  }

  func testAStrokedCircleIsARingWithAnEmptyMiddle() throws {
    let circle = CGPath(
      ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
    let style = shape(circle, fill: nil, stroke: .black, width: 4)
    let raster = try XCTUnwrap(ShapeRasterizer.rasterize(style, scale: 1))
    // The stroke reaches 2 points beyond the circle on each side.
    XCTAssertEqual(raster.rect.minX, -2, accuracy: 1)
    XCTAssertEqual(raster.rect.maxX, 42, accuracy: 1)
    let center = (Int(20 - raster.rect.minX), Int(20 - raster.rect.minY))
    XCTAssertEqual(pixel(raster, center.0, center.1)[3], 0, "the middle is empty")
    // On the circle, at its rightmost point, the stroke is opaque.
    XCTAssertEqual(pixel(raster, Int(40 - raster.rect.minX), center.1)[3], 255)
  }

  func testAnEmptyPathCoversNothing() {
    let style = shape(CGPath(rect: .zero, transform: nil))
    XCTAssertNil(ShapeRasterizer.rasterize(style, scale: 1))
  }
}
