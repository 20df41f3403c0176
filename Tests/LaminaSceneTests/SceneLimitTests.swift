import Foundation
import Lamina
import LaminaScene
import XCTest

/// Every limit of docs/limits.md, exceeded: an error that names the file,
/// the JSON path and the limit, before any work. The classes of the issue
/// that made `lamina render` trap, hang or run out of memory each have a
/// case here (the command-level ones are in HostileInputTests).
final class SceneLimitTests: XCTestCase {
  func message(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> String {
    SceneErrorTests.loadError(text, file: file, line: line)
  }

  func scene(_ sublayers: String, canvas: String = #""width": 100, "height": 50"#) -> String {
    """
    {"lamina": 1, "canvas": {\(canvas)}, "root": {"sublayers": [\(sublayers)]}}
    """
  }

  // MARK: Canvas and file

  func testCanvasPixels() {
    XCTAssertEqual(
      message(scene("", canvas: #""width": 16384, "height": 16384, "scale": 1"#)),
      "scene.json: canvas: canvas pixels (width × height × scale²): 268435456, over the limit of 67108864 (maxCanvasPixels)"
    )
    XCTAssertEqual(
      message(scene("", canvas: #""width": 0.1, "height": 0.1"#)),
      "scene.json: canvas: expected a canvas of at least 1×1 pixels, found 0.1×0.1 pixels")
  }

  func testSceneFileSize() {
    let big = Data(repeating: 0x20, count: Limits.maxSceneFileBytes + 1)
    XCTAssertThrowsError(try SceneLoader.load(data: big, baseURL: nil, fileName: "scene.json")) {
      XCTAssertEqual(
        "\($0)",
        "scene.json: the scene file: size in bytes: 33554433, over the limit of 33554432 (maxSceneFileBytes)"
      )
    }
  }

  // MARK: Numbers (each from a class of the issue's traps)

  func testHugeRadiiAndCoordinatesAreRefusedWhereTheyAreRead() {
    XCTAssertEqual(
      message(scene(#"{"shadowRadius": 1e308}"#)),
      "scene.json: root.sublayers[0].shadowRadius: expected a number from -1000000000 to 1000000000 (maxMagnitude), found 1e+308"
    )
    XCTAssertEqual(
      message(scene(#"{"shadowRadius": 501}"#)),
      "scene.json: root.sublayers[0].shadowRadius: expected a blur radius from -500 to 500 (maxBlurRadius), found 501"
    )
    XCTAssertEqual(
      message(scene(#"{"filters": [{"name": "CIGaussianBlur", "inputRadius": 1000}]}"#)),
      "scene.json: root.sublayers[0].filters[0].inputRadius: expected a blur radius from -500 to 500 (maxBlurRadius), found 1000"
    )
    XCTAssertEqual(
      message(scene(#"{"position": [20000000, 0]}"#)),
      "scene.json: root.sublayers[0].position[0]: expected a coordinate from -10000000 to 10000000 (maxCoordinate), found 20000000"
    )
    XCTAssertEqual(
      message(scene(#"{"class": "CATextLayer", "fontSize": 5000}"#)),
      "scene.json: root.sublayers[0].fontSize: expected a font size from -2048 to 2048 (maxFontSize), found 5000"
    )
    XCTAssertEqual(
      message(scene(#"{"contentsScale": 0.0001}"#)),
      "scene.json: root.sublayers[0].contentsScale: expected a scale from 0.0009765625 to 1024 (minContentsScale), found 0.0001"
    )
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "lineWidth": 1e7}"#)),
      "scene.json: root.sublayers[0].lineWidth: expected a length from -1000000 to 1000000 (maxLayerSide), found 10000000"
    )
  }

  func testTransformsWhoseEntriesOverflowAreRefused() {
    XCTAssertEqual(
      message(scene(#"{"sublayerTransform": [{"perspective": 1e-300}]}"#)),
      "scene.json: root.sublayers[0].sublayerTransform: expected a transform whose entries are within ±10000000 (maxTransformEntry), found m34 = -9.999999999999999e+299"
    )
    XCTAssertEqual(
      message(scene(#"{"transform": [{"scale": [1e8, 1, 1]}]}"#)),
      "scene.json: root.sublayers[0].transform: expected a transform whose entries are within ±10000000 (maxTransformEntry), found m11 = 100000000"
    )
  }

  func testRepeatCountMayBeHugeAndStaysFinite() throws {
    let text = scene(
      #"{"animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1e-300, "repeatCount": 1e300}]}"#
    )
    let loaded = try SceneLoader.load(data: Data(text.utf8), baseURL: nil, fileName: "scene.json")
    let layer = try XCTUnwrap(loaded.root.sublayers?.first)
    let presented = PresentationTree(root: loaded.root).update(time: 1e9)
    XCTAssertTrue(presented.sublayers?.first?.opacity.isFinite == true)
    XCTAssertEqual(layer.animationKeys()?.count, 1)
  }

  // MARK: Counts and totals

  func testInstanceCountsMultiplyThroughNesting() {
    XCTAssertEqual(
      message(
        scene(
          #"{"class": "CAReplicatorLayer", "instanceCount": 1000, "sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 1000, "sublayers": [{"frame": [0, 0, 1, 1]}]}]}"#
        )),
      "scene.json: root.sublayers[0].sublayers[0].instanceCount: replicator instances in the tree, multiplied through nesting: 1001000, over the limit of 100000 (maxInstances)"
    )
    XCTAssertEqual(
      message(scene(#"{"class": "CAReplicatorLayer", "instanceCount": 1000000}"#)),
      "scene.json: root.sublayers[0].instanceCount: expected a count from 0 to 100000, found 1000000"
    )
  }

  func testAnEmitterInAReplicatorCountsEveryInstancesParticles() {
    let emitter =
      #"{"class": "CAEmitterLayer", "birthRate": 1, "emitterCells": [{"birthRate": 100, "lifetime": 10}]}"#
    // 1001 particles a replicator instance (100 a second for 10 s, and the newest).
    XCTAssertEqual(
      message(scene(#"{"class": "CAReplicatorLayer", "instanceCount": 100, "sublayers": [\#(emitter)]}"#)),
      "scene.json: root.sublayers[0].sublayers[0].birthRate: emitter particles alive at once (birth rate × lifetime, through nested cells and replicators): 100100, over the limit of 100000 (maxParticles)"
    )
    XCTAssertEqual(
      message(
        scene(
          #"{"class": "CAEmitterLayer", "birthRate": 1e9, "lifetime": 1e9, "emitterCells": [{"birthRate": 1e9, "lifetime": 1e9}]}"#
        )),
      "scene.json: root.sublayers[0].birthRate: emitter particles alive at once (birth rate × lifetime, through nested cells and replicators): 1e+36, over the limit of 100000 (maxParticles)"
    )
  }

  func testNestedEmitterCellsMultiply() {
    // 1001 parents (100 a second over the 10 s that they and their
    // children reach), each emitting 501 children: 502,502 in all.
    let cell =
      #"{"birthRate": 100, "lifetime": 5, "emitterCells": [{"birthRate": 100, "lifetime": 5}]}"#
    XCTAssertEqual(
      message(scene(#"{"class": "CAEmitterLayer", "emitterCells": [\#(cell)]}"#)),
      "scene.json: root.sublayers[0].birthRate: emitter particles alive at once (birth rate × lifetime, through nested cells and replicators): 502502, over the limit of 100000 (maxParticles)"
    )
  }

  func testLayersOnceExpanded() {
    let four = Array(repeating: #"{"frame": [0, 0, 1, 1]}"#, count: 4).joined(separator: ", ")
    XCTAssertEqual(
      message(
        scene(#"{"class": "CAReplicatorLayer", "instanceCount": 50000, "sublayers": [\#(four)]}"#)),
      "scene.json: root.sublayers[0].sublayers[3]: layers once replicators and emitters are expanded: 200002, over the limit of 200000 (maxLayers)"
    )
  }

  func testNestingDepth() {
    var layer = #"{"frame": [0, 0, 1, 1]}"#
    for _ in 0..<100 { layer = #"{"sublayers": [\#(layer)]}"# }
    let text = scene(layer)
    let m = message(text)
    XCTAssertTrue(m.hasPrefix("scene.json: root.sublayers[0].sublayers[0]"), m)
    XCTAssertTrue(
      m.hasSuffix(
        ": layers nested (sublayers and masks): more than 100, over the limit of 100 (maxNestingDepth)"
      ), m)
  }

  func testFiltersPerLayer() {
    let blur = #"{"name": "CIGaussianBlur", "inputRadius": 2}"#
    let many = Array(repeating: blur, count: 17).joined(separator: ", ")
    XCTAssertEqual(
      message(scene(#"{"filters": [\#(many)]}"#)),
      "scene.json: root.sublayers[0].filters: filters on one layer: 17, over the limit of 16 (maxFiltersPerLayer)"
    )
  }

  func testListLengths() {
    let stops = Array(repeating: ##""#000000""##, count: 1025).joined(separator: ", ")
    XCTAssertEqual(
      message(scene(#"{"class": "CAGradientLayer", "colors": [\#(stops)]}"#)),
      "scene.json: root.sublayers[0].colors: colors in the list: 1025, over the limit of 1024 (maxGradientStops)"
    )
    let dashes = Array(repeating: "1", count: 257).joined(separator: ", ")
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "lineDashPattern": [\#(dashes)]}"#)),
      "scene.json: root.sublayers[0].lineDashPattern: numbers in the list: 257, over the limit of 256 (maxDashPatternLength)"
    )
    let values = Array(repeating: "0.5", count: 10001).joined(separator: ", ")
    XCTAssertEqual(
      message(
        scene(
          #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [\#(values)]}]}"#
        )),
      "scene.json: root.sublayers[0].animations[0].values: values of one keyframe animation: 10001, over the limit of 10000 (maxKeyframes)"
    )
    let animation = #"{"keyPath": "opacity", "toValue": 1}"#
    let animations = Array(repeating: animation, count: 257).joined(separator: ", ")
    XCTAssertEqual(
      message(scene(#"{"animations": [\#(animations)]}"#)),
      "scene.json: root.sublayers[0].animations: animations on one layer: 257, over the limit of 256 (maxAnimationsPerLayer)"
    )
  }

  func testTextLength() {
    let long = String(repeating: "x", count: 20001)
    XCTAssertEqual(
      message(scene(#"{"class": "CATextLayer", "string": "\#(long)"}"#)),
      "scene.json: root.sublayers[0].string: characters of one text layer: 20001, over the limit of 20000 (maxGlyphsPerTextLayer)"
    )
  }

  /// 20,000 text layers of 120 characters took 45 s and a gigabyte.
  func testCharactersOfAllTextLayers() {
    let layer = #"{"class": "CATextLayer", "string": "\#(String(repeating: "x", count: 120))"}"#
    XCTAssertEqual(
      message(scene(Array(repeating: layer, count: 2000).joined(separator: ","))),
      "scene.json: root.sublayers[1666].string: characters of all text layers, replicated ones once per instance: 200040, over the limit of 200000 (maxGlyphsPerFrame)"
    )
    XCTAssertEqual(
      message(
        scene(
          #"{"class": "CAReplicatorLayer", "instanceCount": 2000, "sublayers": [\#(layer)]}"#)),
      "scene.json: root.sublayers[0].sublayers[0].string: characters of all text layers, replicated ones once per instance: 240000, over the limit of 200000 (maxGlyphsPerFrame)"
    )
  }

  func testDashesAlongAPath() {
    XCTAssertEqual(
      message(
        scene(
          ##"{"class": "CAShapeLayer", "path": "M 0 0 L 1000 0", "strokeColor": "#000000", "lineDashPattern": [0.001, 0.001]}"##
        )),
      "scene.json: root.sublayers[0].lineDashPattern: dashes along the stroked path (its length over the pattern's): 1000000, over the limit of 100000 (maxDashSegments); a pattern whose lengths add up to at least 0.02 points keeps the dashes within it"
    )
  }

  /// The count of dashes overflowed to infinity ("…: inf"): a message
  /// writes finite numbers, and says what to change.
  func testDashesOfAPeriodTooSmallToCount() {
    XCTAssertEqual(
      message(
        scene(
          ##"{"class": "CAShapeLayer", "path": "M 0 0 L 1000000 0 L 0 0", "strokeColor": "#000000", "lineDashPattern": [5e-324, 5e-324, 0]}"##
        )),
      "scene.json: root.sublayers[0].lineDashPattern: dashes along the stroked path (its length over the pattern's): more than 1000000000000000, over the limit of 100000 (maxDashSegments); a pattern whose lengths add up to at least 60 points keeps the dashes within it"
    )
  }

  /// Input quoted in a message is cut to a readable length, saying how
  /// long it was: a 10,000-character key path came back whole (a
  /// 10,117-character line).
  func testLongInputIsQuotedCut() {
    let long = String(repeating: "a", count: 10_000)
    let cut = String(repeating: "a", count: 64) + "…' (10000 characters)"
    XCTAssertEqual(
      message(
        scene(
          #"{"animations": [{"class": "CABasicAnimation", "keyPath": "\#(long)", "toValue": 1, "duration": 1}]}"#
        )),
      "scene.json: root.sublayers[0].animations[0].keyPath: '\(cut) is not an animatable key path of CALayer"
    )
    XCTAssertEqual(
      message(scene(#"{"\#(long)": 1}"#)),
      "scene.json: root.sublayers[0]: unknown key '\(cut) for CALayer")
    XCTAssertEqual(
      message(scene(#"{"class": "\#(long)"}"#)).prefix(60),
      "scene.json: root.sublayers[0].class: unknown class '\(cut)".prefix(60))
    XCTAssertLessThan(message(scene(#"{"class": "\#(long)"}"#)).count, 1000)
    XCTAssertEqual(
      message(scene(#"{"backgroundColor": "\#(long)"}"#)),
      "scene.json: root.sublayers[0].backgroundColor: expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found \""
        + String(repeating: "a", count: 64) + "…\" (10000 characters)")
  }

  // MARK: Paths (the issue's hang on enormous arcs and curves)

  func testPathDataWithEnormousParameters() {
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "path": "M 0 0 A 1e300 1e300 0 1 1 5 5"}"#)),
      "scene.json: root.sublayers[0].path: bad SVG path data at offset 8: expected a coordinate within ±10000000 (maxCoordinate), found '1'"
    )
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "path": "M 0 0 C 1e9 0 0 0 1 1"}"#)),
      "scene.json: root.sublayers[0].path: bad SVG path data at offset 8: expected a coordinate within ±10000000 (maxCoordinate), found '1'"
    )
    let steps = String(repeating: "l 1000 0 ", count: 10001)
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "path": "M 0 0 \#(steps)"}"#)),
      "scene.json: root.sublayers[0].path: bad SVG path data at offset 90008: expected a point within ±10000000 (maxCoordinate) once relative steps are added, found '1'"
    )
    let many = String(repeating: "L 1 1 ", count: 20_001)
    XCTAssertEqual(
      message(scene(#"{"class": "CAShapeLayer", "path": "M 0 0 \#(many)"}"#)),
      "scene.json: root.sublayers[0].path: bad SVG path data at offset 120006: expected at most 20000 path elements (maxPathElements), found 'L'"
    )
    // Each path within the limit, six of them past the frame's.
    let shape = #"{"class": "CAShapeLayer", "path": "M 0 0 \#(String(repeating: "L 1 1 ", count: 19_000))"}"#
    XCTAssertEqual(
      message(scene(Array(repeating: shape, count: 6).joined(separator: ","))),
      "scene.json: root.sublayers[5].path: path elements of all shape layers and shadow paths: 114006, over the limit of 100000 (maxPathElementsPerFrame)"
    )
  }

  // MARK: At a frame's time

  /// Animations can move a value past its limit after the file loaded:
  /// `checkLimits` on the presentation tree names the layer and the time.
  func testLimitsAtAFramesTime() throws {
    let text = scene(
      #"{"name": "card", "animations": [{"keyPath": "shadowRadius", "fromValue": 0, "byValue": 400, "isCumulative": true, "duration": 1, "repeatCount": 5}]}"#
    )
    let loaded = try SceneLoader.load(data: Data(text.utf8), baseURL: nil, fileName: "scene.json")
    let tree = PresentationTree(root: loaded.root)
    XCTAssertNoThrow(try loaded.checkLimits(tree.update(time: 0.5), time: 0.5))
    XCTAssertThrowsError(try loaded.checkLimits(tree.update(time: 2.5), time: 2.5)) {
      XCTAssertEqual(
        "\($0)",
        "scene.json: root.sublayers[0].shadowRadius at 2.5 s: shadowRadius must be finite and within ±500: 1000, over the limit of 500 (maxBlurRadius)"
      )
    }
  }
}
