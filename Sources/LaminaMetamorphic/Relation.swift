import Foundation
import LaminaRender
import LaminaScene

/// A failed relation: what differed, and the images and scenes that show it.
package struct Failure {
  /// The relation's name.
  package var relation: String
  /// What went wrong: the difference against the tolerance, or the error.
  package var message: String
  /// Whether a render threw (rather than drew other pixels).
  package var threw: Bool
  /// The case's own rendering (what the other should match).
  package var expected: RenderedImage?
  /// The rendering that differs.
  package var actual: RenderedImage?
  /// For relations that transform the tree: the scene that should render
  /// like the case's scene.
  package var transformed: JSON?
  /// The tolerance that was exceeded.
  package var tolerance: PixelTolerance?
  /// The pixels compared (nil: all).
  package var compared: [Bool]?
}

/// What checking one relation on one case came to.
package enum Outcome {
  case passed
  /// The relation does not hold in Core Animation for this scene (or has
  /// nothing to compare), so it was not checked.
  case notApplicable
  case failed(Failure)
}

/// The case being checked: its scene, the harness, and its rendering. The
/// case is rendered twice by the harness's renderer: the second rendering is
/// the one every relation compares against, and the first is what
/// `first-frame` compares with it (so that a first rendering that goes
/// wrong fails that one relation, not every relation at once).
package struct Subject {
  package let testCase: GeneratedCase
  package let harness: Harness
  /// The renderer; relations that change its settings put them back.
  package var renderer: Renderer { harness.renderer }
  /// The case's second rendering.
  package let base: RenderedImage
  /// Its first.
  package let first: RenderedImage

  /// Renders the case; a throw is the finding `renders` (a valid scene must
  /// always render), `InvalidScene` a generator bug.
  package init(_ testCase: GeneratedCase, harness: Harness) throws {
    self.testCase = testCase
    self.harness = harness
    first = try harness.render(testCase.scene, time: testCase.time, with: harness.renderer)
    base = try harness.render(testCase.scene, time: testCase.time, with: harness.renderer)
  }

  /// Renders `scene` (the case's by default) with the case's renderer.
  func render(_ scene: JSON? = nil, time: Double? = nil, scale: CGFloat? = nil) throws
    -> RenderedImage
  {
    try harness.render(scene ?? self.scene, time: time ?? self.time, scale: scale, with: renderer)
  }

  /// Runs `body` with the renderer's settings changed by `configure`, and
  /// puts them back afterwards.
  func withSettings<T>(_ configure: (Renderer) -> Void, _ body: () throws -> T) rethrows -> T {
    let saved = (renderer.usesBlendEquations, renderer.batchesDraws, renderer.offscreenPoolLimit)
    configure(renderer)
    defer {
      renderer.usesBlendEquations = saved.0
      renderer.batchesDraws = saved.1
      renderer.offscreenPoolLimit = saved.2
    }
    return try body()
  }

  var scene: JSON { testCase.scene }
  var time: Double { testCase.time }

  /// Random choices of relation `stream`, the same for the same case.
  func random(_ stream: UInt64) -> RandomSource {
    RandomSource(seed: testCase.seed, stream: stream)
  }

  /// Compares `image` with the base rendering.
  func compare(
    _ relation: String, _ image: RenderedImage, _ tolerance: PixelTolerance,
    transformed: JSON? = nil, include: [Bool]? = nil, expected: RenderedImage? = nil
  ) -> Outcome {
    let reference = expected ?? base
    let difference = PixelDifference(
      reference, image, threshold: tolerance.maxDifference, include: include)
    if difference.accepted(by: tolerance) { return .passed }
    return .failed(
      Failure(
        relation: relation, message: "\(difference); allowed \(tolerance)", threw: false,
        expected: reference, actual: image, transformed: transformed, tolerance: tolerance,
        compared: include))
  }

  /// A relation whose second rendering threw.
  func threw(_ relation: String, _ error: Error, transformed: JSON? = nil) -> Outcome {
    .failed(
      Failure(
        relation: relation, message: "threw: \(error)", threw: true, expected: base, actual: nil,
        transformed: transformed, tolerance: nil, compared: nil))
  }

  /// Renders `scene` and compares it with the base rendering.
  func compareScene(
    _ relation: String, _ scene: JSON, _ tolerance: PixelTolerance, scale: CGFloat? = nil
  ) -> Outcome {
    do {
      return compare(
        relation, try render(scene, scale: scale), tolerance,
        transformed: scene)
    } catch {
      return threw(relation, error, transformed: scene)
    }
  }
}

/// A transformation of a case, or of how it is rendered, that must not
/// change its pixels beyond a tolerance.
package struct Relation: Sendable {
  /// A short name (`wrap-container`), used on the command line and in findings.
  package let name: String
  /// What the relation does, for `--list` and the findings' notes.
  package let summary: String
  /// Whether the relation transforms the scene (its finding is a pair of
  /// scenes that must render the same) rather than how it is rendered.
  package let transformsScene: Bool
  let check: @Sendable (Subject) -> Outcome

  package func callAsFunction(_ subject: Subject) -> Outcome { check(subject) }

  /// The relation checked as the runner checked it, after `earlier` (the
  /// relations that ran before it on the case's renderer, whose state they
  /// may have changed): what a finding is replayed and shrunk with.
  package func checked(_ subject: Subject, after earlier: [Relation]) -> Outcome {
    for other in earlier { _ = other(subject) }
    return check(subject)
  }

  /// The relations that run before this one when the runner checks `list`.
  package func predecessors(in list: [Relation]) -> [Relation] {
    Array(list.prefix { $0.name != name })
  }

  /// Every relation, in the order the runner checks them (`repeat` last:
  /// it checks what all the others left in the renderer).
  package static let all: [Relation] =
    determinism + structure + renderer + [scale2, alone, repeatRender]

  package static func named(_ name: String) -> Relation? { all.first { $0.name == name } }
}
