import Foundation
import XCTest

/// The project's fuzzer (`scripts/fuzz.py`) in the suite: a fixed set of
/// seeds against the `lamina` built beside the tests, in bounded time, must
/// find nothing; and the fuzzer itself must see a crash and a hang for what
/// they are (a test that could not fail would be worth nothing).
final class FuzzTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let script = root.appendingPathComponent("scripts/fuzz.py").path

  var scratch: URL!

  override func setUpWithError() throws {
    scratch = try RenderTestSupport.commandScratch("lamina-fuzz-test")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  /// Runs the fuzzer; returns its exit status and its closing JSON summary.
  func fuzz(_ arguments: [String]) throws -> (Int32, [String: Any]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", Self.script, "--quiet", "--out", scratch.path] + arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let last = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init)
    let summary =
      (try? JSONSerialization.jsonObject(with: Data((last ?? "{}").utf8))) as? [String: Any] ?? [:]
    return (process.terminationStatus, summary)
  }

  /// Three seeds, 16 inputs each, small corpus scenes (the debug binary is
  /// slow on the benchmark scenes): about a minute on two cores.
  func testFixedSeedsFindNothing() throws {
    var inputs = 0
    for seed in [14, 1401, 140101] {
      let (status, summary) = try fuzz([
        "--seed", String(seed), "--count", "16", "--binary", RenderTestSupport.laminaBinary.path,
        "--timeout", "60", "--memory-mb", "3000", "--max-scene-bytes", "120000", "--no-shrink",
        "--lottie-share", "0",
      ])
      let findings = summary["findings"] as? [[String: Any]] ?? []
      XCTAssertEqual(
        status, 0,
        "seed \(seed) found: "
          + findings.map { "\($0["class"] ?? "") \($0["command"] ?? "") \($0["stderr"] ?? "")" }
          .joined(separator: "\n"))
      XCTAssertEqual(findings.count, 0)
      inputs += summary["inputs"] as? Int ?? 0
    }
    XCTAssertEqual(inputs, 48)
  }

  /// The image mutations that escape (an absolute path, `../`, links the
  /// fuzzer makes to a secret PNG outside, a URL) are each refused by
  /// `lamina render` with the refusal message; a binary that renders them
  /// anyway (here one that exits 0) is an `escape` finding.
  func testEscapingImagePathsAreRefused() throws {
    let (status, summary) = try fuzz([
      "--check-escapes", "--binary", RenderTestSupport.laminaBinary.path, "--timeout", "60",
    ])
    let kinds = ["absolute", "dotdot", "link-file", "link-folder", "url"]
    XCTAssertEqual(status, 0, "\(summary)")
    XCTAssertEqual(
      summary["escapes"] as? [String: String],
      Dictionary(uniqueKeysWithValues: kinds.map { ($0, "error") }))
    let leaky = scratch.appendingPathComponent("leaky").path
    try "#!/bin/sh\nexit 0\n".write(toFile: leaky, atomically: true, encoding: .utf8)
    chmod(leaky, 0o755)
    let (leakStatus, leaks) = try fuzz(["--check-escapes", "--binary", leaky])
    XCTAssertEqual(leakStatus, 1)
    XCTAssertEqual(
      leaks["escapes"] as? [String: String],
      Dictionary(uniqueKeysWithValues: kinds.map { ($0, "escape") }))
  }

  /// Lottie inputs (scripts/fuzz_lottie.py): mutated conformance documents
  /// and fixtures, synthetic hostile documents, archives and bombs, rendered
  /// and described; a fixed seed finds nothing.
  func testFixedLottieSeedFindsNothing() throws {
    let (status, summary) = try fuzz([
      "--seed", "25", "--count", "12", "--binary", RenderTestSupport.laminaBinary.path,
      "--timeout", "60", "--memory-mb", "3000", "--no-shrink", "--lottie-share", "1",
    ])
    let findings = summary["findings"] as? [[String: Any]] ?? []
    XCTAssertEqual(
      status, 0,
      findings.map { "\($0["class"] ?? "") \($0["command"] ?? "") \($0["stderr"] ?? "")" }
        .joined(separator: "\n"))
    XCTAssertEqual(summary["inputs"] as? Int, 12)
    let outcomes = summary["outcomes"] as? [String: Int] ?? [:]
    XCTAssertEqual(outcomes.values.reduce(0, +), 12)
    // Both kinds happen: documents that render and inputs refused cleanly.
    XCTAssertGreaterThan(outcomes["render"] ?? 0, 0, "\(outcomes)")
    XCTAssertGreaterThan(outcomes["error"] ?? 0, 0, "\(outcomes)")
  }

  /// A Lottie render that names what it left out on standard error (the
  /// command's contract, once per kind) is a render, not `stderr-noise`:
  /// the 30-minute run's first two "findings" (a layer of type -1, a font
  /// given as a URL) replayed.
  func testLeftOutNotesAreNotNoise() throws {
    let finding = scratch.appendingPathComponent("findings/left-out")
    try FileManager.default.createDirectory(at: finding, withIntermediateDirectories: true)
    let document = #"""
      {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 20, "h": 20,
       "layers": [{"ty": -1, "ip": 0, "op": 30, "st": 0, "ks": {}},
                  {"ty": 1, "sc": "#ff0000", "sw": 20, "sh": 20, "ip": 0, "op": 30, "st": 0,
                   "ks": {}}]}
      """#
    try document.write(
      to: finding.appendingPathComponent("fuzz.json"), atomically: true, encoding: .utf8)
    let meta = #"{"seed": 1, "index": 0, "seed_string": "1:0", "variant": "background", "input": "fuzz.json"}"#
    try meta.write(
      to: finding.appendingPathComponent("finding.json"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", Self.script, "--replay", finding.path, "--binary",
      RenderTestSupport.laminaBinary.path,
    ]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    XCTAssertTrue(text.contains("left out (not supported): layer type -1"), text)
    XCTAssertTrue(text.contains(#""class": "render""#), text)
    XCTAssertEqual(process.terminationStatus, 0, text)
  }

  /// The harness: a binary that dies of a signal is a crash, one that does
  /// not exit is a hang, and each is saved as a finding.
  func testTheFuzzerClassesACrashAndAHang() throws {
    let crasher = scratch.appendingPathComponent("crasher").path
    try "#!/bin/sh\nkill -ILL $$\n".write(toFile: crasher, atomically: true, encoding: .utf8)
    let sleeper = scratch.appendingPathComponent("sleeper").path
    try "#!/bin/sh\nexec sleep 30\n".write(toFile: sleeper, atomically: true, encoding: .utf8)
    for file in [crasher, sleeper] { chmod(file, 0o755) }

    let (crashStatus, crashes) = try fuzz([
      "--seed", "3", "--count", "2", "--binary", crasher, "--no-shrink",
    ])
    XCTAssertEqual(crashStatus, 1)
    XCTAssertEqual((crashes["outcomes"] as? [String: Int])?["crash"], 2)
    XCTAssertEqual((crashes["findings"] as? [Any])?.count, 2)

    let (hangStatus, hangs) = try fuzz([
      "--seed", "3", "--count", "1", "--binary", sleeper, "--timeout", "1", "--no-shrink",
    ])
    XCTAssertEqual(hangStatus, 1)
    XCTAssertEqual((hangs["outcomes"] as? [String: Int])?["hang"], 1)
    let saved = try FileManager.default.contentsOfDirectory(
      atPath: scratch.appendingPathComponent("findings").path)
    XCTAssertTrue(saved.contains { $0.hasPrefix("hang-3-0") }, "\(saved)")
    XCTAssertTrue(saved.contains { $0.hasPrefix("crash-3-") }, "\(saved)")
  }
}
