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
