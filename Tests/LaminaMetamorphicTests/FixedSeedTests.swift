import Foundation
import LaminaMetamorphic
import XCTest

/// The fixed seeds against every relation. Failures the current renderer is
/// known to have are listed in `Fixtures/known-failures.txt` (seed,
/// relation, and the saved finding in `Fixtures/findings/` it reproduces):
/// a failure not listed fails the test, and so does a listed one that now
/// holds (its bug was fixed: take it off the list), as an expected failure
/// would.
final class FixedSeedTests: XCTestCase {
  /// A hash of the fixed seeds' scenes (see `GeneratorTests.testTheFixedSeedsScenesAreStable`).
  static let generatorFingerprint = "ca1ba2da473e83d6"
  static let seeds: ClosedRange<UInt64> = 1...200

  static var fixtures: URL { Bundle.module.url(forResource: "Fixtures", withExtension: nil)! }

  /// `SEED RELATION FINDING` lines, comments after `#`; `RELATION?` marks a
  /// failure that only some runs show (it may hold).
  static func knownFailures() throws -> (known: [String: String], unsteady: Set<String>) {
    let text = try String(
      contentsOf: fixtures.appendingPathComponent("known-failures.txt"), encoding: .utf8)
    var known: [String: String] = [:]
    var unsteady: Set<String> = []
    for line in text.split(separator: "\n") {
      let fields = line.prefix { $0 != "#" }.split(separator: " ").map(String.init)
      guard fields.count >= 2 else { continue }
      let relation = fields[1].hasSuffix("?") ? String(fields[1].dropLast()) : fields[1]
      let key = "\(fields[0]) \(relation)"
      known[key] = fields.count > 2 ? fields[2] : "-"
      if fields[1].hasSuffix("?") { unsteady.insert(key) }
    }
    return (known, unsteady)
  }

  func testTheFixedSeedsHoldEveryRelation() throws {
    let runner = Runner(harness: try Harness())
    runner.shrinks = false
    runner.maxFindingsPerRelation = 0
    runner.log = { _ in }
    var failing: [String: String] = [:]
    for seed in Self.seeds {
      for (name, failure) in runner.check(seed: seed) {
        failing["\(seed) \(name)"] = failure.message
      }
    }
    let (known, unsteady) = try Self.knownFailures()
    for (key, message) in failing.sorted(by: { $0.key < $1.key }) where known[key] == nil {
      let fields = key.split(separator: " ")
      XCTFail(
        "seed \(fields[0]) fails \(fields[1]): \(message); shrink and save it with: swift run -c release lamina-metamorphic --count 1 --seed \(fields[0]) --relations \(fields[1])"
      )
    }
    for key in known.keys.sorted() where failing[key] == nil && !unsteady.contains(key) {
      XCTFail(
        "seed/relation \(key) holds now (finding \(known[key] ?? "-") fixed?): take it off known-failures.txt"
      )
    }
    print(runner.summary)
  }
}
