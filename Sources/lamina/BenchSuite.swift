import CZlib
import Foundation
import Lamina
import LaminaBatch
import LaminaRender

/// `lamina bench` with no file: the built-in suite, carried in the binary
/// (`EmbeddedSuite`, from the EmbedSuite plugin): the eleven benchmark
/// scenes of Benchmarks/scenes at their 1920x1080 and the three Lottie
/// documents of Benchmarks/suite at 512x512, each on a renderer of its own
/// by the scene protocol, one line each as glmark2 prints its scenes, and
/// a score: the geometric mean of their frames per second.
func runSuite(_ settings: BenchSettings, json: Bool) throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "lamina-suite-\(ProcessInfo.processInfo.processIdentifier)")
  defer { try? FileManager.default.removeItem(at: folder) }
  try BenchSuite.unpack(into: folder)
  let info = try GPUContext.shared().info
  if !json {
    print("lamina bench: \(info.glRenderer) (\(info.glVersion)), \(ProcessInfo.processInfo.activeProcessorCount) cores")
  }
  var reports: [BenchReport] = []
  for entry in BenchSuite.scenes {
    var given = settings
    if entry.lottie { given.size = (512, 512) }
    let report = try benchDocument(
      folder.appendingPathComponent(entry.path), given,
      access: .confined)
    reports.append(report)
    if !json { print(BenchSuite.line(entry.name, report)) }
  }
  let score = BenchSuite.score(reports)
  if json {
    let object: [String: Any] = [
      "glRenderer": info.glRenderer, "glVersion": info.glVersion,
      "score": score, "scenes": reports.map(\.jsonObject),
    ]
    let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
    print(String(decoding: data, as: UTF8.self))
  } else {
    print(String(format: "lamina bench score: %.1f (the geometric mean of %d scenes' frames per second)", score, reports.count))
  }
}

enum BenchSuite {
  /// The suite's scenes in order: name, file below the unpacked folder,
  /// and whether it is a Lottie document (benchmarked at 512x512).
  static let scenes: [(name: String, path: String, lottie: Bool)] =
    ["grid", "cards", "cubes", "blur", "nineslice", "shapes", "gradients", "masks", "text",
     "particles", "kiosk"].map { ($0, "scenes/\($0).json", false) }
    + ["character", "confetti", "matte"].map { ("lottie-\($0)", "suite/suite-\($0).json", true) }

  /// Writes the embedded files below `folder`, inflated.
  static func unpack(into folder: URL) throws {
    for file in EmbeddedSuite.files {
      guard let deflated = Data(base64Encoded: file.deflated) else {
        throw UsageError("the built-in suite's \(file.path) is damaged")
      }
      var bytes = [UInt8](repeating: 0, count: file.size)
      var size = uLongf(file.size)
      let status = deflated.withUnsafeBytes { raw in
        uncompress(
          &bytes, &size, raw.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(deflated.count))
      }
      guard status == Z_OK, Int(size) == file.size else {
        throw UsageError("the built-in suite's \(file.path) does not inflate")
      }
      let url = folder.appendingPathComponent(file.path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
    }
  }

  /// `[cards] 1920x1080: FPS: 7.39 FrameTime: 135.30 ms (draws 349.0, offscreen passes 0.0)`.
  static func line(_ name: String, _ report: BenchReport) -> String {
    let median = report.median
    return String(
      format: "[%@] %dx%d: FPS: %.2f FrameTime: %.2f ms (draws %.1f, offscreen passes %.1f)",
      name, report.width, report.height, median > 0 ? 1000 / median : 0, median,
      report.mean(report.drawCalls), report.mean(report.offscreenPasses))
  }

  /// The geometric mean of the reports' frames per second.
  static func score(_ reports: [BenchReport]) -> Double {
    let rates = reports.map { $0.median > 0 ? 1000 / $0.median : 0 }.filter { $0 > 0 }
    guard !rates.isEmpty else { return 0 }
    return exp(rates.map { log($0) }.reduce(0, +) / Double(rates.count))
  }
}
