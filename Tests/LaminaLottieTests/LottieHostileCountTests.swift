import Foundation
import Lamina
import LaminaLottie
import XCTest

/// Counts, indices and lengths a document supplies (issue 41: no trap
/// reachable from a document): each out-of-range one is an error that names
/// the file, the JSON path and the key, or a documented clamp.
final class LottieHostileCountTests: XCTestCase {
  typealias S = LottieTestSupport

  /// The repro: a gradient fill whose colour-stop count `g.p` is -5 trapped
  /// in `gradientStops` ("Range requires lowerBound <= upperBound").
  func testNegativeGradientStopCountIsAnError() throws {
    let url = S.fixtures.appendingPathComponent("lottie-gradient-negative-stop-count.json")
    XCTAssertThrowsError(try LottieAnimation(contentsOf: url)) { error in
      XCTAssertEqual(
        "\(error)",
        "lottie-gradient-negative-stop-count.json: layers[0].shapes[0].it[1].g.p: "
          + "a gradient's colour-stop count must not be negative (found -5)")
    }
  }

  /// The same count on a gradient stroke, written in the test.
  func testNegativeGradientStrokeStopCountIsAnError() {
    let stroke =
      #"{"ty": "gs", "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": 2}, "t": 1, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [10, 0]}, "g": {"p": -1, "k": {"a": 0, "k": [0, 1, 0, 0]}}}"#
    let doc = S.document(layers: "[" + S.shapeLayer("[\(S.rect()), \(stroke)]") + "]")
    XCTAssertEqual(
      S.error(doc),
      "test.json: layers[0].shapes[1].g.p: "
        + "a gradient's colour-stop count must not be negative (found -1)")
  }

  /// A count larger than the values hold is read as the values there are
  /// (After Effects' own exports never do this; lottie-web reads past the end).
  func testGradientStopCountPastTheValuesIsClamped() throws {
    let fill =
      #"{"ty": "gf", "o": {"a": 0, "k": 100}, "r": 1, "t": 1, "s": {"a": 0, "k": [0, 0]}, "e": {"a": 0, "k": [10, 0]}, "g": {"p": 1000, "k": {"a": 0, "k": [0, 1, 0, 0, 1, 0, 0, 1]}}}"#
    let doc = S.document(layers: "[" + S.shapeLayer("[\(S.rect()), \(fill)]") + "]")
    let a = try S.load(doc)
    let gradient = try XCTUnwrap(S.first(CAGradientLayer.self, in: a.rootLayer))
    XCTAssertEqual(gradient.colors?.count, 2)
    XCTAssertEqual(gradient.locations, [0, 1])
  }
}
