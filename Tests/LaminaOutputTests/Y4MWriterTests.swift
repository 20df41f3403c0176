import Foundation
@testable import LaminaFrame
@testable import LaminaOutput
import XCTest

/// The YUV4MPEG2 encoder, without the command: header fields and each
/// plane's bytes for known colors (BT.601 limited range, over black).
final class Y4MWriterTests: XCTestCase {
  func testHeaderNamesSizeRateAndRange() {
    let writer = Y4MWriter(width: 3, height: 2)
    XCTAssertEqual(
      String(decoding: writer.header(fps: 30000.0 / 1001), as: UTF8.self),
      "YUV4MPEG2 W3 H2 F30000:1001 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
    XCTAssertEqual(
      String(decoding: writer.header(fps: 29.97), as: UTF8.self),
      "YUV4MPEG2 W3 H2 F29970:1000 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
    XCTAssertEqual(
      String(decoding: writer.header(fps: 60), as: UTF8.self),
      "YUV4MPEG2 W3 H2 F60:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n")
  }

  /// `count` pixels of one premultiplied RGBA color.
  private func image(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> RenderedImage {
    RenderedImage(
      width: width, height: height,
      premultipliedPixels: Array((0..<(width * height)).map { _ in rgba }.joined()))
  }

  func testWhiteBlackAndRedPlanes() {
    let writer = Y4MWriter(width: 2, height: 2)
    let white = [UInt8](writer.frame(image(2, 2, [255, 255, 255, 255])))
    XCTAssertEqual(Array(white.prefix(6)), Array("FRAME\n".utf8))
    XCTAssertEqual(Array(white.dropFirst(6)), [235, 235, 235, 235, 128, 128])
    // Transparent is black: video has no alpha.
    let clear = [UInt8](writer.frame(image(2, 2, [0, 0, 0, 0])))
    XCTAssertEqual(Array(clear.dropFirst(6)), [16, 16, 16, 16, 128, 128])
    // Y = 16 + 65.481 = 81.5 → 81 (the fixed point rounds 81.48);
    // Cb = 128 − 37.797 → 90, Cr = 128 + 112 = 240.
    let red = [UInt8](writer.frame(image(2, 2, [255, 0, 0, 255])))
    XCTAssertEqual(Array(red.dropFirst(6)), [81, 81, 81, 81, 90, 240])
  }

  func testOddSizesRoundTheChromaPlanesUp() {
    let writer = Y4MWriter(width: 3, height: 3)
    let frame = writer.frame(image(3, 3, [255, 255, 255, 255]))
    // 6 bytes "FRAME\n", 9 luma, 2 × (2 × 2) chroma.
    XCTAssertEqual(frame.count, 6 + 9 + 8)
    // The last column's chroma block averages the one column it has.
    var pixels = [UInt8](repeating: 255, count: 3 * 3 * 4)
    for y in 0..<3 {
      let i = (y * 3 + 2) * 4
      pixels.replaceSubrange(i..<(i + 4), with: [255, 0, 0, 255])
    }
    let mixed = [UInt8](
      writer.frame(RenderedImage(width: 3, height: 3, premultipliedPixels: pixels)))
    let u = Array(mixed[15..<19])
    let v = Array(mixed[19..<23])
    XCTAssertEqual(u, [128, 90, 128, 90])
    XCTAssertEqual(v, [128, 240, 128, 240])
  }
}
