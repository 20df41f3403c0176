import Foundation
import Lamina
import LaminaDisplay
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// `lamina show` as a kiosk that runs for months: every hostile scene
/// (`HostileScenes`) reloaded as an edit is reported and the last scene
/// drawn stays on screen; a scene that fails only at a later frame's time
/// comes back to the last one drawn, or keeps its own last frame; and
/// hundreds of reloads leave the process's memory flat.
final class ReloadTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-reload-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// A still scene of the same size as the hostile ones.
  private let good = """
    {"lamina": 1, "canvas": {"width": 100, "height": 80, "background": "#204060"},
     "root": {"sublayers": [
       {"frame": [10, 10, 40, 30], "backgroundColor": "#f0c040", "cornerRadius": 6},
       {"class": "CATextLayer", "frame": [10, 50, 80, 20], "string": "kiosk", "fontSize": 14}]}}
    """

  private var url: URL { folder.appendingPathComponent("hostile.json") }

  /// Writes `text` as the scene file; each edit differs in size and time.
  private func edit(_ text: String, _ serial: Int) throws {
    let staged = folder.appendingPathComponent("staged.json")
    try text.write(to: staged, atomically: true, encoding: .utf8)
    var times = [
      timespec(tv_sec: 1_000_000 + serial, tv_nsec: 0),
      timespec(tv_sec: 1_000_000 + serial, tv_nsec: 0),
    ]
    utimensat(AT_FDCWD, staged.path, &times, 0)
    XCTAssertEqual(rename(staged.path, url.path), 0)
  }

  private func makeLoop() throws -> (DisplayLoop, FakeOutput) {
    try edit(good, 0)
    let renderer = try RenderTestSupport.renderer()
    let output = FakeOutput(context: renderer.context, width: 100, height: 80)
    let loop = DisplayLoop(
      output: output, watcher: try SceneWatcher(url: url), renderer: renderer)
    return (loop, output)
  }

  private func goodPanel() throws -> [UInt8] {
    let copy = folder.appendingPathComponent("good.json")
    try good.write(to: copy, atomically: true, encoding: .utf8)
    return try RenderTestSupport.panel(copy, time: 0, width: 100, height: 80)
  }

  private func present(_ loop: DisplayLoop, _ output: FakeOutput, now: Double) throws {
    try loop.step(now: now)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
  }

  /// Each hostile scene as an edit of a running display: reported once,
  /// with the file, the path and the limit; the good scene stays on screen
  /// and the loop keeps running (steps after it throw nothing).
  func testEveryHostileSceneAsAnEditIsReportedAndTheLastSceneDrawnStays() throws {
    let (loop, output) = try makeLoop()
    var logged: [String] = []
    loop.log = { logged.append($0) }
    try present(loop, output, now: 0)
    let expected = try goodPanel()
    XCTAssertEqual(ImageComparison(actual: output.frontPixels(), expected: expected, threshold: 0).pixelsOff, 0)
    var now = 1.0
    for (i, hostile) in HostileScenes.cases.enumerated() {
      logged = []
      try edit(hostile.json, i + 1)
      loop.checkForReload(now: now)
      // Frames at the scene's times, past the one where it fails.
      for dt in [0.0, 0.5, 1.0, 2.0, 3.0] { try present(loop, output, now: now + dt) }
      let errors = logged.filter { !$0.hasPrefix("reloaded") }
      XCTAssertEqual(errors.count, 1, "\(hostile.name): \(logged)")
      let error = errors.first ?? ""
      XCTAssertTrue(error.hasPrefix(hostile.message), "\(hostile.name): \(error)")
      XCTAssertTrue(
        error.hasSuffix("still showing the last scene that loaded")
          || error.hasSuffix("still showing the last scene that was drawn"),
        "\(hostile.name): \(error)")
      XCTAssertEqual(loop.scene.canvas.background, CGColor(hex: "#204060"), hostile.name)
      let shown = ImageComparison(actual: output.frontPixels(), expected: expected, threshold: 0)
      XCTAssertEqual(shown.pixelsOff, 0, "\(hostile.name): \(shown.summary)")
      now += 10
    }
    // A good edit after all that is shown.
    try edit(good.replacingOccurrences(of: "#f0c040", with: "#40c0f0"), 99)
    loop.checkForReload(now: now)
    try present(loop, output, now: now)
    XCTAssertNotEqual(
      ImageComparison(actual: output.frontPixels(), expected: expected, threshold: 0).pixelsOff, 0)
  }

  /// A first scene that is drawn and fails only later keeps its last frame
  /// (there is no scene before it to show) until the file changes.
  func testASceneThatFailsLaterKeepsItsLastFrameUntilAnEdit() throws {
    guard let late = HostileScenes.cases.first(where: { $0.time != nil }) else {
      return XCTFail("no scene that fails at a frame's time")
    }
    try edit(late.json, 1)
    let renderer = try RenderTestSupport.renderer()
    let output = FakeOutput(context: renderer.context, width: 100, height: 80)
    let loop = DisplayLoop(output: output, watcher: try SceneWatcher(url: url), renderer: renderer)
    var logged: [String] = []
    loop.log = { logged.append($0) }
    try present(loop, output, now: 0)
    let first = output.frontPixels()
    let built = loop.framesBuilt
    try present(loop, output, now: 2.5)
    try present(loop, output, now: 3.0)
    XCTAssertEqual(logged.count, 1, "\(logged)")
    XCTAssertTrue(logged.first?.hasSuffix("showing its last frame until the file changes") == true)
    XCTAssertEqual(output.frontPixels(), first)
    // The failing frame is refused before it is built, and none follows.
    XCTAssertEqual(loop.framesBuilt, built, "no frames are built once it failed")
    try edit(good, 2)
    loop.checkForReload(now: 10)
    try present(loop, output, now: 10)
    XCTAssertEqual(
      ImageComparison(actual: output.frontPixels(), expected: try goodPanel(), threshold: 0)
        .pixelsOff, 0)
  }

  /// The kiosk grew from 152 to 175 MB over 240 reloads. Here 300
  /// valid reloads (two scenes in turn, drawn each time) after 60 to warm
  /// up must leave resident memory within a few megabytes.
  func testHundredsOfReloadsKeepMemoryFlat() throws {
    let (loop, output) = try makeLoop()
    let other = """
      {"lamina": 1, "canvas": {"width": 100, "height": 80, "background": "#402060"},
       "root": {"sublayers": [
         {"class": "CAGradientLayer", "frame": [0, 0, 100, 80], "colors": ["#ff0000", "#0000ff"]},
         {"class": "CAShapeLayer", "frame": [0, 0, 100, 80], "path": "M 10 10 L 90 70 L 10 70 Z",
          "fillColor": "#00ff00", "shadowOpacity": 0.5, "shadowRadius": 4},
         {"class": "CATextLayer", "frame": [10, 10, 80, 20], "string": "reload", "fontSize": 12,
          "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}]}}
      """
    var now = 0.0
    func reloads(_ count: Int, from start: Int) throws {
      for i in start..<start + count {
        try edit(i % 2 == 0 ? good : other, i)
        now += 1
        loop.checkForReload(now: now)
        try present(loop, output, now: now)
        try present(loop, output, now: now + 0.5)
      }
    }
    try reloads(60, from: 1)
    let before = Self.residentMegabytes()
    try reloads(300, from: 61)
    let after = Self.residentMegabytes()
    print("300 reloads: resident memory \(before) MB → \(after) MB")
    XCTAssertGreaterThanOrEqual(loop.framesPresented, 360)
    XCTAssertLessThan(after - before, 6, "resident memory went from \(before) to \(after) MB")
  }

  /// The kiosk grew with every reload of a scene with images: each
  /// load decoded them again and the renderer uploaded them again. The
  /// watcher's loads share one image cache, so an edit that keeps its
  /// images decodes and uploads none.
  func testReloadsReuseDecodedImagesAndTheirTextures() throws {
    let image = RenderTestSupport.fixtures.appendingPathComponent("reftests/images/stripes.jpg").path
    // Each edit changes the image layer's opacity: the image is drawn again.
    let scene = { (opacity: String) in
      """
      {"lamina": 1, "canvas": {"width": 100, "height": 80}, "images": {"stripes": "\(image)"},
       "root": {"sublayers": [{"frame": [10, 10, 60, 40], "contents": "stripes", "opacity": \(opacity)}]}}
      """
    }
    try edit(scene("1"), 0)
    let renderer = try RenderTestSupport.renderer()
    let output = FakeOutput(context: renderer.context, width: 100, height: 80)
    let watcher = try SceneWatcher(url: url, access: .anyPath)
    let loop = DisplayLoop(output: output, watcher: watcher, renderer: renderer)
    try present(loop, output, now: 0)
    for i in 1...20 {
      try edit(scene(i % 2 == 0 ? "1" : "0.5"), i)
      loop.checkForReload(now: Double(i))
      try present(loop, output, now: Double(i))
      XCTAssertGreaterThan(renderer.counters.drawCalls, 0, "reload \(i) drew the image")
      XCTAssertEqual(renderer.counters.textureUploads, 0, "reload \(i) uploaded the image again")
    }
    XCTAssertEqual(loop.framesPresented, 21)
    XCTAssertEqual(loop.watcher.imageCache.decodes, 1)
  }

  /// Resident memory of this process, in MB (/proc/self/statm).
  static func residentMegabytes() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
      return 0
    }
    let fields = text.split(separator: " ")
    let pages = fields.count > 1 ? Double(fields[1]) ?? 0 : 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
  }
}
