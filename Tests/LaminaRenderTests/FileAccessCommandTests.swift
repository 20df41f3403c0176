import Foundation
import XCTest

/// Every way in confines what an untrusted scene reads (docs/security.md):
/// `render`, `batch` (inline scenes to their base), `bench`; `--assets` and
/// `--allow-any-path` open the door on purpose; `batch --output-root`
/// confines the writes. A refused job writes nothing.
final class FileAccessCommandTests: XCTestCase {
  var scratch: URL!
  var binary: URL { RenderTestSupport.laminaBinary }
  var photo: URL { RenderTestSupport.fixtures.appendingPathComponent("reftests/images/photo.png") }

  override func setUpWithError() throws {
    scratch = try RenderTestSupport.commandScratch("lamina-access")
    let fm = FileManager.default
    for folder in ["scene", "secret", "out", "assets/images"] {
      try fm.createDirectory(
        at: scratch.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    try fm.copyItem(at: photo, to: scratch.appendingPathComponent("secret/photo.png"))
    try fm.copyItem(at: photo, to: scratch.appendingPathComponent("assets/images/photo.png"))
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  func exists(_ name: String) -> Bool { FileManager.default.fileExists(atPath: path(name)) }

  /// Runs lamina in the scratch folder.
  func lamina(_ arguments: [String], input: String = "") throws -> (
    status: Int32, stdout: String, stderr: String
  ) {
    let r = try RenderTestSupport.run(
      binary, arguments, input: Data(input.utf8), directory: scratch)
    return (r.status, String(decoding: r.stdout, as: UTF8.self), r.stderr)
  }

  func sceneJSON(_ image: String) -> String {
    """
    {"lamina": 1, "canvas": {"width": 40, "height": 30}, "images": {"p": "\(image)"}, \
    "root": {"sublayers": [{"frame": [0, 0, 40, 30], "contents": "p"}]}}
    """
  }

  func writeScene(_ image: String) throws {
    try sceneJSON(image).write(toFile: path("scene/scene.json"), atomically: true, encoding: .utf8)
  }

  func refusal(_ file: String, _ image: String) -> String {
    "\(file): images.p: cannot read '\(image)': not allowed, missing or unreadable; a document"
      + " reads only files in its own folder and below (no absolute paths, no '..' or links"
      + " that lead out, no URLs); pass --assets DIR to allow another folder, or"
      + " --allow-any-path for trusted input"
  }

  /// Files in the scratch folder's top level and out/ (temporaries too).
  func written() throws -> [String] {
    let fm = FileManager.default
    return try
      (fm.contentsOfDirectory(atPath: scratch.path)
      + fm.contentsOfDirectory(atPath: path("out")).map { "out/" + $0 }).sorted()
  }

  func testRenderRefusesWhatLeavesTheSceneFolderAndWritesNothing() throws {
    let before = try written()
    for image in ["../secret/photo.png", path("secret/photo.png"), "http://example.com/p.png"] {
      try writeScene(image)
      let run = try lamina(["render", "scene/scene.json", "-o", "out/a.png"])
      XCTAssertEqual(run.status, 1, image)
      XCTAssertEqual(run.stderr, "lamina: " + refusal("scene.json", image) + "\n")
      XCTAssertEqual(try written(), before, "nothing written for \(image)")
    }
    // The same message when the file is missing: nothing tells it exists.
    try writeScene("../secret/photo.png")
    let existing = try lamina(["render", "scene/scene.json", "-o", "out/a.png"])
    try FileManager.default.moveItem(atPath: path("secret/photo.png"), toPath: path("moved.png"))
    let missing = try lamina(["render", "scene/scene.json", "-o", "out/a.png"])
    XCTAssertEqual(existing.stderr, missing.stderr)
    XCTAssertEqual(existing.status, missing.status)
  }

  /// `lamina show` loads through the same rule before it opens a display.
  func testShowRefusesBeforeOpeningADisplay() throws {
    try writeScene("../secret/photo.png")
    let run = try lamina(["show", "scene/scene.json", "--frames", "1"])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(run.stderr, "lamina: " + refusal("scene.json", "../secret/photo.png") + "\n")
  }

  func testAssetsAndAllowAnyPathOpenTheDoorOnPurpose() throws {
    try writeScene("../assets/images/photo.png")
    let refused = try lamina(["render", "scene/scene.json", "-o", "out/a.png"])
    XCTAssertEqual(refused.status, 1, refused.stderr)
    let assets = try lamina(
      ["render", "scene/scene.json", "-o", "out/a.png", "--assets", "assets"])
    XCTAssertEqual(assets.status, 0, assets.stderr)
    XCTAssertTrue(exists("out/a.png"))
    let any = try lamina(["render", "scene/scene.json", "-o", "out/b.png", "--allow-any-path"])
    XCTAssertEqual(any.status, 0, any.stderr)
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path("out/a.png"))),
      try Data(contentsOf: URL(fileURLWithPath: path("out/b.png"))))
    // Two folders; one that is not a folder is a usage error.
    let two = try lamina(
      ["render", "scene/scene.json", "-o", "out/c.png", "--assets", "secret", "--assets", "assets"])
    XCTAssertEqual(two.status, 0, two.stderr)
    let bad = try lamina(["render", "scene/scene.json", "-o", "out/d.png", "--assets", "nowhere"])
    XCTAssertEqual(bad.status, 2)
    XCTAssertEqual(bad.stderr, "lamina: --assets: 'nowhere' is not a folder\n")
    // bench loads through the same rule.
    let bench = try lamina(["bench", "scene/scene.json", "--frames", "1", "--warmup", "0"])
    XCTAssertEqual(bench.status, 1)
    XCTAssertEqual(
      bench.stderr, "lamina: " + refusal("scene.json", "../assets/images/photo.png") + "\n")
    let benchAssets = try lamina(
      ["bench", "scene/scene.json", "--frames", "1", "--warmup", "0", "--assets", "assets"])
    XCTAssertEqual(benchAssets.status, 0, benchAssets.stderr)
  }

  func testBatchConfinesInlineScenesToTheirBase() throws {
    let jobs = [
      #"{"scene": \#(sceneJSON("images/photo.png")), "base": "assets", "output": "out/1.png"}"#,
      #"{"scene": \#(sceneJSON("../secret/photo.png")), "base": "assets", "output": "out/2.png"}"#,
      #"{"scene": \#(sceneJSON("secret/photo.png")), "output": "out/3.png"}"#,
      #"{"scene": \#(sceneJSON(path("secret/photo.png"))), "output": "out/4.png"}"#,
      #"{"scene": \#(sceneJSON(path("secret/photo.png"))), "base": "assets", "output": "out/5.png"}"#,
    ].joined(separator: "\n")
    let run = try lamina(["batch", "-"], input: jobs)
    XCTAssertEqual(run.status, 1, run.stderr)
    let results = run.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    XCTAssertEqual(results.map { $0["ok"] as? Bool }, [true, false, true, false, false])
    XCTAssertEqual(results[1]["error"] as? String, refusal("stdin:2", "../secret/photo.png"))
    XCTAssertEqual(results[3]["error"] as? String, refusal("stdin:4", path("secret/photo.png")))
    XCTAssertEqual(results[4]["error"] as? String, refusal("stdin:5", path("secret/photo.png")))
    XCTAssertEqual(try written().filter { $0.hasPrefix("out/") }, ["out/1.png", "out/3.png"])
    // With --assets (or --allow-any-path) the same jobs all render.
    let assets = try lamina(["batch", "-", "--assets", "secret"], input: jobs)
    XCTAssertEqual(assets.status, 0, assets.stdout + assets.stderr)
    let any = try lamina(["batch", "-", "--allow-any-path"], input: jobs)
    XCTAssertEqual(any.status, 0, any.stdout + any.stderr)
  }

  /// `--scene-root DIR`: job lines that carry user input cannot point a
  /// job at a scene file, or an inline scene at a base, outside DIR; the
  /// message is the same whether the file exists or not.
  func testBatchSceneRootConfinesSceneFilesAndBases() throws {
    try writeScene("images/photo.png")
    try FileManager.default.createDirectory(
      atPath: path("scene/images"), withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: photo, to: URL(fileURLWithPath: path("scene/images/photo.png")))
    try sceneJSON("photo.png").write(
      toFile: path("secret/s.json"), atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(
      atPath: path("scene/leak"), withDestinationPath: path("secret"))
    let inline = sceneJSON("images/photo.png")
    let jobs: [(String, Bool)] = [
      (#"{"scene": "scene/scene.json", "output": "out/1.png"}"#, true),
      (#"{"scene": "\#(path("scene/scene.json"))", "output": "out/2.png"}"#, true),
      (#"{"scene": \#(inline), "base": "scene", "output": "out/3.png"}"#, true),
      (#"{"scene": "secret/s.json", "output": "out/4.png"}"#, false),
      (#"{"scene": "scene/../secret/s.json", "output": "out/5.png"}"#, false),
      (#"{"scene": "scene/leak/s.json", "output": "out/6.png"}"#, false),
      (#"{"scene": "secret/none.json", "output": "out/7.png"}"#, false),
      (#"{"scene": \#(inline), "base": "secret", "output": "out/8.png"}"#, false),
      (#"{"scene": \#(inline), "base": "scene/leak", "output": "out/9.png"}"#, false),
      (#"{"scene": \#(inline), "output": "out/10.png"}"#, false),
    ]
    let run = try lamina(
      ["batch", "-", "--scene-root", "scene"], input: jobs.map(\.0).joined(separator: "\n"))
    XCTAssertEqual(run.status, 1, run.stderr)
    let results = run.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    XCTAssertEqual(results.map { $0["ok"] as? Bool }, jobs.map(\.1), run.stdout)
    func refusal(_ line: Int, _ key: String, _ path: String) -> String {
      "stdin:\(line): \(key): cannot read '\(path)': not inside --scene-root \(self.path("scene")),"
        + " missing or unreadable (no absolute paths elsewhere, no '..' or links that lead out)"
    }
    let errors = results.map { $0["error"] as? String }
    XCTAssertEqual(errors[3], refusal(4, "scene", "secret/s.json"))
    XCTAssertEqual(errors[4], refusal(5, "scene", "scene/../secret/s.json"))
    XCTAssertEqual(errors[5], refusal(6, "scene", "scene/leak/s.json"))
    // Missing reads the same as outside.
    XCTAssertEqual(errors[6], refusal(7, "scene", "secret/none.json"))
    XCTAssertEqual(errors[7], refusal(8, "base", "secret"))
    XCTAssertEqual(errors[8], refusal(9, "base", "scene/leak"))
    XCTAssertEqual(errors[9], refusal(10, "base", "."))
    XCTAssertEqual(
      try written().filter { $0.hasPrefix("out/") }, ["out/1.png", "out/2.png", "out/3.png"])
  }

  func testBatchOutputRootConfinesEveryOutput() throws {
    try writeScene("photo.png")
    try FileManager.default.copyItem(
      at: photo, to: scratch.appendingPathComponent("scene/photo.png"))
    try FileManager.default.createSymbolicLink(
      atPath: path("out/leak"), withDestinationPath: path("secret"))
    try FileManager.default.createSymbolicLink(
      atPath: path("out/file.png"), withDestinationPath: path("secret/x.png"))
    let scene = path("scene/scene.json")
    let outputs: [(String, Bool)] = [
      ("out/ok.png", true),
      (path("out/absolute.png"), true),
      ("out/new/folder/deep-%d.png", true),
      ("out/seq/f-%02d.png", true),
      ("out/video.y4m", true),
      ("elsewhere.png", false),
      (path("secret/abs.png"), false),
      ("out/../escape.png", false),
      ("out/leak/through-link.png", false),
      ("out/file.png", false),
      ("out/%d/frame.png", false),
      ("out/leak/video.y4m", false),
    ]
    let jobs = outputs.map { output, _ in
      let frames = output.contains("%") || output.hasSuffix(".y4m") ? #""frames": "0..1", "# : ""
      return #"{"scene": "\#(scene)", \#(frames)"output": "\#(output)"}"#
    }.joined(separator: "\n")
    let run = try lamina(["batch", "-", "--output-root", "out"], input: jobs)
    XCTAssertEqual(run.status, 1, run.stderr)
    let results = run.stdout.split(separator: "\n").compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    XCTAssertEqual(results.map { $0["ok"] as? Bool }, outputs.map(\.1), run.stdout)
    for (i, (output, allowed)) in outputs.enumerated() where !allowed {
      XCTAssertEqual(
        results[i]["error"] as? String,
        "stdin:\(i + 1): output: cannot write '\(output)': not inside --output-root \(path("out"))"
          + " (no absolute paths elsewhere, no '..' or links that lead out, no links or special"
          + " files as the output itself)")
    }
    // Nothing outside out/, nothing through its links.
    XCTAssertFalse(exists("elsewhere.png"))
    XCTAssertFalse(exists("escape.png"))
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: path("secret")), ["photo.png"])
    XCTAssertTrue(exists("out/new/folder/deep-1.png"))
    XCTAssertTrue(exists("out/seq/f-01.png"))
    let root = try lamina(["batch", "-", "--output-root", "nowhere"], input: "")
    XCTAssertEqual(root.status, 2)
  }
}
