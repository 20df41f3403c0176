import Foundation
import Lamina
import LaminaLottie
import LaminaTestSupport
import XCTest

/// `sourceRectAtTime` and markers: documents of our own, each value at
/// three frames against bounds and times worked out by hand.
extension LottieExpressionTests {
  /// Layer `n`'s position at frames 0, 10 and 25, from expression `x` (its
  /// other layers `layers`, the document's extra members `extra`).
  func points(_ x: String, layers: String, extra: String = "") throws -> [[Double]] {
    let doc = document(
      layers + "," + null("n", ind: 9, ks: #""p": \#(expr(x))"#), extra: extra)
    let a = try S.load(doc, options: options())
    XCTAssertEqual(a.unsupported, [])
    return try positions(a, "n", [0, 10, 25]).map { [Double($0.x), Double($0.y)] }
  }

  func assertPoints(
    _ a: [[Double]], _ b: [[Double]], file: StaticString = #filePath, line: UInt = #line
  ) {
    assertEqual(a.flatMap { $0 }, b.flatMap { $0 }, accuracy: 1e-3, file: file, line: line)
  }

  /// A shape layer "S": in a group moved by (10, 10) and scaled 200 %, a
  /// rectangle at (5, 0) whose size goes linearly from 20 × 10 at frame 0 to
  /// 60 × 30 at frame 20, stroked 4 wide; beside the group, an ellipse
  /// 10 × 10 at (−100, −100).
  var boundsLayer: String {
    let size =
      #"{"a": 1, "k": [{"t": 0, "s": [20, 10], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [60, 30]}]}"#
    return #"""
      {"ty": 4, "nm": "S", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": [
        {"ty": "gr", "nm": "G", "it": [
          {"ty": "rc", "nm": "R", "s": \#(size), "p": {"a": 0, "k": [5, 0]}, "r": {"a": 0, "k": 0}},
          {"ty": "st", "nm": "Stroke", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}},
          {"ty": "tr", "p": {"a": 0, "k": [10, 10]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [200, 200]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}]},
        {"ty": "el", "nm": "E", "s": {"a": 0, "k": [10, 10]}, "p": {"a": 0, "k": [-100, -100]}},
        {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}
      """#
  }

  func testSourceRectAtTimeOfAShapeLayer() throws {
    // The rectangle w × h through the group: x from 20 − w to 20 + w, y from
    // 10 − h to 10 + h; the ellipse from −105 to −95. So left = top = −105,
    // right = 20 + w, bottom = 10 + h: w × h = 20 × 10, 40 × 20, 60 × 30.
    let corner = try points(
      "var r = thisComp.layer('S').sourceRectAtTime(); [r.left, r.top]", layers: boundsLayer)
    assertPoints(corner, [[-105, -105], [-105, -105], [-105, -105]])
    let size = try points(
      "var r = thisComp.layer('S').sourceRectAtTime(time, false); [r.width, r.height]",
      layers: boundsLayer)
    assertPoints(size, [[145, 125], [165, 135], [185, 145]])
    // With extents, half the stroke (4 wide, scaled 2) around the
    // rectangle only: its right and bottom edges 4 further out.
    let extents = try points(
      "var r = thisComp.layer('S').sourceRectAtTime(time, true); [r.left + r.width, r.top + r.height]",
      layers: boundsLayer)
    assertPoints(extents, [[44, 24], [64, 34], [84, 44]])
    // At another time than the frame's: the frame 20 size throughout.
    let later = try points(
      "var r = thisComp.layer('S').sourceRectAtTime(2); [r.width, r.height]", layers: boundsLayer)
    assertPoints(later, [[185, 145], [185, 145], [185, 145]])
  }

  func testSourceRectAtTimeFollowsCurvesNotTheirHandles() throws {
    // An open path from (0, 0) to (100, 0) whose handles rise 40 to
    // (0, −40) and (100, −40): the curve's top is at −30 (at its middle),
    // its first point moved right by time × 10 by the path's own expression.
    let path = #"""
      {"ty": 4, "nm": "P", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": [
        {"ty": "sh", "nm": "Path", "ks": {"a": 0, "k": {"c": false, "v": [[0, 0], [100, 0]], "i": [[0, 0], [0, -40]], "o": [[0, -40], [0, 0]]},
         "x": "var p = value.points(); createPath([[p[0][0] + time * 10, 0], [p[1][0], 0]], value.inTangents(), value.outTangents(), false)"}}]}
      """#
    let rect = try points(
      "var r = thisComp.layer('P').sourceRectAtTime(); [r.left * 1000 + r.width, r.top * 1000 + r.height]",
      layers: path)
    // left = time × 10 (0, 10, 25); width = 100 − left; top −30, height 30.
    assertPoints(rect, [[100, -29970], [10090, -29970], [25075, -29970]])
  }

  /// A shape layer "L" of `items` (JSON).
  func shapes(_ name: String, _ items: String, ind: Int = 1) -> String {
    #"{"ty": 4, "nm": "\#(name)", "ind": \#(ind), "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": [\#(items)]}"#
  }

  func linear(_ from: Double, _ to: Double) -> String {
    #"{"a": 1, "k": [{"t": 0, "s": [\#(from)], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [\#(to)]}]}"#
  }

  /// `[left, top]` and `[width, height]` of layer `name` at frames 0, 10, 25.
  func rects(_ name: String, _ layers: String, extents: Bool = false) throws -> ([[Double]], [[Double]]) {
    let call = "thisComp.layer('\(name)').sourceRectAtTime(time, \(extents))"
    return (
      try points("var r = \(call); [r.left, r.top]", layers: layers),
      try points("var r = \(call); [r.width, r.height]", layers: layers)
    )
  }

  /// A repeater's copies count: a 10 × 10 square at the origin, copies
  /// from 1 (frame 0) to 3 (frame 20), each 20 to the right of the last:
  /// 1, 2 (round(2)), 3 copies: x from −5 to 5, 25, 45. A second repeater
  /// (one copy, offset 1: the transform applied once) scales the square
  /// 200 % and turns it 45°: a diamond ±10√2 about its centre.
  func testSourceRectAtTimeCountsRepeaterCopies() throws {
    let square = #"{"ty": "rc", "s": {"a": 0, "k": [10, 10]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}}"#
    let row = shapes(
      "Row",
      square + #", {"ty": "rp", "c": \#(linear(1, 3)), "o": {"a": 0, "k": 0}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [20, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#)
    let (corner, size) = try rects("Row", row)
    assertPoints(corner, [[-5, -5], [-5, -5], [-5, -5]])
    assertPoints(size, [[10, 10], [30, 10], [50, 10]])
    let turned = shapes(
      "Turned",
      square + #", {"ty": "rp", "c": {"a": 0, "k": 1}, "o": {"a": 0, "k": 1}, "m": 1, "tr": {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [200, 200]}, "r": {"a": 0, "k": 45}, "so": {"a": 0, "k": 100}, "eo": {"a": 0, "k": 100}}}"#)
    let d = 10 * 2.0.squareRoot()
    let (c2, s2) = try rects("Turned", turned)
    assertPoints(c2, [[-d, -d], [-d, -d], [-d, -d]])
    assertPoints(s2, [[2 * d, 2 * d], [2 * d, 2 * d], [2 * d, 2 * d]])
  }

  /// Trim Paths: a 100 × 20 rectangle (x 0…100, y 0…20) starts at its top
  /// right corner and runs down, left, up and right (240 long). Trimmed to
  /// its first 10 % (frame 0), 20 % (frame 10), 30 % (frame 25): 24, 48,
  /// 72 long, down the right side (20) then left 4, 28, 52: x from 96,
  /// 72, 48 to 100. Trimmed to 0–25 % moved by 270° (its last quarter,
  /// 180 to 240: the top side from x 40 to 100) and stroked 4 wide, with
  /// extents: x 38…102, y −2…2.
  func testSourceRectAtTimeFollowsTrimPaths() throws {
    let rect = #"{"ty": "rc", "s": {"a": 0, "k": [100, 20]}, "p": {"a": 0, "k": [50, 10]}, "r": {"a": 0, "k": 0}}"#
    let growing = shapes(
      "Grow", rect + #", {"ty": "tm", "s": {"a": 0, "k": 0}, "e": \#(linear(10, 30)), "o": {"a": 0, "k": 0}, "m": 1}"#)
    let (corner, size) = try rects("Grow", growing)
    assertPoints(corner, [[96, 0], [72, 0], [48, 0]])
    assertPoints(size, [[4, 20], [28, 20], [52, 20]])
    let top = shapes(
      "Top",
      rect
        + #", {"ty": "st", "c": {"a": 0, "k": [0, 0, 0, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 4}}, {"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 25}, "o": {"a": 0, "k": 270}, "m": 1}"#)
    let (c2, s2) = try rects("Top", top, extents: true)
    assertPoints(c2, [[38, -2], [38, -2], [38, -2]])
    assertPoints(s2, [[64, 4], [64, 4], [64, 4]])
  }

  /// Trimming two rectangles to half: simultaneously (`m` 1) each keeps
  /// half its outline; individually (`m` 2) they are one path 280 long of
  /// which the first 140 is all in the first rectangle (240 long: x 0…100,
  /// y 0…20, its first 140 down, left and up its left side). The second,
  /// 10 × 10 at (200, 5), starts at (205, 0): its half goes down and left
  /// to (195, 10).
  func testSourceRectAtTimeTrimsShapesAsOneOrEach() throws {
    let rects2 =
      #"{"ty": "rc", "s": {"a": 0, "k": [100, 20]}, "p": {"a": 0, "k": [50, 10]}, "r": {"a": 0, "k": 0}}, {"ty": "rc", "s": {"a": 0, "k": [10, 10]}, "p": {"a": 0, "k": [200, 5]}, "r": {"a": 0, "k": 0}}"#
    func trim(_ m: Int) -> String {
      rects2 + #", {"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "m": \#(m)}"#
    }
    let (_, each) = try rects("Each", shapes("Each", trim(1)))
    assertPoints(each, [[205, 20], [205, 20], [205, 20]])
    let (_, one) = try rects("One", shapes("One", trim(2)))
    assertPoints(one, [[100, 20], [100, 20], [100, 20]])
  }

  /// Round Corners on a diamond (vertices (50, 0), (100, 50), (50, 100),
  /// (0, 50)) with a radius from 0 (frame 0) to 20 (frame 20): each tip
  /// cut r along both sides, at r/√2 from the tip's line, and joined by a
  /// curve whose handles reach (1 − κ) of the way back: the curve's tip is
  /// at 3/4 of the handles' depth, (r/√2)(1 − 3κ/4) in from the diamond's
  /// box (κ = 0.5519150244935106). Radius 0, 10, 20 at frames 0, 10, 25.
  func testSourceRectAtTimeFollowsRoundedCorners() throws {
    let diamond =
      #"{"ty": "sh", "ks": {"a": 0, "k": {"c": true, "v": [[50, 0], [100, 50], [50, 100], [0, 50]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]]}}}"#
    let layer = shapes("D", diamond + #", {"ty": "rd", "r": \#(linear(0, 20))}"#)
    let kappa = 0.5519150244935106
    let inset = [0.0, 10, 20].map { $0 / 2.0.squareRoot() * (1 - 0.75 * kappa) }
    let (corner, size) = try rects("D", layer)
    assertPoints(corner, inset.map { [$0, $0] })
    assertPoints(size, inset.map { [100 - 2 * $0, 100 - 2 * $0] })
  }

  func testSourceRectAtTimeOfSolidsAndNulls() throws {
    let solid =
      ##"{"ty": 1, "nm": "Sol", "ind": 1, "ip": 0, "op": 30, "st": 0, "sw": 50, "sh": 40, "sc": "#ffffff", "ks": {}}"##
    let r = try points(
      "var a = thisComp.layer('Sol').sourceRectAtTime(), b = thisComp.layer('N').sourceRectAtTime(); [a.width * 1000 + a.height + a.left + a.top, b.width * 1000 + b.height + time]",
      layers: solid + "," + null("N", ind: 2, ks: ""))
    assertPoints(r, [[50040, 100100], [50040, 100101], [50040, 100102.5]])
  }

  func testSourceRectAtTimeOfTextNamesItsPath() {
    let text =
      #"{"ty": 5, "nm": "T", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "x", "s": 10, "f": "Sans"}}]}}}"#
    let doc = document(
      text + ","
        + null("n", ind: 2, ks: #""p": \#(expr("thisComp.layer('T').sourceRectAtTime().width"))"#))
    let message = S.error(doc, options: options())
    XCTAssertTrue(
      message.contains(
        "layers[1].ks.p.x: expression: TypeError: sourceRectAtTime of a text layer is not supported"
      ),
      message)
    // Falling back: the keyframed value, the property named as left out.
    let a = try? S.load(doc, options: options(.fallBack))
    XCTAssertEqual(a?.unsupported.map(\.path), ["layers[1].ks.p.x"])
  }

  // MARK: Markers

  var markers: String {
    #", "markers": [{"tm": 10, "cm": "intro", "dr": 5}, {"tm": 0, "cm": "start", "dr": 0}, {"tm": 20, "cm": "end", "dr": 2}]"#
  }

  func testCompositionMarkers() throws {
    // In time order: start (0 s), intro (1 s, 0.5 s long), end (2 s, 0.2 s).
    // x: numKeys · 1000 + the nearest key's index · 100 + its comment's
    // length; y: its time · 100. At 0, 1 and 2.5 s: start, intro, end.
    let nearest = try points(
      "var m = thisComp.marker, k = m.nearestKey(time); [m.numKeys * 1000 + k.index * 100 + k.comment.length, k.time * 100]",
      layers: null("other", ind: 1, ks: ""), extra: markers)
    assertPoints(nearest, [[3105, 0], [3205, 100], [3303, 200]])
    // key(i) and key(comment): times and durations in seconds.
    let keys = try points(
      "var m = thisComp.marker; [m.key(2).time * 100 + m.key(2).duration * 10 + time, m.key('end').time + m.key('end').duration]",
      layers: null("other", ind: 1, ks: ""), extra: markers)
    assertPoints(keys, [[105, 2.2], [106, 2.2], [107.5, 2.2]])
    // A precomposition's own composition has none; a layer's marker has
    // none (Lottie keeps no layer markers).
    let none = try points(
      "[thisLayer.marker.numKeys + marker.numKeys, thisComp.marker.numKeys + time]",
      layers: null("other", ind: 1, ks: ""), extra: markers)
    assertPoints(none, [[0, 3], [0, 4], [0, 5.5]])
  }

  func testAMarkerPastTheLastNamesItsPath() {
    let doc = document(
      null("n", ind: 1, ks: #""p": \#(expr("[thisComp.marker.key(4).time, 0]"))"#), extra: markers)
    let message = S.error(doc, options: options())
    XCTAssertTrue(
      message.contains(
        "layers[0].ks.p.x: expression: RangeError: marker.key(4): there are 3 markers"),
      message)
  }
}
