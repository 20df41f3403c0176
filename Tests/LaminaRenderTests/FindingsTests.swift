import Foundation
import XCTest

/// Each hostile scene (`HostileScenes`: the classes and the fuzzer's
/// findings) rendered by `lamina render` as a single frame, a PNG sequence
/// and a video: a clean error with its message, exit status 1, nothing left.
final class FindingsTests: XCTestCase {
  var scratch: URL!

  override func setUpWithError() throws {
    scratch = try RenderTestSupport.commandScratch("lamina-findings")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    guard let hostile = HostileScenes.cases.first(where: { $0.name == name }) else {
      return XCTFail("no hostile scene '\(name)'", file: file, line: line)
    }
    let scene = scratch.appendingPathComponent("hostile.json")
    try hostile.json.write(to: scene, atomically: true, encoding: .utf8)
    let frames = hostile.time.map { "0..\(Int(exactly: $0) ?? 0)" } ?? "0..1"
    let runs: [[String]] = [
      ["-o", scratch.appendingPathComponent("out.png").path]
        + (hostile.time.map { ["--time", String($0)] } ?? []),
      ["--frames", frames, "--fps", "1", "-o", scratch.appendingPathComponent("f-%02d.png").path],
      ["--frames", frames, "--fps", "1", "--video", scratch.appendingPathComponent("out.y4m").path],
    ]
    for arguments in runs {
      let run = try RenderTestSupport.runLamina(["render", scene.path] + arguments)
      XCTAssertEqual(run.status, 1, "\(arguments): \(run.stderr)", file: file, line: line)
      let message = run.stderr.trimmingCharacters(in: .newlines)
      if hostile.exact {
        XCTAssertEqual(message, "lamina: " + hostile.message, "\(arguments)", file: file, line: line)
      } else {
        XCTAssertTrue(
          message.hasPrefix("lamina: " + hostile.message), "\(arguments): \(message)", file: file,
          line: line)
        if let suffix = hostile.suffix {
          XCTAssertTrue(
            message.hasSuffix(suffix), "\(arguments): \(message)", file: file, line: line)
        }
      }
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["hostile.json"],
        "\(arguments) left files", file: file, line: line)
    }
  }

  func testShadowRadius1e308() throws {
    try check("shadowRadius 1e308 (trapped in CGRect.intersection)")
  }
  func testBlurPastTheLimitAtAFramesTime() throws {
    try check("a blur radius an animation pushes past the limit at 2 s")
  }
  func testReplicatorInReplicator() throws {
    try check("a replicator inside a replicator (1000 × 1000 instances)")
  }
  func testEmitterInReplicator() throws { try check("an emitter inside a replicator") }
  func testEnormousArc() throws { try check("SVG path data with an enormous arc") }
  func testManyOffscreenPasses() throws { try check("1100 filtered siblings (offscreen passes)") }
  func testDeepNesting() throws { try check("layers nested 101 deep") }
  func testClosedFormShadowsInARaster() throws {
    try check("2000 closed-form shadows in a rasterized layer (fuzzer, seed 7)")
  }
  func testNestedShadowsDoublingThePasses() throws {
    try check("shadows nested 40 deep (fuzzer, seed 100)")
  }
  func testHugeCanvas() throws { try check("a canvas of 16384 × 16384") }
  func testTruncatedFile() throws { try check("a file cut short") }
  func testEmptyFile() throws { try check("an empty file") }

  /// Every case has its test above.
  func testEveryHostileSceneIsChecked() {
    XCTAssertEqual(HostileScenes.cases.count, 12)
  }
}
