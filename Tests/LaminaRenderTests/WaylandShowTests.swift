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

/// `lamina show` as a real Wayland client of weston's headless backend
/// (pixman renderer, desktop shell), which `scripts/install-deps.sh`
/// installs: the window goes full screen, frames are presented, and a
/// screenshot of the compositor's output matches a headless render of the
/// same frame, letterbox included.
final class WaylandShowTests: XCTestCase {
  private var runtime: URL!
  private var weston: Process?
  private var socket = ""
  private var shows: [Process] = []

  override func setUpWithError() throws {
    runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-wayland-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    chmod(runtime.path, 0o700)
  }

  override func tearDownWithError() throws {
    for show in shows where show.isRunning { show.terminate() }
    if let weston, weston.isRunning {
      weston.terminate()
      weston.waitUntilExit()
    }
    try? FileManager.default.removeItem(at: runtime)
  }

  private var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment["WAYLAND_DISPLAY"] = socket
    return environment
  }

  /// Starts weston headless with one 320×240 output at `scale`.
  private func startWeston(scale: Int = 1) throws {
    guard let binary = Self.find("weston") else {
      XCTFail("weston is not installed: run scripts/install-deps.sh")
      throw XCTSkip("no weston")
    }
    socket = "lamina-test-\(getpid())"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = [
      // Sizes are in logical points: 320×240 pixels at every scale.
      "--backend=headless-backend.so", "--use-pixman", "--width=\(320 / scale)",
      "--height=\(240 / scale)",
      "--scale=\(scale)", "--socket=\(socket)", "--idle-time=0", "--debug", "--no-config",
      "--log=\(runtime.appendingPathComponent("weston.log").path)",
    ]
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    weston = process
    let socketPath = runtime.appendingPathComponent(socket).path
    try waitUntil("weston's socket appears", timeout: 10) {
      FileManager.default.fileExists(atPath: socketPath)
    }
  }

  /// Starts `lamina show` on weston; standard error goes to a file.
  private func startShow(
    _ arguments: [String], present: String? = nil
  ) throws -> (Process, URL) {
    let log = runtime.appendingPathComponent("show-\(shows.count).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let process = Process()
    process.executableURL = RenderTestSupport.laminaBinary
    process.arguments = ["show"] + arguments
    process.environment = environment
    if let present { process.environment?["LAMINA_WAYLAND_PRESENT"] = present }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    shows.append(process)
    return (process, log)
  }

  private func text(_ url: URL) -> String {
    (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }

  /// A screenshot of weston's output (`weston-screenshooter`), as straight RGBA.
  private func screenshot() throws -> CGImage {
    let folder = runtime.appendingPathComponent("shot-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.find("weston-screenshooter")!)
    process.currentDirectoryURL = folder
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    guard let name = names.first(where: { $0.hasSuffix(".png") }) else {
      throw XCTSkip("weston-screenshooter wrote no file")
    }
    return try CGImage.decode(fileAt: folder.appendingPathComponent(name).path)
  }

  /// The frame `lamina show` should put on weston's 320×240 panel.
  private func expectedPanel(_ scene: URL, time: Double = 0) throws -> [UInt8] {
    try RenderTestSupport.panel(scene, time: time, width: 320, height: 240)
  }

  /// Takes screenshots until one matches `expected` within 2/255 (the
  /// window may take a moment to appear); returns the last comparison.
  private func awaitScreen(_ expected: [UInt8], timeout: Double = 15) throws -> ImageComparison {
    let deadline = Date().addingTimeInterval(timeout)
    var comparison: ImageComparison
    repeat {
      let shot = try screenshot()
      guard shot.width == 320, shot.height == 240 else {
        XCTFail("the screenshot is \(shot.width)x\(shot.height), not 320x240")
        throw XCTSkip("screen size")
      }
      comparison = ImageComparison(actual: shot.pixels, expected: expected, threshold: 2)
      if comparison.pixelsOff == 0 { return comparison }
      Thread.sleep(forTimeInterval: 0.2)
    } while Date() < deadline
    return comparison
  }

  private func waitUntil(_ what: String, timeout: Double, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
      guard Date() < deadline else {
        XCTFail("timed out waiting until \(what)")
        throw XCTSkip("timeout")
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  private static func find(_ name: String) -> String? {
    for folder in ["/usr/bin", "/usr/local/bin", "/bin"] {
      let path = "\(folder)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  private var scenes: URL {
    RenderTestSupport.fixtures.appendingPathComponent("reference/scenes")
  }

  /// Both ways a frame reaches weston: `wl_shm` buffers that get only the
  /// damage (the default with llvmpipe) and EGL's window surface.
  func testWindowGoesFullScreenAndShowsTheHeadlessFrame() throws {
    try startWeston()
    let scene = scenes.appendingPathComponent("shadow_radius.json")
    for (present, says) in [("shm", ", shm buffers"), ("egl", "; only damage is redrawn;")] {
      let (show, log) = try startShow([scene.path], present: present)
      let comparison = try awaitScreen(try expectedPanel(scene))
      XCTAssertEqual(comparison.pixelsOff, 0, "\(present): \(comparison.summary)")
      XCTAssertTrue(
        text(log).contains("wayland \(socket): 320x240 pixels, scale 1, fullscreen"), text(log))
      XCTAssertTrue(text(log).contains(says), text(log))
      // SIGTERM: the loop leaves and the window is given back.
      show.terminate()
      show.waitUntilExit()
      XCTAssertEqual(show.terminationStatus, 0, text(log))
      XCTAssertTrue(text(log).contains("display released"), text(log))
    }
  }

  /// A moving dot on a scene the size of the panel (the shm path reads it
  /// straight from the canvas; EGL copies it into the window): the screen
  /// ends on the headless frame, although each buffer got only the damage
  /// it missed.
  func testOnlyDamageReachesTheBuffersAndTheScreenStaysExact() throws {
    try startWeston()
    let file = runtime.appendingPathComponent("dot.json")
    try """
      {"lamina": 1, "canvas": {"width": 320, "height": 240, "background": "#203040"},
       "root": {"sublayers": [
         {"frame": [40, 40, 240, 160], "backgroundColor": "#e0e0e0", "cornerRadius": 12},
         {"name": "dot", "frame": [60, 110, 20, 20], "backgroundColor": "#ff6000",
          "animations": [{"keyPath": "position.x", "fromValue": 70, "toValue": 250,
                          "duration": 0.5, "fillMode": "both"}]}]}}
      """.write(to: file, atomically: true, encoding: .utf8)
    for present in ["shm", "egl"] {
      let (show, log) = try startShow([file.path, "--stats"], present: present)
      // After the animation: the dot at rest at x 250.
      Thread.sleep(forTimeInterval: 1.5)
      let rest = try awaitScreen(try expectedPanel(file, time: 1))
      XCTAssertEqual(rest.pixelsOff, 0, "\(present): \(rest.summary)")
      show.terminate()
      show.waitUntilExit()
      // Frames redrew the dot's old and new bounds, not the panel.
      let stats = text(log).components(separatedBy: "mean damage ").last ?? ""
      let mean = Int(stats.prefix { $0.isNumber }) ?? -1
      XCTAssertGreaterThan(mean, 0, text(log))
      XCTAssertLessThan(mean, 320 * 240 / 4, text(log))
    }
  }

  func testScaledOutputGetsBufferPixels() throws {
    try startWeston(scale: 2)
    let scene = scenes.appendingPathComponent("shadow_radius.json")
    let (_, log) = try startShow([scene.path])
    // 160×120 logical points at scale 2: the same 320×240 pixels, drawn sharp.
    let comparison = try awaitScreen(try expectedPanel(scene))
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
    XCTAssertTrue(text(log).contains("320x240 pixels, scale 2"), text(log))
  }

  func testAnimatedScenePresentsFramesPacedByFrameCallbacks() throws {
    try startWeston()
    let scene = scenes.appendingPathComponent("animation_timing.json")
    let (show, log) = try startShow([scene.path, "--frames", "20", "--stats"])
    try waitUntil("20 frames are presented", timeout: 60) { !show.isRunning }
    XCTAssertEqual(show.terminationStatus, 0, text(log))
    XCTAssertTrue(text(log).contains("presented 20 frames; display released"), text(log))
    XCTAssertTrue(text(log).contains("stats: presented 20 frames"), text(log))
  }

  func testEditsReloadAndABadEditKeepsTheSceneRunning() throws {
    try startWeston()
    let file = runtime.appendingPathComponent("kiosk.json")
    let first = scenes.appendingPathComponent("shadow_radius.json")
    let second = scenes.appendingPathComponent("rotation_2d.json")
    try FileManager.default.copyItem(at: first, to: file)
    let (_, log) = try startShow([file.path])
    XCTAssertEqual(try awaitScreen(try expectedPanel(first)).pixelsOff, 0)

    // Written whole, then renamed in: a valid edit.
    let staged = runtime.appendingPathComponent("staged.json")
    try Data(contentsOf: second).write(to: staged)
    XCTAssertEqual(rename(staged.path, file.path), 0)
    let swapped = try awaitScreen(try expectedPanel(second))
    XCTAssertEqual(swapped.pixelsOff, 0, swapped.summary)
    XCTAssertTrue(text(log).contains("reloaded kiosk.json"), text(log))

    // A bad edit: reported with its JSON path, the last scene stays.
    try #"{"lamina": 1, "canvas": {"width": 300, "height": -5}, "root": {}}"#
      .write(to: file, atomically: true, encoding: .utf8)
    try waitUntil("the error is reported", timeout: 10) {
      text(log).contains("still showing the last scene")
    }
    XCTAssertTrue(text(log).contains("canvas.height"), text(log))
    let kept = try awaitScreen(try expectedPanel(second), timeout: 1)
    XCTAssertEqual(kept.pixelsOff, 0, kept.summary)
  }

  /// Every hostile scene (`HostileScenes`: the issue's classes and the
  /// fuzzer's findings) as an edit of a running `lamina show`: each is
  /// reported, the process keeps running and the scene shown before stays
  /// on screen; one that fails only at a later frame's time too.
  func testEveryHostileSceneAsAnEditIsReportedAndTheLastSceneStays() throws {
    try startWeston()
    let file = runtime.appendingPathComponent("hostile.json")
    let good = scenes.appendingPathComponent("shadow_radius.json")
    try FileManager.default.copyItem(at: good, to: file)
    let (process, log) = try startShow([file.path])
    XCTAssertEqual(try awaitScreen(try expectedPanel(good)).pixelsOff, 0)
    for (i, hostile) in HostileScenes.cases.enumerated() {
      let staged = runtime.appendingPathComponent("staged.json")
      try hostile.json.write(to: staged, atomically: true, encoding: .utf8)
      XCTAssertEqual(rename(staged.path, file.path), 0)
      try waitUntil("\(hostile.name) is reported", timeout: 20) {
        text(log).components(separatedBy: "still showing the last scene").count - 1 > i
      }
      XCTAssertTrue(process.isRunning, "\(hostile.name) stopped lamina show: \(text(log))")
      // A scene that fails at a frame's time fails at the first frame past
      // it, whose time the display's clock decides.
      let expected =
        hostile.time == nil
        ? hostile.message : hostile.message.components(separatedBy: " at ")[0]
      XCTAssertTrue(text(log).contains(expected), "\(hostile.name): \(text(log))")
    }
    let kept = try awaitScreen(try expectedPanel(good), timeout: 5)
    XCTAssertEqual(kept.pixelsOff, 0, kept.summary)
    XCTAssertTrue(process.isRunning)
  }
}

/// How a window's buffer is sized (weston 10 has no fractional scale, so
/// that path is checked here, not on a compositor).
final class WaylandScaleTests: XCTestCase {
  func testFractionalScaleWinsAndBufferSizesRoundHalfAway() {
    let scale = WaylandOutput.bufferScale(fractional120: 180, outputScales: [2])
    XCTAssertEqual(scale, 1.5)
    XCTAssertEqual(WaylandOutput.bufferLength(1280, scale: scale), 1920)
    // 1366 × 1.25 = 1707.5: away from zero.
    XCTAssertEqual(WaylandOutput.bufferLength(1366, scale: 1.25), 1708)
    XCTAssertEqual(WaylandOutput.bufferLength(683, scale: 1.25), 854)
  }

  func testIntegerScaleIsTheLargestOutputsElseOne() {
    XCTAssertEqual(WaylandOutput.bufferScale(fractional120: nil, outputScales: [1, 2]), 2)
    XCTAssertEqual(WaylandOutput.bufferScale(fractional120: nil, outputScales: []), 1)
    XCTAssertEqual(WaylandOutput.bufferScale(fractional120: 0, outputScales: [0]), 1)
  }
}

/// The committed protocol glue (SwiftPM cannot compile C a plugin makes) is
/// what `scripts/generate-wayland-protocols.sh` makes from the installed
/// protocol descriptions.
final class WaylandProtocolGlueTests: XCTestCase {
  func testCommittedGlueMatchesWaylandScanner() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let glue = root.appendingPathComponent("Sources/CWaylandProtocols")
    let fresh = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-glue-\(getpid())")
    defer { try? FileManager.default.removeItem(at: fresh) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = [
      root.appendingPathComponent("scripts/generate-wayland-protocols.sh").path, fresh.path,
    ]
    try process.run()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 0, "wayland-scanner: run scripts/install-deps.sh")
    let names = [
      "xdg-shell-protocol.c", "viewporter-protocol.c", "fractional-scale-v1-protocol.c",
      "include/xdg-shell-client-protocol.h", "include/viewporter-client-protocol.h",
      "include/fractional-scale-v1-client-protocol.h",
    ]
    for name in names {
      let committed = try Data(contentsOf: glue.appendingPathComponent(name))
      let made = try Data(contentsOf: fresh.appendingPathComponent(name))
      XCTAssertEqual(committed, made, "\(name) differs: run scripts/generate-wayland-protocols.sh")
    }
  }
}
