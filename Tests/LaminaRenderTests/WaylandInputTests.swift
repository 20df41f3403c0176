import Foundation
import XCTest

/// Taps from a real Wayland seat: weston's X11 backend inside Xvfb takes
/// the pointer from X, `xdotool` clicks, and `lamina show --events` prints
/// what was hit.
final class WaylandInputTests: XCTestCase {
  private var processes: [Process] = []
  private var runtime: URL!

  override func tearDownWithError() throws {
    for process in processes.reversed() where process.isRunning {
      process.terminate()
      process.waitUntilExit()
    }
    if let runtime { try? FileManager.default.removeItem(at: runtime) }
  }

  private func start(
    _ path: String, _ arguments: [String], _ environment: [String: String]
  ) throws -> Process {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      XCTFail("\(path) is not installed: run scripts/install-deps.sh")
      throw XCTSkip("missing \(path)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    processes.append(process)
    return process
  }

  private func waitFor(_ condition: @autoclosure () -> Bool, seconds: Double = 10) {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
  }

  private func text(_ url: URL) -> String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }

  /// Xvfb and weston's X11 backend on it (`shell`), 320×240; the
  /// environment that reaches them.
  private func startWeston(shell: String = "desktop-shell.so") throws -> [String: String] {
    runtime = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-input-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
    chmod(runtime.path, 0o700)
    // A free X display number.
    var number = 90 + Int(getpid() % 100)
    while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)") { number += 1 }
    var environment = ProcessInfo.processInfo.environment
    environment["DISPLAY"] = ":\(number)"
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment["WAYLAND_DISPLAY"] = "lamina-input"
    _ = try start("/usr/bin/Xvfb", [":\(number)", "-screen", "0", "640x480x24"], environment)
    waitFor(FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)"))
    _ = try start(
      "/usr/bin/weston",
      [
        "--backend=x11-backend.so", "--use-pixman", "--width=320", "--height=240",
        "--socket=lamina-input", "--idle-time=0", "--no-config", "--shell=\(shell)",
      ], environment)
    waitFor(
      FileManager.default.fileExists(atPath: self.runtime.appendingPathComponent("lamina-input").path))
    return environment
  }

  /// weston's kiosk shell (which shows nothing on its headless backend: it
  /// has no seat there) with a seat: frames are paced and presented.
  func testWestonKioskShellPresentsFrames() throws {
    let environment = try startWeston(shell: "kiosk-shell.so")
    let scene = RenderTestSupport.fixtures
      .appendingPathComponent("reference/scenes/animation_timing.json")
    let log = runtime.appendingPathComponent("show.log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let show = Process()
    show.executableURL = RenderTestSupport.laminaBinary
    show.arguments = ["show", scene.path, "--frames", "20"]
    show.environment = environment
    show.standardError = try FileHandle(forWritingTo: log)
    try show.run()
    processes.append(show)
    waitFor(!show.isRunning, seconds: 30)
    XCTAssertFalse(show.isRunning, text(log))
    XCTAssertTrue(text(log).contains("320x240 pixels, scale 1, fullscreen"), text(log))
    XCTAssertTrue(text(log).contains("presented 20 frames; display released"), text(log))
  }

  func testPointerClicksOnNamedLayersPrintTaps() throws {
    let environment = try startWeston()
    let scene = runtime.appendingPathComponent("buttons.json")
    try """
      {"lamina": 1, "canvas": {"width": 320, "height": 240, "background": "#203040"},
       "root": {"sublayers": [
         {"name": "play", "frame": [40, 80, 100, 80], "backgroundColor": "#30c060",
          "sublayers": [{"frame": [30, 20, 40, 40], "backgroundColor": "#ffffff"}]},
         {"name": "stop", "frame": [180, 80, 100, 80], "backgroundColor": "#c03030"}]}}
      """.write(to: scene, atomically: true, encoding: .utf8)
    let output = runtime.appendingPathComponent("events.txt")
    let log = runtime.appendingPathComponent("show.log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let show = Process()
    show.executableURL = RenderTestSupport.laminaBinary
    show.arguments = ["show", scene.path, "--events"]
    show.environment = environment
    show.standardOutput = try FileHandle(forWritingTo: output)
    show.standardError = try FileHandle(forWritingTo: log)
    try show.run()
    processes.append(show)
    waitFor(self.text(log).contains("showing buttons.json"), seconds: 15)
    Thread.sleep(forTimeInterval: 0.5)
    // weston's X window sits at the screen's origin (no window manager), so
    // screen pixels are scene points here. The white square inside "play"
    // has no name: its nearest named superlayer answers. The backdrop has
    // none at all: nothing is printed.
    for (x, y) in [(90, 120), (200, 100), (10, 10), (80, 110)] {
      let click = try start(
        "/usr/bin/xdotool", ["mousemove", "\(x)", "\(y)", "click", "1"], environment)
      click.waitUntilExit()
      Thread.sleep(forTimeInterval: 0.2)
    }
    waitFor(self.text(output).split(separator: "\n").count >= 3)
    show.terminate()
    show.waitUntilExit()
    XCTAssertEqual(
      text(output).split(separator: "\n").map(String.init),
      ["tap play 90.0 120.0", "tap stop 200.0 100.0", "tap play 80.0 110.0"], text(log))
    XCTAssertEqual(show.terminationStatus, 0, text(log))
  }
}
