import Foundation
import Lamina
import XCTest

/// `lamina batch`: many jobs in one process, each written as `lamina render`
/// writes it, one result line each, failures contained, SIGTERM honoured.
final class BatchTests: XCTestCase {
  var scratch: URL!
  var binary: URL { RenderTestSupport.laminaBinary }
  /// A scene with images, a shadow, a gradient, a shape, text and animations.
  var scene: String {
    RenderTestSupport.fixtures.appendingPathComponent("batch/show.json").path
  }

  override func setUpWithError() throws {
    scratch = try RenderTestSupport.commandScratch("lamina-batch")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    /// The result lines, parsed.
    var results: [[String: Any]] {
      stdout.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
      }
    }
  }

  /// Runs lamina in the scratch folder with `input` on standard input.
  func lamina(_ arguments: [String], input: String = "", environment: [String: String] = [:])
    throws -> Run
  {
    let r = try RenderTestSupport.run(
      binary, arguments, input: Data(input.utf8), environment: environment, directory: scratch)
    return Run(
      status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
  }

  func bytes(_ name: String) throws -> Data {
    try Data(contentsOf: URL(fileURLWithPath: path(name)))
  }

  func testOutputsAreByteIdenticalToRender() throws {
    let jobs = """
      {"scene": "\(scene)", "time": 0.5, "output": "batch.png"}
      {"scene": "\(scene)", "time": 0.25, "scale": 2, "output": "batch2x.png"}
      {"scene": "\(scene)", "frames": "3..7", "fps": 12, "output": "batch-seq/f-%03d.png"}
      {"scene": "\(scene)", "frames": [0, 11], "fps": 12, "scale": 0.5, "output": "batch.y4m"}
      """
    try jobs.write(toFile: path("jobs.jsonl"), atomically: true, encoding: .utf8)
    let batch = try lamina(["batch", "jobs.jsonl"])
    XCTAssertEqual(batch.status, 0, batch.stderr)
    XCTAssertEqual(batch.stderr, "")
    XCTAssertEqual(batch.results.map { $0["job"] as? Int }, [1, 2, 3, 4])
    XCTAssertEqual(batch.results.map { $0["ok"] as? Bool }, [true, true, true, true])
    XCTAssertEqual(batch.results.map { $0["frames"] as? Int }, [1, 1, 5, 12])
    XCTAssertEqual(
      batch.results.map { $0["output"] as? String },
      ["batch.png", "batch2x.png", "batch-seq/f-%03d.png", "batch.y4m"])
    XCTAssertTrue(batch.results.allSatisfy { ($0["ms"] as? Double ?? -1) > 0 })

    for (arguments, name) in [
      (["--time", "0.5", "-o", "render.png"], "png"),
      (["--time", "0.25", "--scale", "2", "-o", "render2x.png"], "png 2x"),
      (["--frames", "3..7", "--fps", "12", "-o", "render-seq/f-%03d.png"], "sequence"),
      (["--frames", "0..11", "--fps", "12", "--scale", "0.5", "--video", "render.y4m"], "y4m"),
    ] {
      let render = try lamina(["render", scene] + arguments)
      XCTAssertEqual(render.status, 0, "\(name): \(render.stderr)")
    }
    XCTAssertEqual(try bytes("batch.png"), try bytes("render.png"))
    XCTAssertEqual(try bytes("batch2x.png"), try bytes("render2x.png"))
    XCTAssertNotEqual(try bytes("batch.png"), try bytes("batch2x.png"))
    for n in 3...7 {
      let name = String(format: "f-%03d.png", n)
      XCTAssertEqual(try bytes("batch-seq/" + name), try bytes("render-seq/" + name), name)
    }
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: path("batch-seq")).count, 5)
    let video = try bytes("batch.y4m")
    XCTAssertEqual(video, try bytes("render.y4m"))
    XCTAssertTrue(video.starts(with: Data("YUV4MPEG2 W80 H50 F12:1".utf8)))
  }

  func testInlineScenesOnStandardInputResolveImagesAgainstBase() throws {
    let inline = """
      {"lamina": 1, "canvas": {"width": 32, "height": 24},
       "images": {"dot": "images/dot.png"},
       "root": {"sublayers": [{"frame": [8, 4, 16, 16], "contents": "dot"}]}}
      """.replacingOccurrences(of: "\n", with: "")
    let base = RenderTestSupport.fixtures.appendingPathComponent("reftests").path
    try """
    {"lamina": 1, "canvas": {"width": 32, "height": 24},
     "images": {"dot": "\(base)/images/dot.png"},
     "root": {"sublayers": [{"frame": [8, 4, 16, 16], "contents": "dot"}]}}
    """.write(toFile: path("file.json"), atomically: true, encoding: .utf8)
    // Relative to the working directory when there is no base (and
    // confined to it: a copy, since a link leading out would be refused).
    try FileManager.default.copyItem(atPath: base + "/images", toPath: path("images"))
    let jobs = """
      {"scene": \(inline), "base": "\(base)", "output": "based.png"}
      {"scene": \(inline), "output": "cwd.png"}
      {"scene": \(inline), "base": "/nonexistent", "output": "missing.png"}
      {"scene": "file.json", "base": "\(base)", "output": "no.png"}

      """
    let run = try lamina(["batch", "-"], input: jobs)
    XCTAssertEqual(run.status, 1, run.stderr)
    XCTAssertEqual(run.results.map { $0["ok"] as? Bool }, [true, true, false, false])
    XCTAssertEqual(
      run.results[2]["error"] as? String,
      "stdin:3: images.dot: cannot read 'images/dot.png': not allowed, missing or unreadable; a"
        + " document reads only files in its own folder and below (no absolute paths, no '..' or"
        + " links that lead out, no URLs); pass --assets DIR to allow another folder, or"
        + " --allow-any-path for trusted input")
    XCTAssertEqual(
      run.results[3]["error"] as? String, "stdin:4: base: only an inline scene takes a base folder")
    // file.json names its image by an absolute path: an --assets folder.
    XCTAssertEqual(try lamina(["render", "file.json", "-o", "render.png"]).status, 1)
    XCTAssertEqual(
      try lamina(["render", "file.json", "-o", "render.png", "--assets", base]).status, 0)
    XCTAssertEqual(try bytes("based.png"), try bytes("render.png"))
    XCTAssertEqual(try bytes("cwd.png"), try bytes("render.png"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.png")))
  }

  func testFailedJobsAreReportedAndTheBatchGoesOn() throws {
    try """
    { "lamina": 1, "canvas": { "width": 40, "height": 30 },
      "root": { "sublayers": [ {}, {}, {}, { "opacity": "half" } ] } }
    """.write(toFile: path("bad.json"), atomically: true, encoding: .utf8)
    let jobs = """
      {"scene": "bad.json", "output": "bad.png"}
      {"scene": "\(scene)", "output": "good1.png"}
      not json
      {"scene": "\(scene)", "output": "x.png", "fsp": 30}
      {"scene": "\(scene)", "frames": "0..3", "output": "plain.png"}
      {"scene": "\(scene)", "time": 1, "output": "x.y4m"}
      {"scene": "\(scene)", "frames": "9..2", "output": "x.y4m"}
      {"scene": "\(scene)", "output": "-"}
      {"scene": "nowhere.json", "output": "nowhere.png"}
      [1, 2]
      {"scene": "\(scene)", "scale": 100, "output": "huge.png"}
      {"scene": "\(scene)", "output": "good2.png"}
      """
    try jobs.write(toFile: path("jobs.jsonl"), atomically: true, encoding: .utf8)
    let run = try lamina(["batch", "jobs.jsonl"])
    XCTAssertEqual(run.status, 1)
    XCTAssertTrue(run.stderr.contains("batch: 10 of 12 jobs failed"), run.stderr)
    let errors = run.results.map { $0["error"] as? String }
    XCTAssertEqual(
      errors,
      [
        "bad.json: root.sublayers[3].opacity: expected a number, found a string",
        nil,
        "jobs.jsonl:3:1: expected a value, found 'n'",
        "jobs.jsonl:4: unknown key 'fsp' (a job has scene, base, time, frame, frames, marker, fps,"
          + " scale, background, quiet, output, codec, crf, bitrate)",
        "jobs.jsonl:5: output: frames go to a video (.y4m, .mp4, .webm, .gif, .apng, .mov) or to"
          + " PNG files named with a %d (or %04d) for the frame number, got 'plain.png'",
        "jobs.jsonl:6: output: a .y4m video needs 'frames' (or 'marker')",
        "jobs.jsonl:7: frames: the last frame (2) comes before the first (9)",
        "jobs.jsonl:8: output: standard output carries the batch's results; name a file",
        "nowhere.json: cannot read the scene file: no such file",
        "jobs.jsonl:10: expected a job object, found an array",
        "jobs.jsonl:11: scale: must be between 0.01 and 8.0",
        nil,
      ])
    // Every failure here is the job's own: the result line says so.
    XCTAssertEqual(
      run.results.map { $0["kind"] as? String },
      ["input", nil] + Array(repeating: "input", count: 9) + [nil], run.stdout)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(),
      ["bad.json", "good1.png", "good2.png", "jobs.jsonl"])
    XCTAssertEqual(try bytes("good1.png"), try bytes("good2.png"))
  }

  func testAFailingSequenceLeavesNoPartialOutput() throws {
    // Frame 2's file name is taken by a folder: frames 0 and 1 are written
    // first, then the job fails and they go again.
    try FileManager.default.createDirectory(
      atPath: path("seq/f-2.png"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      atPath: path("taken.y4m"), withIntermediateDirectories: true)
    let jobs = """
      {"scene": "\(scene)", "frames": "0..4", "fps": 10, "output": "seq/f-%d.png"}
      {"scene": "\(scene)", "frames": "0..4", "fps": 10, "output": "taken.y4m"}
      {"scene": "\(scene)", "frames": "0..1", "fps": 10, "output": "ok.y4m"}
      """
    try jobs.write(toFile: path("jobs.jsonl"), atomically: true, encoding: .utf8)
    let run = try lamina(["batch", "jobs.jsonl"])
    XCTAssertEqual(run.results.map { $0["ok"] as? Bool }, [false, false, true], run.stdout)
    XCTAssertTrue(
      (run.results[0]["error"] as? String ?? "").contains("seq/f-2.png"), run.stdout)
    // An output that cannot be written is the machine's failure, not the job's.
    XCTAssertEqual(run.results.map { $0["kind"] as? String }, ["service", "service", nil])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("seq")), ["f-2.png"])
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(),
      ["jobs.jsonl", "ok.y4m", "seq", "taken.y4m"])
  }

  func testALostContextIsRecreatedAndTheJobRetriedOnce() throws {
    let jobs = """
      {"scene": "\(scene)", "time": 0.5, "output": "a.png"}
      {"scene": "\(scene)", "time": 0.5, "output": "b.png"}
      {"scene": "\(scene)", "frames": "0..5", "fps": 10, "output": "c.y4m"}
      {"scene": "\(scene)", "time": 0.5, "output": "d.png"}
      """
    try jobs.write(toFile: path("jobs.jsonl"), atomically: true, encoding: .utf8)
    // Job 2 loses its context once, job 3 on the first try and on the retry.
    let run = try lamina(
      ["batch", "jobs.jsonl"], environment: ["LAMINA_SIMULATE_CONTEXT_LOSS": "2,3,3"])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(run.results.map { $0["ok"] as? Bool }, [true, true, false, true], run.stdout)
    XCTAssertNil(run.results[0]["retried"])
    XCTAssertEqual(
      run.results[1]["retried"] as? String,
      "the GL context was lost (simulated by LAMINA_SIMULATE_CONTEXT_LOSS)")
    XCTAssertEqual(
      run.results[2]["error"] as? String,
      "the GL context was lost (simulated by LAMINA_SIMULATE_CONTEXT_LOSS); it was lost again"
        + " after a retry")
    XCTAssertEqual(run.results[2]["kind"] as? String, "service")
    XCTAssertTrue(
      run.stderr.contains(
        "batch: job 2: the GL context was lost (simulated by LAMINA_SIMULATE_CONTEXT_LOSS);"
          + " retrying on a new GL context"), run.stderr)
    // The retried job and the one after it, on new contexts, match the first.
    XCTAssertEqual(try bytes("b.png"), try bytes("a.png"))
    XCTAssertEqual(try bytes("d.png"), try bytes("a.png"))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("c.y4m")))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(),
      ["a.png", "b.png", "d.png", "jobs.jsonl"])
  }

  func testSIGTERMFinishesTheRunningJobAndStops() throws {
    // A long first job (a video, written under a temporary name until it is
    // whole), then more jobs that must not run.
    let long = """
      {"scene": "\(scene)", "frames": "0..199", "fps": 60, "output": "long.y4m"}
      """
    let jobs =
      long + "\n" + """
        {"scene": "\(scene)", "output": "never1.png"}
        {"scene": "\(scene)", "output": "never2.png"}
        """
    try jobs.write(toFile: path("jobs.jsonl"), atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = binary
    process.arguments = ["batch", "jobs.jsonl"]
    process.currentDirectoryURL = scratch
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait until the video is being written, then ask the batch to stop.
    let deadline = Date().addingTimeInterval(60)
    var started = false
    while Date() < deadline && !started {
      started = try FileManager.default.contentsOfDirectory(atPath: scratch.path).contains {
        // The stream's temporary name beside it (OutputFile).
        $0.hasPrefix(".long.y4m.")
      }
      if !started { usleep(2_000) }
    }
    XCTAssertTrue(started, "the first job never started")
    kill(process.processIdentifier, SIGTERM)
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 128 + SIGTERM)
    let lines = String(decoding: stdout, as: UTF8.self).split(separator: "\n")
    XCTAssertEqual(lines.count, 1, "\(lines)")
    XCTAssertTrue(lines.first?.hasPrefix("{\"job\": 1, \"ok\": true") ?? false, "\(lines)")
    // The running job finished whole: 200 frames of 160×100.
    let video = try bytes("long.y4m")
    let header = Data("YUV4MPEG2 W160 H100 F60:1 Ip A1:1 C420jpeg XCOLORRANGE=LIMITED\n".utf8)
    XCTAssertTrue(video.starts(with: header))
    XCTAssertEqual(video.count, header.count + 200 * (6 + 160 * 100 * 3 / 2))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted(),
      ["jobs.jsonl", "long.y4m"])
  }

  func testSIGTERMWhileWaitingForJobsStopsAtOnce() throws {
    let process = Process()
    process.executableURL = binary
    process.arguments = ["batch", "-"]
    process.currentDirectoryURL = scratch
    let stdin = Pipe()
    let out = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    // One job, answered while the batch waits for the next line.
    stdin.fileHandleForWriting.write(
      Data("{\"scene\": \"\(scene)\", \"output\": \"one.png\"}\n".utf8))
    var line = Data()
    while !line.contains(0x0A) {
      let chunk = out.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      line.append(chunk)
    }
    XCTAssertTrue(String(decoding: line, as: UTF8.self).hasPrefix("{\"job\": 1, \"ok\": true"))
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationStatus, 128 + SIGTERM)
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("one.png")))
  }

  func testALineTooLongIsAFailedJobAndTheNextLineRuns() throws {
    var long = Data("{\"scene\": \"".utf8)
    long.append(Data(repeating: UInt8(ascii: "x"), count: 64 << 20))
    long.append(Data("\"}".utf8))
    var input = long
    input.append(Data("\n{\"scene\": \"\(scene)\", \"output\": \"after.png\"}\n".utf8))
    input.append(long)
    let r = try RenderTestSupport.run(binary, ["batch", "-"], input: input, directory: scratch)
    let run = Run(
      status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(run.results.map { $0["job"] as? Int }, [1, 2, 3])
    XCTAssertEqual(
      run.results.map { $0["error"] as? String },
      [
        "stdin:1: the line is longer than 67108864 bytes", nil,
        "stdin:3: the line is longer than 67108864 bytes",
      ])
    XCTAssertTrue(FileManager.default.fileExists(atPath: path("after.png")))
  }

  func testUsageErrors() throws {
    let none = try lamina(["batch"])
    XCTAssertEqual(none.status, 2)
    XCTAssertTrue(none.stderr.contains("batch needs one jobs file"), none.stderr)
    let budget = try lamina(["batch", "-", "--memory-budget", "12X"])
    XCTAssertEqual(budget.status, 2)
    XCTAssertTrue(
      budget.stderr.contains("--memory-budget expects bytes with an optional K, M or G, got '12X'"),
      budget.stderr)
    let missing = try lamina(["batch", "nowhere.jsonl"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(
      missing.stderr.contains("cannot read the jobs file 'nowhere.jsonl': No such file"),
      missing.stderr)
    let empty = try lamina(["batch", "-", "--memory-budget", "64M"], input: "\n  \n")
    XCTAssertEqual(empty.status, 0, empty.stderr)
    XCTAssertEqual(empty.stdout, "")
  }
}
