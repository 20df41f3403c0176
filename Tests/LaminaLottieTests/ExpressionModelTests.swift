import Foundation
import LaminaScene
import XCTest

@testable import LaminaLottie

/// The model expressions run over, decoded from a document without running
/// anything (no engine, no renderer).
final class ExpressionModelTests: XCTestCase {
  func model(_ json: String) throws -> ExpressionModel? {
    let root = Node(
      json: try SceneLoader.parseJSON(Data(json.utf8), fileName: "m.json"), path: "", file: "m.json"
    )
    let builder = Builder(
      file: "m.json", options: LottieOptions(), baseDirectory: nil, frameRate: 10, width: 100,
      height: 100)
    for a in try root.child("assets")?.array() ?? [] {
      builder.assets[try a.required("id").string()] = a
    }
    return try builder.expressionModel(
      root: root, inPoint: try root.number("ip", default: 0),
      outPoint: try root.number("op", default: 0))
  }

  func testLayersTreeAndSampling() throws {
    let doc = #"""
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "nm": "Main", "layers": [
        {"ty": 4, "nm": "S", "ind": 5, "parent": 9, "ip": 10, "op": 60, "st": 0,
         "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 20, "s": [20, 40]}], "x": "value"}, "o": {"a": 0, "k": 50}},
         "shapes": [{"ty": "gr", "nm": "G", "ix": 1, "it": [
           {"ty": "rc", "nm": "R", "ix": 1, "s": {"a": 0, "k": [4, 4], "ix": 2}},
           {"ty": "tr", "p": {"a": 0, "k": [0, 0], "ix": 2}}]}]}]}
      """#
    let m = try XCTUnwrap(try model(doc))
    XCTAssertEqual(m.compositions.map(\.name), ["Main"])
    let layer = try XCTUnwrap(m.compositions.first?.layers.first)
    XCTAssertEqual(layer.name, "S")
    XCTAssertEqual(layer.index, 5)
    XCTAssertEqual(layer.parent, 9)
    XCTAssertEqual(
      layer.tree.map(\.matchName), ["ADBE Transform Group", "ADBE Root Vectors Group"])
    XCTAssertEqual(layer.tree.map(\.index), [6, 2])
    let transform = layer.tree[0].children
    XCTAssertEqual(transform.map(\.name), ["Position", "Opacity"])
    XCTAssertEqual(transform.map(\.index), [2, 11])
    // The group holds Contents (2) with the rectangle, and its Transform (3).
    let group = try XCTUnwrap(layer.tree[1].children.first)
    XCTAssertEqual(
      group.children.map(\.matchName), ["ADBE Vectors Group", "ADBE Vector Transform Group"])
    XCTAssertEqual(group.children[0].children.first?.children.map(\.name), ["Size"])
    // The one expression: sampled where the layer is on and the document
    // shown (frames 10 to 30), its keyframed values at every key frame.
    XCTAssertEqual(m.jobs.count, 1)
    let entry = m.properties[m.jobs[0]]
    XCTAssertEqual(entry.property.path, "layers[0].ks.p")
    XCTAssertEqual(entry.expression, "value")
    XCTAssertEqual(entry.from, 10)
    XCTAssertEqual(entry.count, 21)
    XCTAssertEqual(entry.property.value(at: 10), [10, 20])
    let (f0, step, values) = ExpressionModel.samples(entry.property)
    XCTAssertEqual(f0, 0)
    XCTAssertEqual(step, 1)
    XCTAssertEqual(values.count, 21)
    XCTAssertEqual(values[5], [5, 10])
  }

  func testNoExpressionsNoModel() throws {
    let doc =
      #"{"v": "5", "fr": 10, "ip": 0, "op": 30, "w": 10, "h": 10, "layers": [{"ty": 3, "ks": {}}]}"#
    XCTAssertNil(try model(doc))
  }

  /// A composition asset is sampled over the frames its uses show: a use
  /// from 20 to 40 starting at 15 shows its frames 5 to 25; past the
  /// document's out point, nothing.
  func testAssetFramesFromItsUses() throws {
    let doc = #"""
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 100, "w": 100, "h": 100, "assets": [
        {"id": "a", "nm": "Inner", "layers": [{"ty": 3, "nm": "n", "ip": 0, "op": 500, "st": 0,
          "ks": {"o": {"a": 0, "k": 100, "x": "time"}}}]}],
       "layers": [{"ty": 0, "refId": "a", "ip": 20, "op": 40, "st": 15, "ks": {}},
         {"ty": 0, "refId": "a", "ip": 120, "op": 400, "st": 0, "ks": {}}]}
      """#
    let m = try XCTUnwrap(try model(doc))
    XCTAssertEqual(m.compositions.map(\.name), ["Inner"])
    let entry = m.properties[m.jobs[0]]
    XCTAssertEqual(entry.from, 5)
    XCTAssertEqual(entry.count, 21)
    // Nested one level deeper (asset b uses a from its frame 0 to 10,
    // starting at −5): b shows 5 to 25, so a shows 10 to 15.
    let nested = #"""
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 100, "w": 100, "h": 100, "assets": [
        {"id": "a", "nm": "Inner", "layers": [{"ty": 3, "nm": "n", "ip": 0, "op": 500, "st": 0,
          "ks": {"o": {"a": 0, "k": 100, "x": "time"}}}]},
        {"id": "b", "nm": "Middle", "layers": [{"ty": 0, "refId": "a", "ip": 0, "op": 10, "st": -5, "ks": {}}]}],
       "layers": [{"ty": 0, "refId": "b", "ip": 20, "op": 40, "st": 15, "ks": {}}]}
      """#
    let n = try XCTUnwrap(try model(nested))
    let inner = n.properties[n.jobs[0]]
    XCTAssertEqual(inner.from, 10)
    XCTAssertEqual(inner.count, 6)
  }

  /// The program is the library, then the model as one JSON value.
  func testProgramQuotesNamesAndSources() throws {
    XCTAssertEqual(ExpressionModel.string("a\"b\\c\nd\u{2028}"), #""a\"b\\c\nd\u2028""#)
    XCTAssertEqual(ExpressionModel.number(3), "3")
    XCTAssertEqual(ExpressionModel.number(0.5), "0.5")
    XCTAssertEqual(ExpressionModel.number(.nan), "0")
  }
}
