import Foundation
import LaminaDisplay
import XCTest

/// `lamina show --headless … --control …` and `lamina ctl` as a kiosk's
/// feeder runs them: real processes, a real socket.
final class ShowControlCommandTests: XCTestCase {
  private var folder: URL!

  static var laminaBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("lamina")
  }

  override func setUpWithError() throws {
    guard FileManager.default.isExecutableFile(atPath: Self.laminaBinary.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    folder = URL(fileURLWithPath: "/tmp/lamina-cli-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
    chmod(folder.path, 0o700)
    try ControlChannelTests.scene.write(
      to: folder.appendingPathComponent("scene.json"), atomically: true, encoding: .utf8)
  }

  override func tearDownWithError() throws {
    if let folder { try? FileManager.default.removeItem(at: folder) }
  }

  /// Runs lamina to its end: status, standard output, standard error.
  private func lamina(_ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = Self.laminaBinary
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let output = out.fileHandleForReading.readDataToEndOfFile()
    let error = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: output, as: UTF8.self),
      String(decoding: error, as: UTF8.self)
    )
  }

  private var scene: String { folder.appendingPathComponent("scene.json").path }

  func testRefusalsBeforeTheDisplayIsTaken() throws {
    var (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--control", "tcp:0.0.0.0:0", "--duration", "1",
    ])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(error.contains("tcp:0.0.0.0:0 is not a loopback address; anyone who can reach it"), error)
    (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--control", "tcp:0.0.0.0:0",
      "--control-allow-remote", "--duration", "1",
    ])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(error.contains("--control-token FILE is required"), error)
    let missing = folder.appendingPathComponent("token").path
    (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--control", "tcp:0.0.0.0:0",
      "--control-allow-remote", "--control-token", missing, "--duration", "1",
    ])
    XCTAssertEqual(status, 1)
    XCTAssertTrue(error.contains("cannot read the token file '\(missing)'"), error)
    let shared = folder.appendingPathComponent("shared")
    try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
    chmod(shared.path, 0o777)
    (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--control",
      "unix:" + shared.appendingPathComponent("c.sock").path, "--duration", "1",
    ])
    XCTAssertEqual(status, 1)
    XCTAssertTrue(error.contains("is writable by others (mode 777)"), error)
    (status, _, error) = try lamina(["show", scene, "--rate", "30", "--duration", "1"])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(error.contains("--rate is the --headless panel's refresh rate"), error)
    (status, _, error) = try lamina(["show", scene, "--headless", "200x100", "--output-root", "x"])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(error.contains("--output-root goes with --control ADDRESS"), error)
  }

  /// `--memory-budget` as `lamina batch` takes it (issue 41): a bad count is
  /// a usage error before the display is taken; a good one shows.
  func testMemoryBudget() throws {
    var (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--frames", "2", "--memory-budget", "12X",
    ])
    XCTAssertEqual(status, 2)
    XCTAssertTrue(
      error.contains("--memory-budget expects bytes with an optional K, M or G, got '12X'"), error)
    (status, _, error) = try lamina([
      "show", scene, "--headless", "200x100", "--duration", "1", "--memory-budget", "16M",
    ])
    XCTAssertEqual(status, 0, error)
  }

  func testCtlDrivesAHeadlessDisplay() throws {
    let socket = folder.appendingPathComponent("c.sock").path
    let show = Process()
    show.executableURL = Self.laminaBinary
    show.arguments = [
      "show", scene, "--headless", "200x100", "--rate", "30", "--control", "unix:" + socket,
      "--output-root", folder.appendingPathComponent("out").path, "--duration", "60",
    ]
    let err = Pipe()
    show.standardError = err
    try show.run()
    defer { if show.isRunning { show.terminate() } }
    let deadline = Date().addingTimeInterval(30)
    while !FileManager.default.fileExists(atPath: socket) && Date() < deadline { usleep(20_000) }
    let address = "unix:" + socket
    var (status, out, error) = try lamina(["ctl", address, "set", "price.string", "3.99", "--animate", "0.4"])
    XCTAssertEqual(status, 0, error)
    XCTAssertTrue(out.hasPrefix("{\"ok\":true"), out)
    (status, out, error) = try lamina(["ctl", address, "get", "price.string"])
    XCTAssertEqual(status, 0, error)
    XCTAssertTrue(out.contains("\"value\":\"3.99\""), out)
    (status, out, error) = try lamina(["ctl", address, "set", "box.position", "[100, 50]", "--no-animation"])
    XCTAssertEqual(status, 0, error)
    (status, out, error) = try lamina(["ctl", address, "get", "box.position", "--presentation"])
    XCTAssertTrue(out.contains("\"value\":[100,50]"), out)
    (status, out, error) = try lamina(["ctl", address, "snapshot", "frame.png"])
    XCTAssertEqual(status, 0, error)
    XCTAssertTrue(
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/frame.png").path))
    (status, out, error) = try lamina(["ctl", address, "set", "box.opacity", "high"])
    XCTAssertEqual(status, 1)
    XCTAssertTrue(
      out.contains("\"error\":\"command: set.text: expected a number, found a string\""), out)
    (status, out, error) = try lamina(["ctl", address, "set", "root.sublayers[0].opacity", "0.5"])
    XCTAssertEqual(status, 0, out)
    // SIGTERM as systemd stops it: the socket goes with it.
    show.terminate()
    show.waitUntilExit()
    XCTAssertEqual(show.terminationStatus, 0)
    let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    XCTAssertTrue(log.contains("control: listening on unix:\(socket)"), log)
    XCTAssertFalse(FileManager.default.fileExists(atPath: socket))
  }
}
