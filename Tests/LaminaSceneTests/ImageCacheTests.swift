import Foundation
import Lamina
import LaminaScene
import XCTest

/// The decoded-image cache that scene loads share (`lamina batch`): one
/// decode per file, a byte budget kept by dropping the least recently used,
/// edited files decoded again.
final class ImageCacheTests: XCTestCase {
  var scratch: URL!
  static var images: URL {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/images")
  }

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-images-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    // 64×64 images: 16 KiB decoded each.
    for name in ["checker", "gradient", "alphamask", "alphaquads"] {
      try FileManager.default.copyItem(
        at: Self.images.appendingPathComponent(name + ".png"),
        to: scratch.appendingPathComponent(name + ".png"))
    }
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func file(_ name: String) -> String { scratch.appendingPathComponent(name + ".png").path }

  func scene(_ images: [String]) throws -> URL {
    let entries = images.map { "\"\($0)\": \"\($0).png\"" }.joined(separator: ", ")
    let layers = images.map { "{\"frame\": [0, 0, 8, 8], \"contents\": \"\($0)\"}" }
      .joined(separator: ", ")
    let url = scratch.appendingPathComponent("scene.json")
    try """
    {"lamina": 1, "canvas": {"width": 8, "height": 8}, "images": {\(entries)},
     "root": {"sublayers": [\(layers)]}}
    """.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  func testLoadsShareOneDecodePerFile() throws {
    let cache = ImageCache(budgetBytes: 1 << 20)
    let url = try scene(["checker", "gradient"])
    let first = try SceneLoader.load(contentsOf: url, imageCache: cache)
    let second = try SceneLoader.load(contentsOf: url, imageCache: cache)
    XCTAssertEqual(cache.decodes, 2)
    XCTAssertEqual(cache.hits, 2)
    XCTAssertEqual(cache.count, 2)
    XCTAssertEqual(cache.bytes, 2 * 64 * 64 * 4)
    // The same objects: the renderer's texture cache keys on them, so a
    // second job uploads nothing.
    XCTAssertTrue(first.images["checker"] === second.images["checker"])
    XCTAssertEqual(
      first.images["gradient"]?.pixels, try CGImage.decode(fileAt: file("gradient")).pixels)
    // Without a cache each load decodes its own.
    let own = try SceneLoader.load(contentsOf: url)
    XCTAssertFalse(own.images["checker"] === first.images["checker"])
  }

  func testTheBudgetDropsTheLeastRecentlyUsed() throws {
    // Room for three 16 KiB images.
    let cache = ImageCache(budgetBytes: 3 * 64 * 64 * 4)
    let checker = try cache.image(atPath: file("checker"), maxDimension: 1024)
    _ = try cache.image(atPath: file("gradient"), maxDimension: 1024)
    _ = try cache.image(atPath: file("alphamask"), maxDimension: 1024)
    // checker is used again, so gradient is now the least recently used.
    XCTAssertTrue(try cache.image(atPath: file("checker"), maxDimension: 1024) === checker)
    _ = try cache.image(atPath: file("alphaquads"), maxDimension: 1024)
    XCTAssertEqual(cache.count, 3)
    XCTAssertEqual(cache.bytes, 3 * 64 * 64 * 4)
    XCTAssertEqual(cache.decodes, 4)
    XCTAssertTrue(try cache.image(atPath: file("checker"), maxDimension: 1024) === checker)
    XCTAssertEqual(cache.decodes, 4)
    _ = try cache.image(atPath: file("gradient"), maxDimension: 1024)
    XCTAssertEqual(cache.decodes, 5, "gradient was dropped and is decoded again")
    XCTAssertLessThanOrEqual(cache.bytes, cache.budgetBytes)
  }

  func testAnImageLargerThanTheBudgetIsHandedOutAndNotKept() throws {
    let cache = ImageCache(budgetBytes: 1000)
    let image = try cache.image(atPath: file("checker"), maxDimension: 1024)
    XCTAssertEqual(image.width, 64)
    XCTAssertEqual(cache.count, 0)
    XCTAssertEqual(cache.bytes, 0)
  }

  func testAnEditedFileIsDecodedAgain() throws {
    let cache = ImageCache(budgetBytes: 1 << 20)
    let before = try cache.image(atPath: file("checker"), maxDimension: 1024)
    // Replaced by another image (a new inode, size and time).
    let replacement = scratch.appendingPathComponent("new.png")
    try FileManager.default.copyItem(
      at: Self.images.appendingPathComponent("photo.png"), to: replacement)
    XCTAssertEqual(rename(replacement.path, file("checker")), 0)
    let after = try cache.image(atPath: file("checker"), maxDimension: 1024)
    XCTAssertEqual([after.width, after.height], [160, 120])
    XCTAssertFalse(before === after)
    XCTAssertEqual(cache.count, 1)
    XCTAssertEqual(cache.bytes, 160 * 120 * 4)
  }

  func testErrorsAreTheDecodersAndNotCached() throws {
    let cache = ImageCache(budgetBytes: 1 << 20)
    let url = try scene(["checker"])
    try FileManager.default.removeItem(atPath: file("checker"))
    XCTAssertThrowsError(try SceneLoader.load(contentsOf: url, imageCache: cache)) { error in
      XCTAssertEqual(
        "\(error)",
        "scene.json: images.checker: cannot read 'checker.png': not allowed, missing or unreadable; "
          + FileAccessError.rule)
    }
    XCTAssertEqual(cache.count, 0)
    // Too large for this limit, fine for a larger one: the limit is part of the key.
    try FileManager.default.copyItem(
      at: Self.images.appendingPathComponent("checker.png"),
      to: URL(fileURLWithPath: file("checker")))
    XCTAssertThrowsError(try cache.image(atPath: file("checker"), maxDimension: 32))
    XCTAssertEqual(try cache.image(atPath: file("checker"), maxDimension: 64).width, 64)
  }
}
