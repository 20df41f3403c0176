import Foundation
import Lamina
import LaminaDisplay
import XCTest

/// The control channel of `lamina show --wayland` on weston's headless
/// backend (pixman, as `scripts/install-deps.sh` installs it): changes sent
/// with `lamina ctl` reach the compositor's screen.
final class WaylandControlTests: XCTestCase {
  private var runtime: URL!
  private var weston: Process?
  private var show: Process?
  private let socket = "lamina-ctl-test-\(getpid())"

  override func setUpWithError() throws {
    guard FileManager.default.isExecutableFile(atPath: ShowControlCommandTests.laminaBinary.path)
    else { throw XCTSkip("lamina is not built beside the tests") }
    guard let binary = Self.find("weston"), Self.find("weston-screenshooter") != nil else {
      throw XCTSkip("weston is not installed: run scripts/install-deps.sh")
    }
    runtime = URL(fileURLWithPath: "/tmp/lamina-wl-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(
      at: runtime.appendingPathComponent("out"), withIntermediateDirectories: true)
    chmod(runtime.path, 0o700)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = [
      "--backend=headless-backend.so", "--use-pixman", "--width=320", "--height=240",
      "--socket=\(socket)", "--idle-time=0", "--debug", "--no-config",
      "--log=\(runtime.appendingPathComponent("weston.log").path)",
    ]
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    weston = process
    try waitUntil(timeout: 10) {
      FileManager.default.fileExists(atPath: self.runtime.appendingPathComponent(self.socket).path)
    }
  }

  override func tearDownWithError() throws {
    if let show, show.isRunning {
      show.terminate()
      show.waitUntilExit()
    }
    if let weston, weston.isRunning {
      weston.terminate()
      weston.waitUntilExit()
    }
    if let runtime { try? FileManager.default.removeItem(at: runtime) }
  }

  private var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["XDG_RUNTIME_DIR"] = runtime.path
    environment["WAYLAND_DISPLAY"] = socket
    return environment
  }

  static func find(_ name: String) -> String? {
    for folder in ["/usr/bin", "/usr/local/bin", "/bin"] {
      let path = folder + "/" + name
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  private func waitUntil(timeout: Double, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while try !condition() {
      guard Date() < deadline else {
        XCTFail("timed out")
        throw XCTSkip("timeout")
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
  }

  private func ctl(_ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = ShowControlCommandTests.laminaBinary
    process.arguments = ["ctl", "unix:" + runtime.appendingPathComponent("c.sock").path] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// A screenshot of weston's output, straight RGBA.
  private func screenshot() throws -> CGImage {
    let folder = runtime.appendingPathComponent("shot-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.find("weston-screenshooter") ?? "")
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

  private func pixel(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
    let i = (y * image.width + x) * 4
    return Array(image.pixels[i..<(i + 4)])
  }

  func testCommandsReachTheCompositorsScreen() throws {
    let scene = runtime.appendingPathComponent("scene.json")
    try ControlChannelTests.scene.write(to: scene, atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = ShowControlCommandTests.laminaBinary
    process.arguments = [
      "show", scene.path, "--wayland", "--control",
      "unix:" + runtime.appendingPathComponent("c.sock").path, "--output-root",
      runtime.appendingPathComponent("out").path, "--duration", "60",
    ]
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    show = process
    try waitUntil(timeout: 20) {
      FileManager.default.fileExists(atPath: self.runtime.appendingPathComponent("c.sock").path)
    }
    // The 200×100 scene fills 320×160 of the 320×240 panel (1.6×, 40 px
    // of letterbox above): the box (0, 40, 20, 20) is at x 0...32, y 104...136.
    try waitUntil(timeout: 15) {
      let shot = try self.screenshot()
      return shot.width == 320 && self.pixel(shot, 16, 120) == [255, 128, 0, 255]
    }
    XCTAssertTrue(
      try ctl(["set", "box.backgroundColor", "\"#00ff00\"", "--no-animation"]).hasPrefix(
        "{\"ok\":true"))
    try waitUntil(timeout: 10) { self.pixel(try self.screenshot(), 16, 120) == [0, 255, 0, 255] }
    // A position change animates, and ends where it was sent.
    XCTAssertTrue(
      try ctl(["set", "box.position.x", "170", "--animate", "0.4"]).hasPrefix("{\"ok\":true"))
    try waitUntil(timeout: 10) {
      let shot = try self.screenshot()
      return self.pixel(shot, 272, 120) == [0, 255, 0, 255] && self.pixel(shot, 16, 120) != [0, 255, 0, 255]
    }
    XCTAssertTrue(try ctl(["snapshot", "wl.png"]).hasPrefix("{\"ok\":true"))
    let snapshot = try CGImage.decode(
      fileAt: runtime.appendingPathComponent("out/wl.png").path)
    // The canvas as drawn for this panel: the scene at 1.6×, no letterbox.
    XCTAssertEqual(snapshot.width, 320)
    XCTAssertEqual(snapshot.height, 160)
    XCTAssertEqual(pixel(snapshot, 272, 80), [0, 255, 0, 255])
  }
}
