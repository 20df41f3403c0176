import Foundation
import Lamina
import LaminaScene
import XCTest

/// Each kind of bad input gives its message, naming the file, the JSON path,
/// the key and what was expected.
final class SceneErrorTests: XCTestCase {
  func message(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    Self.loadError(text, file: file, line: line)
  }

  /// The error of loading `text` as scene.json (a failure when it loads).
  static func loadError(_ text: String, file: StaticString = #filePath, line: UInt = #line)
    -> String
  {
    do {
      _ = try SceneLoader.load(
        data: Data(text.utf8), baseURL: SceneFilesTests.fixtures, fileName: "scene.json")
      XCTFail("loaded", file: file, line: line)
      return ""
    } catch {
      return String(describing: error)
    }
  }

  func scene(_ root: String, images: String = "") -> String {
    """
    {"lamina": 1, "canvas": {"width": 100, "height": 50}\(images), "root": \(root)}
    """
  }

  func layer(_ keys: String) -> String { scene(##"{"sublayers": [{}, \##(keys)]}"##) }

  func testSyntaxErrors() {
    XCTAssertEqual(
      message("{\"lamina\": 1,\n  \"canvas\": }"), "scene.json:2:13: expected a value, found '}'")
    XCTAssertEqual(message("{\"a\": 1, \"a\": 2}"), "scene.json:1:10: duplicate key 'a'")
    XCTAssertEqual(
      message("{\"a\": NaN}"),
      "scene.json:1:7: expected a value (NaN and Infinity are not JSON), found 'N'")
    XCTAssertEqual(message("{\"a\": 1e999}"), "scene.json:1:7: a: 1e999 is not a finite number")
    // The JSON path, as every other error gives it.
    XCTAssertEqual(
      message(
        """
        {"lamina": 1, "canvas": {"width": 10, "height": 10},
         "root": {"sublayers": [{}, {"opacity": -1e999}]}}
        """),
      "scene.json:2:41: root.sublayers[1].opacity: -1e999 is not a finite number")
    XCTAssertEqual(message("[1, 2, 3e400]"), "scene.json:1:8: [2]: 3e400 is not a finite number")
    XCTAssertEqual(message("{} x"), "scene.json:1:4: expected the end of the document, found 'x'")
    XCTAssertEqual(message("{\"a\": [1,]}"), "scene.json:1:10: expected a value, found ']'")
    let bad = Data([0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D])
    do {
      _ = try SceneLoader.load(data: bad, baseURL: nil, fileName: "scene.json")
      XCTFail()
    } catch {
      XCTAssertEqual(String(describing: error), "scene.json:1:2: string is not valid UTF-8")
    }
    let deep = String(repeating: "[", count: 100_000)
    XCTAssertEqual(message(deep), "scene.json:1:513: nesting deeper than 512 levels")
  }

  func testTopLevel() {
    XCTAssertEqual(
      message(##"{"canvas": {}}"##), "scene.json: the document: missing required key 'lamina'")
    XCTAssertEqual(
      message(##"{"lamina": 2, "canvas": {}}"##),
      "scene.json: lamina: unsupported format version 2; this reader knows version 1")
    XCTAssertEqual(
      message(##"{"lamina": 1, "root": {}}"##),
      "scene.json: the document: missing required key 'canvas'")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 10}, "root": {}}"##),
      "scene.json: canvas: missing required key 'height'")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 10, "height": 10}}"##),
      "scene.json: the document: missing required key 'root'")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 0, "height": 10}, "root": {}}"##),
      "scene.json: canvas.width: expected a size > 0 and ≤ 16384 points, found 0")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 10, "height": 20000}, "root": {}}"##),
      "scene.json: canvas.height: expected a size > 0 and ≤ 16384 points, found 20000")
    XCTAssertEqual(
      message(
        ##"{"lamina": 1, "canvas": {"width": 10000, "height": 10, "scale": 4}, "root": {}}"##),
      "scene.json: canvas.width: expected width × scale ≤ 32768 pixels, found 10000 × 4 = 40000")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 10, "height": 10, "scale": 9}, "root": {}}"##),
      "scene.json: canvas.scale: expected a scale > 0 and ≤ 8, found 9")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": "10", "height": 10}, "root": {}}"##),
      "scene.json: canvas.width: expected a number, found a string")
    XCTAssertEqual(
      message(##"{"lamina": 1, "canvas": {"width": 10, "height": 10}, "root": {}, "extra": 1}"##),
      "scene.json: the document: unknown key 'extra' for a scene")
  }

  func testLayerKeys() {
    XCTAssertEqual(
      message(layer(##"{"opacty": 1}"##)),
      "scene.json: root.sublayers[1]: unknown key 'opacty' for CALayer")
    XCTAssertEqual(
      message(layer(##"{"opacity": "1"}"##)),
      "scene.json: root.sublayers[1].opacity: expected a number, found a string")
    XCTAssertEqual(
      message(layer(##"{"fillColor": "#000000"}"##)),
      "scene.json: root.sublayers[1]: unknown key 'fillColor' for CALayer")
    XCTAssertEqual(
      message(layer(##"{"class": "CAFancyLayer"}"##)),
      "scene.json: root.sublayers[1].class: unknown class 'CAFancyLayer'; expected one of 'CALayer', 'CATransformLayer', 'CAGradientLayer', 'CAShapeLayer', 'CATextLayer', 'CAReplicatorLayer', 'CAScrollLayer', 'CAEmitterLayer', 'CATiledLayer'"
    )
    XCTAssertEqual(
      message(layer(##"{"contentsGravity": "middle"}"##)),
      "scene.json: root.sublayers[1].contentsGravity: 'middle' is not one of 'center', 'top', 'bottom', 'left', 'right', 'topLeft', 'topRight', 'bottomLeft', 'bottomRight', 'resize', 'resizeAspect', 'resizeAspectFill'"
    )
    XCTAssertEqual(
      message(layer(##"{"backgroundColor": "#12345"}"##)),
      "scene.json: root.sublayers[1].backgroundColor: expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found \"#12345\""
    )
    XCTAssertEqual(
      message(layer(##"{"backgroundColor": [1, 0, 2, 1]}"##)),
      "scene.json: root.sublayers[1].backgroundColor[2]: expected a color component from 0 to 1, found 2"
    )
    XCTAssertEqual(
      message(layer(##"{"bounds": [0, 0, -1, 10]}"##)),
      "scene.json: root.sublayers[1].bounds: expected sizes ≥ 0 and ≤ 1000000 points, found -1")
    XCTAssertEqual(
      message(layer(##"{"position": [1, 2, 3]}"##)),
      "scene.json: root.sublayers[1].position: expected 2 numbers, found 3 values")
    XCTAssertEqual(
      message(layer(##"{"maskedCorners": ["minXMinY", "top"]}"##)),
      "scene.json: root.sublayers[1].maskedCorners[1]: 'top' is not one of 'minXMinY', 'maxXMinY', 'minXMaxY', 'maxXMaxY'"
    )
    XCTAssertEqual(
      message(layer(##"{"sublayers": [{"isHidden": 1}]}"##)),
      "scene.json: root.sublayers[1].sublayers[0].isHidden: expected true or false, found a number")
    XCTAssertEqual(
      message(
        layer(
          ##"{"class": "CAGradientLayer", "colors": ["#ff0000", "#00ff00"], "locations": [0]}"##)),
      "scene.json: root.sublayers[1].locations: has 1 locations for 2 colors; give one per color or null"
    )
  }

  func testTransforms() {
    XCTAssertEqual(
      message(layer(##"{"transform": [1, 2, 3]}"##)),
      "scene.json: root.sublayers[1].transform: expected a transform: 16 numbers or a list of steps, found an array of 3 values that are not all steps"
    )
    XCTAssertEqual(
      message(layer(##"{"transform": [{"translate": [1, 2, 3]}, {"rotate": 1}]}"##)),
      "scene.json: root.sublayers[1].transform[1].rotate: expected 4 numbers, found a number")
    XCTAssertEqual(
      message(layer(##"{"transform": [{"skew": [1, 2]}]}"##)),
      "scene.json: root.sublayers[1].transform[0]: unknown transform step 'skew'; expected one of translate, rotate, scale, perspective, matrix"
    )
    XCTAssertEqual(
      message(layer(##"{"transform": "identity"}"##)),
      "scene.json: root.sublayers[1].transform: expected a transform: 16 numbers or a list of steps, found a string"
    )
    XCTAssertEqual(
      message(layer(##"{"transform.rotation.w": 1}"##)),
      "scene.json: root.sublayers[1]: unknown key 'transform.rotation.w' for CALayer")
  }

  func testImagesPathsFiltersAndAnimations() {
    XCTAssertEqual(
      message(layer(##"{"contents": "kitten"}"##)),
      "scene.json: root.sublayers[1].contents: no image named 'kitten' in images (the scene has no images)"
    )
    let missing = message(scene("{}", images: ##", "images": {"kitten": "images/nope.png"}"##))
    XCTAssertTrue(
      missing.hasPrefix(
        "scene.json: images.kitten: cannot read 'images/nope.png': not allowed, missing or unreadable;"
      ), missing)
    // Images are decoded when a layer uses them: the error names the use.
    let used = ##"{"sublayers": [{"contents": "bad"}]}"##
    let corrupt = message(scene(used, images: ##", "images": {"bad": "gradient_axial.json"}"##))
    XCTAssertTrue(
      corrupt.hasPrefix("scene.json: root.sublayers[0].contents: images.bad: image '"), corrupt)
    XCTAssertTrue(corrupt.hasSuffix("'gradient_axial.json' is not PNG, JPEG or WebP"), corrupt)
    do {
      let photo = ##"{"sublayers": [{"contents": "p"}]}"##
      _ = try SceneLoader.load(
        data: Data(scene(photo, images: ##", "images": {"p": "images/photo.png"}"##).utf8),
        baseURL: SceneFilesTests.fixtures, fileName: "scene.json", maxImageDimension: 4)
      XCTFail()
    } catch {
      XCTAssertTrue(String(describing: error).contains("larger than the limit of 4"), "\(error)")
    }
    XCTAssertEqual(
      message(layer(##"{"class": "CAShapeLayer", "path": "M 0 0 L 10"}"##)),
      "scene.json: root.sublayers[1].path: bad SVG path data at offset 10: expected a number, found the end"
    )
    XCTAssertEqual(
      message(layer(##"{"filters": [{"name": "CIBlur"}]}"##)),
      "scene.json: root.sublayers[1].filters[0].name: unknown filter 'CIBlur'; expected one of 'CIColorControls', 'CIColorInvert', 'CIColorMatrix', 'CIGaussianBlur', 'CIHueAdjust', 'CISepiaTone'"
    )
    XCTAssertEqual(
      message(layer(##"{"filters": [{"name": "CIGaussianBlur", "inputRadius": "big"}]}"##)),
      "scene.json: root.sublayers[1].filters[0].inputRadius: expected a number, found a string")
    XCTAssertEqual(
      message(layer(##"{"filters": [{"name": "CIGaussianBlur", "radius": 1}]}"##)),
      "scene.json: root.sublayers[1].filters[0]: unknown key 'radius' for CIGaussianBlur")
    XCTAssertTrue(
      message(layer(##"{"compositingFilter": "CIPlusBlendMode"}"##)).hasPrefix(
        "scene.json: root.sublayers[1].compositingFilter: 'CIPlusBlendMode' is not one of 'CIMultiplyBlendMode'"
      ))
    XCTAssertEqual(
      message(layer(##"{"animations": [{"keyPath": "opacty", "toValue": 1}]}"##)),
      "scene.json: root.sublayers[1].animations[0].keyPath: 'opacty' is not an animatable key path of CALayer"
    )
    XCTAssertEqual(
      message(layer(##"{"animations": [{"toValue": 1}]}"##)),
      "scene.json: root.sublayers[1].animations[0]: missing required key 'keyPath'")
    XCTAssertEqual(
      message(layer(##"{"animations": [{"keyPath": "position", "toValue": 1}]}"##)),
      "scene.json: root.sublayers[1].animations[0].toValue: expected 2 numbers, found a number")
    XCTAssertEqual(
      message(layer(##"{"animations": [{"keyPath": "opacity", "values": [1]}]}"##)),
      "scene.json: root.sublayers[1].animations[0]: unknown key 'values' for CABasicAnimation")
    XCTAssertEqual(
      message(layer(##"{"animations": [{"keyPath": "opacity", "repeatCount": "forever"}]}"##)),
      "scene.json: root.sublayers[1].animations[0].repeatCount: expected a number or \"infinity\", found \"forever\""
    )
    XCTAssertEqual(
      message(layer(##"{"animations": [{"keyPath": "opacity", "timingFunction": "bouncy"}]}"##)),
      "scene.json: root.sublayers[1].animations[0].timingFunction: 'bouncy' is not one of 'linear', 'easeIn', 'easeOut', 'easeInEaseOut', 'default'"
    )
    XCTAssertEqual(
      message(layer(##"{"animations": [{"class": "CAAnimationGroup", "keyPath": "opacity"}]}"##)),
      "scene.json: root.sublayers[1].animations[0].class: unknown class 'CAAnimationGroup'; expected one of 'CABasicAnimation', 'CAKeyframeAnimation', 'CASpringAnimation'"
    )
    XCTAssertEqual(
      message(layer(##"{"class": "CAEmitterLayer", "emitterCells": [{"birthrate": 1}]}"##)),
      "scene.json: root.sublayers[1].emitterCells[0]: unknown key 'birthrate' for CAEmitterCell")
  }
}
