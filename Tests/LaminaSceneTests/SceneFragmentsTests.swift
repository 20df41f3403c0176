import Foundation
import Lamina
import LaminaScene
import XCTest

/// Pieces of scene JSON decoded for a running scene (the display's control
/// channel): layers found by name or JSON path, values checked as a file's.
final class SceneFragmentsTests: XCTestCase {
  private func scene() throws -> Scene {
    let json = """
      {"lamina": 1, "canvas": {"width": 100, "height": 100},
       "root": {"sublayers": [
         {"name": "a", "mask": {"name": "m"}, "sublayers": [{"name": "b"}, {"name": "dup"}]},
         {"name": "dup", "class": "CATextLayer", "string": "x"}
       ]}}
      """
    return try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "s.json")
  }

  func testLayersAreFoundByJSONPathOrByNameDepthFirst() throws {
    let scene = try scene()
    let a = try XCTUnwrap(scene.root.sublayers?[0])
    XCTAssertTrue(scene.layer(named: "root") === scene.root)
    XCTAssertTrue(scene.layer(named: "root.sublayers[0]") === a)
    XCTAssertTrue(scene.layer(named: "root.sublayers[0].mask") === a.mask)
    XCTAssertEqual(scene.layer(named: "root.sublayers[0].sublayers[1]")?.name, "dup")
    XCTAssertEqual(scene.layer(named: "m")?.name, "m")
    // The first in the tree's order: a's sublayer before root's second.
    XCTAssertTrue(scene.layer(named: "dup") === a.sublayers?[1])
    for missing in ["root.sublayers[2]", "root.sublayers[-1]", "root.sublayers[x]", "root.frob",
      "root.sublayers[1].mask", "nope", ""]
    {
      XCTAssertNil(scene.layer(named: missing), missing)
    }
  }

  func testValuesAreCheckedAsAFilesAre() throws {
    let scene = try scene()
    let fragments = SceneFragments(scene: scene, source: "command")
    let text = try XCTUnwrap(scene.layer(named: "root.sublayers[1]"))
    XCTAssertEqual(
      try fragments.value(.string("3.99"), forKeyPath: "string", of: text, at: "set.value")
        as? String, "3.99")
    XCTAssertEqual(
      try fragments.value(.number(2), forKeyPath: "position.x", of: text, at: "set.value")
        as? CGFloat, 2)
    XCTAssertTrue(SceneFragments.isText("string", of: text))
    XCTAssertFalse(SceneFragments.isText("opacity", of: text))
    XCTAssertEqual(SceneFragments.className(of: text), "CATextLayer")
    XCTAssertThrowsError(
      try fragments.value(.string("x"), forKeyPath: "opacity", of: text, at: "set.value")
    ) {
      XCTAssertEqual("\($0)", "command: set.value: expected a number, found a string")
    }
    XCTAssertThrowsError(
      try fragments.value(.number(1), forKeyPath: "wobble", of: text, at: "set.value")
    ) {
      XCTAssertEqual("\($0)", "command: set.value: unknown key 'wobble' for CATextLayer")
    }
    // An animation added live is removed when it ends, as in Core Animation.
    let animation = try fragments.animation(
      .object([("keyPath", .string("opacity")), ("toValue", .number(0))]), for: text,
      at: "a.animation")
    XCTAssertTrue(animation.isRemovedOnCompletion)
  }
}
