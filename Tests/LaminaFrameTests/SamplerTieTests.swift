import Foundation
import Lamina
import XCTest

@testable import LaminaFrame

/// An image drawn at one texel a pixel with different filters for
/// minification and magnification is sampled with the magnification filter
/// alone (`SamplerKey.resolved`): the GPU's choice there is a tie that a
/// float rounding of its derivatives decides.
final class SamplerTieTests: XCTestCase {
  private let mixed = SamplerKey(minification: .linear, magnification: .nearest)

  private func resolved(_ texels: SIMD2<Double>, _ m: CATransform3D) -> SamplerKey {
    mixed.resolved(texelsPerPoint: texels, through: m)
  }

  func testOneTexelAPixelTakesTheMagnificationFilter() {
    let one = SamplerKey(minification: .nearest, magnification: .nearest)
    // A 16-point image of 16 texels, moved by a fraction of a pixel.
    XCTAssertEqual(resolved(SIMD2(1, 1), CATransform3DMakeTranslation(10, 33.625, 0)), one)
    // Turned a quarter: still one texel a pixel along each pixel direction.
    XCTAssertEqual(resolved(SIMD2(1, 1), CATransform3DMakeRotation(.pi / 2, 0, 0, 1)), one)
    // Two texels a point on a layer scaled 2×: one texel a pixel.
    XCTAssertEqual(resolved(SIMD2(2, 2), CATransform3DMakeScale(2, 2, 1)), one)
  }

  func testOtherScalesKeepBothFilters() {
    // Magnified 2×, minified 2×, magnified along x and minified along y
    // (the longer direction decides: minified), in perspective.
    XCTAssertEqual(resolved(SIMD2(1, 1), CATransform3DMakeScale(2, 2, 1)), mixed)
    XCTAssertEqual(resolved(SIMD2(2, 2), CATransform3DIdentity), mixed)
    XCTAssertEqual(resolved(SIMD2(1, 1), CATransform3DMakeScale(2, 0.5, 1)), mixed)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 400.0
    perspective.m14 = 0.001
    XCTAssertEqual(resolved(SIMD2(1, 1), perspective), mixed)
    // Both filters alike: nothing to resolve.
    let linear = SamplerKey(minification: .linear, magnification: .linear)
    XCTAssertEqual(
      linear.resolved(texelsPerPoint: SIMD2(1, 1), through: CATransform3DIdentity), linear)
  }
}
