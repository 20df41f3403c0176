import Foundation
import Lamina
import LaminaScene
import XCTest

/// WebP images through libwebp, as iOS decodes them: lossy, lossless and
/// with alpha, for `CGImage` and for scene images, within the limits of the
/// other codecs. The fixtures are 16×16 quadrants (red, green / blue, white
/// at alpha 128) made with `cwebp` (`-lossless`; `-q 90`; `-q 90 -alpha_q 100`);
/// the hostile ones are cut or patched copies of them (a VP8L header saying
/// 16384×16384, the animation flag set in a VP8X header, a RIFF of noise),
/// written by `scripts/fuzz.py --write-images` with the other hostile images.
final class WebPImageTests: XCTestCase {
  static var fixtures: URL { SceneFilesTests.fixtures }

  func image(_ name: String) throws -> CGImage {
    try CGImage.decode(fileAt: Self.fixtures.appendingPathComponent("images/\(name)").path)
  }

  /// The RGBA of the pixel at (x, y).
  func pixel(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
    let i = (y * image.width + x) * 4
    return image.pixels[i..<i + 4].map { Int($0) }
  }

  func assertNear(
    _ got: [Int], _ expected: [Int], _ tolerance: Int, _ what: String, line: UInt = #line
  ) {
    let off = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
    XCTAssertLessThanOrEqual(off, tolerance, "\(what): \(got) for \(expected)", line: line)
  }

  func testLosslessWithAlphaDecodesExactly() throws {
    let quads = try image("quads-lossless-alpha.webp")
    XCTAssertEqual(quads.width, 16)
    XCTAssertEqual(quads.height, 16)
    XCTAssertFalse(quads.isOpaque)
    XCTAssertEqual(pixel(quads, 4, 4), [255, 0, 0, 255])
    XCTAssertEqual(pixel(quads, 12, 4), [0, 255, 0, 255])
    XCTAssertEqual(pixel(quads, 4, 12), [0, 0, 255, 255])
    XCTAssertEqual(pixel(quads, 12, 12), [255, 255, 255, 128])
  }

  func testLossyDecodesCloseToTheSource() throws {
    let quads = try image("quads-lossy.webp")
    XCTAssertEqual(quads.width, 16)
    XCTAssertTrue(quads.isOpaque)
    assertNear(pixel(quads, 3, 3), [255, 0, 0, 255], 24, "red")
    assertNear(pixel(quads, 12, 3), [0, 255, 0, 255], 24, "green")
    assertNear(pixel(quads, 3, 12), [0, 0, 255, 255], 24, "blue")
    assertNear(pixel(quads, 12, 12), [255, 255, 255, 255], 24, "white")
  }

  func testLossyWithAlpha() throws {
    let quads = try image("quads-lossy-alpha.webp")
    XCTAssertFalse(quads.isOpaque)
    assertNear(pixel(quads, 3, 3), [255, 0, 0, 255], 24, "red")
    // The alpha plane is lossless (alpha_q 100).
    XCTAssertEqual(pixel(quads, 12, 12)[3], 128)
    XCTAssertEqual(pixel(quads, 3, 12)[3], 255)
  }

  func testTheHeaderIsReadAndCheckedBeforeDecoding() throws {
    let path = Self.fixtures.appendingPathComponent("images/quads-lossy.webp").path
    let data = try CGImage.readImageFile(atPath: path)
    XCTAssertEqual(
      try CGImage.header(of: data, path: path), ImageHeader(format: .webp, width: 16, height: 16))
    XCTAssertThrowsError(try CGImage.decode(data: data, path: path, maxDimension: 8)) { error in
      XCTAssertEqual(
        error as? ImageError, .tooLarge(path: path, width: 16, height: 16, limit: 8))
    }
  }

  func hostile(_ name: String) -> (String, ImageError?) {
    let path = Self.fixtures.appendingPathComponent("hostile/\(name)").path
    do {
      _ = try CGImage.decode(fileAt: path)
      XCTFail("\(name) decoded")
      return (path, nil)
    } catch {
      return (path, error as? ImageError)
    }
  }

  func testHostileWebPFilesAreRefused() {
    // A header that lies about its size is refused from the header.
    let (lying, error) = hostile("lying-16384.webp")
    XCTAssertEqual(
      error, .tooManyPixels(path: lying, width: 16384, height: 16384, limit: Limits.maxImagePixels))
    let reasons = [
      "truncated.webp": "libwebp cannot decode it (truncated or damaged)",
      "short.webp": "truncated WebP",
      "garbage.webp": "a damaged WebP bitstream",
      "animated.webp": "an animated WebP (only still images are read)",
    ]
    for (name, reason) in reasons.sorted(by: { $0.key < $1.key }) {
      let (path, error) = hostile(name)
      XCTAssertEqual(error, .corrupt(path: path, reason: reason), name)
      XCTAssertEqual(
        error?.description, "image '\(path)' is corrupt: \(reason)", name)
    }
  }

  func testSceneImagesInWebP() throws {
    let text = """
      {"lamina": 1, "canvas": {"width": 32, "height": 16},
       "images": {"lossless": "images/quads-lossless-alpha.webp", "lossy": "images/quads-lossy.webp"},
       "root": {"sublayers": [{"frame": [0, 0, 16, 16], "contents": "lossless"},
                              {"frame": [16, 0, 16, 16], "contents": "lossy"}]}}
      """
    let cache = ImageCache(budgetBytes: 1 << 20)
    let scene = try SceneLoader.load(
      data: Data(text.utf8), baseURL: Self.fixtures, fileName: "scene.json", imageCache: cache)
    let contents = scene.root.sublayers?.compactMap { $0.contents as? CGImage } ?? []
    XCTAssertEqual(contents.count, 2)
    XCTAssertEqual(contents.first.map { pixel($0, 12, 12) }, [255, 255, 255, 128])
    XCTAssertEqual(cache.decodes, 2)
    XCTAssertEqual(cache.bytes, 2 * 16 * 16 * 4)
    // A hostile WebP in a scene fails with the file named, as a hostile PNG does.
    let bad = """
      {"lamina": 1, "canvas": {"width": 8, "height": 8}, "images": {"bad": "hostile/lying-16384.webp"},
       "root": {"sublayers": [{"contents": "bad"}]}}
      """
    XCTAssertThrowsError(
      try SceneLoader.load(data: Data(bad.utf8), baseURL: Self.fixtures, fileName: "scene.json")
    ) { error in
      XCTAssertTrue(
        "\(error)".hasSuffix(
          "is 16384x16384 pixels, more than the limit of 67108864 pixels (maxImagePixels)"),
        "\(error)")
      XCTAssertTrue("\(error)".contains("lying-16384.webp"), "\(error)")
    }
  }
}
