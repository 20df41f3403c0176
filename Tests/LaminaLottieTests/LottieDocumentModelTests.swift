import Foundation
import LaminaScene
import XCTest

@testable import LaminaLottie

/// The typed model the builder reads (compositions, layers, shapes,
/// effects, their properties with keyframes and JSON paths), decoded from
/// JSON by a `Decoder`: no builder, no layer, no renderer.
final class LottieDocumentModelTests: XCTestCase {
  func decoder(_ options: LottieOptions = LottieOptions()) -> Decoder {
    Decoder(file: "m.json", options: options)
  }

  func node(_ json: String, path: String) throws -> Node {
    Node(
      json: try SceneLoader.parseJSON(Data(json.utf8), fileName: "m.json"), path: path,
      file: "m.json")
  }

  func shapes(_ json: String, _ options: LottieOptions = LottieOptions()) throws -> ShapeList {
    try decoder(options).shapeList(try node(json, path: "layers[0].shapes"))
  }

  func effects(_ json: String) throws -> [Effect] {
    try decoder().effectList(try node(json, path: "layers[0].ef"))
  }

  func kind(_ item: ShapeItem) -> String {
    switch item {
    case .group: return "group"
    case .geometry(.path): return "path"
    case .geometry(.rect): return "rect"
    case .geometry(.ellipse): return "ellipse"
    case .geometry(.star(let star, _, _, _, _, _, _, _, _, _)): return star ? "star" : "polygon"
    case .style(let s): return "\(s.kind)"
    case .modifier(let m):
      switch m.kind {
      case .trim: return "trim"
      case .round: return "round"
      case .puckerBloat: return "puckerBloat"
      case .zigZag: return "zigZag"
      case .offset: return "offset"
      }
    case .repeater: return "repeater"
    case .merge(let mode, _): return "merge \(mode)"
    case .inert: return "inert"
    }
  }

  func testEveryShapeKindIsDecodedByItsDecoder() throws {
    let list = try shapes(
      #"""
      [{"ty": "rc", "s": {"a": 0, "k": [10, 20]}, "p": {"a": 0, "k": [0, 0]}},
       {"ty": "el", "s": {"a": 0, "k": [4, 4]}},
       {"ty": "sr", "sy": 2, "pt": {"a": 0, "k": 6}},
       {"ty": "sh", "ks": {"a": 0, "k": {"v": [[0, 0], [1, 1]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": true}}},
       {"ty": "tm"}, {"ty": "rd"}, {"ty": "pb"}, {"ty": "zz"}, {"ty": "op"},
       {"ty": "mm", "mm": 3}, {"ty": "mm", "mm": 1},
       {"ty": "fl"}, {"ty": "st"}, {"ty": "gf", "g": {"p": 2, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1]}}},
       {"ty": "gs", "g": {"p": 0, "k": {"a": 0, "k": []}}},
       {"ty": "rp", "c": {"a": 0, "k": 3}},
       {"ty": "fl", "hd": true}, {"ty": "xx"},
       {"ty": "gr", "it": [{"ty": "tr"}]}]
      """#)
    XCTAssertEqual(
      list.items.map(kind),
      [
        "rect", "ellipse", "polygon", "path", "trim", "round", "puckerBloat", "zigZag", "offset",
        "merge 3", "inert", "fill", "stroke", "gradientFill", "gradientStroke", "repeater", "inert",
        "inert", "group",
      ])
    // What the model leaves out is held with the list, reported when it is built.
    XCTAssertEqual(
      list.notes, [LottieUnsupported(feature: "shape 'xx'", path: "layers[0].shapes[17]")])
    guard case .style(let gradient) = list.items[13] else { return XCTFail("not a style") }
    XCTAssertEqual(gradient.path, "layers[0].shapes[13]")
    XCTAssertEqual(gradient.colorStops, 2)
    XCTAssertEqual(gradient.stops.path, "layers[0].shapes[13].g.k")
  }

  func testPropertiesAnswerTheirValueAtAnyFrame() throws {
    let list = try shapes(
      #"""
      [{"ty": "rc", "s": {"a": 1, "k": [
          {"t": 0, "s": [0, 0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}},
          {"t": 10, "s": [100, 50], "h": 1},
          {"t": 20, "s": [10, 10]}]},
        "p": {"a": 0, "k": [5, 6]}, "r": 4}]
      """#)
    guard case .geometry(.rect(let position, let size, let roundness, let reversed)) = list.items[0]
    else { return XCTFail("not a rect") }
    XCTAssertEqual(size.path, "layers[0].shapes[0].s")
    XCTAssertEqual(size.keyframes.map(\.t), [0, 10, 20])
    XCTAssertTrue(size.isAnimated)
    XCTAssertEqual(size.value(at: -5), [0, 0])
    XCTAssertEqual(size.value(at: 5)[0], 50, accuracy: 1e-6)  // linear easing written as a curve
    XCTAssertEqual(size.value(at: 15), [100, 50])  // held
    XCTAssertEqual(size.value(at: 25), [10, 10])
    XCTAssertEqual(position.value(at: 7), [5, 6])
    XCTAssertFalse(position.isAnimated)
    XCTAssertEqual(roundness.first, [4])  // a bare number is a static value
    XCTAssertFalse(reversed)
  }

  func testGroupsAndRepeatersAreDecodedOnce() throws {
    let list = try shapes(
      #"""
      [{"ty": "gr", "nm": "G", "it": [
         {"ty": "rc", "s": {"a": 0, "k": [1, 1]}},
         {"ty": "tr", "p": {"a": 0, "k": [1, 2]}},
         {"ty": "tr", "p": {"a": 0, "k": [30, 40]}, "o": {"a": 0, "k": 50}}]},
       {"ty": "rp", "c": {"a": 1, "k": [{"t": 0, "s": [2]}, {"t": 10, "s": [4.5]}]}, "o": {"a": 0, "k": 1},
        "m": 2, "tr": {"p": {"a": 0, "k": [10, 0]}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 20}}}]
      """#)
    guard case .group(let g) = list.items[0], case .repeater(let r) = list.items[1] else {
      return XCTFail("\(list.items.map(kind))")
    }
    XCTAssertEqual(g.name, "G")
    XCTAssertEqual(g.path, "layers[0].shapes[0]")
    XCTAssertEqual(g.contents.items.map(kind), ["rect", "inert", "inert"])
    // The last transform is the group's.
    XCTAssertEqual(g.transform?.path, "layers[0].shapes[0].it[2]")
    XCTAssertEqual(g.transform?.spec.position?.first, [30, 40, 0])
    XCTAssertEqual(g.transform?.spec.opacity.first, [50])
    XCTAssertEqual(r.maxCopies, 5)  // 4.5 copies at most, rounded up
    XCTAssertEqual(r.copies.value(at: 5), [3.25])
    XCTAssertEqual(r.copiesPath, "layers[0].shapes[1].c")
    XCTAssertFalse(r.above)
    XCTAssertEqual(r.transform.position?.first, [10, 0, 0])
    XCTAssertEqual(r.endOpacity.first, [20])
    XCTAssertEqual(r.offset.first, [1])
  }

  func testExpressionsLeftOutAreHeldWithTheirList() throws {
    var options = LottieOptions()
    options.expressions = .keyframed
    let list = try shapes(
      #"""
      [{"ty": "gr", "it": [{"ty": "el", "s": {"a": 0, "k": [3, 3], "x": "value * 2"}}]},
       {"ty": "fl", "o": {"a": 0, "k": 80, "x": "50"}}]
      """#, options)
    XCTAssertEqual(
      list.notes, [LottieUnsupported(feature: "expression", path: "layers[0].shapes[1].o.x")])
    guard case .group(let g) = list.items[0], case .style(let fill) = list.items[1] else {
      return XCTFail("\(list.items.map(kind))")
    }
    XCTAssertEqual(
      g.contents.notes,
      [LottieUnsupported(feature: "expression", path: "layers[0].shapes[0].it[0].s.x")])
    XCTAssertEqual(fill.opacity.first, [80])  // the keyframed value
    XCTAssertTrue(fill.opacity.expression)
  }

  func testDecodingErrorsNameTheFileAndPath() throws {
    func error(_ json: String, _ limits: LottieLimits = LottieLimits()) -> String {
      var options = LottieOptions()
      options.limits = limits
      do {
        _ = try shapes(json, options)
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(
      error(#"[{"ty": "gr", "it": [3]}]"#),
      "m.json: layers[0].shapes[0].it[0]: expected a shape object, found a number")
    XCTAssertEqual(
      error(#"[{"ty": "gr"}]"#), "m.json: layers[0].shapes[0]: missing required key 'it'")
    XCTAssertEqual(
      error(#"[{"ty": "rc", "s": {"a": 1, "k": [{"t": 5, "s": [1, 1]}, {"t": 2, "s": [2, 2]}]}}]"#),
      "m.json: layers[0].shapes[0].s.k[1].t: keyframe times must not decrease (2.0 after 5.0)")
    XCTAssertEqual(
      error(#"[{"ty": "gf", "g": {"p": -1, "k": {"a": 0, "k": []}}}]"#),
      "m.json: layers[0].shapes[0].g.p: a gradient's colour-stop count must not be negative (found -1)"
    )
    // Limits on what one item asks for are checked as it is decoded.
    XCTAssertEqual(
      error(#"[{"ty": "sr", "pt": {"a": 0, "k": 1000000}}]"#),
      "m.json: layers[0].shapes[0].pt: vertices of one path: 2000000, over the limit of 10000 (maxPathVertices)"
    )
    var few = LottieLimits()
    few.maxKeyframes = 1
    XCTAssertTrue(
      error(
        #"[{"ty": "el", "s": {"a": 1, "k": [{"t": 0, "s": [1, 1]}, {"t": 2, "s": [2, 2]}]}}]"#, few
      )
      .hasPrefix(
        "m.json: layers[0].shapes[0].s.k: keyframes of one property: 2, over the limit of 1"))
  }

  func testEffectsAreNamedKindsWithTypedValues() throws {
    let list = try effects(
      #"""
      [{"ty": 29, "nm": "Gaussian Blur", "ef": [{"v": {"a": 1, "k": [{"t": 0, "s": [10]}, {"t": 10, "s": [30]}]}}, {"v": {"a": 0, "k": 2}}]},
       {"ty": 25, "nm": "Drop Shadow", "ef": [{"v": {"a": 0, "k": [1, 0, 0, 1]}}, {"v": {"a": 0, "k": 255}},
         {"v": {"a": 0, "k": 90}}, {"v": {"a": 0, "k": 10}}, {"v": {"a": 0, "k": 8}}]},
       {"ty": 5, "nm": "Off", "en": 0, "ef": []},
       {"ty": 20, "nm": "Tint", "ef": [{"v": {"a": 0, "k": [0, 0, 0, 1]}}, {"v": {"a": 0, "k": [1, 0, 0, 1]}}, {"v": {"a": 0, "k": 100}}]},
       {"ty": 5, "nm": "Box", "mn": "ADBE Box Blur2", "ef": [{"v": {"a": 0, "k": 2}}, {"v": {"a": 0, "k": 3}}]},
       {"ty": 5, "nm": "Slider", "mn": "ADBE Slider Control", "ef": [{"v": {"a": 0, "k": 1}}]},
       {"ty": 22, "nm": "Stroke", "ef": [{"v": {"a": 0, "k": 1}}, {"v": {"a": 0, "k": 0}}, {}, {"v": {"a": 0, "k": [0, 1, 0, 1]}}]},
       {"ty": 5, "nm": "Fractal Noise", "ef": []}]
      """#)
    // The disabled effect is left out; the others keep their place (their filter's name).
    XCTAssertEqual(list.map(\.index), [0, 1, 3, 4, 5, 6, 7])
    XCTAssertEqual(list.map(\.path).first, "layers[0].ef[0]")
    let blur = list[0]
    guard case .gaussianBlur = blur.kind else { return XCTFail("not a blur") }
    XCTAssertEqual(blur.blurSigma(at: 5), 10)  // blurriness 20 halfway, halved
    XCTAssertEqual(blur.blurDimensions, 2)
    XCTAssertEqual(
      blur.properties.map(\.path), ["layers[0].ef[0].ef[0].v", "layers[0].ef[0].ef[1].v"])

    let shadow = try XCTUnwrap(list[1].shadow(at: 0))
    XCTAssertEqual(shadow.color, [1, 0, 0, 1])
    XCTAssertEqual(shadow.opacity, 1)
    XCTAssertEqual(shadow.offset.width, 10, accuracy: 1e-9)  // direction 90°: to the right
    XCTAssertEqual(shadow.offset.height, 0, accuracy: 1e-9)
    XCTAssertEqual(shadow.radius, 4)

    // Tint at full amount: luminance mapped from black to red.
    let tint = try XCTUnwrap(list[2].colorMatrix(at: 0))
    XCTAssertEqual(tint.rows[0], [0.2126, 0.7152, 0.0722])
    XCTAssertEqual(tint.rows[1], [0, 0, 0])
    XCTAssertEqual(tint.bias, [0, 0, 0])

    guard case .boxBlur = list[3].kind else { return XCTFail("not a box blur") }
    // Radius 2, 3 iterations: σ = √(3·2·3 / 3).
    XCTAssertEqual(try XCTUnwrap(list[3].blurSigma(at: 0)), 6.0.squareRoot(), accuracy: 1e-9)
    guard case .control = list[4].kind else { return XCTFail("not a control") }
    guard case .stroke(let stroke) = list[5].kind else { return XCTFail("not a stroke") }
    XCTAssertEqual(stroke.mask.scalar(at: 0, 1), 1)
    XCTAssertNil(stroke.brushSize.property)  // absent: the default
    XCTAssertEqual(stroke.color.padded([1, 1, 1, 1]).first, [0, 1, 0, 1])
    XCTAssertEqual(stroke.end.padded([100]).first, [100])
    guard case .other = list[6].kind else { return XCTFail("not other") }
    XCTAssertEqual(list[6].name, "Fractal Noise")
  }

  func testLayersAreDecodedOnceWithTheirKindAndContent() throws {
    let b = decoder()
    let layers = try node(
      #"""
      [{"ty": 1, "ind": 1, "nm": "Solid", "sw": 20, "sh": 10, "sc": "#ff0000", "ip": 0, "op": 30, "bm": 3, "ao": 1,
        "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0]}, {"t": 10, "s": [10, 20]}]}}},
       {"ty": 0, "ind": 2, "parent": 1, "refId": "a", "ip": 5, "op": 25, "st": 5, "sr": -2, "td": 1,
        "tm": {"a": 0, "k": 0.5}},
       {"ty": 4, "ind": 3, "tt": 3, "tp": 2, "hd": true, "shapes": [{"ty": "el"}],
        "ef": [{"ty": 29, "ef": [{"v": {"a": 0, "k": 4}}]}]},
       {"ty": 13, "ind": 1, "ddd": 1}]
      """#, path: "assets[0].layers")
    let model = try b.compositionModel(layers)
    XCTAssertEqual(model.layers.map(\.kind), [.solid, .precomposition, .shape, .camera])
    XCTAssertEqual(model.layers.map(\.path).last, "assets[0].layers[3]")
    XCTAssertEqual(model.layers[3].kind.reportedName, "camera layer")
    XCTAssertEqual(model.byInd[1]?.index, 0)  // the first layer of an ind
    let precomp = model.layers[1]
    XCTAssertEqual(precomp.parent, 1)
    XCTAssertEqual(precomp.sr, -2)
    XCTAssertTrue(precomp.isMatteSource)
    XCTAssertEqual(model.layers[2].matteMode, 3)
    XCTAssertEqual(model.layers[2].matteParent, 2)
    XCTAssertTrue(model.layers[2].hidden)
    XCTAssertTrue(model.layers[3].is3D)

    let solid = try b.layerContent(model.layers[0])
    XCTAssertEqual(solid.solid?.width, 20)
    XCTAssertEqual(solid.solid?.color, "#ff0000")
    XCTAssertEqual(solid.blendMode, 3)
    XCTAssertEqual(solid.transform.position?.value(at: 5), [5, 10, 0])
    XCTAssertTrue(solid.transform.autoOrient)
    XCTAssertEqual(try b.layerContent(model.layers[1]).timeRemap?.first, [0.5])
    let shape = try b.layerContent(model.layers[2])
    XCTAssertEqual(shape.shapes?.items.count, 1)
    XCTAssertEqual(shape.effects.map(\.path), ["assets[0].layers[2].ef[0]"])
    // Decoded once: every later use (another instance of the precomposition,
    // a parent's transform, a matte source) reads what is kept by path.
    XCTAssertEqual(b.compositionModels.keys.sorted(), ["assets[0].layers"])
    XCTAssertEqual(
      b.layerContents.keys.sorted(),
      ["assets[0].layers[0]", "assets[0].layers[1]", "assets[0].layers[2]"])
  }

  func testLayerErrorsNameTheFileAndPath() throws {
    func error(_ json: String) -> String {
      do {
        let b = decoder()
        let model = try b.compositionModel(try node(json, path: "layers"))
        for l in model.layers { _ = try b.layerContent(l) }
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    XCTAssertEqual(
      error(#"[{"ty": 3, "sr": 0}]"#),
      "m.json: layers[0].sr: time stretch 0.0 must not be zero (at least 1e-06 and at most 1e+06 in magnitude)"
    )
    XCTAssertEqual(
      error(#"[{"ty": 3, "st": "zero"}]"#),
      "m.json: layers[0].st: expected a number, found a string")
    XCTAssertEqual(error(#"[3]"#), "m.json: layers[0]: expected a layer object, found a number")
    XCTAssertEqual(error(#"[{"ty": 4}]"#), "m.json: layers[0]: missing required key 'shapes'")
    XCTAssertEqual(
      error(#"[{"ty": 1, "sw": -1}]"#), "m.json: layers[0]: solid size -1.0 x 0.0 is out of range")
  }

  func testMasksAreDecodedWithTheirLayer() throws {
    let b = decoder()
    let model = try b.compositionModel(
      try node(
        #"""
        [{"ty": 3, "masksProperties": [
           {"mode": "s", "inv": true, "pt": {"a": 0, "k": {"v": [[0, 0], [10, 0], [10, 10]], "c": true}},
            "o": {"a": 1, "k": [{"t": 0, "s": [100]}, {"t": 10, "s": [0]}]}, "x": {"a": 0, "k": -2}},
           {"mode": "n", "pt": {"a": 0, "k": {"v": [], "c": false}}},
           {"mode": "z", "pt": {"a": 0, "k": {"v": [[1, 2]], "c": false}}, "f": {"a": 0, "k": [4, 6]}}]}]
        """#, path: "layers"))
    let masks = try b.layerContent(model.layers[0]).masks
    XCTAssertEqual(masks.map(\.mode), [.subtract, .none, .other("z")])
    XCTAssertEqual(masks.map(\.mode.code), ["s", "n", "z"])
    XCTAssertEqual(masks[0].path, "layers[0].masksProperties[0]")
    XCTAssertTrue(masks[0].inverted)
    XCTAssertTrue(masks[0].shape.closed)
    // Shape vectors: vertices, then in and out tangents (absent: zero).
    XCTAssertEqual(masks[0].shape.first, [0, 0, 10, 0, 10, 10] + Array(repeating: 0, count: 12))
    XCTAssertEqual(masks[0].opacity.value(at: 2.5), [75])
    XCTAssertEqual(masks[0].expansion.first, [-2])
    XCTAssertEqual(masks[2].feather.first, [4, 6])
    XCTAssertEqual(masks[1].opacity.first, [100])  // the default
  }

  func testAssetsAreDecodedOnceByTheirId() throws {
    let b = decoder()
    let list = try node(
      #"""
      [{"id": "c", "w": 50, "h": 40, "layers": []},
       {"id": "img", "w": 10, "h": 20, "u": "", "p": "data:image/png;base64,AAAA", "e": 1},
       {"id": "file", "u": "images/", "p": "a.png"}]
      """#, path: "assets")
    for a in try list.array() { b.assets[try a.required("id").string()] = a }
    let c = try b.asset("c", refPath: "layers[0].refId")
    guard case .precomposition(let layers) = c.kind else { return XCTFail("not a precomposition") }
    XCTAssertEqual(layers.path, "assets[0].layers")
    XCTAssertEqual(c.width, 50)
    XCTAssertEqual(c.height, 40)
    let image = try b.asset("img", refPath: "layers[1].refId")
    guard case .image(_, let file, let embedded) = image.kind else {
      return XCTFail("not an image")
    }
    XCTAssertTrue(embedded)
    XCTAssertEqual(file, "data:image/png;base64,AAAA")
    XCTAssertEqual(image.filePath, "assets[1].p")
    guard case .image(let directory, "a.png", false) = try b.asset("file", refPath: "x").kind else {
      return XCTFail("not a file")
    }
    XCTAssertEqual(directory, "images/")
    XCTAssertEqual(b.decodedAssets.keys.sorted(), ["c", "file", "img"])
    XCTAssertThrowsError(try b.asset("nope", refPath: "layers[2].refId")) { error in
      XCTAssertEqual("\(error)", "m.json: layers[2].refId: no asset with id 'nope'")
    }
  }

  func testFontsAndGlyphShapes() throws {
    let b = decoder()
    try b.decodeFonts(
      try node(
        #"""
        {"fonts": {"list": [{"fName": "Sans-Bold", "fFamily": "Sans", "fStyle": "Bold", "fPath": "https://x/s.ttf"}]},
         "chars": [{"ch": "A", "fFamily": "Sans", "style": "Bold", "w": 60, "data": {"shapes": [
           {"ty": "gr", "it": [{"ty": "sh", "ks": {"a": 0, "k": {"v": [[0, 0], [10, 0]], "c": false}}}]}]}}]}
        """#, path: ""))
    XCTAssertEqual(b.fonts.list["Sans-Bold"]?.family, "Sans")
    XCTAssertEqual(b.fonts.list["Sans-Bold"]?.style, "Bold")
    XCTAssertEqual(
      b.reports.unsupported,
      [LottieUnsupported(feature: "font file or URL (never fetched)", path: "fonts.list[0].fPath")])
    try b.indexChars()
    let node = try XCTUnwrap(b.fonts.charsByKey[["A", "Sans", "Bold"]])
    XCTAssertEqual(node.path, "chars[0]")
    let glyph = try b.glyph(node)
    XCTAssertEqual(glyph.width, 60)
    XCTAssertEqual(glyph.shapes.count, 1)
    XCTAssertEqual(b.fonts.glyphs.keys.sorted(), ["chars[0]"])
  }

  /// A precomposition used three times: its asset, layers and their
  /// content decoded once, its report made once (layers are made, but
  /// nothing is rendered).
  func testAPrecompositionUsedManyTimesIsDecodedOnce() throws {
    let b = Builder(
      file: "m.json", options: LottieOptions(), baseDirectory: nil, frameRate: 10, width: 100,
      height: 100)
    let assets = try node(
      #"""
      [{"id": "c", "w": 10, "h": 10, "layers": [{"ty": 4, "ind": 1, "ip": 0, "op": 10,
        "shapes": [{"ty": "el", "s": {"a": 0, "k": [4, 4]}}, {"ty": "fl"}, {"ty": "zz9"}]}]}]
      """#, path: "assets")
    for a in try assets.array() { b.assets[try a.required("id").string()] = a }
    let layers = try node(
      #"""
      [{"ty": 0, "refId": "c", "ip": 0, "op": 10}, {"ty": 0, "refId": "c", "ip": 0, "op": 10},
       {"ty": 0, "refId": "c", "ip": 0, "op": 10, "st": 2}]
      """#, path: "layers")
    XCTAssertEqual(try b.composition(layers, depth: 0, chain: []).count, 3)
    XCTAssertEqual(b.layerCount, 6)
    XCTAssertEqual(b.decoder.compositionModels.keys.sorted(), ["assets[0].layers", "layers"])
    XCTAssertEqual(
      b.decoder.layerContents.keys.sorted(),
      ["assets[0].layers[0]", "layers[0]", "layers[1]", "layers[2]"])
    XCTAssertEqual(b.decoder.decodedAssets.keys.sorted(), ["c"])
    XCTAssertEqual(
      b.unsupported,
      [LottieUnsupported(feature: "shape 'zz9'", path: "assets[0].layers[0].shapes[2]")])
  }

  /// The expanded layer count (`maxLayers`, checked before a
  /// precomposition is built) is read from the compositions' models: every
  /// layer of an asset, hidden ones and matte sources too (3 in "outer"),
  /// plus each precomposition layer's asset expanded ("inner" twice: 2
  /// layers each), with no layer built; an asset that is missing counts
  /// as its layer alone. The models it decoded are those building uses.
  func testExpandedLayerCountIsReadFromTheModel() throws {
    let b = Builder(
      file: "m.json", options: LottieOptions(), baseDirectory: nil, frameRate: 10, width: 100,
      height: 100)
    let assets = try node(
      #"""
      [{"id": "outer", "layers": [{"ty": 0, "refId": "inner", "ip": 0, "op": 10},
         {"ty": 3, "ip": 0, "op": 10, "hd": true}, {"ty": 0, "refId": "inner", "ip": 0, "op": 10, "td": 1},
         {"ty": 0, "refId": "gone", "ip": 0, "op": 10}]},
       {"id": "inner", "layers": [{"ty": 3, "ip": 0, "op": 10}, {"ty": 1, "sw": 5, "sh": 5, "sc": "#ff0000", "ip": 0, "op": 10}]}]
      """#, path: "assets")
    for a in try assets.array() { b.assets[try a.required("id").string()] = a }
    let outer = try b.decoder.asset("outer", refPath: "layers[0].refId")
    guard case .precomposition(let layers) = outer.kind else { return XCTFail("not a precomposition") }
    XCTAssertEqual(try b.expandedCount(outer, layers, chain: []), 4 + 2 + 2)
    XCTAssertEqual(b.expandedCounts, ["outer": 8, "inner": 2])
    XCTAssertEqual(b.layerCount, 0)
    XCTAssertEqual(b.decoder.compositionModels.keys.sorted(), ["assets[0].layers", "assets[1].layers"])
    XCTAssertEqual(b.decoder.compositionModels["assets[0].layers"]?.layers.map(\.refId), ["inner", nil, "inner", "gone"])
  }

  /// What decoding leaves out is reported in building order: a list's own
  /// items first, then its groups' (built after), as before the model.
  func testReportsKeepTheirBuildingOrder() throws {
    let shapes = #"[{"ty": "gr", "it": [{"ty": "inner"}]}, {"ty": "outer"}]"#
    let a = try LottieTestSupport.load(
      LottieTestSupport.document(layers: "[" + LottieTestSupport.shapeLayer(shapes) + "]"))
    XCTAssertEqual(
      a.unsupported,
      [
        LottieUnsupported(feature: "shape 'outer'", path: "layers[0].shapes[1]"),
        LottieUnsupported(feature: "shape 'inner'", path: "layers[0].shapes[0].it[0]"),
      ])
  }

  /// A text layer's keyframe list and its path are model values: each
  /// keyframe's frame, document and path; the path's mask shape, margins
  /// and options; errors and limits name their paths.
  func testTextKeyframesAndTextOnAPath() throws {
    let k = try node(
      #"""
      [{"t": 0, "s": {"t": "one", "s": 10}}, {"t": 12.5, "s": {"t": "two", "s": 20}}]
      """#, path: "layers[0].t.d.k")
    let keyframes = try decoder().textKeyframes(try XCTUnwrap(k.items), of: k)
    XCTAssertEqual(keyframes.map(\.frame), [0, 12.5])
    XCTAssertEqual(keyframes.map(\.document.text), ["one", "two"])
    XCTAssertEqual(keyframes.map(\.document.size), [10, 20])
    XCTAssertEqual(keyframes.map(\.path), ["layers[0].t.d.k[0]", "layers[0].t.d.k[1]"])
    // The characters of all the documents share one budget.
    var few = LottieOptions()
    few.limits.maxTextLength = 5
    XCTAssertThrowsError(try decoder(few).textKeyframes(try XCTUnwrap(k.items), of: k)) {
      XCTAssertEqual(
        "\($0)",
        "m.json: layers[0].t.d.k[1].s.t: characters of one text layer: 6, over the limit of 5 (maxTextLength)"
      )
    }
    let late = try node(#"[{"t": 1e300, "s": {"t": "x"}}]"#, path: "layers[0].t.d.k")
    XCTAssertThrowsError(try decoder().textKeyframes(try XCTUnwrap(late.items), of: late)) {
      XCTAssertTrue("\($0)".contains("layers[0].t.d.k[0]: keyframe time"), "\($0)")
    }

    let masks = try node(
      #"""
      [{"mode": "n", "pt": {"a": 0, "k": {"v": [[0, 0], [100, 0]], "i": [[0, 0], [0, 0]], "o": [[0, 0], [0, 0]], "c": false}}}]
      """#, path: "layers[0].masksProperties")
    let b = decoder()
    let path = try XCTUnwrap(
      try b.textPath(
        try node(#"{"m": 0, "f": {"a": 0, "k": 5}, "r": 1, "p": 0}"#, path: "layers[0].t.p"),
        masks: masks))
    XCTAssertEqual(path.shape.first, [0, 0, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    XCTAssertFalse(path.shape.closed)
    XCTAssertEqual(path.firstMargin.first, [5])
    XCTAssertEqual(path.lastMargin.first, [0])
    XCTAssertTrue(path.reversed)
    XCTAssertFalse(path.perpendicular)
    XCTAssertEqual(path.node.path, "layers[0].t.p")
    // No text path without `m`; a missing mask is reported.
    XCTAssertNil(try b.textPath(try node(#"{"f": {"a": 0, "k": 5}}"#, path: "t.p"), masks: masks))
    XCTAssertNil(try b.textPath(try node(#"{"m": 3}"#, path: "layers[0].t.p"), masks: masks))
    XCTAssertTrue(
      b.reports.unsupported.contains {
        $0.path == "layers[0].t.p.m" && $0.feature == "text on a path without its mask"
      })
  }

  func testTextDocumentsAndAnimators() throws {
    let b = decoder()
    let d = try b.textDocument(
      try node(
        #"""
        {"t": "ab\rcd", "s": 20, "f": "Sans-Bold", "j": 2, "tr": 50, "ca": 1,
         "fc": [1, 0, 0], "sw": 2, "sc": [0, 0, 1], "of": false}
        """#, path: "layers[0].t.d.k[0].s"))
    XCTAssertEqual(d.text, "AB\nCD")
    XCTAssertEqual(d.size, 20)
    XCTAssertEqual(d.lineHeight, 24)  // 1.2 × size by default
    XCTAssertEqual(d.justify, 2)
    XCTAssertEqual(d.fontName, "Sans-Bold")
    XCTAssertEqual(d.tracking, 50)
    XCTAssertEqual(d.fill, [1, 0, 0])
    XCTAssertEqual(d.stroke, [0, 0, 1])
    XCTAssertFalse(d.strokeOverFill)
    // No stroke colour without a stroke width.
    XCTAssertNil(try b.textDocument(try node(#"{"t": "x", "sc": [0, 0, 1]}"#, path: "s")).stroke)
    var few = LottieOptions()
    few.limits.maxTextLength = 2
    XCTAssertThrowsError(try decoder(few).textDocument(try node(#"{"t": "abc"}"#, path: "s"))) {
      XCTAssertEqual(
        "\($0)", "m.json: s.t: characters of one text layer: 3, over the limit of 2 (maxTextLength)"
      )
    }

    let animators = try XCTUnwrap(
      try b.textAnimators(
        try node(
          #"""
          [{"s": {"t": 0, "s": {"a": 0, "k": 10}, "e": {"a": 0, "k": 60}, "r": 2, "sh": 3},
            "a": {"o": {"a": 0, "k": 0}, "sk": {"a": 0, "k": 5}}}]
          """#, path: "layers[0].t.a")))
    XCTAssertEqual(animators.path, "layers[0].t.a")
    let a = try XCTUnwrap(animators.list.first)
    XCTAssertEqual(a.start.first, [10])
    XCTAssertEqual(a.end.first, [60])
    XCTAssertTrue(a.byIndex)
    XCTAssertEqual(a.shape, 3)
    XCTAssertEqual(a.opacity?.first, [0])
    XCTAssertNil(a.position)
    XCTAssertEqual(
      b.reports.unsupported,
      [LottieUnsupported(feature: "text animator property 'sk'", path: "layers[0].t.a[0].a.sk")])
  }
}
