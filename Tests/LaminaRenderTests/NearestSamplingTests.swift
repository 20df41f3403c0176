import Foundation
import Lamina
@testable import LaminaRender
import XCTest

/// The nearest filter where a pixel's center falls exactly on a boundary
/// between two texels.
final class NearestSamplingTests: XCTestCase {
  /// An image of 64 columns (even ones black, odd ones white) shown 20
  /// points wide with the nearest filter: the centers of pixel columns 2,
  /// 7, 12 and 17 fall exactly on texels 8, 24, 40 and 56 (2.5 × 3.2 = 8),
  /// which the exact coordinate names. Wherever the layer lies in the
  /// target, those columns are black: a tie is not left to the rounding of
  /// the interpolated coordinate, which depends on where the target starts
  /// (metamorphic finding nearest-tie-depends-on-filter-group-origin: an
  /// offscreen filter group starting at another pixel flipped a column).
  func testNearestTiesGoToTheExactTexelWhereverTheTargetStarts() throws {
    var rgba: [UInt8] = []
    for _ in 0..<2 {
      for x in 0..<64 {
        let v: UInt8 = x % 2 == 0 ? 0 : 255
        rgba += [v, v, v, 255]
      }
    }
    let image = CGImage(width: 64, height: 2, rgba: rgba)
    var flipped: [String] = []
    for offset in 0..<32 {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 56, height: 4)
      root.position = CGPoint(x: 28, y: 2)
      let layer = CALayer()
      layer.frame = CGRect(x: CGFloat(offset), y: 1, width: 20, height: 2)
      layer.contents = image
      layer.minificationFilter = .nearest
      layer.magnificationFilter = .nearest
      root.addSublayer(layer)
      let rendered = try RenderTestSupport.renderer().render(
        layer: root, size: root.bounds.size, background: .white)
      for column in [2, 7, 12, 17] where rendered.pixel(offset + column, 1).r != 0 {
        flipped.append("layer at \(offset), column \(column)")
      }
    }
    XCTAssertEqual(
      flipped.count, 0, "a tie went to the texel before the exact one: \(flipped.prefix(4)), …")
  }
}
