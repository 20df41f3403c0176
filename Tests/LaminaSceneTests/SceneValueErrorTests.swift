import Foundation
import Lamina
import LaminaScene
import XCTest

/// The decoder's errors for every kind of value, its ranges and its key
/// paths, as they were before values became typed (issue 29: the messages
/// were recorded from main at 1491281, whose decoder returned `Any`).
final class SceneValueErrorTests: XCTestCase {
  func layer(_ keys: String) -> String {
    ##"{"lamina": 1, "canvas": {"width": 100, "height": 50}, "root": {"sublayers": [\##(keys)]}}"##
  }

  func animation(_ keys: String, on layerKeys: String = "") -> String {
    layer(##"{\##(layerKeys)"animations": [\##(keys)]}"##)
  }

  /// JSON of a layer's keys (or a whole scene) and the message loading it gives.
  static let cases: [(String, String)] = [
    // integer
    (
      ##"{"class": "CAReplicatorLayer", "instanceCount": 2.5}"##,
      "scene.json: root.sublayers[0].instanceCount: expected a whole number, found 2.5"
    ),
    (
      ##"{"class": "CAReplicatorLayer", "instanceCount": 5000000000}"##,
      "scene.json: root.sublayers[0].instanceCount: expected a whole number, found 5000000000"
    ),
    (
      ##"{"class": "CAReplicatorLayer", "instanceCount": 200000}"##,
      "scene.json: root.sublayers[0].instanceCount: expected a count from 0 to 100000, found 200000"
    ),
    (
      ##"{"class": "CAEmitterLayer", "seed": -1}"##,
      "scene.json: root.sublayers[0].seed: expected a seed from 0 to 4294967295, found -1"
    ),
    // bool, point, size, rect
    (
      ##"{"masksToBounds": "yes"}"##,
      "scene.json: root.sublayers[0].masksToBounds: expected true or false, found a string"
    ),
    (
      ##"{"anchorPoint": 0.5}"##,
      "scene.json: root.sublayers[0].anchorPoint: expected 2 numbers, found a number"
    ),
    (
      ##"{"shadowOffset": [1, "a"]}"##,
      "scene.json: root.sublayers[0].shadowOffset[1]: expected a number, found a string"
    ),
    (
      ##"{"bounds": [0, 0, 1]}"##,
      "scene.json: root.sublayers[0].bounds: expected 4 numbers, found 3 values"
    ),
    (
      ##"{"bounds.size": [-1, 2]}"##,
      "scene.json: root.sublayers[0].bounds.size: expected sizes ≥ 0 and ≤ 1000000 points, found -1"
    ),
    (
      ##"{"frame.size.width": -3}"##,
      "scene.json: root.sublayers[0].frame.size.width: expected sizes ≥ 0 and ≤ 1000000 points, found -3"
    ),
    // transform
    (
      ##"{"transform": [{"twist": 1}]}"##,
      "scene.json: root.sublayers[0].transform[0]: unknown transform step 'twist'; expected one of translate, rotate, scale, perspective, matrix"
    ),
    (
      ##"{"transform": [1e9,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]}"##,
      "scene.json: root.sublayers[0].transform: expected a transform whose entries are within ±10000000 (maxTransformEntry), found m11 = 1000000000"
    ),
    // color, colors, numbers
    (
      ##"{"borderColor": [1, 0, 0]}"##,
      "scene.json: root.sublayers[0].borderColor: expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found 3 components"
    ),
    (
      ##"{"shadowColor": 5}"##,
      "scene.json: root.sublayers[0].shadowColor: expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found a number"
    ),
    (
      ##"{"class": "CAGradientLayer", "colors": "red"}"##,
      "scene.json: root.sublayers[0].colors: expected a list of colors, found a string"
    ),
    (
      ##"{"class": "CAGradientLayer", "colors": ["#ff0000", null]}"##,
      "scene.json: root.sublayers[0].colors[1]: expected a color, found null"
    ),
    (
      ##"{"class": "CAGradientLayer", "locations": [0, "a"]}"##,
      "scene.json: root.sublayers[0].locations[1]: expected a number, found a string"
    ),
    (
      ##"{"class": "CAShapeLayer", "lineDashPattern": [1, -2e6]}"##,
      "scene.json: root.sublayers[0].lineDashPattern[1]: expected a length from -1000000 to 1000000 (maxLayerSide), found -2000000"
    ),
    // image, path, strings, enumerations, corners
    (
      ##"{"contents": "nope"}"##,
      "scene.json: root.sublayers[0].contents: no image named 'nope' in images (the scene has no images)"
    ),
    (
      ##"{"class": "CAShapeLayer", "path": "M 0 0 Q"}"##,
      "scene.json: root.sublayers[0].path: bad SVG path data at offset 7: expected a number, found the end"
    ),
    (
      ##"{"name": 5}"##,
      "scene.json: root.sublayers[0].name: expected a string, found a number"
    ),
    (
      ##"{"class": "CATextLayer", "alignmentMode": 1}"##,
      "scene.json: root.sublayers[0].alignmentMode: expected one of 'natural', 'left', 'right', 'center', 'justified', found a number"
    ),
    (
      ##"{"maskedCorners": "all"}"##,
      "scene.json: root.sublayers[0].maskedCorners: expected a list of corner names, found a string"
    ),
    // filters, blend modes, emitter cells
    (
      ##"{"filters": {"name": "CIGaussianBlur"}}"##,
      "scene.json: root.sublayers[0].filters: expected a list of filter objects, found an object"
    ),
    (
      ##"{"filters": [{"name": "CIGaussianBlur", "inputRadius": 1e6}]}"##,
      "scene.json: root.sublayers[0].filters[0].inputRadius: expected a blur radius from -500 to 500 (maxBlurRadius), found 1000000"
    ),
    (
      ##"{"compositingFilter": "nope"}"##,
      "scene.json: root.sublayers[0].compositingFilter: 'nope' is not one of"
    ),
    (
      ##"{"class": "CAEmitterLayer", "emitterCells": [{"birthRate": "a"}]}"##,
      "scene.json: root.sublayers[0].emitterCells[0].birthRate: expected a number, found a string"
    ),
    (
      ##"{"class": "CAEmitterLayer", "emitterCells": [{"color": [2, 0, 0, 1]}]}"##,
      "scene.json: root.sublayers[0].emitterCells[0].color[0]: expected a color component from 0 to 1, found 2"
    ),
    // ranges
    (
      ##"{"cornerRadius": 2e6}"##,
      "scene.json: root.sublayers[0].cornerRadius: expected a length from -1000000 to 1000000 (maxLayerSide), found 2000000"
    ),
    (
      ##"{"contentsScale": 0}"##,
      "scene.json: root.sublayers[0].contentsScale: expected a scale from 0.0009765625 to 1024 (minContentsScale), found 0"
    ),
    (
      ##"{"position": [0, 1e12]}"##,
      "scene.json: root.sublayers[0].position[1]: expected a number from -1000000000 to 1000000000 (maxMagnitude), found 1000000000000"
    ),
    // key paths
    (
      ##"{"position.x": "a"}"##,
      "scene.json: root.sublayers[0].position.x: expected a number, found a string"
    ),
    (
      ##"{"transform.translation": [1]}"##,
      "scene.json: root.sublayers[0].transform.translation: expected 2 numbers, found 1 values"
    ),
  ]

  /// Animation values: decoded by the key path's kind, held to its range.
  static let animationCases: [(String, String)] = [
    (
      ##"{"keyPath": "opacity", "fromValue": "a"}"##,
      "scene.json: root.sublayers[0].animations[0].fromValue: expected a number, found a string"
    ),
    (
      ##"{"keyPath": "position", "toValue": [0, 1e12]}"##,
      "scene.json: root.sublayers[0].animations[0].toValue[1]: expected a number from -1000000000 to 1000000000 (maxMagnitude), found 1000000000000"
    ),
    (
      ##"{"class": "CAKeyframeAnimation", "keyPath": "backgroundColor", "values": ["#ff0000", null]}"##,
      "scene.json: root.sublayers[0].animations[0].values[1]: expected a value, found null"
    ),
    (
      ##"{"keyPath": "maskedCorners", "toValue": ["minXMinY", "top"]}"##,
      "scene.json: root.sublayers[0].animations[0].toValue[1]: 'top' is not one of 'minXMinY', 'maxXMinY', 'minXMaxY', 'maxXMaxY'"
    ),
    (
      ##"{"keyPath": "transform.rotation.z", "byValue": [1, 2]}"##,
      "scene.json: root.sublayers[0].animations[0].byValue: expected a number, found an array"
    ),
  ]

  func testLayerValueErrors() {
    for (keys, expected) in Self.cases {
      let message = SceneErrorTests.loadError(layer(keys))
      if expected.hasSuffix("is not one of") {
        XCTAssert(message.hasPrefix(expected), "\(keys): \(message)")
      } else {
        XCTAssertEqual(message, expected, keys)
      }
    }
  }

  func testAnimationValueErrors() {
    for (keys, expected) in Self.animationCases {
      XCTAssertEqual(SceneErrorTests.loadError(animation(keys)), expected, keys)
    }
  }
}
