import Foundation
import Lamina
import LaminaLottie
import LaminaTestSupport
import XCTest

/// What a frame of each document of the Lottie conformance set (and of
/// the three of `lamina bench`'s built-in suite) costs on
/// the recording device (no EGL): draws, passes and offscreen passes, the
/// mean over eight frames spread over the document's ip..op after two
/// warm-up frames, as `lamina bench` steps through a document (one
/// presentation tree, one frame builder, caches of its own). The counts
/// reached are in `Fixtures/lottie-counts.json`; a document that needs
/// more than its entry fails, so what the performance work won
/// (Benchmarks/results.md) cannot be lost silently. A count that goes down
/// is a gain: write the table again with `LAMINA_WRITE_LOTTIE_COUNTS=1`.
/// The layers the presentation update visits and frame building derives
/// a frame are held the same way, and the shape layers placed from what
/// their last visit kept and the layers derived as plain ones (which may
/// not fall).
final class LottieCountTests: XCTestCase {
  struct Counts: Codable, Equatable {
    var draws: Double
    var passes: Double
    var offscreenPasses: Double
    /// Layers the presentation update visited, and layers frame building
    /// derived (not reused), a frame: what one layer per Lottie transform
    /// and the skipping of subtrees that hold still won (stop 54).
    var layersVisited: Double? = nil
    var layersDerived: Double? = nil
    /// Shape layers derived again for their parents' motion alone that
    /// placed the path items their last visit kept (`PathItemsMemo`, stop
    /// 55), a frame: a count that may not fall.
    var layersPlaced: Double? = nil
    /// Layers derived as plain layers (`FrameBuilder.derivePlain`, stop
    /// 57), a frame: a count that may not fall.
    var layersPlain: Double? = nil
  }

  /// The mean counts of a frame of the document at `url`.
  static func counts(_ url: URL, cpuPaths: Bool) throws -> Counts {
    let animation = try LottieAnimation(contentsOf: url)
    let run = try RecordedRun(animation.makeScene())
    run.options.cpuPaths = cpuPaths
    let warmup = 2
    let frames = 8
    var total = Counts(draws: 0, passes: 0, offscreenPasses: 0)
    var visited = 0
    var derived = 0
    var placed = 0
    var plain = 0
    for i in 0..<(warmup + frames) {
      let k = Double(i >= warmup ? i - warmup : i)
      let frame = animation.inPoint + k * (animation.outPoint - animation.inPoint) / Double(frames)
      let built = try run.step(at: animation.time(ofFrame: frame))
      guard i >= warmup else { continue }
      let counters = run.device.counters
      total.draws += Double(counters.drawCalls)
      total.passes += Double(counters.passes)
      total.offscreenPasses += Double(counters.offscreenPasses)
      visited += run.presentation.visitedLayers
      derived += built.stats.derivedLayers
      placed += built.stats.placedShapeLayers
      plain += built.stats.plainLayers
    }
    return Counts(
      draws: total.draws / Double(frames), passes: total.passes / Double(frames),
      offscreenPasses: total.offscreenPasses / Double(frames),
      layersVisited: Double(visited) / Double(frames),
      layersDerived: Double(derived) / Double(frames),
      layersPlaced: Double(placed) / Double(frames),
      layersPlain: Double(plain) / Double(frames))
  }

  /// The table of counts reached: the GPU path renderer's, or with paths
  /// drawn by Cairo (`PlanOptions.cpuPaths`, llvmpipe's route).
  static func fixture(cpuPaths: Bool) -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent(cpuPaths ? "Fixtures/lottie-counts-cpu.json" : "Fixtures/lottie-counts.json")
  }

  func testNoConformanceDocumentNeedsMoreDrawsOrPassesThanReached() throws {
    try check(cpuPaths: false)
  }

  /// The same where paths are drawn by Cairo (llvmpipe's route): a run of
  /// paths written into its target is no draw at all.
  func testWithPathsOnTheCPUNoDocumentNeedsMoreThanReached() throws {
    try check(cpuPaths: true)
  }

  func check(cpuPaths: Bool) throws {
    let folder = ConformanceTests.conformance
    let manifestURL = folder.appendingPathComponent("manifest.json")
    guard FileManager.default.fileExists(atPath: manifestURL.path) else {
      throw XCTSkip("\(folder.path) is absent: the Lottie conformance files are not checked out beside the project")
    }
    let entries = try JSONDecoder().decode(
      [ConformanceTests.Entry].self, from: Data(contentsOf: manifestURL))
    // The set's documents, and the built-in suite's three (Benchmarks/suite).
    let suite = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
        "Benchmarks")
    let documents = Array(Set(entries.map(\.lottie))).sorted() + [
      "suite/suite-character.json", "suite/suite-confetti.json", "suite/suite-matte.json",
    ]
    var measured: [String: Counts] = [:]
    for document in documents {
      let base = document.hasPrefix("suite/") ? suite : folder
      measured[document] = try Self.counts(base.appendingPathComponent(document), cpuPaths: cpuPaths)
    }
    if ProcessInfo.processInfo.environment["LAMINA_WRITE_LOTTIE_COUNTS"] == "1" {
      // Rounded up to a hundredth, so that the table holds what was measured.
      // (Down, for the count that may not fall.)
      func up(_ v: Double) -> Double { (v * 100).rounded(.up) / 100 }
      func down(_ v: Double) -> Double { (v * 100).rounded(.down) / 100 }
      let rounded = measured.mapValues {
        Counts(
          draws: up($0.draws), passes: up($0.passes), offscreenPasses: up($0.offscreenPasses),
          layersVisited: $0.layersVisited.map(up), layersDerived: $0.layersDerived.map(up),
          layersPlaced: $0.layersPlaced.map(down), layersPlain: $0.layersPlain.map(down))
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(rounded).write(to: Self.fixture(cpuPaths: cpuPaths))
    }
    let expected = try JSONDecoder().decode(
      [String: Counts].self, from: Data(contentsOf: Self.fixture(cpuPaths: cpuPaths)))
    XCTAssertEqual(Set(expected.keys), Set(documents), "the table lists every document of the set")
    for document in documents {
      guard let got = measured[document], let most = expected[document] else { continue }
      var fields = [
        ("draws", got.draws, most.draws), ("passes", got.passes, most.passes),
        ("offscreen passes", got.offscreenPasses, most.offscreenPasses),
      ]
      if let value = got.layersVisited, let limit = most.layersVisited {
        fields.append(("layers visited by the presentation update", value, limit))
      }
      if let value = got.layersDerived, let limit = most.layersDerived {
        fields.append(("layers derived by frame building", value, limit))
      }
      for (what, value, limit) in fields {
        XCTAssertLessThanOrEqual(value, limit + 1e-9, "\(document): \(what) a frame")
      }
      if let value = got.layersPlaced, let least = most.layersPlaced {
        XCTAssertGreaterThanOrEqual(
          value, least - 1e-9,
          "\(document): shape layers placed from what their visit kept, a frame")
      }
      if let value = got.layersPlain, let least = most.layersPlain {
        XCTAssertGreaterThanOrEqual(
          value, least - 1e-9, "\(document): layers derived as plain layers, a frame")
      }
    }
    let draws = measured.values.map(\.draws)
    print(
      "Lottie counts\(cpuPaths ? " (paths on the CPU)" : ""): \(documents.count) documents, at most \(draws.max() ?? 0) draws a frame, "
        + "\(measured.values.map(\.offscreenPasses).max() ?? 0) offscreen passes")
  }
}
