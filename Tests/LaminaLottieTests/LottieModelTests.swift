import Foundation
import Lamina
import LaminaLottie
import XCTest

/// The tree the importer builds and the values its animations take at
/// given times (rows of docs/lottie.md that need no golden image).
final class LottieModelTests: XCTestCase {
  typealias S = LottieTestSupport

  func testDocumentFieldsAndMarkers() throws {
    let doc = """
      {"v": "5.7.0", "fr": 30, "ip": 10, "op": 70, "w": 200, "h": 100, "layers": [],
       "markers": [{"cm": "intro", "tm": 10, "dr": 20}, {"cm": "loop", "tm": 30, "dr": 40}]}
      """
    let a = try S.load(doc)
    XCTAssertEqual(a.width, 200)
    XCTAssertEqual(a.height, 100)
    XCTAssertEqual(a.frameRate, 30)
    XCTAssertEqual(a.inPoint, 10)
    XCTAssertEqual(a.outPoint, 70)
    XCTAssertEqual(a.duration, 2)
    XCTAssertEqual(
      a.markers,
      [
        LottieMarker(name: "intro", startFrame: 10, durationFrames: 20),
        LottieMarker(name: "loop", startFrame: 30, durationFrames: 40),
      ])
    XCTAssertEqual(a.marker(named: "loop")?.startFrame, 30)
    XCTAssertEqual(a.time(ofFrame: 40), 1)
    XCTAssertEqual(a.rootLayer.bounds, CGRect(x: 0, y: 0, width: 200, height: 100))
    XCTAssertEqual(a.rootLayer.anchorPoint, .zero)
    XCTAssertEqual(a.rootLayer.position, .zero)
    let scene = a.makeScene()
    XCTAssertEqual(scene.canvas.width, 200)
    XCTAssertTrue(scene.root === a.rootLayer)
  }

  /// Frame F of the document shows at scene time (F − ip) / fr: a layer
  /// visible on [20, 40) of a document whose ip is 10.
  func testLayerVisibleOnItsInToOutPoints() throws {
    let doc = """
      {"v": "5", "fr": 10, "ip": 10, "op": 60, "w": 10, "h": 10,
       "layers": [{"ty": 3, "nm": "n", "ip": 20, "op": 40, "st": 0, "ks": {}}]}
      """
    let a = try S.load(doc)
    let layer = try XCTUnwrap(a.rootLayer.sublayers?.first)
    for (frame, hidden) in [(10.0, true), (19.0, true), (20.0, false), (39.0, false), (39.9, false), (40.0, true), (50.0, true)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let shown = try XCTUnwrap(p.sublayers?.first)
      XCTAssertEqual(shown.isHidden, hidden, "frame \(frame)")
    }
    XCTAssertTrue(layer.isHidden)
  }

  /// Keyframes: linear, bezier-eased (the segment's timing function) and
  /// hold, at frames between them.
  func testKeyframeInterpolation() throws {
    let layer = """
      [{"ty": 3, "nm": "n", "ip": 0, "op": 60, "st": 0, "ks": {
        "p": {"a": 1, "k": [
          {"t": 0, "s": [0, 0], "o": {"x": [0.5], "y": [0]}, "i": {"x": [0.5], "y": [1]}},
          {"t": 20, "s": [100, 0], "h": 1},
          {"t": 40, "s": [100, 50]}]},
        "o": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 60, "s": [100]}]}}}]
      """
    let a = try S.load(S.document(layers: layer))
    func position(_ frame: Double) throws -> CGPoint {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      return try XCTUnwrap(S.named("n", in: p)).position
    }
    XCTAssertEqual(try position(0).x, 0, accuracy: 1e-6)
    // Symmetric ease in-out: half way at the middle, slow near the ends.
    XCTAssertEqual(try position(10).x, 50, accuracy: 0.5)
    XCTAssertLessThan(try position(2).x, 10 * 0.5)
    XCTAssertEqual(try position(20).x, 100, accuracy: 1e-6)
    // Hold: stays until the next keyframe, then jumps.
    XCTAssertEqual(try position(39).y, 0, accuracy: 1e-6)
    XCTAssertEqual(try position(40).y, 50, accuracy: 1e-6)
    XCTAssertEqual(try position(59).y, 50, accuracy: 1e-6)
    // The opacity is on the layer itself (its anchor, still, is its
    // bounds' origin): linear.
    let p = S.presentation(a, at: a.time(ofFrame: 30))
    let shown = try XCTUnwrap(S.named("n", in: p))
    XCTAssertEqual(Double(shown.opacity), 0.5, accuracy: 1e-3)
  }

  /// A path keyframe animation is a CAKeyframeAnimation of `path` with the
  /// document's key times.
  func testPathKeyframesBecomeAPathAnimation() throws {
    let shape = """
      [{"ty": "sh", "ks": {"a": 1, "k": [
        {"t": 0, "s": [{"v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]], "c": true}]},
        {"t": 30, "s": [{"v": [[0, 0], [20, 0], [20, 20]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]], "c": true}]}]}},
       \(S.redFill)]
      """
    let a = try S.load(S.document(layers: "[" + S.shapeLayer(shape) + "]"))
    let layer = try XCTUnwrap(S.first(CAShapeLayer.self, in: a.rootLayer))
    let anim = try XCTUnwrap(layer.animation(forKey: "path") as? CAKeyframeAnimation)
    XCTAssertEqual(anim.values?.count, 2)
    XCTAssertEqual(anim.keyTimes, [0, 1])
    XCTAssertEqual(anim.duration, 0.5, accuracy: 1e-9)
    let p = S.presentation(a, at: 0.25)
    let shown = try XCTUnwrap(S.first(CAShapeLayer.self, in: p))
    XCTAssertEqual(shown.path?.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 15, height: 15))
  }

  /// A transform whose anchor holds still is one layer: position, turn and
  /// scale on it and the anchor as its bounds' origin, so that a point of
  /// the content lands at `position + R·S·(p − anchor)` as through the
  /// pair it was (content at `position = −anchor` inside). An animated
  /// anchor keeps the pair; a group whose transform changes nothing is no
  /// layer at all, its items in its place.
  func testATransformWithAStillAnchorIsOneLayer() throws {
    // Anchor (10, 20), position (50, 60), 90° (clockwise on the canvas,
    // y down), scale 200 % × 100 %: (11, 20) is (1, 0) from the anchor,
    // scaled to (2, 0), turned to (0, 2), at (50, 62); (10, 23) is
    // (0, 3), turned to (−3, 0): (47, 60).
    func shapes(_ groupTransform: String) -> String {
      """
      [{"ty": "gr", "nm": "g", "it": [\(S.rect(x: 10, y: 20, w: 4, h: 4)), \(S.redFill), \(groupTransform)]}]
      """
    }
    let identity = #"{"ty": "tr", "a": {"a": 0, "k": [5, 5]}, "p": {"a": 0, "k": [5, 5]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}"#
    let still = #""ks": {"a": {"a": 0, "k": [10, 20]}, "p": {"a": 0, "k": [50, 60]}, "r": {"a": 0, "k": 90}, "s": {"a": 0, "k": [200, 100]}, "o": {"a": 0, "k": 50}}"#
    let a = try S.load(
      S.document(layers: #"[{"ty": 4, "nm": "n", "ip": 0, "op": 60, "st": 0, \#(still), "shapes": \#(shapes(identity))}]"#))
    let root = S.presentation(a, at: 0)
    let layer = try XCTUnwrap(S.named("n", in: root))
    XCTAssertEqual(layer.bounds, CGRect(x: 10, y: 20, width: 0, height: 0))
    XCTAssertEqual(layer.opacity, 0.5)
    // The identity group made no layer: the fill is the layer's own.
    XCTAssertNil(S.named("g", in: root))
    let fill = try XCTUnwrap(layer.sublayers?.first as? CAShapeLayer)
    XCTAssertEqual(layer.sublayers?.count, 1)
    let turned = fill.convert(CGPoint(x: 11, y: 20), to: root)
    XCTAssertEqual(turned.x, 50, accuracy: 1e-9)
    XCTAssertEqual(turned.y, 62, accuracy: 1e-9)
    let down = fill.convert(CGPoint(x: 10, y: 23), to: root)
    XCTAssertEqual(down.x, 47, accuracy: 1e-9)
    XCTAssertEqual(down.y, 60, accuracy: 1e-9)

    // An animated anchor: the pair, the inner layer at −anchor. A group
    // that moves keeps its layer.
    let moving = #""ks": {"a": {"a": 1, "k": [{"t": 0, "s": [10, 20]}, {"t": 60, "s": [0, 0]}]}, "p": {"a": 0, "k": [50, 60]}}"#
    let shifted = #"{"ty": "tr", "p": {"a": 0, "k": [1, 0]}}"#
    let b = try S.load(
      S.document(layers: #"[{"ty": 4, "nm": "n", "ip": 0, "op": 60, "st": 0, \#(moving), "shapes": \#(shapes(shifted))}]"#))
    let rootB = S.presentation(b, at: 0)
    let outer = try XCTUnwrap(S.named("n", in: rootB))
    XCTAssertEqual(outer.bounds, .zero)
    let inner = try XCTUnwrap(outer.sublayers?.first)
    XCTAssertEqual(inner.position, CGPoint(x: -10, y: -20))
    let group = try XCTUnwrap(S.named("g", in: rootB))
    XCTAssertTrue(group.superlayer === inner)
    let fillB = try XCTUnwrap(S.first(CAShapeLayer.self, in: rootB))
    let corner = fillB.convert(CGPoint(x: 10, y: 20), to: rootB)
    XCTAssertEqual(corner.x, 51, accuracy: 1e-9)
    XCTAssertEqual(corner.y, 60, accuracy: 1e-9)

    // A skewed transform is one sampled matrix, the anchor in it, animated
    // or not: one layer. At frame 0 the anchor (10, 20) lands on (50, 60).
    let skewed = #""ks": {"a": {"a": 1, "k": [{"t": 0, "s": [10, 20]}, {"t": 60, "s": [0, 0]}]}, "p": {"a": 0, "k": [50, 60]}, "sk": {"a": 0, "k": 10}}"#
    let c = try S.load(
      S.document(layers: #"[{"ty": 4, "nm": "n", "ip": 0, "op": 60, "st": 0, \#(skewed), "shapes": \#(shapes(identity))}]"#))
    let rootC = S.presentation(c, at: 0)
    let matrixLayer = try XCTUnwrap(S.named("n", in: rootC))
    XCTAssertTrue(matrixLayer.sublayers?.first is CAShapeLayer, "the fill is the layer's own")
    let anchored = try XCTUnwrap(S.first(CAShapeLayer.self, in: rootC))
      .convert(CGPoint(x: 10, y: 20), to: rootC)
    XCTAssertEqual(anchored.x, 50, accuracy: 1e-6)
    XCTAssertEqual(anchored.y, 60, accuracy: 1e-6)
  }

  /// Parenting: a child moves with its parent's transform, not its opacity.
  func testParentingAppliesTransformNotOpacity() throws {
    let layers = """
      [{"ty": 3, "ind": 2, "nm": "child", "parent": 1, "ip": 0, "op": 60, "st": 0, "ks": {"p": {"a": 0, "k": [10, 0]}}},
       {"ty": 3, "ind": 1, "nm": "parent", "ip": 0, "op": 60, "st": 0,
        "ks": {"p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 90}, "o": {"a": 0, "k": 20}}}]
      """
    let a = try S.load(S.document(layers: layers))
    let child = try XCTUnwrap(S.named("child", in: a.rootLayer))
    let origin = child.convert(CGPoint.zero, to: a.rootLayer)
    XCTAssertEqual(origin.x, 50, accuracy: 1e-6)
    XCTAssertEqual(origin.y, 60, accuracy: 1e-6)
    var opacity: Float = 1
    var l: CALayer? = child
    while let x = l {
      opacity *= x.opacity
      l = x.superlayer
    }
    XCTAssertEqual(opacity, 1)
  }

  /// Precomp time: st shifts and sr stretches the inner composition.
  func testPrecompStartTimeAndStretch() throws {
    let assets = """
      [{"id": "c", "layers": [{"ty": 3, "nm": "inner", "ip": 0, "op": 1000, "st": 0,
        "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 100, "s": [100]}]}}}]}]
      """
    let layers = #"[{"ty": 0, "refId": "c", "ip": 0, "op": 1000, "st": 20, "sr": 2, "w": 100, "h": 100, "ks": {}}]"#
    let a = try S.load(S.document(layers: layers, assets: assets, op: 1000))
    // Frame 60: inner frame (60 − 20) / 2 = 20, rotation 20°.
    let p = S.presentation(a, at: a.time(ofFrame: 60))
    let inner = try XCTUnwrap(S.named("inner", in: p))
    let angle = atan2(Double(inner.transform.m12), Double(inner.transform.m11)) * 180 / .pi
    XCTAssertEqual(angle, 20, accuracy: 1e-3)
  }

  /// A negative stretch reverses the inner time: frame (f − st) / sr, as
  /// lottie-web (After Effects' time reverse); 0 is still refused.
  func testNegativeTimeStretch() throws {
    let assets = """
      [{"id": "c", "layers": [{"ty": 3, "nm": "inner", "ip": 0, "op": 1000, "st": 0,
        "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 100, "s": [100]}]}}}]}]
      """
    let layers = #"[{"ty": 0, "refId": "c", "ip": 0, "op": 1000, "st": 70, "sr": -0.5, "w": 100, "h": 100, "ks": {}}]"#
    let a = try S.load(S.document(layers: layers, assets: assets, op: 1000))
    // Frame f: inner frame (f − 70) / −0.5: 140 at 0 (held at 100), 80 at 30, 20 at 60.
    for (frame, expected) in [(0.0, 100.0), (30.0, 80.0), (60.0, 20.0)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let inner = try XCTUnwrap(S.named("inner", in: p))
      let angle = atan2(Double(inner.transform.m12), Double(inner.transform.m11)) * 180 / .pi
      XCTAssertEqual(angle, expected, accuracy: 1e-3, "frame \(frame)")
    }
  }

  /// The out-point rule: a layer (and a precomposition's layer) lasting to
  /// the document's `op` is shown at `op`, and a few microseconds before
  /// it (`--time 3.416665` of 82 frames at 24 fps: frame 81.99996); a
  /// layer ending earlier is hidden from its `op` on, as before.
  func testLayersThatLastToTheEndShowAtTheOutPoint() throws {
    let assets = #"[{"id": "p", "layers": [{"ty": 3, "nm": "inner", "ip": 0, "op": 82, "st": 0, "ks": {}}]}]"#
    let doc = """
      {"v": "5", "fr": 24, "ip": 0, "op": 82, "w": 10, "h": 10, "assets": \(assets),
       "layers": [{"ty": 3, "nm": "early", "ip": 0, "op": 60, "st": 0, "ks": {}},
                  {"ty": 3, "nm": "last", "ip": 0, "op": 82, "st": 0, "ks": {}},
                  {"ty": 0, "nm": "precomp", "refId": "p", "ip": 0, "op": 82, "st": 0, "ks": {}}]}
      """
    let a = try S.load(doc)
    func hidden(_ name: String, _ t: Double) throws -> Bool {
      let p = S.presentation(a, at: t)
      var l: CALayer? = try XCTUnwrap(S.named(name, in: p))
      while let layer = l {
        if layer.isHidden { return true }
        l = layer.superlayer
      }
      return false
    }
    for t in [3.416665, 82.0 / 24] {
      XCTAssertFalse(try hidden("last", t), "\(t)")
      XCTAssertFalse(try hidden("inner", t), "\(t)")
      XCTAssertTrue(try hidden("early", t), "\(t)")
    }
    XCTAssertFalse(try hidden("early", 59.9 / 24))
    XCTAssertTrue(try hidden("early", 60.0 / 24))
    // Past the end (and a frame's step before op, for a layer ending earlier) nothing lasts.
    XCTAssertTrue(try hidden("last", 82.01 / 24))
  }

  /// Time remapping (linear): the inner composition at tm(t) seconds.
  func testTimeRemapping() throws {
    let assets = """
      [{"id": "c", "layers": [{"ty": 3, "nm": "inner", "ip": 0, "op": 1000, "st": 0,
        "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 60, "s": [60]}]}}}]}]
      """
    // tm runs the inner time backwards: 1 s at frame 0, 0 s at frame 60.
    let layers = """
      [{"ty": 0, "refId": "c", "ip": 0, "op": 60, "st": 0, "w": 100, "h": 100, "ks": {},
        "tm": {"a": 1, "k": [{"t": 0, "s": [1]}, {"t": 60, "s": [0]}]}}]
      """
    let a = try S.load(S.document(layers: layers, assets: assets))
    for (frame, expected) in [(0.0, 60.0), (15.0, 45.0), (45.0, 15.0)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let inner = try XCTUnwrap(S.named("inner", in: p))
      let angle = atan2(Double(inner.transform.m12), Double(inner.transform.m11)) * 180 / .pi
      XCTAssertEqual(angle, expected, accuracy: 1e-3, "frame \(frame)")
    }
    XCTAssertEqual(a.unsupported, [])
  }

  /// Eased time remapping over several segments (and a hold), with a
  /// stretched precomposition nested inside: every animation inside is
  /// sampled at the inner frame the remapping gives.
  func testEasedMultiSegmentTimeRemapping() throws {
    let assets = """
      [{"id": "c", "layers": [{"ty": 3, "nm": "inner", "ip": 0, "op": 1000, "st": 0,
         "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 120, "s": [120]}]}}},
        {"ty": 0, "nm": "nested", "refId": "d", "ip": 0, "op": 1000, "st": 10, "sr": 2, "ks": {}}]},
       {"id": "d", "layers": [{"ty": 3, "nm": "deep", "ip": 0, "op": 1000, "st": 0,
         "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 100, "s": [100]}]}}}]}]
      """
    // Frames 0→30: 0 s → 1 s eased (0.5, 0, 0.5, 1); 30→40: held at 1 s; 40→60: 1 s → 0.5 s linear.
    let layers = """
      [{"ty": 0, "refId": "c", "ip": 0, "op": 60, "st": 0, "w": 100, "h": 100, "ks": {},
        "tm": {"a": 1, "k": [
          {"t": 0, "s": [0], "o": {"x": [0.5], "y": [0]}, "i": {"x": [0.5], "y": [1]}},
          {"t": 30, "s": [1], "h": 1}, {"t": 40, "s": [1]}, {"t": 60, "s": [0.5]}]}}]
      """
    let a = try S.load(S.document(layers: layers, assets: assets))
    XCTAssertEqual(a.unsupported, [])
    // The easing at a third of the segment: y where x(t) = 1/3 on the
    // bezier (0, 0), (0.5, 0), (0.5, 1), (1, 1), by bisection.
    func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
      3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<60 {
      let mid = (lo + hi) / 2
      if bezier(0.5, 0.5, mid) < 1.0 / 3 { lo = mid } else { hi = mid }
    }
    let ease = bezier(0, 1, lo)
    // Inner frame = tm × 60; the nested precomposition shows (inner − 10) / 2.
    for (frame, inner) in [(10.0, ease * 60), (30.0, 60), (35.0, 60), (50.0, 45)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      for (name, expected) in [("inner", inner), ("deep", (inner - 10) / 2)] {
        let l = try XCTUnwrap(S.named(name, in: p))
        let angle = atan2(Double(l.transform.m12), Double(l.transform.m11)) * 180 / .pi
        XCTAssertEqual(angle, expected, accuracy: 0.2, "\(name) at frame \(frame)")
      }
    }
  }

  /// 3D layers: rx, ry and orientation make a 3D matrix (sampled when animated).
  func test3DLayerRotation() throws {
    let layers = """
      [{"ty": 3, "nm": "n", "ddd": 1, "ip": 0, "op": 60, "st": 0,
        "ks": {"p": {"a": 0, "k": [50, 50, 0]}, "ry": {"a": 0, "k": 60}, "rx": {"a": 0, "k": 0}, "rz": {"a": 0, "k": 0},
               "or": {"a": 0, "k": [0, 0, 0]}}}]
      """
    let a = try S.load(S.document(layers: layers))
    let n = try XCTUnwrap(S.named("n", in: a.rootLayer))
    // A point 10 to the right is foreshortened by cos 60°.
    let x = 10 * n.transform.m11 + n.transform.m41
    XCTAssertEqual(Double(x), 55, accuracy: 1e-6)
    XCTAssertEqual(Double(n.transform.m13), sin(60 * Double.pi / 180), accuracy: 1e-6)
  }

  /// Skew and skew axis use the full matrix (lottie-web's order).
  /// A flip (scale −100 %, −100 %, a half turn) under an animated
  /// rotation stays flipped: Core Animation's `transform.rotation.z` key
  /// path takes the transform apart into a rotation and positive scales,
  /// which lost the flip (lottie-web's bm_ronda.json: an ear drawn half a
  /// turn about its anchor, above the D instead of in the O's eye, 2.2 %
  /// of the frame off ThorVG). A square 30 right of the anchor at (50, 50),
  /// the rotation from 0 to 90° over frames 0–20: at frame 0 it is 30 left
  /// of the anchor, (20, 50); at frame 10 (45°) the flipped (−30, 0) turned
  /// 45° clockwise, (50 − 30 cos 45°, 50 − 30 sin 45°); at frame 20 (90°),
  /// (50, 20). Flipped in x only, animated scale too: the same.
  func testAFlipUnderAnAnimatedRotationStaysFlipped() throws {
    func layer(_ scale: String) -> String {
      #"""
      {"ty": 4, "ind": 1, "nm": "flipped", "ip": 0, "op": 60, "st": 0, "ks": {"p": {"a": 0, "k": [50, 50, 0]},
       "a": {"a": 0, "k": [0, 0, 0]}, "s": \#(scale),
       "r": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 20, "s": [90]}]}},
       "shapes": [{"ty": "rc", "p": {"a": 0, "k": [30, 0]}, "s": {"a": 0, "k": [10, 10]}, "r": {"a": 0, "k": 0}}, \#(S.redFill)]}
      """#
    }
    let c = 30 * (0.5).squareRoot()
    let expected: [(Double, CGPoint)] = [(0, CGPoint(x: 20, y: 50)), (10, CGPoint(x: 50 - c, y: 50 - c)), (20, CGPoint(x: 50, y: 20))]
    for scale in [
      #"{"a": 0, "k": [-100, -100, 100]}"#,
      #"{"a": 1, "k": [{"t": 0, "s": [-100, -100, 100], "o": {"x": [0], "y": [0]}, "i": {"x": [1], "y": [1]}}, {"t": 20, "s": [-100, -100, 100]}]}"#,
    ] {
      let a = try S.load(S.document(layers: "[" + layer(scale) + "]"))
      for (frame, point) in expected {
        let root = S.presentation(a, at: a.time(ofFrame: frame))
        let shape = try XCTUnwrap(S.first(CAShapeLayer.self, in: root))
        let p = shape.convert(CGPoint(x: 30, y: 0), to: root)
        XCTAssertEqual(p.x, point.x, accuracy: 1e-3, "frame \(frame) \(scale)")
        XCTAssertEqual(p.y, point.y, accuracy: 1e-3, "frame \(frame) \(scale)")
      }
    }
  }

  func testSkewMatrix() throws {
    let layers = """
      [{"ty": 3, "nm": "n", "ip": 0, "op": 60, "st": 0,
        "ks": {"sk": {"a": 0, "k": 45}, "sa": {"a": 0, "k": 0}}}]
      """
    let a = try S.load(S.document(layers: layers))
    let n = try XCTUnwrap(S.named("n", in: a.rootLayer))
    // Skew 45° along x: a point at y = 10 moves by −10 in x.
    let x = 10 * n.transform.m21
    XCTAssertEqual(Double(x), -10, accuracy: 1e-6)
  }

  /// Glyph shapes (`chars`) draw a text whose every character they hold;
  /// a text with a character they lack falls back to the font (reported).
  /// Text document keyframes: each document shown from its frame on.
  func testGlyphShapesAndTheirFallback() throws {
    let chars = """
      "chars": [{"ch": "I", "size": 100, "style": "Regular", "w": 30, "fFamily": "F",
        "data": {"shapes": [{"ty": "gr", "it": [{"ty": "sh", "ks": {"a": 0,
          "k": {"v": [[10, -70], [20, -70], [20, 0], [10, 0]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]],
                "o": [[0, 0], [0, 0], [0, 0], [0, 0]], "c": true}}}]}]}}],
      "fonts": {"list": [{"fName": "F-Regular", "fFamily": "F", "fStyle": "Regular"}]}
      """
    let text = """
      [{"ty": 5, "nm": "t", "ip": 0, "op": 60, "st": 0, "ks": {},
        "t": {"d": {"k": [{"t": 0, "s": {"t": "II I", "s": 10, "f": "F-Regular", "fc": [1, 0, 0], "tr": 100}},
                          {"t": 20, "s": {"t": "IX", "s": 10, "f": "F-Regular", "fc": [1, 0, 0]}}]}}}]
      """
    let a = try S.load(S.document(layers: text, extra: chars))
    // The first document: glyphs 3 + 1 (tracking) apart, the space a third of an em (+ 1).
    let glyphs = try XCTUnwrap(S.named("glyphs", in: a.rootLayer)?.sublayers?.first as? CAShapeLayer)
    let box = try XCTUnwrap(glyphs.path?.boundingBoxOfPath)
    XCTAssertEqual(Double(box.minX), 1, accuracy: 1e-9)
    let space: Double = 10.0 / 3 + 1
    XCTAssertEqual(Double(box.maxX), 8 + space + 2, accuracy: 1e-9)
    XCTAssertEqual(Double(box.minY), -7, accuracy: 1e-9)
    // The second lacks "X": a CATextLayer, shown from frame 20 on.
    XCTAssertEqual(S.first(CATextLayer.self, in: a.rootLayer)?.string as? String, "IX")
    XCTAssertEqual(
      a.unsupported,
      [LottieUnsupported(feature: "glyph shapes (chars) without 'X' (a font drawn instead)", path: "layers[0].t.d.k[1].s")])
    for (frame, glyphsShown) in [(0.0, true), (19.0, true), (20.0, false), (40.0, false)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let documents = try XCTUnwrap(S.named("text documents", in: p)?.sublayers)
      XCTAssertEqual(documents.map(\.isHidden), [!glyphsShown, glyphsShown], "frame \(frame)")
    }
  }

  func testTextLayerIsACATextLayer() throws {
    let text = """
      [{"ty": 5, "ip": 0, "op": 60, "st": 0, "ks": {"p": {"a": 0, "k": [10, 50]}},
        "t": {"d": {"k": [{"t": 0, "s": {"t": "Hello\\rworld", "s": 24, "f": "Sans-Bold", "fc": [0, 0, 1], "j": 2, "lh": 28}}]},
              "a": [{"s": {}, "a": {"o": {"a": 0, "k": 0}}}]}}]
      """
    let extra = #""fonts": {"list": [{"fName": "Sans-Bold", "fFamily": "DejaVu Sans", "fStyle": "Bold"}]}"#
    let a = try S.load(S.document(layers: text, extra: extra))
    let t = try XCTUnwrap(S.first(CATextLayer.self, in: a.rootLayer))
    XCTAssertEqual(t.string as? String, "Hello\nworld")
    XCTAssertEqual(t.fontSize, 24)
    XCTAssertEqual(t.font as? String, "DejaVu Sans, Bold")
    XCTAssertEqual(t.foregroundColor, CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    XCTAssertEqual(t.alignmentMode, .center)
    XCTAssertEqual(
      a.unsupported,
      [LottieUnsupported(feature: "text animator (without glyph shapes)", path: "layers[0].t.a")])
  }

  func testRepeaterMakesCopiesWithTransformAndOpacity() throws {
    let shapes = """
      [{"ty": "gr", "it": [\(S.rect(x: 0, y: 0, w: 10, h: 10)), \(S.redFill),
        {"ty": "rp", "c": {"a": 0, "k": 3}, "o": {"a": 0, "k": 0}, "m": 1,
         "tr": {"p": {"a": 0, "k": [20, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
                "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 20}}},
        {"ty": "tr", "p": {"a": 0, "k": [0, 0]}}]}]
      """
    let a = try S.load(S.document(layers: "[" + S.shapeLayer(shapes) + "]"))
    let holder = try XCTUnwrap(S.named("repeater", in: a.rootLayer))
    let copies = try XCTUnwrap(holder.sublayers)
    XCTAssertEqual(copies.count, 3)
    XCTAssertEqual(copies.map { $0.transform.m41 }, [0, 20, 40])
    XCTAssertEqual(copies.map { Double($0.opacity) }, [1, 0.6, 0.2].map { $0 }, accuracy: 1e-6)
  }

  func testBlendModesAndEffects() throws {
    let layers = """
      [{"ty": 3, "nm": "n", "bm": 1, "ip": 0, "op": 60, "st": 0, "ks": {},
        "ef": [{"ty": 29, "nm": "Gaussian Blur", "ef": [{"v": {"a": 0, "k": 8}}]},
               {"ty": 25, "nm": "Drop Shadow", "ef": [{"v": {"a": 0, "k": [1, 0, 0, 1]}}, {"v": {"a": 0, "k": 255}},
                  {"v": {"a": 0, "k": 180}}, {"v": {"a": 0, "k": 4}}, {"v": {"a": 0, "k": 6}}]},
               {"ty": 5, "nm": "Fractal Noise", "ef": []}]}]
      """
    let a = try S.load(S.document(layers: layers))
    let n = try XCTUnwrap(S.named("n", in: a.rootLayer))
    XCTAssertEqual((n.compositingFilter as? CIFilter)?.name, "CIMultiplyBlendMode")
    let inner = try XCTUnwrap(n.sublayers?.first)
    let blur = try XCTUnwrap(inner.filters?.first as? CIFilter)
    XCTAssertEqual(blur.filterName, "CIGaussianBlur")
    XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 4)
    XCTAssertEqual(inner.shadowOpacity, 1)
    XCTAssertEqual(inner.shadowColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    XCTAssertEqual(inner.shadowOffset.width, 0, accuracy: 1e-9)
    XCTAssertEqual(inner.shadowOffset.height, 4, accuracy: 1e-9)
    XCTAssertEqual(inner.shadowRadius, 3)
    XCTAssertEqual(a.unsupported, [LottieUnsupported(feature: "effect: Fractal Noise", path: "layers[0].ef[2]")])
  }

  func testFillAndTintEffectsAreColorMatrices() throws {
    let layers = """
      [{"ty": 3, "nm": "n", "ip": 0, "op": 60, "st": 0, "ks": {},
        "ef": [{"ty": 21, "nm": "Fill", "ef": [{"v": {"a": 0, "k": 0}}, {"v": {"a": 0, "k": 0}},
                  {"v": {"a": 0, "k": [0, 1, 0, 1]}}, {"v": {"a": 0, "k": 0}}, {"v": {"a": 0, "k": 0}},
                  {"v": {"a": 0, "k": 0}}, {"v": {"a": 0, "k": 0.5}}]},
               {"ty": 20, "nm": "Tint", "ef": [{"v": {"a": 0, "k": [0, 0, 0, 1]}}, {"v": {"a": 0, "k": [1, 0, 0, 1]}},
                  {"v": {"a": 1, "k": [{"t": 0, "s": [100]}, {"t": 10, "s": [50]}]}}]}]}]
      """
    let a = try S.load(S.document(layers: layers))
    let inner = try XCTUnwrap(S.named("n", in: a.rootLayer)?.sublayers?.first)
    let filters = try XCTUnwrap(inner.filters as? [CIFilter])
    XCTAssertEqual(filters.map(\.filterName), ["CIColorMatrix", "CIColorMatrix"])
    // Fill at 50 %: half the colour, half green.
    XCTAssertEqual((filters[0].value(forKey: "inputRVector") as? CIVector)?.values, [0.5, 0, 0, 0])
    XCTAssertEqual((filters[0].value(forKey: "inputBiasVector") as? CIVector)?.values, [0, 0.5, 0, 0])
    // Tint black -> red at 100 %: red = luminance, green and blue 0.
    XCTAssertEqual((filters[1].value(forKey: "inputRVector") as? CIVector)?.values, [0.2126, 0.7152, 0.0722, 0])
    XCTAssertEqual((filters[1].value(forKey: "inputGVector") as? CIVector)?.values, [0, 0, 0, 0])
    // The tint's amount is animated (100 % to 50 % over frames 0–10): at
    // frame 10 the red row is half the identity, half luminance.
    XCTAssertEqual(a.unsupported, [])
    let p = S.presentation(a, at: a.time(ofFrame: 10))
    let tint = try XCTUnwrap(S.named("n", in: p)?.sublayers?.first?.filters?.last as? CIFilter)
    let red = try XCTUnwrap((tint.value(forKey: "inputRVector") as? CIVector)?.values)
    for (v, e) in zip(red, [0.5 + 0.5 * 0.2126, 0.5 * 0.7152, 0.5 * 0.0722, 0]) {
      XCTAssertEqual(Double(v), e, accuracy: 1e-6)
    }
  }

  /// With `expressions = .keyframed` (LottieExpressionTests evaluate them).
  func testExpressionsUseTheStaticValueAndAreReported() throws {
    let layers = """
      [{"ty": 3, "nm": "n", "ip": 0, "op": 60, "st": 0,
        "ks": {"p": {"a": 0, "k": [30, 40], "x": "wiggle(2, 10)"}}}]
      """
    var options = LottieOptions()
    options.expressions = .keyframed
    let a = try S.load(S.document(layers: layers), options: options)
    XCTAssertEqual(S.named("n", in: a.rootLayer)?.position, CGPoint(x: 30, y: 40))
    XCTAssertEqual(a.unsupported, [LottieUnsupported(feature: "expression", path: "layers[0].ks.p.x")])
  }

  /// A precomposition used three times reports its unsupported feature once
  /// (rlottie's `dna.json` listed each expression once per use).
  func testUnsupportedFeatureOfAPrecompositionIsReportedOnce() throws {
    let assets = """
      [{"id": "a", "layers": [{"ty": 3, "nm": "n", "ip": 0, "op": 60, "st": 0,
        "ks": {"p": {"a": 0, "k": [30, 40], "x": "wiggle(2, 10)"}}}]}]
      """
    let use = #"{"ty": 0, "refId": "a", "w": 100, "h": 100, "ip": 0, "op": 60, "st": 0, "ks": {}}"#
    var options = LottieOptions()
    options.expressions = .keyframed
    let a = try S.load(S.document(layers: "[\(use), \(use), \(use)]", assets: assets), options: options)
    XCTAssertEqual(a.unsupported, [LottieUnsupported(feature: "expression", path: "assets[0].layers[0].ks.p.x")])
  }

  /// Mattes: the matted layer sits in a wrapper whose mask is the matte
  /// layer's tree; the matte layer (td) is not drawn itself.
  func testTrackMatteWrapsTheLayer() throws {
    for (tt, tp) in [(1, ""), (3, ""), (1, #", "tp": 1"#)] {
      let matte = #"{"ty": 4, "ind": 1, "nm": "matte", "td": 1, "ip": 0, "op": 60, "st": 0, "ks": {}, "shapes": [\#(S.rect()), \#(S.redFill)]}"#
      let content = #"{"ty": 4, "ind": 2, "nm": "content", "tt": \#(tt)\#(tp), "ip": 0, "op": 60, "st": 0, "ks": {}, "shapes": [\#(S.rect(w: 60, h: 60)), \#(S.redFill)]}"#
      let layers = tp.isEmpty ? "[\(matte), \(content)]" : "[\(content), \(matte)]"
      let a = try S.load(S.document(layers: layers))
      let top = try XCTUnwrap(a.rootLayer.sublayers)
      XCTAssertEqual(top.count, 1, "tt \(tt) \(tp)")
      let wrapper = try XCTUnwrap(top.first)
      XCTAssertEqual(wrapper.name, "matte")
      XCTAssertEqual(wrapper.sublayers?.map(\.name), ["content"])
      XCTAssertEqual(wrapper.mask?.name, "matte")
    }
  }

  func testMaskModesBuildMaskLayers() throws {
    func mask(_ mode: String, inv: Bool = false) -> String {
      #"{"mode": "\#(mode)", "inv": \#(inv), "pt": {"a": 0, "k": {"v": [[0, 0], [10, 0], [10, 10]], "c": true}}, "o": {"a": 0, "k": 50}}"#
    }
    let layers = """
      [{"ty": 4, "nm": "n", "ip": 0, "op": 60, "st": 0, "ks": {}, "shapes": [\(S.rect()), \(S.redFill)],
        "masksProperties": [\(mask("a")), \(mask("s")), \(mask("i", inv: true)), \(mask("n"))]}]
      """
    let a = try S.load(S.document(layers: layers))
    let layer = try XCTUnwrap(S.named("n", in: a.rootLayer))
    let holder = try XCTUnwrap(layer.sublayers?.first)
    // One luminance mask: a black cover (the first mask adds), then each
    // mask's path in the grey of its opacity, blended as its mode says.
    XCTAssertEqual(holder.maskMode, .luminance)
    let pieces = try XCTUnwrap(holder.mask?.sublayers)
    XCTAssertEqual(pieces.count, 4)
    XCTAssertEqual(pieces[0].backgroundColor, CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    let add = try XCTUnwrap(pieces[1] as? CAShapeLayer)
    XCTAssertEqual((add.compositingFilter as? CIFilter)?.filterName, "CIScreenBlendMode")
    XCTAssertEqual(add.fillColor, CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
    let subtract = try XCTUnwrap(pieces[2] as? CAShapeLayer)
    XCTAssertEqual((subtract.compositingFilter as? CIFilter)?.filterName, "CIMultiplyBlendMode")
    // Intersect: the (inverted) path over black, multiplied.
    XCTAssertEqual((pieces[3].compositingFilter as? CIFilter)?.filterName, "CIMultiplyBlendMode")
    let intersect = try XCTUnwrap(pieces[3].sublayers?.last as? CAShapeLayer)
    XCTAssertEqual(intersect.fillRule, .evenOdd)
    XCTAssertEqual(a.unsupported, [])
  }

  /// A layer's one mask that adds is its shape in white at the mask's
  /// opacity, read by its alpha (what the luminance of the grey shape
  /// screened over black gives): one path, which the renderer draws with
  /// the masked content instead of rendering the mask. Other lone masks,
  /// and several, stay luminance masks.
  func testALoneAddingMaskIsItsShapeReadByAlpha() throws {
    func document(_ masks: String) -> String {
      S.document(layers: """
        [{"ty": 4, "nm": "n", "ip": 0, "op": 60, "st": 0, "ks": {}, "shapes": [\(S.rect()), \(S.redFill)],
          "masksProperties": [\(masks)]}]
        """)
    }
    func mask(_ mode: String, inv: Bool = false) -> String {
      #"{"mode": "\#(mode)", "inv": \#(inv), "pt": {"a": 0, "k": {"v": [[0, 0], [10, 0], [10, 10]], "c": true}}, "o": {"a": 0, "k": 40}}"#
    }
    func holder(_ masks: String) throws -> CALayer {
      let a = try S.load(document(masks))
      let layer = try XCTUnwrap(S.named("n", in: a.rootLayer))
      return try XCTUnwrap(layer.sublayers?.first)
    }
    for inverted in [false, true] {
      let lone = try holder(mask("a", inv: inverted))
      XCTAssertEqual(lone.maskMode, .alpha)
      let shape = try XCTUnwrap(lone.mask as? CAShapeLayer)
      XCTAssertEqual(shape.fillColor, CGColor(red: 1, green: 1, blue: 1, alpha: 0.4))
      XCTAssertNil(shape.compositingFilter)
      XCTAssertEqual(shape.sublayers ?? [], [])
      XCTAssertEqual(shape.fillRule, inverted ? .evenOdd : .nonZero)
    }
    XCTAssertEqual(try holder(mask("s")).maskMode, .luminance)
    XCTAssertEqual(try holder(mask("a") + ", " + mask("a")).maskMode, .luminance)
  }

  func testMergePathsAndUnknownShapesAreReported() throws {
    let shapes = "[\(S.rect()), {\"ty\": \"mm\", \"mm\": 7}, {\"ty\": \"xx\"}, \(S.redFill)]"
    let a = try S.load(S.document(layers: "[" + S.shapeLayer(shapes) + "]"))
    XCTAssertEqual(
      a.unsupported,
      [
        LottieUnsupported(feature: "merge paths mode 7 (paths kept as they are)", path: "layers[0].shapes[1]"),
        LottieUnsupported(feature: "shape 'xx'", path: "layers[0].shapes[2]"),
      ])
  }

  func testUnsupportedLayerKindsAreReported() throws {
    let layers = """
      [{"ty": 7, "ip": 0, "op": 60, "st": 0, "ks": {}}, {"ty": 6, "ip": 0, "op": 60, "st": 0, "ks": {}},
       {"ty": 3, "ip": 0, "op": 60, "st": 0, "ks": {}, "tm": {"a": 0, "k": 1}}]
      """
    let a = try S.load(S.document(layers: layers))
    XCTAssertEqual(
      a.unsupported,
      [
        LottieUnsupported(feature: "time remapping on a non-precomp layer", path: "layers[2].tm"),
        LottieUnsupported(feature: "audio layer", path: "layers[1].ty"),
        LottieUnsupported(feature: "video placeholder", path: "layers[0].ty"),
      ])
  }

  func testHugeStaticNumbersAreRefused() {
    let star = #"{"ty": "sr", "sy": 1, "pt": {"a": 0, "k": -1e300}, "or": {"a": 0, "k": 10}, "ir": {"a": 0, "k": 5}}"#
    XCTAssertEqual(
      S.error(S.document(layers: "[" + S.shapeLayer("[\(star)]") + "]")),
      "test.json: layers[0].shapes[0].pt.k: -1e+300 is out of range (at most 1000000000 in magnitude)")
  }

  func testHiddenLayersAndShapesAreLeftOut() throws {
    let layers = """
      [{"ty": 3, "nm": "gone", "hd": true, "ip": 0, "op": 60, "st": 0, "ks": {}},
       \(S.shapeLayer("[\(S.rect()), {\"ty\": \"fl\", \"hd\": true, \"c\": {\"a\": 0, \"k\": [0, 1, 0, 1]}}, \(S.redFill)]"))]
      """
    let a = try S.load(S.document(layers: layers))
    XCTAssertNil(S.named("gone", in: a.rootLayer))
    let fills = S.all(a.rootLayer).compactMap { $0 as? CAShapeLayer }
    XCTAssertEqual(fills.count, 1)
    XCTAssertEqual(fills.first?.fillColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    XCTAssertEqual(a.layerCount, 1)
  }
}

private func XCTAssertEqual(
  _ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line
) {
  XCTAssertEqual(a.count, b.count, file: file, line: line)
  for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}
