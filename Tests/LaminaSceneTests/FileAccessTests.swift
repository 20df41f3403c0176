import Foundation
import Lamina
import XCTest

@testable import LaminaScene

/// Untrusted scenes read only what they may (docs/security.md): image paths
/// confined to the scene's folder unless `FileAccessPolicy` allows more,
/// refused in the same step as the open, with one message whether the file
/// exists or not.
final class FileAccessTests: XCTestCase {
  /// scratch/scene/ holds the scene, scratch/outside/ what it must not read.
  var scratch: URL!
  var folder: URL { scratch.appendingPathComponent("scene") }
  var outside: URL { scratch.appendingPathComponent("outside") }
  static var images: URL {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures/images")
  }
  /// The decoded pixels of the image inside the folder and of the one outside.
  var insidePixels: [UInt8] = []
  var outsidePixels: [UInt8] = []

  override func setUpWithError() throws {
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-access-\(UUID().uuidString)")
    let fm = FileManager.default
    for made in [folder, outside, folder.appendingPathComponent("images")] {
      try fm.createDirectory(at: made, withIntermediateDirectories: true)
    }
    try fm.copyItem(
      at: Self.images.appendingPathComponent("checker.png"),
      to: folder.appendingPathComponent("images/inside.png"))
    try fm.copyItem(
      at: Self.images.appendingPathComponent("alphamask.png"),
      to: outside.appendingPathComponent("secret.png"))
    insidePixels = try CGImage.decode(
      fileAt: folder.appendingPathComponent("images/inside.png").path
    )
    .pixels
    outsidePixels = try CGImage.decode(fileAt: outside.appendingPathComponent("secret.png").path)
      .pixels
    XCTAssertNotEqual(insidePixels, outsidePixels)
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  /// Writes scene.json in the scene folder, its image `x` at `path` shown by
  /// one layer, and loads it.
  @discardableResult
  func load(_ path: String, access: FileAccessPolicy = .confined, cache: ImageCache? = nil) throws
    -> Scene
  {
    try SceneLoader.load(contentsOf: write(path), imageCache: cache, access: access)
  }

  /// Writes scene.json (a new file renamed over the old, as editors do).
  @discardableResult
  func write(_ path: String) throws -> URL {
    let url = folder.appendingPathComponent("scene.json")
    let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [path]), as: UTF8.self)
      .dropFirst().dropLast()
    try """
    {"lamina": 1, "canvas": {"width": 8, "height": 8}, "images": {"x": \(quoted)},
     "root": {"sublayers": [{"frame": [0, 0, 8, 8], "contents": "x"}]}}
    """.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// The message of the error loading `path` throws; fails when it loads
  /// or fails for another reason than file access.
  func refusal(_ path: String, access: FileAccessPolicy = .confined) -> String {
    do {
      try load(path, access: access)
      XCTFail("'\(path)' loaded")
      return ""
    } catch SceneError.fileAccess(let error) {
      return error.description
    } catch {
      XCTFail("'\(path)': \(error)")
      return ""
    }
  }

  func expected(_ path: String) -> String {
    "scene.json: images.x: cannot read '\(path)': not allowed, missing or unreadable; a document"
      + " reads only files in its own folder and below (no absolute paths, no '..' or links"
      + " that lead out, no URLs); pass --assets DIR to allow another folder, or"
      + " --allow-any-path for trusted input"
  }

  // MARK: Allowed

  func testAPathInsideTheFolderLoads() throws {
    XCTAssertEqual(try load("images/inside.png").images["x"]?.pixels, insidePixels)
    XCTAssertEqual(try load("./images/../images/inside.png").images["x"]?.pixels, insidePixels)
    // A link that stays inside the folder is followed (openat2 resolves it
    // beneath the folder).
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("alias").path, withDestinationPath: "images")
    XCTAssertEqual(try load("alias/inside.png").images["x"]?.pixels, insidePixels)
  }

  func testAnAssetsFolderIsAllowed() throws {
    let access = FileAccessPolicy(assetFolders: [outside])
    XCTAssertEqual(
      try load("../outside/secret.png", access: access).images["x"]?.pixels, outsidePixels)
    let absolute = outside.appendingPathComponent("secret.png").path
    XCTAssertEqual(try load(absolute, access: access).images["x"]?.pixels, outsidePixels)
    // Only that folder: its parent is still refused.
    try "x".write(
      to: scratch.appendingPathComponent("other.png"), atomically: true, encoding: .utf8)
    XCTAssertEqual(refusal("../other.png", access: access), expected("../other.png"))
  }

  func testAllowAnyPathReadsAnyPath() throws {
    let absolute = outside.appendingPathComponent("secret.png").path
    XCTAssertEqual(try load(absolute, access: .anyPath).images["x"]?.pixels, outsidePixels)
    XCTAssertEqual(
      try load("../outside/secret.png", access: .anyPath).images["x"]?.pixels, outsidePixels)
    // Missing files still give one message, without the rule.
    XCTAssertEqual(
      refusal("../outside/none.png", access: .anyPath),
      "scene.json: images.x: cannot read '../outside/none.png': missing, unreadable or not a"
        + " regular file")
  }

  // MARK: Refused

  func testAnAbsolutePathIsRefused() throws {
    let absolute = outside.appendingPathComponent("secret.png").path
    XCTAssertEqual(refusal(absolute), expected(absolute))
    // Even one that names a file inside the folder: only an --assets
    // folder (one the operator named) may be named by an absolute path.
    let inside = folder.appendingPathComponent("images/inside.png").path
    XCTAssertEqual(refusal(inside), expected(inside))
    XCTAssertEqual(refusal("/etc/passwd"), expected("/etc/passwd"))
  }

  func testDotDotThatLeavesTheFolderIsRefused() throws {
    for path in [
      "../outside/secret.png", "images/../../outside/secret.png", "../../../../etc/hostname",
    ] {
      XCTAssertEqual(refusal(path), expected(path))
    }
  }

  func testALinkLeadingOutIsRefused() throws {
    let fm = FileManager.default
    try fm.createSymbolicLink(
      atPath: folder.appendingPathComponent("images/leak.png").path,
      withDestinationPath: outside.appendingPathComponent("secret.png").path)
    try fm.createSymbolicLink(
      atPath: folder.appendingPathComponent("up").path, withDestinationPath: "../outside")
    for path in ["images/leak.png", "up/secret.png"] {
      XCTAssertEqual(refusal(path), expected(path))
    }
    // The walk (kernels without openat2) refuses any link on the way.
    var walk = FileAccessPolicy.confined
    walk.resolution = .walk
    for path in ["images/leak.png", "up/secret.png"] {
      XCTAssertEqual(refusal(path, access: walk), expected(path))
    }
    XCTAssertEqual(try load("images/inside.png", access: walk).images["x"]?.pixels, insidePixels)
  }

  func testURLsAreNeverFetched() throws {
    for path in [
      "http://example.com/a.png", "file:///etc/passwd", "https://x/y.png",
      "data:image/png;base64,iVBORw0KGgo=", "file:images/inside.png",
    ] {
      XCTAssertEqual(refusal(path), expected(path))
      XCTAssertEqual(refusal(path, access: .anyPath).hasSuffix("not a regular file"), true, path)
    }
  }

  func testFoldersDevicesAndEmptyPathsAreRefused() throws {
    for path in ["images", "", ".", "images/"] {
      XCTAssertEqual(refusal(path), expected(path))
    }
  }

  /// `lamina show`'s hot reloads read what the first load may: an edit
  /// that names a file outside is reported and the last good scene stays.
  func testHotReloadsAreConfinedToo() throws {
    let url = try write("images/inside.png")
    let watcher = try SceneWatcher(url: url)
    try write("../outside/secret.png")
    guard case .failed(let error) = watcher.poll() else { return XCTFail("the edit loaded") }
    XCTAssertEqual(error.description, expected("../outside/secret.png"))
    XCTAssertEqual(watcher.scene.images["x"]?.pixels, insidePixels)
    // A watcher given the folder reloads it.
    try write("images/inside.png")
    let allowed = try SceneWatcher(url: url, access: FileAccessPolicy(assetFolders: [outside]))
    try write("../outside/secret.png")
    guard case .reloaded(let scene) = allowed.poll() else { return XCTFail("the edit failed") }
    XCTAssertEqual(scene.images["x"]?.pixels, outsidePixels)
  }

  /// No oracle: a refused path gives the same message whether the file it
  /// names exists or not, and so does a missing file inside the folder.
  func testTheMessageIsTheSameForAnExistingAndAMissingFile() throws {
    let escaping = "../outside/secret.png"
    let linked = "images/leak.png"
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent(linked).path,
      withDestinationPath: outside.appendingPathComponent("secret.png").path)
    let absolute = outside.appendingPathComponent("secret.png").path
    let before = [escaping, linked, absolute].map { refusal($0) }
    try FileManager.default.removeItem(at: outside.appendingPathComponent("secret.png"))
    let after = [escaping, linked, absolute].map { refusal($0) }
    XCTAssertEqual(before, after)
    XCTAssertEqual(before, [escaping, linked, absolute].map(expected))
    // A file missing inside the folder reads the same too.
    XCTAssertEqual(refusal("images/none.png"), expected("images/none.png"))
  }

  /// Links swapped between inside and outside while scenes load, many
  /// times: the folder `d` (a link to `real` inside, or to the outside
  /// folder) and the file `real/photo.png` (the inside image, or a link to
  /// the outside one), each swapped atomically by a rename on another
  /// thread. Each load either shows the inside image or is refused; no
  /// pixel of the outside image ever appears (the check and the open are
  /// one step). With openat2 and with the walk.
  func testALinkSwappedDuringTheCheckNeverLeaks() throws {
    let fm = FileManager.default
    let real = folder.appendingPathComponent("real").path
    try fm.createDirectory(atPath: real, withIntermediateDirectories: true)
    try fm.copyItem(
      at: folder.appendingPathComponent("images/inside.png"),
      to: URL(fileURLWithPath: real + "/keep.png"))
    try fm.copyItem(
      at: outside.appendingPathComponent("secret.png"),
      to: outside.appendingPathComponent("photo.png"))
    let link = folder.appendingPathComponent("d").path
    let staging = folder.appendingPathComponent("d.new").path
    let file = real + "/photo.png"
    let fileStaging = real + "/photo.new"
    let away = outside.path
    let (keep, secret) = (real + "/keep.png", away + "/photo.png")
    Glibc.link(keep, file)
    for resolution in [FileAccessPolicy.Resolution.automatic, .walk] {
      var access = FileAccessPolicy.confined
      access.resolution = resolution
      let stop = ManagedAtomicFlag()
      let swapper = Thread {
        var flip = false
        while !stop.isSet {
          flip.toggle()
          // d: a link inside (openat2 follows it, the walk refuses it) or
          // one leading out.
          unlink(staging)
          symlink(flip ? "real" : away, staging)
          rename(staging, link)
          // real/photo.png: the inside image, or a link to the outside one.
          unlink(fileStaging)
          if flip { symlink(secret, fileStaging) } else { Glibc.link(keep, fileStaging) }
          rename(fileStaging, file)
        }
      }
      swapper.start()
      var loaded = 0
      var refused = 0
      let cache = ImageCache(budgetBytes: 1 << 20)
      for path in ["d/photo.png", "real/photo.png"] {
        for _ in 0..<150 {
          do {
            let scene = try load(path, access: access, cache: cache)
            let pixels = scene.images["x"]?.pixels
            XCTAssertFalse(pixels == outsidePixels, "\(resolution) \(path): the outside image")
            XCTAssertTrue(pixels == insidePixels, "\(resolution) \(path): not the inside image")
            loaded += 1
          } catch SceneError.fileAccess(let error) {
            XCTAssertEqual(error.description, expected(path))
            refused += 1
          }
        }
      }
      stop.set()
      while !swapper.isFinished { usleep(1000) }
      XCTAssertEqual(loaded + refused, 300)
      XCTAssertGreaterThan(
        refused, 0, "\(resolution): the outside links were there at times (\(loaded) loaded)")
      XCTAssertGreaterThan(loaded, 0, "\(resolution): the inside ones too (\(refused) refused)")
    }
  }
}

/// A flag one thread sets and another reads.
final class ManagedAtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }
  func set() {
    lock.lock()
    value = true
    lock.unlock()
  }
}
