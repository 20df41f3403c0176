import Foundation
import LaminaRender
import LaminaScene

/// A relation that failed on a generated case, shrunk, and how to save it:
/// a folder holding the minimal scene, the scene it must render like (for
/// relations that transform the tree), the images, and a line saying which
/// relation failed and how.
package struct Finding {
  package var relation: Relation
  /// The relations checked before it on the same renderer (a finding is
  /// replayed after them, as it failed).
  package var earlier: [Relation]
  /// The case as generated.
  package var original: GeneratedCase
  /// The case after shrinking (the original when not shrunk).
  package var minimal: GeneratedCase
  /// How the minimal case fails.
  package var failure: Failure

  /// The line that says what failed: relation, seed, time and difference.
  package var summary: String {
    "\(relation.name) seed \(original.seed) t=\(JSON.format(minimal.time)): \(failure.message)"
  }

  /// The folder name: relation and seed.
  package var folderName: String { "\(relation.name)-seed\(original.seed)" }

  /// Writes the finding into `folder/NAME/`: `scene.json` (minimal),
  /// `transformed.json` or `previous.json` (the other scene of the
  /// relation, when there is one), `original.json`, `finding.txt`,
  /// `expected.png`, `actual.png` and the images the scenes use.
  @discardableResult
  package func write(into folder: URL) throws -> URL {
    let dir = folder.appendingPathComponent(folderName)
    let files = FileManager.default
    try files.createDirectory(at: dir, withIntermediateDirectories: true)
    try minimal.scene.serialized().write(
      to: dir.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
    try original.scene.serialized().write(
      to: dir.appendingPathComponent("original.json"), atomically: true, encoding: .utf8)
    var lines = [
      summary,
      "relation: \(relation.name): \(relation.summary)",
      "after: \(earlier.map(\.name).joined(separator: ","))",
      "replay: swift run -c release lamina-metamorphic --replay \(dir.path)",
    ]
    if let other = failure.transformed {
      let name = relation.name == "partial-redraw" ? "previous.json" : "transformed.json"
      try other.serialized().write(
        to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
      lines.append(
        "\(name): the scene that \(relation.name == "partial-redraw" ? "was drawn before" : "must render like scene.json")"
      )
    }
    if let tolerance = failure.tolerance {
      lines.append("tolerance: \(tolerance) (\(tolerance.why))")
    }
    try (lines.joined(separator: "\n") + "\n").write(
      to: dir.appendingPathComponent("finding.txt"), atomically: true, encoding: .utf8)
    try failure.expected?.writePNG(to: dir.appendingPathComponent("expected.png"))
    try failure.actual?.writePNG(to: dir.appendingPathComponent("actual.png"))
    let images = dir.appendingPathComponent("images")
    try files.createDirectory(at: images, withIntermediateDirectories: true)
    for image in SceneGenerator.images {
      let source = Harness.imageBase.appendingPathComponent(image.file)
      let target = dir.appendingPathComponent(image.file)
      if !files.fileExists(atPath: target.path) { try files.copyItem(at: source, to: target) }
    }
    return dir
  }
}

/// A finding read back from its folder (`scene.json` and the first line of
/// `finding.txt`: `RELATION seed N t=T: …`), to check whether it still fails.
package struct KnownFinding {
  package var relation: String
  /// The relations checked before it (the `after:` line).
  package var earlier: [String]
  package var testCase: GeneratedCase

  package init(relation: String, earlier: [String], testCase: GeneratedCase) {
    self.relation = relation
    self.earlier = earlier
    self.testCase = testCase
  }

  package init(folder: URL) throws {
    let lines = try String(
      contentsOf: folder.appendingPathComponent("finding.txt"), encoding: .utf8
    ).split(separator: "\n").map(String.init)
    let line = lines.first ?? ""
    earlier =
      lines.first { $0.hasPrefix("after: ") }.map {
        $0.dropFirst(7).split(separator: ",").map(String.init)
      } ?? []
    let fields = line.split(separator: " ", maxSplits: 4).map(String.init)
    guard fields.count >= 4, fields[1] == "seed", let seed = UInt64(fields[2]),
      fields[3].hasPrefix("t="),
      let time = Double(fields[3].dropFirst(2).trimmingCharacters(in: [":"]))
    else { throw InvalidScene(message: "\(folder.lastPathComponent)/finding.txt: \(line)") }
    relation = fields[0]
    let scene = try JSON.parse(
      String(contentsOf: folder.appendingPathComponent("scene.json"), encoding: .utf8))
    testCase = GeneratedCase(seed: seed, scene: scene, time: time)
  }

  /// Whether the relation still fails on the scene (a `renders` finding:
  /// whether rendering still throws).
  package func stillFails(_ harness: Harness) throws -> Bool {
    let subject: Subject
    do {
      subject = try Subject(testCase, harness: harness)
    } catch is InvalidScene {
      throw InvalidScene(message: "the finding's scene no longer loads")
    } catch {
      // A `renders` finding still throws; any other now fails another way.
      if relation == Runner.renderRelation { return true }
      throw error
    }
    guard relation != Runner.renderRelation else { return false }
    guard let r = Relation.named(relation) else {
      throw InvalidScene(message: "no relation \(relation)")
    }
    if case .failed = r.checked(subject, after: earlier.compactMap(Relation.named)) {
      return true
    }
    return false
  }
}
