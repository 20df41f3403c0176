import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import Testing

/// Runs every case of `Fixtures/reftests/reftest.list`, each line a test
/// case of its own (`swift test --filter 'Reftests'`), so that one failing
/// or throwing scene does not hide the others. The cases share the one
/// renderer (one EGL context, current on the main thread, where the XCTest
/// cases render too), so they run one at a time on the main actor.
@Suite(.serialized) @MainActor struct Reftests {
  struct Case: CustomTestStringConvertible, Sendable {
    enum Kind: Sendable {
      case golden(String, Tolerance)
      case sameAs(String)
    }
    let scene: String
    let kind: Kind
    let line: Int
    /// The time the scene is rendered at (`SCENE.json@t=SECONDS`).
    var time: Double = 0
    /// Rendered by the GPU path renderer (a line ending in `gpu-paths`).
    var gpuPaths = false

    var testDescription: String {
      let timed = time == 0 ? scene : "\(scene)@t=\(time)"
      switch kind {
      case .golden(let golden, _):
        return "line \(line): \(timed) ~ \(golden)\(gpuPaths ? " (GPU paths)" : "")"
      case .sameAs(let reference): return "line \(line): \(timed) == \(reference)"
      }
    }
  }

  /// Splits `SCENE.json@t=SECONDS` into the scene and its time.
  nonisolated static func sceneAndTime(_ field: String, line: Int) throws -> (String, Double) {
    guard let at = field.range(of: "@t=") else { return (field, 0) }
    guard let time = Double(field[at.upperBound...]), time >= 0 else {
      throw NSError(
        domain: "reftest.list", code: line,
        userInfo: [NSLocalizedDescriptionKey: "line \(line): bad time in \(field)"])
    }
    return (String(field[..<at.lowerBound]), time)
  }

  nonisolated static func cases() throws -> [Case] {
    let list = RenderTestSupport.fixtures.appendingPathComponent("reftests/reftest.list")
    let text = try String(contentsOf: list, encoding: .utf8)
    var cases: [Case] = []
    for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") { continue }
      var fields = line.split(separator: " ").map(String.init)
      let gpuPaths = fields.last == "gpu-paths"
      if gpuPaths { fields.removeLast() }
      guard fields.count == 3 else {
        throw NSError(
          domain: "reftest.list", code: number + 1,
          userInfo: [NSLocalizedDescriptionKey: "line \(number + 1): \(line)"])
      }
      let (scene, time) = try sceneAndTime(fields[1], line: number + 1)
      if fields[0] == "==" {
        cases.append(Case(scene: scene, kind: .sameAs(fields[2]), line: number + 1, time: time))
      } else if fields[0].hasPrefix("fuzzy("), fields[0].hasSuffix(")") {
        let numbers = fields[0].dropFirst(6).dropLast().split(separator: ",").compactMap { Int($0) }
        guard numbers.count == 2 else { throw NSError(domain: "reftest.list", code: number + 1) }
        cases.append(
          Case(
            scene: scene,
            kind: .golden(fields[2], .fuzzy(maxDifference: numbers[0], maxPixels: numbers[1])),
            line: number + 1, time: time, gpuPaths: gpuPaths))
      } else {
        throw NSError(
          domain: "reftest.list", code: number + 1,
          userInfo: [NSLocalizedDescriptionKey: "line \(number + 1): \(line)"])
      }
    }
    return cases
  }

  @Test func listHasTheCases() throws {
    #expect(try Self.cases().count >= 9)
  }

  @Test(arguments: try Reftests.cases())
  func reftest(_ item: Case) throws {
    let folder = RenderTestSupport.fixtures.appendingPathComponent("reftests")
    let image = try RenderTestSupport.render(
      folder.appendingPathComponent(item.scene), time: item.time,
      cpuPaths: item.gpuPaths ? false : nil)
    switch item.kind {
    case .golden(let golden, let tolerance):
      let failure = try RenderTestSupport.goldenMismatch(
        image, golden: "reftests/" + golden, tolerance: tolerance)
      #expect(failure == nil, "\(failure ?? "")")
    case .sameAs(let reference):
      let other = try RenderTestSupport.render(
        folder.appendingPathComponent(reference), time: item.time)
      let comparison = ImageComparison(
        actual: image.straightPixels, expected: other.straightPixels, threshold: 2)
      #expect(comparison.pixelsOff == 0, "\(item.scene) == \(reference): \(comparison.summary)")
    }
  }
}
