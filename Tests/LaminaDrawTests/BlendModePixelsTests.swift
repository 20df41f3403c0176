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

  /// A color filter from a file whose coefficients overflow (a row of the
  /// largest floats, two of each sign: infinity minus infinity) gives
  /// bytes, not a trap (the clamp takes NaN to a bound before the bytes are
  /// made); an ordinary one filters as colormatrix.frag does.
  func testColorFiltersOfHugeCoefficientsGiveBytes() {
    let big = Float.greatestFiniteMagnitude
    var huge = [Float](repeating: 0, count: 16)
    (huge[0], huge[1], huge[2], huge[3], huge[15]) = (big, big, -big, -big, 1)
    var words: [UInt32] = [0xFFFF_FFFF, 0]
    words.withUnsafeMutableBufferPointer {
      PathRunRasterizer.ColorFilter(matrix: huge, bias: .zero).apply($0.baseAddress!, count: 2)
    }
    // Red is NaN or an infinity (the sum's order): 0 or 255; green and
    // blue rows are 0; alpha kept; a transparent pixel stays so.
    XCTAssertTrue(words[0] == 0xFF00_0000 || words[0] == 0xFFFF_0000, String(words[0], radix: 16))
    XCTAssertEqual(words[1], 0)
    // Inverting: 1 − straight color, premultiplied again.
    var invert = [Float](repeating: 0, count: 16)
    (invert[0], invert[5], invert[10], invert[15]) = (-1, -1, -1, 1)
    var pixel: [UInt32] = [0x8040_2010]
    pixel.withUnsafeMutableBufferPointer {
      PathRunRasterizer.ColorFilter(matrix: invert, bias: SIMD4(1, 1, 1, 0)).apply(
        $0.baseAddress!, count: 1)
    }
    // Straight (0.502, 0.251, 0.125) → (0.498, 0.749, 0.875) × 0.502:
    // 63.7, 95.8, 112.0.
    XCTAssertEqual(pixel, [0x8040_6070])
  }
}
