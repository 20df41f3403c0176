import Foundation
import Lamina
import LaminaLottie
import LaminaScene
import XCTest

/// Bad and hostile documents: each error names the file, the JSON path and
/// the key or limit; limits are checked before the work; URLs are never fetched.
final class LottieErrorTests: XCTestCase {
  typealias S = LottieTestSupport

  func testSyntaxErrorNamesFileLineAndColumn() {
    XCTAssertEqual(S.error("{\"v\": 1,\n  \"fr\": }"), "test.json:2:9: expected a value, found '}'")
  }

  func testNotALottieDocumentSaysWhatIsMissing() {
    XCTAssertEqual(
      S.error(#"{"v": "5", "fr": 30, "ip": 0, "op": 10, "w": 10}"#),
      "test.json: not a Lottie document (missing 'h', 'layers')")
    XCTAssertFalse(LottieAnimation.isLottie(["v": "5", "fr": 30]))
    XCTAssertTrue(
      LottieAnimation.isLottie(["v": "5", "fr": 30, "ip": 0, "op": 1, "w": 1, "h": 1, "layers": [Any]()]))
  }

  /// A document over the size limit is refused before it is parsed, its
  /// place "the Lottie file" as a scene's is "the scene file".
  func testADocumentOverTheSizeLimitNamesTheLottieFile() {
    let big = Data(repeating: 0x20, count: Limits.maxSceneFileBytes + 1)
    XCTAssertThrowsError(try LottieAnimation(data: big, name: "big.json", baseDirectory: nil)) {
      XCTAssertEqual(
        "\($0)",
        "big.json: the Lottie file: size in bytes: 33554433, over the limit of 33554432 (maxSceneFileBytes)"
      )
    }
  }

  func testWrongTypeInAKeyframeNamesItsPath() {
    let path =
      #"{"ty": "sh", "ks": {"a": 1, "k": [{"t": 0, "s": [{"v": [[0, 0]], "i": [[0, 0]], "o": [[0, 0]], "c": false}]}, {"t": 10, "s": "oops"}]}}"#
    let doc = S.document(layers: "[" + S.shapeLayer("[{\"ty\": \"gr\", \"it\": [\(path)]}]") + "]")
    XCTAssertEqual(
      S.error(doc),
      "test.json: layers[0].shapes[0].it[0].ks.k[1].s: expected a bezier shape object (v, i, o, c), found a string")
  }

  func testWrongTypeOfANumberNamesItsPath() {
    let doc = S.document(layers: #"[{"ty": 3, "ind": 1, "ip": 0, "op": 60, "st": "zero", "ks": {}}]"#)
    XCTAssertEqual(S.error(doc), "test.json: layers[0].st: expected a number, found a string")
  }

  func testMissingKeyIsNamed() {
    let doc = S.document(layers: #"[{"ty": 0, "ind": 1, "ip": 0, "op": 60, "st": 0, "ks": {}}]"#)
    XCTAssertEqual(S.error(doc), "test.json: layers[0]: missing required key 'refId'")
  }

  func testUnknownAssetIsNamed() {
    let doc = S.document(layers: #"[{"ty": 0, "refId": "nope", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#)
    XCTAssertEqual(S.error(doc), "test.json: layers[0].refId: no asset with id 'nope'")
  }

  func testPrecompThatContainsItselfDirectly() {
    let assets = #"[{"id": "a", "layers": [{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]}]"#
    let doc = S.document(
      layers: #"[{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    XCTAssertEqual(S.error(doc), "test.json: assets[0]: precomposition contains itself (a -> a)")
  }

  func testPrecompThatContainsItselfThroughOthers() {
    let assets = """
      [{"id": "a", "layers": [{"ty": 0, "refId": "b", "ip": 0, "op": 60, "st": 0, "ks": {}}]},
       {"id": "b", "layers": [{"ty": 0, "refId": "c", "ip": 0, "op": 60, "st": 0, "ks": {}}]},
       {"id": "c", "layers": [{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]}]
      """
    let doc = S.document(
      layers: #"[{"ty": 0, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    XCTAssertEqual(S.error(doc), "test.json: assets[0]: precomposition contains itself (a -> b -> c -> a)")
  }

  /// 20 precomps, each using the next twice: 2^20 layers once expanded,
  /// refused before any is built.
  func testExpandedLayerCountIsCheckedBeforeBuilding() {
    var assets: [String] = []
    for i in 0..<20 {
      let next = #"{"ty": 0, "refId": "p\#(i + 1)", "ip": 0, "op": 60, "st": 0, "ks": {}}"#
      let layers = i == 19 ? #"{"ty": 3, "ip": 0, "op": 60, "st": 0, "ks": {}}"# : next + ", " + next
      assets.append(#"{"id": "p\#(i)", "layers": [\#(layers)]}"#)
    }
    let doc = S.document(
      layers: #"[{"ty": 0, "refId": "p0", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#,
      assets: "[" + assets.joined(separator: ",") + "]")
    var options = LottieOptions()
    options.limits.maxPrecompDepth = 64
    let start = Date()
    let message = S.error(doc, options: options)
    XCTAssertTrue(message.hasPrefix("test.json: layers[0]: layers once precompositions are expanded: "), message)
    XCTAssertTrue(message.hasSuffix(", over the limit of 20000 (maxLayers)"), message)
    XCTAssertLessThan(Date().timeIntervalSince(start), 5)
  }

  func testPrecompNestingLimit() {
    var assets: [String] = []
    for i in 0..<40 {
      assets.append(
        #"{"id": "p\#(i)", "layers": [{"ty": 0, "refId": "p\#(i + 1)", "ip": 0, "op": 60, "st": 0, "ks": {}}]}"#)
    }
    assets.append(#"{"id": "p40", "layers": []}"#)
    let doc = S.document(
      layers: #"[{"ty": 0, "refId": "p0", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#,
      assets: "[" + assets.joined(separator: ",") + "]")
    XCTAssertEqual(
      S.error(doc),
      "test.json: assets[31].layers[0]: precomposition nesting: 33, over the limit of 32 (maxPrecompDepth)")
  }

  func testKeyframeLimit() {
    var options = LottieOptions()
    options.limits.maxKeyframes = 3
    let frames = (0..<4).map { #"{"t": \#($0 * 10), "s": [\#($0)]}"# }.joined(separator: ",")
    let doc = S.document(layers: #"[{"ty": 3, "ip": 0, "op": 60, "st": 0, "ks": {"r": {"a": 1, "k": [\#(frames)]}}}]"#)
    XCTAssertEqual(
      S.error(doc, options: options),
      "test.json: layers[0].ks.r.k: keyframes of one property: 4, over the limit of 3 (maxKeyframes)")
  }

  func testPathVertexLimit() {
    var options = LottieOptions()
    options.limits.maxPathVertices = 2
    let path = #"{"ty": "sh", "ks": {"a": 0, "k": {"v": [[0, 0], [1, 1], [2, 0]], "c": true}}}"#
    let doc = S.document(layers: "[" + S.shapeLayer("[\(path)]") + "]")
    XCTAssertEqual(
      S.error(doc, options: options),
      "test.json: layers[0].shapes[0].ks.k: vertices of one path: 3, over the limit of 2 (maxPathVertices)")
    // A polystar's points count too.
    let star = #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": 1e6}, "or": {"a": 0, "k": 10}, "ir": {"a": 0, "k": 5}}"#
    XCTAssertEqual(
      S.error(S.document(layers: "[" + S.shapeLayer("[\(star)]") + "]")),
      "test.json: layers[0].shapes[0].pt: vertices of one path: 2000000, over the limit of 10000 (maxPathVertices)")
  }

  func testRepeaterCopiesMultiplyThroughNesting() {
    let inner = #"{"ty": "gr", "it": [\#(S.rect()), \#(S.redFill), {"ty": "rp", "c": {"a": 0, "k": 200}}]}"#
    let outer = "[{\"ty\": \"gr\", \"it\": [\(inner), {\"ty\": \"rp\", \"c\": {\"a\": 0, \"k\": 100}}]}]"
    XCTAssertEqual(
      S.error(S.document(layers: "[" + S.shapeLayer(outer) + "]")),
      "test.json: layers[0].shapes[0].it[0].it[2].c: repeater copies multiplied through nesting: 20000, over the limit of 10000 (maxRepeaterCopies)"
    )
  }

  func testTextLengthLimit() {
    var options = LottieOptions()
    options.limits.maxTextLength = 5
    let text = #"{"ty": 5, "ip": 0, "op": 60, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "too long", "s": 10, "f": "Sans"}}]}}}"#
    XCTAssertEqual(
      S.error(S.document(layers: "[\(text)]"), options: options),
      "test.json: layers[0].t.d.k[0].s.t: characters of one text layer: 8, over the limit of 5 (maxTextLength)")
    // Text document keyframes: the characters of all of them count.
    let documents = #"{"ty": 5, "ip": 0, "op": 60, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "abc", "s": 10}}, {"t": 9, "s": {"t": "def", "s": 10}}]}}}"#
    XCTAssertEqual(
      S.error(S.document(layers: "[\(documents)]"), options: options),
      "test.json: layers[0].t.d.k[1].s.t: characters of one text layer: 6, over the limit of 5 (maxTextLength)")
    options.limits.maxKeyframes = 1
    options.limits.maxTextLength = 100
    XCTAssertEqual(
      S.error(S.document(layers: "[\(documents)]"), options: options),
      "test.json: layers[0].t.d.k: keyframes of one property: 2, over the limit of 1 (maxKeyframes)")
  }

  /// Inside an eased time remapping every animated value is sampled over
  /// the remapped layer's frames: the sampling budget counts them so.
  func testSamplingUnderATimeRemapIsBudgeted() {
    var options = LottieOptions()
    options.limits.maxSampledValues = 1500
    let assets = #"[{"id": "c", "layers": [{"ty": 3, "ind": 1, "ip": 0, "op": 1000, "st": 0, "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 5, "s": [90]}]}}}]}]"#
    let layers = #"[{"ty": 0, "refId": "c", "ip": 0, "op": 1000, "st": 0, "ks": {}, "tm": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0.5], "y": [0]}, "i": {"x": [0.5], "y": [1]}}, {"t": 1000, "s": [10]}]}}]"#
    XCTAssertEqual(
      S.error(S.document(layers: layers, assets: assets, op: 1000), options: options),
      "test.json: assets[0].layers[0].ip: values sampled from keyframes: 2004, over the limit of 1500 (maxSampledValues)")
  }

  func testDataURILimitIsCheckedBeforeDecoding() {
    var options = LottieOptions()
    options.limits.maxDataURIBytes = 100
    let body = String(repeating: "A", count: 200)
    let assets = #"[{"id": "img", "w": 10, "h": 10, "e": 1, "p": "data:image/png;base64,\#(body)"}]"#
    let doc = S.document(layers: #"[{"ty": 2, "refId": "img", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    XCTAssertEqual(
      S.error(doc, options: options),
      "test.json: assets[0].p: bytes of a data URI: 200, over the limit of 100 (maxDataURIBytes)")
  }

  func testCorruptEmbeddedImageIsAnError() {
    let assets = #"[{"id": "img", "w": 10, "h": 10, "e": 1, "p": "data:image/png;base64,AAAA"}]"#
    let doc = S.document(layers: #"[{"ty": 2, "refId": "img", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    XCTAssertTrue(S.error(doc).hasPrefix("test.json: assets[0].p: "), S.error(doc))
  }

  func testImageSizeLimitFromTheHeader() throws {
    // The scene tests' PNG whose header claims 100000 x 100000 pixels: refused from the header.
    let png = try Data(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../LaminaSceneTests/Fixtures/hostile/lying-100000.png"))
    let uri = "data:image/png;base64," + Data(png).base64EncodedString()
    let assets = #"[{"id": "img", "w": 10, "h": 10, "e": 1, "p": "\#(uri)"}]"#
    let doc = S.document(layers: #"[{"ty": 2, "refId": "img", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    let message = S.error(doc)
    XCTAssertTrue(message.hasPrefix("test.json: assets[0].p: "), message)
    XCTAssertTrue(message.contains("100000"), message)
  }

  func testURLAssetsAreNeverFetched() throws {
    var asked: [String] = []
    var options = LottieOptions()
    options.assetData = { asked.append($0); throw CocoaError(.fileNoSuchFile) }
    let assets = """
      [{"id": "a", "w": 10, "h": 10, "u": "http://example.com/", "p": "x.png"},
       {"id": "b", "w": 10, "h": 10, "u": "", "p": "file:///etc/passwd"}]
      """
    let doc = S.document(
      layers: """
        [{"ty": 2, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}},
         {"ty": 2, "refId": "b", "ip": 0, "op": 60, "st": 0, "ks": {}}]
        """, assets: assets, extra: #""fonts": {"list": [{"fName": "F", "fFamily": "F", "fPath": "https://fonts.example/f.ttf"}]}"#)
    let a = try S.load(doc, options: options)
    XCTAssertEqual(asked, [])
    XCTAssertEqual(
      a.unsupported,
      [
        LottieUnsupported(feature: "font file or URL (never fetched)", path: "fonts.list[0].fPath"),
        LottieUnsupported(feature: "image asset URL (never fetched)", path: "assets[1].p"),
        LottieUnsupported(feature: "image asset URL (never fetched)", path: "assets[0].p"),
      ])
  }

  func testAssetPathsThatLeaveTheFolderAreRefused() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lottie-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let assets = #"[{"id": "a", "w": 10, "h": 10, "u": "../", "p": "secret.png"}]"#
    let doc = S.document(layers: #"[{"ty": 2, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    let url = folder.appendingPathComponent("anim.json")
    try Data(doc.utf8).write(to: url)
    XCTAssertThrowsError(try LottieAnimation(contentsOf: url)) { error in
      XCTAssertEqual(
        "\(error)",
        "anim.json: assets[0]: cannot read '../secret.png': not allowed, missing or unreadable; "
          + FileAccessError.rule)
    }
  }

  func testAssetDataHookReadsNonEmbeddedImages() throws {
    var asked: [String] = []
    var options = LottieOptions()
    options.assetData = { path in
      asked.append(path)
      throw CocoaError(.fileNoSuchFile)
    }
    let assets = #"[{"id": "a", "w": 10, "h": 10, "u": "images/", "p": "img_0.png"}]"#
    let doc = S.document(layers: #"[{"ty": 2, "refId": "a", "ip": 0, "op": 60, "st": 0, "ks": {}}]"#, assets: assets)
    XCTAssertTrue(S.error(doc, options: options).hasPrefix("test.json: assets[0]: cannot read image 'images/img_0.png'"))
    XCTAssertEqual(asked, ["images/img_0.png"])
  }

  func testOutOfRangeValues() {
    XCTAssertEqual(
      S.error(#"{"v": "5", "fr": 0, "ip": 0, "op": 10, "w": 10, "h": 10, "layers": []}"#),
      "test.json: fr: frame rate 0.0 must be in (0, 1000]")
    XCTAssertEqual(
      S.error(#"{"v": "5", "fr": 30, "ip": 0, "op": 1e8, "w": 10, "h": 10, "layers": []}"#),
      "test.json: op: frames between ip and op: 100000000, over the limit of 1000000 (maxFrames)")
    XCTAssertEqual(
      S.error(S.document(layers: #"[{"ty": 3, "ip": 0, "op": 60, "st": 0, "sr": 0, "ks": {}}]"#)),
      "test.json: layers[0].sr: time stretch 0.0 must not be zero (at least 1e-06 and at most 1e+06 in magnitude)")
    XCTAssertEqual(
      S.error(S.document(layers: #"[{"ty": 3, "ind": 1, "parent": 2, "ip": 0, "op": 60, "st": 0, "ks": {}}, {"ty": 3, "ind": 2, "parent": 1, "ip": 0, "op": 60, "st": 0, "ks": {}}]"#)),
      "test.json: layers[1].parent: parenting loops back to layer 2")
  }

  /// Many shape layers whose paths must be sampled per frame: the
  /// document's sampling budget stops it before the memory is spent.
  func testSamplingBudget() {
    let animatedRect = #"{"ty": "rc", "p": {"a": 0, "k": [0, 0]}, "s": {"a": 1, "k": [{"t": 0, "s": [1, 1]}, {"t": 100000, "s": [50, 50]}]}, "r": {"a": 0, "k": 0}}"#
    let layer = S.shapeLayer("[\(animatedRect), {\"ty\": \"rd\", \"r\": {\"a\": 0, \"k\": 2}}, \(S.redFill)]")
    let layers = "[" + Array(repeating: layer, count: 30).joined(separator: ",") + "]"
    var options = LottieOptions()
    options.limits.maxSampledValues = 1_000
    options.limits.maxSampledFrames = 100
    let message = S.error(S.document(layers: layers, op: 100000), options: options)
    XCTAssertTrue(message.hasPrefix("test.json: layers["), message)
    XCTAssertTrue(message.contains("over the limit of 1000 (maxSampledValues)"), message)
  }

  /// A repeater of many shapes: the layers it would make are counted as
  /// they are made.
  func testShapeLayerBudget() {
    let shapes = (0..<5).map { _ in "\(S.rect()), \(S.redFill)" }.joined(separator: ",")
    let group = "[{\"ty\": \"gr\", \"it\": [\(shapes), {\"ty\": \"rp\", \"c\": {\"a\": 0, \"k\": 10000}}]}]"
    var options = LottieOptions()
    options.limits.maxShapeLayers = 1_000
    let message = S.error(S.document(layers: "[" + S.shapeLayer(group) + "]"), options: options)
    XCTAssertTrue(message.contains("layers made for shapes: 1001, over the limit of 1000 (maxShapeLayers)"), message)
  }

  /// n paths each followed by a fill in one group: fill k draws the k paths
  /// above it, n²/2 in all; counted before they are drawn.
  func testStyledPathsBudget() {
    let shapes = (0..<300).map { _ in "\(S.rect()), \(S.redFill)" }.joined(separator: ",")
    var options = LottieOptions()
    options.limits.maxStyledPaths = 10_000
    let message = S.error(S.document(layers: "[" + S.shapeLayer("[\(shapes)]") + "]"), options: options)
    XCTAssertTrue(message.contains("paths drawn by fills and strokes: "), message)
    XCTAssertTrue(message.hasSuffix("over the limit of 10000 (maxStyledPaths)"), message)
  }

  func testDecreasingKeyframeTimes() {
    let doc = S.document(layers: #"[{"ty": 3, "ip": 0, "op": 60, "st": 0, "ks": {"r": {"a": 1, "k": [{"t": 10, "s": [0]}, {"t": 5, "s": [1]}]}}}]"#)
    XCTAssertEqual(S.error(doc), "test.json: layers[0].ks.r.k[1].t: keyframe times must not decrease (5.0 after 10.0)")
  }
}
