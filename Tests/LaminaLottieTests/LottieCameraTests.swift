import Foundation
import Lamina
import LaminaLottie
import XCTest

private typealias S = LottieTestSupport

/// Camera layers (`ty` 13): the composition's 3D layers seen in
/// perspective from the topmost camera, as After Effects and lottie-web's
/// HTML renderer project them: a point at depth d in front of the camera
/// lands at the canvas centre plus zoom / d times its offset from the
/// camera's axis. Every expected point is worked out by hand in its
/// comment (`camera.json`: 100 × 100, zoom 100, the camera at (50, 50, z)
/// looking at (50, 50, 0), z from −100 at frame 0 to −50 at frame 30).
final class LottieCameraTests: XCTestCase {
  static var fixtures: URL { GoldenTests.fixtures }

  /// Where the corners of the solid of the layer named `name` land on the canvas at `frame`.
  func corners(_ a: LottieAnimation, _ name: String, frame: Double) throws -> [CGPoint] {
    let root = S.presentation(a, at: a.time(ofFrame: frame))
    let outer = try XCTUnwrap(S.named(name, in: root), name)
    // A 3D layer's one layer takes its whole matrix and its opacity.
    let solid = try XCTUnwrap(outer.sublayers?.first, name)
    return [CGPoint(x: 0, y: 0), CGPoint(x: 20, y: 0), CGPoint(x: 0, y: 20), CGPoint(x: 20, y: 20)]
      .map {
        solid.convert($0, to: root)
      }
  }

  func assertPoints(
    _ found: [CGPoint], _ expected: [(Double, Double)], _ message: String, line: UInt = #line
  ) {
    XCTAssertEqual(found.count, expected.count, message, line: line)
    for (p, e) in zip(found, expected) {
      XCTAssertEqual(Double(p.x), e.0, accuracy: 1e-3, message, line: line)
      XCTAssertEqual(Double(p.y), e.1, accuracy: 1e-3, message, line: line)
    }
  }

  func testThreeDLayersAreSeenThroughTheCamera() throws {
    let a = try LottieAnimation(contentsOf: Self.fixtures.appendingPathComponent("camera.json"))
    XCTAssertEqual(a.unsupported, [])
    // "far": x 40…60, y 20…40 at depth 100 behind the plane. Frame 0: the
    // camera 200 in front of it, scale 100 / 200 = 0.5 about the centre:
    // x 50 + (40 − 50) / 2 = 45 … 55, y 50 + (20 − 50) / 2 = 35 … 45.
    assertPoints(
      try corners(a, "far", frame: 0), [(45, 35), (55, 35), (45, 45), (55, 45)], "far at 0")
    // "far"'s corners scaled by `s` about the centre (50, 50).
    func far(scaledBy s: Double) -> [(Double, Double)] {
      [(50 - 10 * s, 50 - 30 * s), (50 + 10 * s, 50 - 30 * s), (50 - 10 * s, 50 - 10 * s),
       (50 + 10 * s, 50 - 10 * s)]
    }
    // Frame 15: the camera at z −75, depth 175, scale 100 / 175.
    assertPoints(try corners(a, "far", frame: 15), far(scaledBy: 100.0 / 175), "far at 15")
    // Frame 30: z −50, depth 150, scale 2 / 3.
    assertPoints(try corners(a, "far", frame: 30), far(scaledBy: 100.0 / 150), "far at 30")
    // "turned": 60° about y (lottie-web's sign: its right edge comes
    // towards the viewer) at (30, 70, 0). Its left edge: x 30 − 10 cos 60
    // = 25 at depth 100 + 10 sin 60 = 108.66 (frame 0); its right edge x 35
    // at depth 100 − 8.66 = 91.34. Each edge 10 above and below y 70.
    let near = 100 / (100 - 10 * sin(Double.pi / 3))
    let far = 100 / (100 + 10 * sin(Double.pi / 3))
    assertPoints(
      try corners(a, "turned", frame: 0),
      [
        (50 - 25 * far, 50 + 10 * far), (50 - 15 * near, 50 + 10 * near),
        (50 - 25 * far, 50 + 30 * far),
        (50 - 15 * near, 50 + 30 * near),
      ], "turned at 0")
    // "child" of a 3D null 100 deep: parents compose in 3D before the
    // projection: x 70…90, y 50…70 at depth 200, scale 0.5 at frame 0.
    assertPoints(
      try corners(a, "child", frame: 0), [(60, 50), (70, 50), (60, 60), (70, 60)], "child at 0")
    // The 2D layer is not seen through the camera: where it is drawn.
    let root = S.presentation(a, at: a.time(ofFrame: 30))
    let flat = try XCTUnwrap(S.named("flat", in: root)?.sublayers?.first)
    assertPoints([flat.convert(CGPoint(x: 10, y: 10), to: root)], [(95, 95)], "flat")
  }

  /// A two-node camera turns to its point of interest: from (150, 50,
  /// −100) looking at (50, 50, 0), the axis is (−1, 0, 1)/√2 and the
  /// camera's x axis (1, 0, 1)/√2. The point (50, 50, 0) is on the axis:
  /// the centre. (60, 50, 0), at (−90, 0, 100) from the camera, is 7.071
  /// to the side and 134.35 deep: x = 50 + 100 × 7.071 / 134.35 = 55.263.
  func testATwoNodeCameraLooksAtItsPointOfInterest() throws {
    let layers = """
      [{"ty": 13, "ind": 1, "ip": 0, "op": 60, "st": 0, "pe": {"a": 0, "k": 100},
        "ks": {"a": {"a": 0, "k": [50, 50, 0]}, "p": {"a": 0, "k": [150, 50, -100]}}},
       {"ty": 1, "ind": 2, "nm": "square", "ip": 0, "op": 60, "st": 0, "ddd": 1, "sw": 20, "sh": 20,
        "sc": "#ff0000", "ks": {"a": {"a": 0, "k": [0, 0, 0]}, "p": {"a": 0, "k": [50, 50, 0]}}}]
      """
    let a = try S.load(S.document(layers: layers))
    let root = S.presentation(a, at: 0)
    let solid = try XCTUnwrap(S.named("square", in: root)?.sublayers?.first)
    let side = 10 * (0.5).squareRoot()
    let depth = 90 * (0.5).squareRoot() + 100 * (0.5).squareRoot()
    assertPoints(
      [solid.convert(.zero, to: root), solid.convert(CGPoint(x: 10, y: 0), to: root)],
      [(50, 50), (50 + 100 * side / depth, 50)], "look at")
    XCTAssertEqual(50 + 100 * side / depth, 55.263, accuracy: 1e-3)
  }

  /// What a camera layer needs is checked: its zoom (`pe`) is required and
  /// at least one point; a second camera is reported, not used.
  func testCameraErrorsAndReports() throws {
    let camera =
      #"{"ty": 13, "ind": 1, "ip": 0, "op": 60, "st": 0, "ks": {"p": {"a": 0, "k": [50, 50, -100]}}"#
    XCTAssertEqual(
      S.error(S.document(layers: "[\(camera)}]")), "test.json: layers[0]: missing required key 'pe'"
    )
    XCTAssertEqual(
      S.error(S.document(layers: "[\(camera), \"pe\": {\"a\": 0, \"k\": 0}}]")),
      "test.json: layers[0].pe: camera zoom 0.0 must be at least 1 point")
    let two =
      "[\(camera), \"pe\": {\"a\": 0, \"k\": 100}}, \(camera), \"pe\": {\"a\": 0, \"k\": 50}}]"
    XCTAssertEqual(
      try S.load(S.document(layers: two)).unsupported,
      [
        LottieUnsupported(
          feature: "camera layer other than the topmost (not used)", path: "layers[1].ty")
      ])
  }

  /// A 3D layer behind the camera is not drawn (its w is negative: the
  /// renderer cuts what lies behind the eye), and renders without error.
  func testALayerBehindTheCameraIsNotDrawn() throws {
    let layers = """
      [{"ty": 13, "ind": 1, "ip": 0, "op": 60, "st": 0, "pe": {"a": 0, "k": 100},
        "ks": {"a": {"a": 0, "k": [50, 50, 0]}, "p": {"a": 0, "k": [50, 50, -100]}}},
       {"ty": 1, "ind": 2, "nm": "behind", "ip": 0, "op": 60, "st": 0, "ddd": 1, "sw": 100, "sh": 100,
        "sc": "#ff0000", "ks": {"a": {"a": 0, "k": [50, 50, 0]}, "p": {"a": 0, "k": [50, 50, -150]}}}]
      """
    let a = try S.load(S.document(layers: layers))
    let image = try S.renderer().render(layer: a.rootLayer, size: CGSize(width: 100, height: 100), time: 0)
    XCTAssertEqual(image.straightPixels.max(), 0)
  }
}
