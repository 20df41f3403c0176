import Foundation
import Lamina
import XCTest

@testable import LaminaDraw

/// Blend modes on the CPU (`BlendModePixels`), against values worked out
/// by hand from the W3C formulas (premultiplied words, alpha in the top
/// byte): `Cs·αs·(1−αb) + Cb·αb·(1−αs) + αs·αb·B(Cb, Cs)`, rounded.
final class BlendModePixelsTests: XCTestCase {
  func blend(
    _ backdrop: UInt32, _ source: UInt32, factor: UInt32 = 255, _ mode: BlendModePixels.Mode
  ) -> UInt32 {
    BlendModePixels.blend(backdrop, source, factor: factor, mode: mode)
  }

  func testTheModesIndexTheNamesOfCIFilter() {
    XCTAssertEqual(CIFilter.blendModeNames.count, 15)
    XCTAssertEqual(BlendModePixels.Mode(rawValue: 0), .multiply)
    XCTAssertEqual(CIFilter.blendModeNames[2], "CIOverlayBlendMode")
    XCTAssertEqual(BlendModePixels.Mode(rawValue: 2), .overlay)
    XCTAssertEqual(CIFilter.blendModeNames[14], "CILuminosityBlendMode")
    XCTAssertEqual(BlendModePixels.Mode(rawValue: 14), .luminosity)
    XCTAssertNil(BlendModePixels.Mode(rawValue: 15))
  }

  func testOpaqueMultiplyIsTheProductOfTheColors() {
    // 200·100/255 = 78.4, 100·200/255 = 78.4, 50·255/255 = 50.
    XCTAssertEqual(blend(0xFFC8_6432, 0xFF64_C8FF, .multiply), 0xFF4E_4E32)
  }

  func testScreenOfAHalfTransparentSource() {
    // Source red 0.5 at alpha 128/255 over opaque blue: screen (0.5, 0, 1);
    // red 128/255·0.5·255 = 64, blue (1 − 128/255)·255 + 128 = 255.
    XCTAssertEqual(blend(0xFF00_00FF, 0x8040_0000, .screen), 0xFF40_00FF)
  }

  func testDifferenceOfOpaqueColors() {
    // |255 − 255|, |255 − 0|, |255 − 128|.
    XCTAssertEqual(blend(0xFFFF_FFFF, 0xFFFF_0080, .difference), 0xFF00_FF7F)
  }

  func testOverlayIsHardLightWithTheLayersSwapped() {
    // Backdrop b ≤ 0.5: 2·b·s; above: screen(s, 2b − 1). s = 0.6 (153):
    // b = 0.2: 2·0.2·0.6 = 0.24 → 61.2; b = 0.8: screen(0.6, 0.6) = 0.84 → 214.2.
    XCTAssertEqual(blend(0xFF33_CC00, 0xFF99_9900, .overlay), 0xFF3D_D600)
  }

  func testNothingBehindLeavesTheSourceAtItsFactor() {
    // 128/255 of each channel: 64.25, 32.1, 16.06, 8.03.
    XCTAssertEqual(blend(0, 0x8040_2010, factor: 128, .multiply), 0x4020_1008)
    XCTAssertEqual(blend(0, 0xFF40_2010, .luminosity), 0xFF40_2010)
  }

  func testATransparentSourceLeavesTheBackdrop() {
    XCTAssertEqual(blend(0x8040_2010, 0, .screen), 0x8040_2010)
    XCTAssertEqual(blend(0x8040_2010, 0xFF00_0000, factor: 0, .darken), 0x8040_2010)
  }

  func testLuminosityTakesTheSourcesLuminance() {
    // A gray source of luminance 0.502 (128) over saturated red (luminance
    // 0.3): red plus 0.202, (1.202, 0.202, 0.202), clipped toward the
    // luminance: 0.502 + (c − 0.502)·0.498/0.700 → (1, 0.2885, 0.2885)
    // → 255, 74, 74.
    XCTAssertEqual(blend(0xFFFF_0000, 0xFF80_8080, .luminosity), 0xFFFF_4A4A)
  }
}
