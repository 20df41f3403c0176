import Foundation
import XCTest

/// `lamina help`, `lamina help COMMAND`, `COMMAND --help`, `--version`, and
/// the suggestions an unknown command or option gets.
final class CommandHelpTests: XCTestCase {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  func run(_ arguments: [String]) throws -> Result {
    let r = try RenderTestSupport.runLamina(arguments)
    return Result(
      status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
  }

  override func setUpWithError() throws {
    guard FileManager.default.isExecutableFile(atPath: RenderTestSupport.laminaBinary.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
  }

  /// Every option each subcommand takes: its usage must explain each one.
  let options: [String: [String]] = [
    "render": [
      "-o", "--output", "--time", "--scale", "--frames", "--fps", "--video", "--codec", "--crf",
      "--bitrate", "--assets", "--allow-any-path", "--help",
    ],
    "show": [
      "--wayland", "--kms", "--drm", "--connector", "--mode", "--rotate", "--show-damage",
      "--events", "--stats", "--frames", "--duration", "--assets", "--allow-any-path", "--help",
    ],
    "info": ["--json", "--help"],
    "bench": [
      "--frames", "--warmup", "--start", "--fps", "--size", "--json", "--assets",
      "--allow-any-path", "--help",
    ],
  ]

  func testHelpListsEveryCommand() throws {
    for arguments in [["help"], ["--help"], ["-h"]] {
      let result = try run(arguments)
      XCTAssertEqual(result.status, 0, result.stderr)
      XCTAssertTrue(result.stdout.hasPrefix("usage: lamina COMMAND"), result.stdout)
      for command in options.keys {
        XCTAssertTrue(result.stdout.contains("\n  \(command) "), "\(command) in\n\(result.stdout)")
      }
      XCTAssertTrue(result.stdout.contains("--version"))
    }
  }

  func testEveryCommandsUsageExplainsEachOption() throws {
    for (command, flags) in options {
      let help = try run(["help", command])
      XCTAssertEqual(help.status, 0, help.stderr)
      XCTAssertTrue(help.stdout.hasPrefix("usage: lamina \(command)"), help.stdout)
      // `COMMAND --help` (also after other arguments) prints the same.
      for arguments in [[command, "--help"], [command, "-h"], [command, "scene.json", "--help"]] {
        let same = try run(arguments)
        XCTAssertEqual(same.status, 0, "\(arguments): \(same.stderr)")
        XCTAssertEqual(same.stdout, help.stdout, "\(arguments)")
      }
      // Each option starts a line of the options list, with an explanation.
      let lines = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      for flag in flags {
        let line = lines.first {
          $0.hasPrefix(flag + " ") || $0.hasPrefix(flag + ",") || $0.contains(", " + flag + " ")
        }
        XCTAssertNotNil(line, "\(command) \(flag) is explained")
        if let line { XCTAssertGreaterThan(line.count, flag.count + 12, "\(command): \(line)") }
      }
    }
    let unknown = try run(["help", "paint"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(unknown.stderr.contains("unknown command 'paint'"), unknown.stderr)
  }

  func testVersionNamesTheRendererItWouldUse() throws {
    let result = try run(["--version"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.first?.hasPrefix("lamina ") == true, result.stdout)
    let renderer = lines.first { $0.hasPrefix("GL renderer: ") }
    XCTAssertNotNil(renderer, result.stdout)
    // On this machine: Mesa's llvmpipe, through the EGL platform chosen.
    XCTAssertTrue(renderer?.contains("OpenGL ES") == true, result.stdout)
    XCTAssertTrue(lines.contains { $0.hasPrefix("EGL platform: ") }, result.stdout)
  }

  func testAnUnknownOptionNamesTheClosestKnownOne() throws {
    let cases: [([String], String)] = [
      (["render", "scene.json", "-o", "x.png", "--tiem", "1"], "--time"),
      (["render", "scene.json", "--frmes", "0..9", "--video", "-"], "--frames"),
      (["render", "scene.json", "-o", "x.png", "--scael", "2"], "--scale"),
      (["bench", "scene.json", "--warmpu", "3"], "--warmup"),
      (["show", "scene.json", "--show-damag"], "--show-damage"),
      (["info", "--jsno"], "--json"),
    ]
    for (arguments, expected) in cases {
      let result = try run(arguments)
      XCTAssertEqual(result.status, 2, "\(arguments)")
      XCTAssertTrue(
        result.stderr.contains("did you mean '\(expected)'?"), "\(arguments): \(result.stderr)")
      XCTAssertTrue(result.stderr.contains("lamina help \(arguments[0])"), result.stderr)
    }
    // Nothing close: no guess, still the way to the options.
    let far = try run(["render", "scene.json", "--quality", "max"])
    XCTAssertEqual(far.status, 2)
    XCTAssertFalse(far.stderr.contains("did you mean"), far.stderr)
    XCTAssertTrue(far.stderr.contains("unknown option '--quality' for render"), far.stderr)
    let command = try run(["rendr", "scene.json"])
    XCTAssertEqual(command.status, 2)
    XCTAssertTrue(command.stderr.contains("did you mean 'render'?"), command.stderr)
  }

  /// scripts/setup.sh renders where the README says (hello.png at the top
  /// of the checkout), and git ignores that file: `git status` stays clean.
  func testSetupWritesAnIgnoredHelloPNG() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let script = try String(
      contentsOf: root.appendingPathComponent("scripts/setup.sh"), encoding: .utf8)
    XCTAssertTrue(script.contains("render Examples/hello.json -o hello.png"), script)
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    XCTAssertTrue(readme.contains("renders Examples/hello.json to hello.png"))
    let git = Process()
    git.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    git.arguments = ["git", "-C", root.path, "check-ignore", "-q", "hello.png"]
    git.standardError = FileHandle.nullDevice
    try git.run()
    git.waitUntilExit()
    guard git.terminationStatus != 128 else { throw XCTSkip("not a git checkout") }
    XCTAssertEqual(git.terminationStatus, 0, ".gitignore ignores hello.png")
  }
}
