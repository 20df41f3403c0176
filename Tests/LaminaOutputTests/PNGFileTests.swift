import Foundation
import Lamina
import XCTest

@testable import LaminaOutput

/// PNG encoding with libspng at each compression: the pixels come back
/// exactly, and a harder compression writes no larger a file.
final class PNGFileTests: XCTestCase {
  /// Noise (opaque, so straight alpha decodes to exactly what was written)
  /// at odd sizes, through every compression.
  func testRowsComeBackExactlyAtEveryCompression() throws {
    var generator = SystemRandomNumberGenerator()
    for (width, height) in [(1, 1), (3, 5), (301, 199), (1024, 9)] {
      var rgba = [UInt8](repeating: 0, count: width * height * 4)
      for i in rgba.indices { rgba[i] = UInt8.random(in: 0...255, using: &generator) }
      for i in stride(from: 3, to: rgba.count, by: 4) { rgba[i] = 255 }
      for compression in PNGCompression.allCases {
        let data = try PNGFile.encode(
          rgba, width: width, height: height, path: "noise.png", compression: compression)
        let decoded = try CGImage.decode(data: data)
        XCTAssertEqual(decoded.width, width)
        XCTAssertEqual(decoded.height, height)
        XCTAssertEqual(decoded.pixels, rgba, "\(width)×\(height), \(compression)")
      }
    }
  }

  /// A smooth image with translucent pixels: every compression gives the
  /// same pixels; `best` is no larger than `default`, `default` no larger
  /// than `fast`, and `fast` still compresses (a tenth of the raw size).
  func testHarderCompressionWritesNoLargerFiles() throws {
    let (width, height) = (256, 128)
    var rgba: [UInt8] = []
    for y in 0..<height {
      for x in 0..<width {
        rgba += [UInt8(x), UInt8(y * 2), UInt8((x + y) / 2), UInt8(128 + x / 2)]
      }
    }
    var sizes: [PNGCompression: Int] = [:]
    for compression in PNGCompression.allCases {
      let data = try PNGFile.encode(
        rgba, width: width, height: height, path: "ramp.png", compression: compression)
      XCTAssertEqual(try CGImage.decode(data: data).pixels, rgba, "\(compression)")
      sizes[compression] = data.count
    }
    let (fast, normal, best) = (sizes[.fast]!, sizes[.default]!, sizes[.best]!)
    XCTAssertLessThanOrEqual(best, normal)
    XCTAssertLessThanOrEqual(normal, fast)
    XCTAssertLessThan(fast, width * height * 4 / 10, "sizes \(sizes)")
  }

  /// An image whose pixel count does not match its size is refused with
  /// the file's name, not encoded from memory past its end.
  func testAMismatchedBufferIsRefused() {
    XCTAssertThrowsError(
      try PNGFile.encode([UInt8](repeating: 0, count: 12), width: 2, height: 2, path: "short.png")
    ) { error in
      XCTAssertTrue("\(error)".contains("short.png"), "\(error)")
    }
  }
}
