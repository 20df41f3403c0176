import Foundation
import Lamina
import LaminaScene
import XCTest

/// Hostile images (made by `scripts/fuzz.py --write-images`): lying headers,
/// bombs, truncated and corrupt files, a progressive JPEG of ~900 scans.
/// Each is refused from its header or by the decoder with a clear error,
/// before pixel memory for a lie is allocated; and images are decoded only
/// when used, once per file, within a budget.
final class ImageLimitTests: XCTestCase {
  static var hostile: URL { SceneFilesTests.fixtures.appendingPathComponent("hostile") }

  func path(_ name: String) -> String { Self.hostile.appendingPathComponent(name).path }

  func decodeError(_ name: String) -> ImageError? {
    do {
      _ = try CGImage.decode(fileAt: path(name))
      XCTFail("\(name) decoded")
      return nil
    } catch let error as ImageError {
      return error
    } catch {
      XCTFail("\(name): \(error)")
      return nil
    }
  }

  func testLyingHeadersAreRefusedFromTheHeader() {
    XCTAssertEqual(
      decodeError("lying-100000.png"),
      .tooLarge(path: path("lying-100000.png"), width: 100000, height: 100000, limit: 16384))
    XCTAssertEqual(
      decodeError("lying-wide.png"),
      .tooLarge(path: path("lying-wide.png"), width: 16385, height: 4, limit: 16384))
    // 16384² is within the side limit but four times the pixel limit (a bomb).
    XCTAssertEqual(
      decodeError("lying-16384.png"),
      .tooManyPixels(
        path: path("lying-16384.png"), width: 16384, height: 16384, limit: 1 << 26))
    XCTAssertEqual(
      decodeError("lying-16384.png")?.description,
      "image '\(path("lying-16384.png"))' is 16384x16384 pixels, more than the limit of 67108864 pixels (maxImagePixels)"
    )
    XCTAssertEqual(
      decodeError("lying-60000.jpg"),
      .tooLarge(path: path("lying-60000.jpg"), width: 60000, height: 60000, limit: 16384))
  }

  func testTruncatedAndCorruptFilesAreCleanErrors() {
    for name in ["short-data.png", "truncated.png", "corrupt.png", "truncated.jpg", "lying-8192.jpg"]
    {
      guard case .corrupt(let p, let reason) = decodeError(name) else {
        XCTFail("\(name) is not reported corrupt")
        continue
      }
      XCTAssertEqual(p, path(name))
      XCTAssertFalse(reason.isEmpty, name)
    }
    // A JPEG cut short is an error, not a gray image.
    if case .corrupt(_, let reason) = decodeError("truncated.jpg") {
      XCTAssertEqual(reason, "Premature end of JPEG file")
    }
    XCTAssertEqual(decodeError("not-an-image.png"), .unknownFormat(path: path("not-an-image.png")))
  }

  func testAProgressiveJPEGOfTooManyScansStopsAtTheLimit() {
    XCTAssertEqual(
      decodeError("scans.jpg"), .tooManyScans(path: path("scans.jpg"), limit: Limits.maxJPEGScans))
    XCTAssertEqual(
      decodeError("scans.jpg")?.description,
      "image '\(path("scans.jpg"))' is a progressive JPEG of more than 100 scans, over the limit (maxJPEGScans)"
    )
  }

  func testAValidJPEGDecodes() throws {
    let image = try CGImage.decode(fileAt: path("small.jpg"))
    XCTAssertEqual(image.width, 24)
    XCTAssertEqual(image.height, 16)
    XCTAssertTrue(image.isOpaque)
    let header = try CGImage.header(of: Data(contentsOf: URL(fileURLWithPath: path("small.jpg"))))
    XCTAssertEqual(header, ImageHeader(format: .jpeg, width: 24, height: 16))
  }

  func testTheCacheDecodesAFileOnceByIdentityAndKeepsItsBudget() throws {
    let cache = ImageCache(budgetBytes: 24 * 16 * 4)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-cache-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let link = folder.appendingPathComponent("link.jpg").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path("small.jpg"))
    let a = try cache.image(atPath: path("small.jpg"))
    let b = try cache.image(atPath: link)
    XCTAssertTrue(a === b, "a link to the same file shares the decode")
    XCTAssertEqual(cache.decodes, 1)
    XCTAssertEqual(cache.bytes, 24 * 16 * 4)
    // A second image does not fit with the first: the least recently used goes.
    let copy = folder.appendingPathComponent("copy.jpg").path
    try FileManager.default.copyItem(atPath: path("small.jpg"), toPath: copy)
    _ = try cache.image(atPath: copy)
    XCTAssertEqual(cache.decodes, 2)
    XCTAssertEqual(cache.count, 1)
    XCTAssertEqual(cache.bytes, 24 * 16 * 4)
    // A caller's admit sees the header first and can refuse before decoding.
    let small = ImageCache(budgetBytes: 1 << 20)
    struct Refused: Error {}
    XCTAssertThrowsError(
      try small.image(atPath: path("small.jpg")) { header in
        XCTAssertEqual(header, ImageHeader(format: .jpeg, width: 24, height: 16))
        throw Refused()
      }
    ) { error in XCTAssertTrue(error is Refused) }
    XCTAssertEqual(small.decodes, 0)
  }

  /// Three entries naming one file, and one unused entry: one decode.
  func testScenesDecodeOnlyUsedImagesOncePerFile() throws {
    let cache = ImageCache()
    let text = """
      {"lamina": 1, "canvas": {"width": 40, "height": 40},
       "images": {"a": "hostile/small.jpg", "b": "hostile/small.jpg", "c": "hostile/../hostile/small.jpg",
                  "unused": "images/photo.png", "broken": "hostile/truncated.png"},
       "root": {"sublayers": [{"contents": "a"}, {"contents": "b"}, {"contents": "c"}]}}
      """
    let scene = try SceneLoader.load(
      data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "scene.json",
      imageCache: cache)
    XCTAssertEqual(cache.decodes, 1)
    XCTAssertEqual(Set(scene.images.keys), ["a", "b", "c"])
    let contents = scene.root.sublayers?.compactMap { $0.contents as? CGImage } ?? []
    XCTAssertEqual(contents.count, 3)
    XCTAssertTrue(contents.allSatisfy { $0 === contents[0] })
    // A second load through the same cache decodes nothing.
    _ = try SceneLoader.load(
      data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "scene.json",
      imageCache: cache)
    XCTAssertEqual(cache.decodes, 1)
  }

  func testAScenePastItsDecodedBudgetFailsAtTheUseThatPassesIt() {
    let text = """
      {"lamina": 1, "canvas": {"width": 40, "height": 40},
       "images": {"jpeg": "hostile/small.jpg", "png": "images/pixels4.png"},
       "root": {"sublayers": [{"contents": "jpeg"}, {"contents": "png"}]}}
      """
    XCTAssertThrowsError(
      try SceneLoader.load(
        data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "scene.json",
        imageCache: ImageCache(budgetBytes: 1 << 20, sceneBudgetBytes: 1536 + 10))
    ) { error in
      XCTAssertTrue(
        "\(error)".hasPrefix(
          "scene.json: root.sublayers[1].contents: bytes of decoded images the scene uses (images.png is "
        ), "\(error)")
      XCTAssertTrue(
        "\(error)".hasSuffix("over the limit of 1546 (maxDecodedImageBytes)"), "\(error)")
    }
  }

  func testHostileImagesInAScene() {
    let cases: [(String, String)] = [
      ("lying-100000.png", "is 100000x100000 pixels, larger than the limit of 16384 on a side"),
      ("scans.jpg", "is a progressive JPEG of more than 100 scans, over the limit (maxJPEGScans)"),
      ("truncated.jpg", "is corrupt: Premature end of JPEG file"),
    ]
    for (file, suffix) in cases {
      let text = """
        {"lamina": 1, "canvas": {"width": 40, "height": 40}, "images": {"bad": "hostile/\(file)"},
         "root": {"sublayers": [{}, {"mask": {"contents": "bad"}}]}}
        """
      XCTAssertThrowsError(
        try SceneLoader.load(
          data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "scene.json")
      ) { error in
        let message = "\(error)"
        XCTAssertTrue(
          message.hasPrefix("scene.json: root.sublayers[1].mask.contents: images.bad: image '"),
          message)
        XCTAssertTrue(message.hasSuffix(suffix), message)
      }
    }
  }
}
