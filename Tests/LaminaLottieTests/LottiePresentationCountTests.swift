import Foundation
import Lamina
import LaminaLottie
import XCTest

/// Holds what the presentation update won on Lottie documents: most of a
/// document's layers hold still from one frame to the next (their in and
/// out points, keyframe holds), and a held layer is not evaluated again
/// (`PresentationTree.appliedLayers`). The built-in suite's documents,
/// stepped frame by frame as `lamina bench` steps them.
final class LottiePresentationCountTests: XCTestCase {
  static let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Benchmarks/suite")

  /// Layers evaluated and layers visited over `frames` frames after the first.
  static func counts(_ name: String, frames: Int = 30) throws -> (applied: Int, visited: Int) {
    let animation = try LottieAnimation(contentsOf: suite.appendingPathComponent(name))
    let scene = try animation.makeScene()
    let tree = PresentationTree(root: scene.root)
    var applied = 0
    var visited = 0
    for i in 0...frames {
      _ = tree.update(time: animation.time(ofFrame: animation.inPoint + Double(i)))
      guard i > 0 else { continue }
      applied += tree.appliedLayers
      visited += tree.visitedLayers
    }
    return (applied, visited)
  }

  /// Layers evaluated in 30 frames, at most: measured when holds were
  /// made (every layer that has animations was evaluated every frame
  /// before: the visited counts). The suite's documents move nearly every
  /// layer on purpose; suite-matte's still mattes hold. (suite-matte
  /// visited 1,080 before a lone adding mask became its shape alone, an
  /// alpha mask: one layer fewer, the black cover it was screened over;
  /// 1,050 before a layer whose anchor holds still became one layer, not
  /// a pair: two of its layers that held were one.)
  static let mostEvaluated = [
    "suite-character.json": (applied: 1440, visited: 1470),
    "suite-confetti.json": (applied: 4800, visited: 4830),
    "suite-matte.json": (applied: 780, visited: 990),
  ]

  func testHeldLayersAreNotEvaluatedFrameAfterFrame() throws {
    for (name, most) in Self.mostEvaluated {
      let (applied, visited) = try Self.counts(name)
      XCTAssertEqual(visited, most.visited, name)
      XCTAssertLessThanOrEqual(applied, most.applied, name)
    }
    let (applied, visited) = try Self.counts("suite-matte.json")
    XCTAssertLessThan(applied * 5, visited * 4, "suite-matte: a fifth of its layers hold")
  }
}
