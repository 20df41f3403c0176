import Foundation
import Lamina
import XCTest

/// The `lamina` command, run as a user would: exit status, messages, files.
final class CommandTests: XCTestCase {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  var binary: URL { RenderTestSupport.laminaBinary }

  func run(_ arguments: [String]) throws -> Result {
    let r = try RenderTestSupport.runLamina(arguments)
    return Result(
      status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
  }

  var scratch: URL!

  override func setUpWithError() throws {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: scratch)
  }

  func write(_ name: String, _ text: String) throws -> String {
    let url = scratch.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  let good = """
    { "lamina": 1, "canvas": { "width": 40, "height": 30, "scale": 2, "background": "#ffffff" },
      "root": { "sublayers": [ { "frame": [5, 5, 20, 10], "backgroundColor": "#ff0000" } ] } }
    """

  func testRenderWritesThePNG() throws {
    let scene = try write("good.json", good)
    let output = scratch.appendingPathComponent("out.png").path
    let result = try run(["render", scene, "-o", output])
    XCTAssertEqual(result.status, 0, result.stderr)
    let image = try CGImage.decode(fileAt: output)
    XCTAssertEqual(image.width, 80)
    XCTAssertEqual(image.height, 60)
    let i = (20 * 80 + 20) * 4
    XCTAssertEqual(Array(image.pixels[i..<i + 4]), [255, 0, 0, 255])
    let scaled = try run(["render", scene, "-o", output, "--scale", "1"])
    XCTAssertEqual(scaled.status, 0)
    XCTAssertEqual(try CGImage.decode(fileAt: output).width, 40)
  }

  func testBadSceneFailsWithItsPathAndWritesNothing() throws {
    let scene = try write(
      "bad.json",
      """
      { "lamina": 1, "canvas": { "width": 40, "height": 30 },
        "root": { "sublayers": [ { "opacity": "half" } ] } }
      """)
    let output = scratch.appendingPathComponent("out.png").path
    let result = try run(["render", scene, "-o", output])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("bad.json"), result.stderr)
    XCTAssertTrue(result.stderr.contains("root.sublayers[0].opacity"), result.stderr)
    XCTAssertFalse(FileManager.default.fileExists(atPath: output))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(), ["bad.json"])
  }

  func testMalformedJSONNamesLineAndColumn() throws {
    let scene = try write(
      "broken.json", "{ \"lamina\": 1,\n  \"canvas\": { \"width\": 40 \"height\": 30 } }")
    let result = try run(["render", scene, "-o", scratch.appendingPathComponent("o.png").path])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("broken.json:2:"), result.stderr)
  }

  func testUnwritableOutputLeavesNoFile() throws {
    let scene = try write("good.json", good)
    let result = try run(["render", scene, "-o", "/nonexistent-dir/out.png"])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(result.stderr.contains("/nonexistent-dir/out.png"), result.stderr)
  }

  /// `--dump-plan` prints the frame plan, one line per pass and batch (alone,
  /// or beside the PNG); `LAMINA_DUMP_PLAN=1` writes it to standard error
  /// for any command.
  func testDumpPlanPrintsThePasses() throws {
    let scene = try write("good.json", good)
    let alone = try run(["render", scene, "--dump-plan"])
    XCTAssertEqual(alone.status, 0, alone.stderr)
    XCTAssertEqual(
      alone.stdout.split(separator: "\n").map(String.init),
      [
        "plan 80x60: 1 pass, 1 batch, 1 target (peak 0 offscreen, 0 KiB)",
        "pass 0: draw T0 80x60 canvas, region [0, 0, 80x60], clear 1 1 1 1"
          + " — canvas tile [0, 0, 80x60]",
        "  batch 0: solid, 1 item, 6 indices",
        "pass 1: output T0 [0, 0, 80x60] as tile [0, 0, 80x60]",
        "batches by why each began: pass 1",
      ])
    let output = scratch.appendingPathComponent("out.png").path
    let both = try run(["render", scene, "-o", output, "--dump-plan"])
    XCTAssertEqual(both.status, 0, both.stderr)
    XCTAssertEqual(both.stdout, alone.stdout)
    XCTAssertEqual(try CGImage.decode(fileAt: output).width, 80)
    setenv("LAMINA_DUMP_PLAN", "1", 1)
    defer { unsetenv("LAMINA_DUMP_PLAN") }
    let bench = try run(["bench", scene, "--frames", "1", "--warmup", "0"])
    XCTAssertEqual(bench.status, 0, bench.stderr)
    XCTAssertTrue(bench.stderr.contains("pass 0: draw T0"), bench.stderr)
    XCTAssertTrue(bench.stdout.contains("batches per frame by why each began: pass 1.00"), bench.stdout)
  }

  /// `LAMINA_PROFILE_DRAWS=1` times every draw on its own (waited for on
  /// both sides) and writes the totals per program when the process ends:
  /// the one solid quad of the scene, each frame's, under its shader's name
  /// (on llvmpipe the plain one: the quad is an exact rect).
  func testProfileDrawsNamesEachProgram() throws {
    let scene = try write("good.json", good)
    setenv("LAMINA_PROFILE_DRAWS", "1", 1)
    defer { unsetenv("LAMINA_PROFILE_DRAWS") }
    let bench = try run(["bench", scene, "--frames", "3", "--warmup", "0"])
    XCTAssertEqual(bench.status, 0, bench.stderr)
    let lines = bench.stderr.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.contains { $0.hasPrefix("draw profile: ") && $0.hasSuffix(" ms in all") }, bench.stderr)
    let solid = lines.first { $0.hasSuffix("solid.frag.glsl") || $0.hasSuffix("solid_plain.frag.glsl") }
    XCTAssertNotNil(solid, bench.stderr)
    XCTAssertTrue(solid?.contains(" 3 draws ") == true, bench.stderr)
  }

  /// `--png-compression` takes fast, default or best; the files decode to
  /// the same pixels; anything else is a usage error naming the choices.
  func testPNGCompressionLevels() throws {
    let scene = try write("good.json", good)
    var pixels: [[UInt8]] = []
    for level in ["fast", "default", "best"] {
      let output = scratch.appendingPathComponent("\(level).png").path
      let result = try run(["render", scene, "-o", output, "--png-compression", level])
      XCTAssertEqual(result.status, 0, result.stderr)
      pixels.append(try CGImage.decode(fileAt: output).pixels)
    }
    XCTAssertEqual(pixels[0], pixels[1])
    XCTAssertEqual(pixels[1], pixels[2])
    let bad = try run(["render", scene, "-o", "x.png", "--png-compression", "slow"])
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(bad.stderr.contains("--png-compression expects fast, default or best"), bad.stderr)
  }

  /// `lamina bench` alone runs the built-in suite from the binary, in any
  /// directory: a line per scene, glmark2's way, and a score; `--json`
  /// the reports and the score; a scene's own options are refused.
  func testBenchAloneRunsTheBuiltInSuite() throws {
    let text = try run(["bench", "--frames", "1", "--warmup", "0"])
    XCTAssertEqual(text.status, 0, text.stderr)
    let lines = text.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines.first?.hasPrefix("lamina bench: ") ?? false, text.stdout)
    let scenes = lines.filter { $0.hasPrefix("[") }
    XCTAssertEqual(scenes.count, 14, text.stdout)
    XCTAssertTrue(scenes.contains { $0.hasPrefix("[cards] 1920x1080: FPS: ") }, text.stdout)
    XCTAssertTrue(scenes.contains { $0.hasPrefix("[lottie-matte] 512x512: FPS: ") }, text.stdout)
    XCTAssertTrue(lines.last?.hasPrefix("lamina bench score: ") ?? false, text.stdout)
    let json = try run(["bench", "--suite", "--frames", "1", "--warmup", "0", "--json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    let object = try XCTUnwrap(
      JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    XCTAssertEqual((object["scenes"] as? [[String: Any]])?.count, 14)
    XCTAssertGreaterThan(object["score"] as? Double ?? 0, 0)
    let sized = try run(["bench", "--size", "64x64"])
    XCTAssertEqual(sized.status, 2)
    XCTAssertTrue(sized.stderr.contains("--size goes with a scene file"), sized.stderr)
  }

  func testUsageErrors() throws {
    XCTAssertEqual(try run([]).status, 2)
    XCTAssertEqual(try run(["paint"]).status, 2)
    let missing = try run(["render", "x.json"])
    XCTAssertEqual(missing.status, 2)
    XCTAssertTrue(missing.stderr.contains("-o"), missing.stderr)
    let badTime = try run(["render", "x.json", "-o", "y.png", "--time", "soon"])
    XCTAssertEqual(badTime.status, 2)
    XCTAssertTrue(badTime.stderr.contains("--time expects a number"), badTime.stderr)
    XCTAssertEqual(try run(["bench", "x.json", "--size", "12by7"]).status, 2)
  }

  func testShowUsageAndDisplayErrors() throws {
    let scene = try write("scene.json", good)
    let rotate = try run(["show", scene, "--rotate", "45"])
    XCTAssertEqual(rotate.status, 2)
    XCTAssertTrue(rotate.stderr.contains("--rotate expects 0, 90, 180 or 270, got '45'"), rotate.stderr)
    let mode = try run(["show", scene, "--mode", "1920x"])
    XCTAssertEqual(mode.status, 2)
    XCTAssertTrue(mode.stderr.contains("--mode expects WIDTHxHEIGHT"), mode.stderr)
    let both = try run(["show", scene, "--wayland", "--drm", "/dev/dri/card0"])
    XCTAssertEqual(both.status, 2)
    XCTAssertTrue(both.stderr.contains("--wayland does not go with"), both.stderr)
    // No such card: the KMS path names it and fails cleanly.
    let card = try run(["show", scene, "--drm", "/dev/dri/card97"])
    XCTAssertEqual(card.status, 1)
    XCTAssertTrue(
      card.stderr.contains("/dev/dri/card97: cannot open the DRM device: No such file"), card.stderr)
    // A scene that does not load is reported before any display is touched.
    let bad = try run(["show", try write("bad.json", "{\"lamina\": 1}"), "--drm", "/dev/dri/card97"])
    XCTAssertEqual(bad.status, 1)
    XCTAssertTrue(bad.stderr.contains("bad.json"), bad.stderr)
    XCTAssertFalse(bad.stderr.contains("card97"), bad.stderr)
  }

  func testInfoReportsThePlatform() throws {
    let result = try run(["info"])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("platform"), result.stdout)
    XCTAssertTrue(result.stdout.contains("max texture size"), result.stdout)
  }

  func testBenchPrintsJSON() throws {
    let scene = try write("good.json", good)
    let result = try run(["bench", scene, "--frames", "3", "--warmup", "1", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
    XCTAssertEqual(json?["frames"] as? Int, 3)
    XCTAssertEqual(json?["width"] as? Int, 80)
    XCTAssertNotNil((json?["frameMs"] as? [String: Double])?["p99"])
    XCTAssertNotNil(json?["drawCallsPerFrame"])
    XCTAssertNotNil(json?["peakMemoryMB"])
  }

  /// The CPU time splits into Lamina's stages and the driver's time in GL
  /// calls: every stage is there, none is negative, and together they are
  /// no more than the CPU time they split (they are measured apart, inside
  /// it).
  func testBenchSplitsTheCPUTimeIntoStages() throws {
    let scene = try write("good.json", good)
    let result = try run(["bench", scene, "--frames", "4", "--warmup", "1", "--json"])
    XCTAssertEqual(result.status, 0, result.stderr)
    let json = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    let stages = try XCTUnwrap(json["cpuStagesMs"] as? [String: Double], result.stdout)
    XCTAssertEqual(
      Set(stages.keys),
      [
        "presentationUpdate", "frameBuilding", "planning", "vertices", "executor", "glUploads",
        "glDraws", "glState",
      ])
    for (name, value) in stages { XCTAssertGreaterThanOrEqual(value, 0, name) }
    let cpu = try XCTUnwrap((json["cpuMs"] as? [String: Double])?["mean"])
    XCTAssertGreaterThan(cpu, 0)
    XCTAssertLessThanOrEqual(stages.values.reduce(0, +), cpu + 1e-6)
    // The frame draws (one layer on a background): GL time is measured.
    XCTAssertGreaterThan(stages["glDraws"] ?? 0, 0)
    let lamina = try XCTUnwrap((json["laminaCpuMs"] as? [String: Double])?["mean"])
    let driver = try XCTUnwrap((json["driverCpuMs"] as? [String: Double])?["mean"])
    XCTAssertGreaterThan(lamina, 0)
    XCTAssertEqual(
      lamina + driver, stages.values.reduce(0, +), accuracy: 1e-6 * max(1, cpu))
    let text = try run(["bench", scene, "--frames", "2", "--warmup", "0"])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.contains("cpu stages, mean ms: Lamina "), text.stdout)
    XCTAssertTrue(text.stdout.contains("driver in GL calls "), text.stdout)
  }
}
