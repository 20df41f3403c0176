import CEGL
import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaDisplay
@testable import LaminaRender
import LaminaScene
import LaminaTestSupport
import XCTest

/// Shared helpers for render tests: one renderer per process (one EGL
/// context), fixture lookup, and golden comparison with a written diff.
enum RenderTestSupport {
  nonisolated(unsafe) private static var sharedRenderer: Renderer?

  static func renderer() throws -> Renderer {
    if let sharedRenderer { return sharedRenderer }
    let made = try Renderer()
    sharedRenderer = made
    return made
  }

  /// The `lamina` binary built beside the test executable (`Commands`).
  static var laminaBinary: URL { Commands.laminaBinary }

  /// Runs `lamina` with `arguments` (`Commands.run`).
  static func runLamina(_ arguments: [String]) throws -> (
    status: Int32, stdout: Data, stderr: String
  ) {
    try Commands.run(laminaBinary, arguments)
  }

  static func run(
    _ executable: URL, _ arguments: [String], input: Data = Data(),
    environment: [String: String] = [:], directory: URL? = nil
  ) throws -> (status: Int32, stdout: Data, stderr: String) {
    try Commands.run(
      executable, arguments, input: input, environment: environment, directory: directory)
  }

  static func commandScratch(_ prefix: String) throws -> URL { try Commands.commandScratch(prefix) }

  /// The Fixtures folder in the test bundle (read-only copies).
  static var fixtures: URL {
    Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
  }

  /// The Fixtures folder in the source tree (where goldens are recorded and
  /// failure images are written).
  static var sourceFixtures: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  }

  static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_GOLDENS"] == "1" }

  /// Loads and renders a scene file at `time` (shape layers drawn by the
  /// GPU, or by Cairo when `shapesOnGPU` is false).
  /// The frame at time 0 of a scene given as JSON text (named `name` in
  /// errors; no images), built at its canvas size and scale.
  /// The frame of `root` (120×90 points at scale 2, laid out and
  /// committed) from a renderer of its own that `configure` sets up, and
  /// the renderer's counters.
  static func renderLayer(
    _ root: CALayer, configure: (Renderer) -> Void
  ) throws -> (RenderedImage, RenderCounters) {
    let renderer = try Renderer()
    configure(renderer)
    Renderer.commit(root)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 90), scale: 2, caches: renderer.caches)
    let frame = builder.build(root: PresentationTree(root: root).update(time: 0), background: nil)
    let image = try renderer.render(frame)
    return (image, renderer.counters)
  }

  static func frame(ofSceneJSON json: String, name: String = "scene.json") throws -> DrawList {
    let scene = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: name)
    let root = PresentationTree(root: scene.root).update(time: 0)
    var builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: scene.canvas.scale)
    return builder.build(root: root, background: scene.canvas.background)
  }

  static func render(
    _ scene: URL, time: Double = 0, shapesOnGPU: Bool = true, cpuPaths: Bool? = nil
  ) throws -> RenderedImage {
    // Paths drawn on the CPU or not for this frame only (the renderer is shared).
    let shared = try renderer()
    let wasOnCPU = shared.cpuPaths
    if let cpuPaths { shared.cpuPaths = cpuPaths }
    defer { shared.cpuPaths = wasOnCPU }
    let loaded = try SceneLoader.load(contentsOf: scene)
    var builder = try FrameBuilder(
      size: CGSize(width: loaded.canvas.width, height: loaded.canvas.height),
      scale: loaded.canvas.scale, caches: renderer().caches)
    builder.time = time
    builder.drawsShapesOnGPU = shapesOnGPU
    loaded.root.layoutIfNeeded()
    let root = PresentationTree(root: loaded.root).update(time: time)
    let frame = builder.build(root: root, background: loaded.canvas.background)
    // The shared renderer's context released from this thread when the
    // frame is done: Swift Testing's cases (the reftests) may run on
    // another thread than the last frame's, and a context current on one
    // thread is refused to another (EGL_BAD_ACCESS: a full run once failed
    // every other reftest so, docs/rendering.md "A lost context").
    defer { eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil) }
    return try renderer().render(frame)
  }

  /// What `lamina show` should put on a `width`×`height` panel: the scene
  /// at `time` rendered headlessly at its fitted size, placed and turned as
  /// `DisplayPlacement` says, on black; straight RGBA, rows top-down.
  static func panel(
    _ url: URL, time: Double, width: Int, height: Int, rotation: DisplayRotation = .none
  ) throws -> [UInt8] {
    let scene = try SceneLoader.load(contentsOf: url)
    let placement = DisplayPlacement(
      sceneWidth: Double(scene.canvas.width), sceneHeight: Double(scene.canvas.height),
      panelWidth: width, panelHeight: height, rotation: rotation)
    var builder = try FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: CGFloat(placement.scale), caches: renderer().caches)
    builder.time = time
    scene.root.layoutIfNeeded()
    let frame = builder.build(
      root: PresentationTree(root: scene.root).update(time: time),
      background: scene.canvas.background)
    let image = try renderer().render(frame)
    var panel = [UInt8](repeating: 0, count: width * height * 4)
    for i in stride(from: 3, to: panel.count, by: 4) { panel[i] = 255 }
    let toPanel = placement.canvasToPanel
    for y in 0..<image.height {
      for x in 0..<image.width {
        let p = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(toPanel)
        let to = (Int(p.y) * width + Int(p.x)) * 4
        let from = (y * image.width + x) * 4
        // Premultiplied over black is the color shown.
        for c in 0..<3 { panel[to + c] = image.premultipliedPixels[from + c] }
      }
    }
    return panel
  }

  /// Compares `image` with the golden PNG at `golden` (relative to Fixtures);
  /// on failure writes `NAME.actual.png` and `NAME.diff.png` beside the golden
  /// in the source tree. With RECORD_GOLDENS=1 the golden is rewritten and
  /// the test fails, so that a re-record is always a conscious act.
  static func assertMatches(
    _ image: RenderedImage, golden: String, tolerance: Tolerance,
    file: StaticString = #filePath, line: UInt = #line
  ) throws {
    if let failure = try goldenMismatch(image, golden: golden, tolerance: tolerance) {
      XCTFail(failure, file: file, line: line)
    }
  }

  /// Why `image` does not match `golden` within `tolerance`, or nil when it
  /// does. On a mismatch it writes the actual image and a diff image beside
  /// the golden; with RECORD_GOLDENS it records the golden and says so, so a
  /// re-record always fails once. The XCTest and Swift Testing assertions
  /// both call this.
  static func goldenMismatch(_ image: RenderedImage, golden: String, tolerance: Tolerance) throws
    -> String?
  {
    let sourceGolden = sourceFixtures.appendingPathComponent(golden)
    if recording {
      try image.writePNG(to: sourceGolden)
      return "recorded \(golden); look at it, then run again without RECORD_GOLDENS"
    }
    let expected = try CGImage.decode(fileAt: fixtures.appendingPathComponent(golden).path)
    guard expected.width == image.width, expected.height == image.height else {
      return
        "\(golden): size \(image.width)x\(image.height), expected \(expected.width)x\(expected.height)"
    }
    let actual = image.straightPixels
    let comparison = ImageComparison(
      actual: actual, expected: expected.pixels, threshold: tolerance.threshold)
    let base = sourceGolden.deletingPathExtension().path
    if tolerance.accepts(comparison) {
      try? FileManager.default.removeItem(atPath: base + ".actual.png")
      try? FileManager.default.removeItem(atPath: base + ".diff.png")
      return nil
    }
    try? image.writePNG(to: URL(fileURLWithPath: base + ".actual.png"))
    try? PNGFile.write(
      comparison.diffImage(actual: actual, width: image.width, height: image.height),
      width: image.width, height: image.height, to: URL(fileURLWithPath: base + ".diff.png"))
    return
      "\(golden): \(comparison.summary); allowed \(tolerance); wrote \(base).actual.png and .diff.png"
  }
}

/// How close a rendering must be to its golden image.
enum Tolerance: CustomStringConvertible {
  /// At most `maxPixels` pixels differ by more than `maxDifference`/255.
  case fuzzy(maxDifference: Int, maxPixels: Int)
  /// The reference classes: at most `maxFractionOff` of the pixels differ by
  /// more than 8/255, and the PSNR is at least `minPSNR`.
  case reference(maxFractionOff: Double, minPSNR: Double)

  var threshold: Int {
    switch self {
    case .fuzzy(let maxDifference, _): return maxDifference
    case .reference: return 8
    }
  }

  func accepts(_ comparison: ImageComparison) -> Bool {
    switch self {
    case .fuzzy(_, let maxPixels): return comparison.pixelsOff <= maxPixels
    case .reference(let fraction, let psnr):
      return comparison.fractionOff <= fraction && comparison.psnr >= psnr
    }
  }

  var description: String {
    switch self {
    case .fuzzy(let d, let n): return "fuzzy(\(d),\(n))"
    case .reference(let f, let p): return "\(f * 100)% off and PSNR ≥ \(p) dB"
    }
  }
}
