import Foundation
import Lamina
import XCTest

@testable import LaminaScene

/// The decoder decodes each value as a typed `LayerValue` and sets it on
/// the layer through the property's description (issue 29): no `Any` from
/// JSON to the layer.
final class SceneTypedValuesTests: XCTestCase {
  func decoder() -> SceneDecoder {
    SceneDecoder(file: "test.json", baseURL: nil, maxImageDimension: 4096)
  }

  func decode(_ text: String, _ kind: CAValueKind) throws -> LayerValue {
    let json = try JSONParser.parse(Data(text.utf8))
    return try decoder().value(json, kind: kind, at: "v")
  }

  func load(_ layer: String) throws -> CALayer {
    let text =
      ##"{"lamina": 1, "canvas": {"width": 100, "height": 50}, "root": {"sublayers": [\##(layer)]}}"##
    let scene = try SceneLoader.load(data: Data(text.utf8), baseURL: nil, fileName: "test.json")
    return try XCTUnwrap(scene.root.sublayers?.first)
  }

  /// Each kind decodes to its own case.
  func testEachKindDecodesToItsCase() throws {
    guard case .color(let red) = try decode(##""#ff0000""##, .color) else {
      return XCTFail("not a color")
    }
    XCTAssertEqual(red, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    guard case .none = try decode("null", .color) else { return XCTFail("null color") }
    guard case .integer(3) = try decode("3", .integer) else { return XCTFail("not an integer") }
    guard case .number(2.5) = try decode("2.5", .number) else { return XCTFail("not a number") }
    guard case .bool(true) = try decode("true", .bool) else { return XCTFail("not a bool") }
    guard case .point(CGPoint(x: 1, y: 2)) = try decode("[1, 2]", .point) else {
      return XCTFail("not a point")
    }
    guard case .size(CGSize(width: 3, height: 4)) = try decode("[3, 4]", .size) else {
      return XCTFail("not a size")
    }
    guard case .rect(CGRect(x: 1, y: 2, width: 3, height: 4)) = try decode("[1, 2, 3, 4]", .rect)
    else { return XCTFail("not a rect") }
    guard case .transform(let t) = try decode(##"[{"scale": [2, 3, 1]}]"##, .transform) else {
      return XCTFail("not a transform")
    }
    XCTAssertEqual(t, CATransform3DMakeScale(2, 3, 1))
    guard case .path(let path) = try decode(##""M0 0 L10 0 L10 5 Z""##, .path) else {
      return XCTFail("not a path")
    }
    XCTAssertEqual(path.elements.count, 4)
    guard case .colors(let colors) = try decode(##"["#ff0000", [0, 0, 1, 1]]"##, .colors) else {
      return XCTFail("not colors")
    }
    XCTAssertEqual(
      colors,
      [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
    guard case .numbers([0, 0.5, 1]) = try decode("[0, 0.5, 1]", .numbers) else {
      return XCTFail("not numbers")
    }
    guard case .cornerMask(let mask) = try decode(##"["minXMinY", "maxXMaxY"]"##, .cornerMask)
    else { return XCTFail("not a corner mask") }
    XCTAssertEqual(mask, [.layerMinXMinYCorner, .layerMaxXMaxYCorner])
    guard case .string("round") = try decode(##""round""##, .enumeration(["butt", "round"])) else {
      return XCTFail("not an enumeration")
    }
    guard case .filters(let filters) = try decode(##"[{"name": "CIGaussianBlur"}]"##, .filters)
    else { return XCTFail("not filters") }
    XCTAssertEqual(filters.map(\.filterName), ["CIGaussianBlur"])
    guard case .emitterCells(let cells) = try decode(##"[{"birthRate": 5}]"##, .emitterCells)
    else { return XCTFail("not cells") }
    XCTAssertEqual(cells.first?.birthRate, 5)
  }

  /// Values decoded from JSON land on the layer typed: the property holds
  /// them with its own Swift type, and reads back as the same case.
  func testDecodedValuesLandOnTheLayerTyped() throws {
    let shape = try XCTUnwrap(
      load(
        ##"{"class": "CAShapeLayer", "path": "M0 0 L10 0 L10 5 Z", "fillColor": "#00ff00", "lineDashPattern": [2, 3], "lineCap": "round", "transform": [{"translate": [5, 6, 0]}], "isHidden": true, "maskedCorners": ["maxXMaxY"]}"##
      ) as? CAShapeLayer)
    XCTAssertEqual(shape.path?.elements.count, 4)
    XCTAssertEqual(shape.fillColor, CGColor(red: 0, green: 1, blue: 0, alpha: 1))
    XCTAssertEqual(shape.lineDashPattern, [2, 3])
    XCTAssertEqual(shape.lineCap, .round)
    XCTAssertEqual(shape.transform, CATransform3DMakeTranslation(5, 6, 0))
    XCTAssertTrue(shape.isHidden)
    XCTAssertEqual(shape.maskedCorners, .layerMaxXMaxYCorner)
    guard case .color(let fill)? = shape.layerValue(forKeyPath: "fillColor") else {
      return XCTFail("fillColor")
    }
    XCTAssertEqual(fill, shape.fillColor)
    guard case .path(let path)? = shape.layerValue(forKeyPath: "path") else {
      return XCTFail("path")
    }
    XCTAssertTrue(path === shape.path)
    guard case .transform? = shape.layerValue(forKeyPath: "transform") else {
      return XCTFail("transform")
    }
    guard case .bool(true)? = shape.layerValue(forKeyPath: "isHidden") else {
      return XCTFail("isHidden")
    }

    let replicator = try XCTUnwrap(
      load(##"{"class": "CAReplicatorLayer", "instanceCount": 4, "instanceColor": null}"##)
        as? CAReplicatorLayer)
    XCTAssertEqual(replicator.instanceCount, 4)
    XCTAssertNil(replicator.instanceColor)
    guard case .integer(4)? = replicator.layerValue(forKeyPath: "instanceCount") else {
      return XCTFail("instanceCount")
    }

    let gradient = try XCTUnwrap(
      load(
        ##"{"class": "CAGradientLayer", "colors": ["#ff0000", "#0000ff"], "locations": [0, 1]}"##)
        as? CAGradientLayer)
    XCTAssertEqual(
      gradient.colors as? [CGColor],
      [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
    XCTAssertEqual(gradient.locations, [0, 1])
    guard case .colors(let colors)? = gradient.layerValue(forKeyPath: "colors") else {
      return XCTFail("colors")
    }
    XCTAssertEqual(colors.count, 2)

    let emitter = try XCTUnwrap(
      load(
        ##"{"class": "CAEmitterLayer", "seed": 4000000000, "emitterCells": [{"name": "a", "birthRate": 5, "color": "#ff0000"}]}"##
      ) as? CAEmitterLayer)
    XCTAssertEqual(emitter.seed, 4_000_000_000)
    XCTAssertEqual(emitter.emitterCells?.first?.birthRate, 5)
    XCTAssertEqual(emitter.emitterCells?.first?.color, CGColor(red: 1, green: 0, blue: 0, alpha: 1))

    let keyed = try load(
      ##"{"position.x": 7, "transform.rotation.z": 0.5, "bounds.size": [3, 4]}"##)
    XCTAssertEqual(keyed.position.x, 7)
    XCTAssertEqual(keyed.bounds.size, CGSize(width: 3, height: 4))
    XCTAssertEqual(keyed.transform, CATransform3DMakeRotation(0.5, 0, 0, 1))
  }

  /// Animation values keep the types animations held before (`CGFloat`
  /// numbers, the corner mask), and the evaluator reads them back into the
  /// same `LayerValue`s the layer's properties give.
  func testAnimationValues() throws {
    let layer = try load(
      ##"{"animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1}, {"keyPath": "maskedCorners", "toValue": ["minXMinY"]}, {"class": "CAKeyframeAnimation", "keyPath": "backgroundColor", "values": ["#ff0000", "#0000ff"]}]}"##
    )
    let animations = (layer.animationKeys() ?? []).compactMap { layer.animation(forKey: $0) }
    XCTAssertEqual(animations.count, 3)
    let fade = try XCTUnwrap(animations[0] as? CABasicAnimation)
    XCTAssertEqual(fade.fromValue as? CGFloat, 0)
    XCTAssertEqual(fade.toValue as? CGFloat, 1)
    let corners = try XCTUnwrap(animations[1] as? CABasicAnimation)
    XCTAssertEqual(corners.toValue as? CACornerMask, .layerMinXMinYCorner)
    let colors = try XCTUnwrap(animations[2] as? CAKeyframeAnimation)
    XCTAssertEqual(
      colors.values as? [CGColor],
      [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
  }
}
