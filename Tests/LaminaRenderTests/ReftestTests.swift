import Foundation
import Lamina
import LaminaRender
import XCTest

/// Runs every case of `Fixtures/reftests/reftest.list`.
final class ReftestTests: XCTestCase {
  struct Case {
    enum Kind {
      case golden(String, Tolerance)
      case sameAs(String)
    }
    let scene: String
    let kind: Kind
    let line: Int
  }

  static func cases() throws -> [Case] {
    let list = RenderTestSupport.fixtures.appendingPathComponent("reftests/reftest.list")
    let text = try String(contentsOf: list, encoding: .utf8)
    var cases: [Case] = []
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      let fields = line.split(separator: " ").map(String.init)
      guard fields.count == 3 else {
        throw NSError(domain: "reftest.list", code: number + 1, userInfo: [NSLocalizedDescriptionKey: "line \(number + 1): \(line)"])
      }
      if fields[0] == "==" {
        cases.append(Case(scene: fields[1], kind: .sameAs(fields[2]), line: number + 1))
      } else if fields[0].hasPrefix("fuzzy("), fields[0].hasSuffix(")") {
        let numbers = fields[0].dropFirst(6).dropLast().split(separator: ",").compactMap { Int($0) }
        guard numbers.count == 2 else { throw NSError(domain: "reftest.list", code: number + 1) }
        cases.append(
          Case(scene: fields[1], kind: .golden(fields[2], .fuzzy(maxDifference: numbers[0], maxPixels: numbers[1])), line: number + 1))
      } else {
        throw NSError(domain: "reftest.list", code: number + 1, userInfo: [NSLocalizedDescriptionKey: "line \(number + 1): \(line)"])
      }
    }
    return cases
  }

  func testReftestList() throws {
    let cases = try Self.cases()
    XCTAssertGreaterThanOrEqual(cases.count, 9)
    let folder = RenderTestSupport.fixtures.appendingPathComponent("reftests")
    for item in cases {
      let image = try RenderTestSupport.render(folder.appendingPathComponent(item.scene))
      switch item.kind {
      case .golden(let golden, let tolerance):
        try RenderTestSupport.assertMatches(image, golden: "reftests/" + golden, tolerance: tolerance)
      case .sameAs(let reference):
        let other = try RenderTestSupport.render(folder.appendingPathComponent(reference))
        let comparison = ImageComparison(actual: image.straightPixels, expected: other.straightPixels, threshold: 2)
        XCTAssertEqual(comparison.pixelsOff, 0, "\(item.scene) == \(reference): \(comparison.summary)")
      }
    }
  }
}
