import Foundation
import Lamina
import XCTest

@testable import LaminaOutput

/// PNG encoding: one pass of libpng into a buffer of its size bound.
final class PNGFileTests: XCTestCase {
  /// Noise does not compress: the PNG comes closest to the bound there.
  func testIncompressibleRowsFitTheBoundAndComeBackExactly() throws {
    var generator = SystemRandomNumberGenerator()
    for (width, height) in [(1, 1), (3, 5), (301, 199), (1024, 9)] {
      var rgba = [UInt8](repeating: 0, count: width * height * 4)
      for i in rgba.indices { rgba[i] = UInt8.random(in: 0...255, using: &generator) }
      // Straight alpha: opaque pixels decode to exactly what was written.
      for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = 255 }
      let data = try PNGFile.encode(rgba, width: width, height: height, path: "noise.png")
      XCTAssertLessThanOrEqual(data.count, PNGFile.sizeBound(width: width, height: height))
      XCTAssertGreaterThan(data.count, width * height * 3, "noise did not compress")
      let decoded = try CGImage.decode(data: data)
      XCTAssertEqual(decoded.width, width)
      XCTAssertEqual(decoded.height, height)
      XCTAssertEqual(decoded.pixels, rgba, "\(width)×\(height)")
    }
  }

  /// The bound as png.h computes it, by hand for a 2×1 image: 9 bytes of
  /// rows (a filter byte and two pixels), 9 + 2 + 1 + 11 compressed, 117
  /// bytes of signature and chunks.
  func testTheBoundIsPNGImagePNGSizeMax() {
    XCTAssertEqual(PNGFile.sizeBound(width: 2, height: 1), 117 + (9 + 2 + 1 + 11))
  }
}
