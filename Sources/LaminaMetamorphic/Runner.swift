import Foundation
import LaminaRender
import LaminaScene

/// Generates cases from consecutive seeds, checks every relation on each,
/// shrinks what fails and writes the findings; counts what passed.
package final class Runner {
  /// The name findings of a scene that does not render at all are filed under.
  package static let renderRelation = "renders"
  /// The name a generated scene the loader refuses is counted under.
  package static let loadRelation = "loads"
  /// The relation a throwing base rendering is reported as.
  static let renders = Relation(
    name: renderRelation, summary: "a valid scene renders without an error",
    transformsScene: false
  ) { _ in .passed }

  package let harness: Harness
  package var relations: [Relation]
  /// Whether failures are shrunk before they are saved.
  package var shrinks = true
  /// How many findings of one relation are shrunk and saved; later ones
  /// are only counted (and their seeds listed), as they are most often
  /// the same bug again.
  package var maxFindingsPerRelation = 3
  /// The most checks one shrink may take.
  package var maxShrinkChecks = 600
  /// Where findings are written (nowhere when nil).
  package var findingsFolder: URL?
  /// Progress and findings, one line each.
  package var log: (String) -> Void = { print($0) }

  /// Per relation: passed, failed and not-applicable counts, and the
  /// failing seeds.
  package private(set) var tally: [String: Tally] = [:]
  package private(set) var findings: [Finding] = []
  package private(set) var cases = 0

  package struct Tally {
    package var passed = 0
    package var failed = 0
    package var notApplicable = 0
    package var failingSeeds: [UInt64] = []
    /// Time spent checking the relation.
    package var seconds = 0.0
  }

  package init(harness: Harness, relations: [Relation] = Relation.all) {
    self.harness = harness
    self.relations = relations
  }

  /// Checks every relation on the case of `seed`; returns its failures
  /// (relation name and failure), each also tallied and, within the
  /// per-relation budget, shrunk and saved.
  @discardableResult
  package func check(seed: UInt64) -> [(String, Failure)] {
    check(SceneGenerator.generate(seed: seed))
  }

  @discardableResult
  package func check(_ testCase: GeneratedCase) -> [(String, Failure)] {
    cases += 1
    let subject: Subject
    let start = DispatchTime.now().uptimeNanoseconds
    do {
      subject = try Subject(testCase, harness: harness)
      tally[Self.renderRelation, default: Tally()].passed += 1
      tally[Self.renderRelation, default: Tally()].seconds +=
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    } catch let invalid as InvalidScene {
      // Not shrunk: the generator must only write scenes the format allows.
      tally[Self.loadRelation, default: Tally()].failed += 1
      tally[Self.loadRelation, default: Tally()].failingSeeds.append(testCase.seed)
      log("GENERATOR seed \(testCase.seed): \(invalid)")
      return [
        (
          Self.loadRelation,
          Failure(
            relation: Self.loadRelation, message: invalid.description, threw: true, expected: nil,
            actual: nil, transformed: nil, tolerance: nil, compared: nil)
        )
      ]
    } catch {
      let failure = Failure(
        relation: Self.renderRelation, message: "threw: \(error)", threw: true, expected: nil,
        actual: nil, transformed: nil, tolerance: nil, compared: nil)
      record(Self.renders, testCase, failure)
      return [(Self.renderRelation, failure)]
    }
    var failures: [(String, Failure)] = []
    for relation in relations {
      let start = DispatchTime.now().uptimeNanoseconds
      let outcome = relation(subject)
      tally[relation.name, default: Tally()].seconds +=
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
      switch outcome {
      case .passed: tally[relation.name, default: Tally()].passed += 1
      case .notApplicable: tally[relation.name, default: Tally()].notApplicable += 1
      case .failed(let failure):
        failures.append((relation.name, failure))
        record(relation, testCase, failure)
      }
    }
    return failures
  }

  private func record(_ relation: Relation, _ testCase: GeneratedCase, _ failure: Failure) {
    tally[relation.name, default: Tally()].failed += 1
    tally[relation.name, default: Tally()].failingSeeds.append(testCase.seed)
    let saved = findings.filter { $0.relation.name == relation.name }.count
    guard saved < maxFindingsPerRelation else {
      log("  \(relation.name) fails on seed \(testCase.seed) too (not shrunk: \(saved) saved)")
      return
    }
    var finding = Finding(
      relation: relation, earlier: relation.predecessors(in: relations), original: testCase,
      minimal: testCase, failure: failure)
    if shrinks {
      // Each check of `fresh-renderer` leaves a renderer on the context
      // (about 10 MB): its shrinks stay short.
      let checks =
        relation.name == Relation.freshRenderer.name ? min(maxShrinkChecks, 40) : maxShrinkChecks
      var shrinker = Shrinker.forRelation(
        relation, like: failure, after: finding.earlier, harness: harness, maxChecks: checks)
      let minimal = shrinker.shrink(testCase)
      finding.minimal = minimal
      if let again = try? Subject(minimal, harness: harness),
        case .failed(let f) = relation.checked(again, after: finding.earlier)
      {
        finding.failure = f
      }
      log(
        "  shrunk \(relation.name) seed \(testCase.seed): \(testCase.root.layerCount) → \(minimal.root.layerCount) layers in \(shrinker.checks) checks"
      )
    }
    findings.append(finding)
    var line = "FINDING \(finding.summary)"
    if let folder = findingsFolder {
      do {
        line += "\n  saved in \(try finding.write(into: folder).path)"
      } catch {
        line += "\n  could not be saved: \(error)"
      }
    }
    log(line)
  }

  /// Checks the cases of `count` seeds from `first` (or as many as fit
  /// before `deadline`), logging progress every `every` cases.
  package func run(first: UInt64, count: Int?, deadline: Date?, every: Int = 50) {
    let start = Date()
    var seed = first
    while count.map({ cases < $0 }) ?? true {
      if let deadline, Date() >= deadline { break }
      check(seed: seed)
      if cases % every == 0 {
        let rate = Double(cases) / max(0.001, Date().timeIntervalSince(start))
        log(
          "[\(cases)\(count.map { "/\($0)" } ?? "") cases] last seed \(seed), \(totalFailures) failures, \(findings.count) findings, \(String(format: "%.1f", rate)) cases/s"
        )
      }
      seed &+= 1
    }
  }

  package var totalFailures: Int { tally.values.reduce(0) { $0 + $1.failed } }

  /// One line per relation: passed, failed, not applicable, failing seeds.
  package var summary: String {
    var lines = ["\(cases) cases, \(totalFailures) failures, \(findings.count) findings"]
    for name in [Self.loadRelation, Self.renderRelation] + relations.map(\.name) {
      guard let t = tally[name] else { continue }
      var line =
        "  \(name.padding(toLength: 18, withPad: " ", startingAt: 0)) passed \(t.passed), failed \(t.failed), not applicable \(t.notApplicable), \(String(format: "%.1f", t.seconds)) s"
      if !t.failingSeeds.isEmpty {
        let shown = t.failingSeeds.prefix(20).map(String.init).joined(separator: " ")
        line += "; seeds \(shown)\(t.failingSeeds.count > 20 ? " …" : "")"
      }
      lines.append(line)
    }
    return lines.joined(separator: "\n")
  }
}
