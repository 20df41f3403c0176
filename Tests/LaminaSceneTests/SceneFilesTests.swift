import Foundation
import Lamina
import LaminaScene
import XCTest

/// Every reference scene (copied into Fixtures) and every bench scene loads.
final class SceneFilesTests: XCTestCase {
  static var fixtures: URL {
    Bundle.module.resourceURL!.appendingPathComponent("Fixtures")
  }

  func testReferenceScenesLoad() throws {
    let files = try FileManager.default.contentsOfDirectory(
      at: Self.fixtures, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" }
    XCTAssertGreaterThanOrEqual(files.count, 20)
    for url in files {
      XCTAssertNoThrow(try SceneLoader.load(contentsOf: url), url.lastPathComponent)
    }
  }

  func testBenchScenesLoad() throws {
    // The benchmark scenes the project carries (Benchmarks/scenes, written
    // by Benchmarks/make_scenes.py).
    let packageRoot = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let folder = packageRoot.appendingPathComponent("Benchmarks/scenes")
    let files = try FileManager.default.contentsOfDirectory(
      at: folder, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" && $0.lastPathComponent != "manifest.json" }
    XCTAssertEqual(files.count, 11)
    for url in files {
      XCTAssertNoThrow(try SceneLoader.load(contentsOf: url), url.lastPathComponent)
    }
  }

  func testPagePerspective() throws {
    let scene = try SceneLoader.load(
      contentsOf: Self.fixtures.appendingPathComponent("page_turn_perspective.json"))
    XCTAssertEqual(
      scene.canvas, Canvas(width: 240, height: 160, scale: 1, background: CGColor(hex: "#f0f0f0")))
    XCTAssertEqual(scene.root.bounds, CGRect(x: 0, y: 0, width: 240, height: 160))
    XCTAssertEqual(scene.root.position, CGPoint(x: 120, y: 80))
    XCTAssertEqual(scene.root.sublayerTransform.m34, -1.0 / 500, accuracy: 1e-12)
    let page = try XCTUnwrap(scene.root.sublayers?[1])
    XCTAssertEqual(page.name, "page")
    XCTAssertEqual(page.transform, CATransform3DMakeRotation(0.7853981633974483, 0, 1, 0))
    XCTAssertEqual(page.anchorPoint, CGPoint(x: 0, y: 0.5))
    XCTAssertEqual(page.sublayers?.count, 2)
  }

  func testImagesAreDecoded() throws {
    let scene = try SceneLoader.load(
      contentsOf: Self.fixtures.appendingPathComponent("contents_gravity.json"))
    XCTAssertFalse(scene.images.isEmpty)
    let withContents = scene.root.sublayers?.first { $0.contents != nil }
    XCTAssertNotNil(withContents?.contents as? CGImage)
  }
}
