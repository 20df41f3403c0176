import Foundation
import LaminaScene
import LaminaTestSupport

/// The benchmark scenes stepped on the recording device as `lamina bench`
/// steps them: frame i at 10 s + (i − 3)/60 (`RecordedRun`).
final class RecordedBenchmark {
  let run: RecordedRun
  var frameIndex = 0

  /// The scenes of `Benchmarks/scenes`, by name.
  static let benchmarkScenes = [
    "grid", "cards", "cubes", "blur", "nineslice", "shapes", "gradients", "masks", "text",
    "particles", "kiosk",
  ]

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  init(_ name: String) throws {
    let url = Self.packageRoot.appendingPathComponent("Benchmarks/scenes/\(name).json")
    run = try RecordedRun(SceneLoader.load(contentsOf: url, maxImageDimension: 16384))
  }

  /// Builds, plans and runs the next frame.
  func step() throws {
    try run.step(at: 10 + Double(frameIndex - 3) / 60)
    frameIndex += 1
  }
}
