import Foundation
import Lamina
import LaminaTestSupport
import XCTest

/// The command contract for Lottie documents (issue 25, item 3): `render`
/// recognises them by content; canvas size, scale, background; `--time`,
/// `--frame`, `--frames A..B|all`, `--marker`, `--fps` defaulting to `fr`;
/// `info FILE`; `bench` looping and fitting; `batch` jobs; archives. The
/// fixture `lottie/timing.json` is 200x100 points, frames 10..70 at 30 fps
/// (2 s), markers intro (10, 15 frames) and loop (40, 30 frames), and keeps
/// a 20-point transparent margin in every frame.
final class LottieCommandTests: XCTestCase {
  var scratch: URL!

  override func setUpWithError() throws {
    scratch = try Commands.commandScratch("lamina-lottie")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  var document: String {
    LottieTestSupport.fixtures.appendingPathComponent("lottie/timing.json").path
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }
  }

  func lamina(_ arguments: [String], input: String = "") throws -> Run {
    let r = try Commands.run(
      Commands.laminaBinary, arguments, input: Data(input.utf8), directory: scratch)
    return Run(
      status: r.status, stdout: String(decoding: r.stdout, as: UTF8.self), stderr: r.stderr)
  }

  func files(_ folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: path(folder)).sorted()
  }

  // MARK: render: one frame

  func testCanvasIsTheDocumentSizeAtTheScaleRoundedUpAndTransparent() throws {
    for (scale, size) in [(nil, (200, 100)), ("2", (400, 200)), ("0.251", (51, 26))]
      as [(String?, (Int, Int))]
    {
      let out = path("out.png")
      let run = try lamina(
        ["render", document, "-o", out] + (scale.map { ["--scale", $0] } ?? []))
      XCTAssertEqual(run.status, 0, run.stderr)
      let image = try CGImage.decode(fileAt: out)
      XCTAssertEqual([image.width, image.height], [size.0, size.1], "--scale \(scale ?? "none")")
      // The margin is transparent: no background unless asked for.
      XCTAssertEqual(Array(image.pixels[0..<4]), [0, 0, 0, 0])
    }
    let out = path("bg.png")
    let run = try lamina(["render", document, "-o", out, "--background", "#00ff00"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(Array(try CGImage.decode(fileAt: out).pixels[0..<4]), [0, 255, 0, 255])
    let bad = try lamina(["render", document, "-o", out, "--background", "green"])
    XCTAssertEqual(bad.status, 2)
    XCTAssertTrue(
      bad.stderr.contains("--background expects a color #rrggbb or #rrggbbaa, got 'green'"),
      bad.stderr)
  }

  /// A pipe is read once, whatever it holds: a Lottie document or a scene.
  func testDocumentsFromAPipe() throws {
    let lottie = try lamina(
      ["render", "/dev/stdin", "-o", "pipe.png"],
      input: try String(contentsOfFile: document, encoding: .utf8))
    XCTAssertEqual(lottie.status, 0, lottie.stderr)
    XCTAssertEqual(try CGImage.decode(fileAt: path("pipe.png")).width, 200)
    let scene = try lamina(
      ["render", "/dev/stdin", "-o", "scene.png"],
      input: #"{"lamina": 1, "canvas": {"width": 30, "height": 20}, "root": {}}"#)
    XCTAssertEqual(scene.status, 0, scene.stderr)
    XCTAssertEqual(try CGImage.decode(fileAt: path("scene.png")).width, 30)
  }

  /// `--background` is the scenes' too: it replaces canvas.background.
  func testBackgroundReplacesASceneCanvasBackground() throws {
    let scene = path("scene.json")
    try """
    { "lamina": 1, "canvas": { "width": 40, "height": 30, "background": "#ffffff" },
      "root": { "sublayers": [ { "frame": [5, 5, 20, 10], "backgroundColor": "#ff0000" } ] } }
    """.write(toFile: scene, atomically: true, encoding: .utf8)
    let out = path("scene.png")
    let run = try lamina(["render", scene, "-o", out, "--background", "#0000ff80"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let image = try CGImage.decode(fileAt: out)
    XCTAssertEqual(Array(image.pixels[0..<4]), [0, 0, 255, 128])
    let i = (10 * 40 + 10) * 4
    XCTAssertEqual(Array(image.pixels[i..<i + 4]), [255, 0, 0, 255])
  }

  /// `--time` is seconds from ip; `--frame` a frame number on the
  /// document's numbering (fractions allowed): the dry run names both.
  func testTimeAndFrameChooseTheSameMoment() throws {
    let byTime = try lamina(["render", document, "-o", "x.png", "--time", "1", "--dry-run"])
    XCTAssertEqual(byTime.status, 0, byTime.stderr)
    XCTAssertEqual(byTime.lines, ["x.png t=1 frame=40"])
    let byFrame = try lamina(["render", document, "-o", "x.png", "--frame", "40", "--dry-run"])
    XCTAssertEqual(byFrame.lines, ["x.png t=1 frame=40"])
    let fraction = try lamina(["render", document, "-o", "x.png", "--frame", "25.5", "--dry-run"])
    XCTAssertEqual(fraction.lines, ["x.png t=0.5166666666666667 frame=25.5"])
    XCTAssertFalse(
      FileManager.default.fileExists(atPath: path("x.png")), "a dry run writes nothing")

    let before = try lamina(["render", document, "-o", "x.png", "--frame", "5"])
    XCTAssertEqual(before.status, 2)
    XCTAssertTrue(before.stderr.contains("--frame 5 is outside 10..1e9"), before.stderr)
    let both = try lamina(["render", document, "-o", "x.png", "--frame", "5", "--time", "1"])
    XCTAssertEqual(both.status, 2)
    XCTAssertTrue(both.stderr.contains("--time and --frame"), both.stderr)

    // A scene has no frame numbers, in and out points or markers.
    let scene = LottieTestSupport.fixtures.appendingPathComponent("batch/show.json").path
    let onScene = try lamina(["render", scene, "-o", "x.png", "--frame", "3"])
    XCTAssertEqual(onScene.status, 2)
    XCTAssertTrue(onScene.stderr.contains("--frame needs a Lottie document"), onScene.stderr)
    let allOfScene = try lamina(["render", scene, "--frames", "all", "-o", "f-%d.png"])
    XCTAssertEqual(allOfScene.status, 2)
    XCTAssertTrue(
      allOfScene.stderr.contains("--frames all needs a Lottie document"), allOfScene.stderr)
    XCTAssertEqual(try files("."), [])
  }

  // MARK: render: sequences

  /// `--frames all`: every frame from ip up to, not including, op, at `fr`
  /// unless `--fps`; frame n is ip + n · fr / fps.
  func testFramesAllRendersEveryFrameFromInPointToOutPoint() throws {
    let plan = try lamina(["render", document, "--frames", "all", "-o", "f-%02d.png", "--dry-run"])
    XCTAssertEqual(plan.status, 0, plan.stderr)
    XCTAssertEqual(plan.lines.first, "60 frames at 30 fps")
    XCTAssertEqual(plan.lines[1], "f-00.png t=0 frame=10")
    XCTAssertEqual(plan.lines[2], "f-01.png t=0.03333333333333333 frame=11")
    XCTAssertEqual(plan.lines.last, "f-59.png t=1.9666666666666666 frame=69")

    let half = try lamina(
      ["render", document, "--frames", "all", "--fps", "12", "-o", "f-%02d.png", "--dry-run"])
    XCTAssertEqual(half.lines.first, "24 frames at 12 fps")
    XCTAssertEqual(half.lines.last, "f-23.png t=1.9166666666666667 frame=67.5")

    let range = try lamina(
      ["render", document, "--frames", "3..5", "-o", "f-%02d.png", "--dry-run"])
    XCTAssertEqual(
      range.lines,
      [
        "3 frames at 30 fps", "f-03.png t=0.1 frame=13", "f-04.png t=0.13333333333333333 frame=14",
        "f-05.png t=0.16666666666666666 frame=15",
      ])

    let run = try lamina(
      ["render", document, "--frames", "all", "--scale", "0.1", "-o", "seq/f-%02d.png"])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(try files("seq"), (0..<60).map { String(format: "f-%02d.png", $0) })
    XCTAssertEqual(try CGImage.decode(fileAt: path("seq/f-59.png")).width, 20)
  }

  func testMarkerRendersItsRangeAndAnUnknownOneListsTheKnown() throws {
    let loop = try lamina(["render", document, "--marker", "loop", "-o", "m-%02d.png", "--dry-run"])
    XCTAssertEqual(loop.status, 0, loop.stderr)
    XCTAssertEqual(loop.lines.first, "30 frames at 30 fps")
    XCTAssertEqual(loop.lines[1], "m-30.png t=1 frame=40")
    XCTAssertEqual(loop.lines.last, "m-59.png t=1.9666666666666666 frame=69")
    let intro = try lamina(
      ["render", document, "--marker", "intro", "--fps", "60", "-o", "m-%02d.png", "--dry-run"])
    XCTAssertEqual(intro.lines.first, "30 frames at 60 fps")
    XCTAssertEqual(intro.lines.last, "m-29.png t=0.48333333333333334 frame=24.5")

    let unknown = try lamina(["render", document, "--marker", "outro", "--video", "m.y4m"])
    XCTAssertEqual(unknown.status, 2)
    XCTAssertTrue(
      unknown.stderr.contains("timing.json has no marker 'outro'; its markers: 'intro', 'loop'"),
      unknown.stderr)
    XCTAssertEqual(try files("."), [])
  }

  /// End to end: a Lottie document becomes a YUV4MPEG2 video of op - ip
  /// frames at its own frame rate.
  func testFramesAllToVideoHasOneFramePerDocumentFrame() throws {
    let run = try lamina(["render", document, "--frames", "all", "--video", "anim.y4m"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let data = try Data(contentsOf: URL(fileURLWithPath: path("anim.y4m")))
    let header = String(decoding: data.prefix(while: { $0 != 0x0A }), as: UTF8.self)
    XCTAssertTrue(header.hasPrefix("YUV4MPEG2 W200 H100 F30:1"), header)
    let frameBytes = 200 * 100 * 3 / 2
    let frames = (data.count - header.utf8.count - 1) / ("FRAME\n".utf8.count + frameBytes)
    XCTAssertEqual(frames, 60)
    XCTAssertEqual(data.count, header.utf8.count + 1 + 60 * (6 + frameBytes))
  }

  // MARK: info

  func testInfoDescribesTheDocument() throws {
    let run = try lamina(["info", document])
    XCTAssertEqual(run.status, 0, run.stderr)
    for line in [
      "timing.json: Lottie document", "size: 200x100 points", "frame rate: 30 fps",
      "frames: 10..70 (in-point ip to out-point op, 60 frames)", "duration: 2 s", "layers: 2",
      "  intro: frames 10..25 (15 frames)", "  loop: frames 40..70 (30 frames)",
    ] {
      XCTAssertTrue(run.lines.contains(line), "\(line) in:\n\(run.stdout)")
    }
    let json = try lamina(["info", document, "--json"])
    XCTAssertEqual(json.status, 0, json.stderr)
    let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
    XCTAssertEqual(object?["kind"] as? String, "lottie")
    XCTAssertEqual(object?["frameRate"] as? Double, 30)
    XCTAssertEqual(object?["frames"] as? Int, 60)
    XCTAssertEqual(object?["layers"] as? Int, 2)
    XCTAssertEqual(
      (object?["markers"] as? [[String: Any]])?.map { $0["name"] as? String }, ["intro", "loop"])
    XCTAssertNotNil(object?["unsupported"] as? [Any])

    let scene = try lamina(
      ["info", LottieTestSupport.fixtures.appendingPathComponent("batch/show.json").path])
    XCTAssertEqual(scene.status, 0, scene.stderr)
    XCTAssertEqual(scene.lines.first, "show.json: Lamina scene")
    XCTAssertTrue(scene.stdout.contains("canvas: 160x100 points at scale 1"), scene.stdout)
    // A scene with no animations settles at once: no settled time, and its
    // JSON is JSON (no -inf).
    let still = path("still.json")
    try #"{"lamina": 1, "canvas": {"width": 8, "height": 8}, "root": {}}"#
      .write(toFile: still, atomically: true, encoding: .utf8)
    let stillText = try lamina(["info", still])
    XCTAssertEqual(stillText.status, 0, stillText.stderr)
    XCTAssertFalse(stillText.stdout.contains("settled"), stillText.stdout)
    let stillJSON = try lamina(["info", still, "--json"])
    XCTAssertEqual(stillJSON.status, 0, stillJSON.stderr)
    let stillObject =
      try JSONSerialization.jsonObject(with: Data(stillJSON.stdout.utf8)) as? [String: Any]
    XCTAssertEqual(stillObject?["kind"] as? String, "scene")
    XCTAssertNil(stillObject?["settledTime"])
    let missing = try lamina(["info", "nowhere.json"])
    XCTAssertEqual(missing.status, 1)
    XCTAssertTrue(missing.stderr.contains("nowhere.json"), missing.stderr)
  }

  /// What the import leaves out is named on standard error once per kind,
  /// and `--quiet` silences it (a document the importer fully supports
  /// prints nothing either way).
  func testLeftOutFeaturesAreNamedOncePerKindUnlessQuiet() throws {
    let doc = path("expr.json")
    // Expressions on both layers' opacity (evaluated) and a blend mode left out.
    var object =
      try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: document)))
      as? [String: Any] ?? [:]
    var layers = object["layers"] as? [[String: Any]] ?? []
    for i in layers.indices {
      var ks = layers[i]["ks"] as? [String: Any] ?? [:]
      ks["o"] = ["a": 0, "k": 100, "x": "wiggle(1, 2)"] as [String: Any]
      layers[i]["ks"] = ks
      // Hard mix, a blend mode After Effects has and Lamina leaves out
      // (the expression above is evaluated now).
      layers[i]["bm"] = 17
    }
    object["layers"] = layers
    try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: doc))
    let info = try lamina(["info", doc, "--json"])
    XCTAssertEqual(info.status, 0, info.stderr)
    let described = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
    let unsupported = described?["unsupported"] as? [[String: String]] ?? []
    let kinds = Set(unsupported.compactMap { $0["feature"] })
    let loud = try lamina(["render", doc, "-o", "e.png"])
    XCTAssertEqual(loud.status, 0, loud.stderr)
    let notes = loud.stderr.split(separator: "\n").filter { $0.contains("left out") }
    XCTAssertEqual(notes.count, kinds.count, loud.stderr)
    for kind in kinds { XCTAssertTrue(loud.stderr.contains(kind), loud.stderr) }
    let quiet = try lamina(["render", doc, "-o", "q.png", "--quiet"])
    XCTAssertEqual(quiet.status, 0, quiet.stderr)
    XCTAssertEqual(quiet.stderr, "")
    XCTAssertEqual(kinds, ["blend mode 17"])
  }

  // MARK: bench

  func testBenchLoopsAtTheDocumentRateAndFitsTheSize() throws {
    let run = try lamina(
      ["bench", document, "--frames", "3", "--warmup", "1", "--size", "400x400", "--json"])
    XCTAssertEqual(run.status, 0, run.stderr)
    let json = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
    XCTAssertEqual(json?["width"] as? Int, 400)
    XCTAssertEqual(json?["height"] as? Int, 400)
    XCTAssertEqual(json?["fps"] as? Double, 30)
    XCTAssertEqual(json?["start"] as? Double, 0)
    let loop = json?["lottie"] as? [String: Double]
    XCTAssertEqual(loop?["inPoint"], 10)
    XCTAssertEqual(loop?["outPoint"], 70)
    // 200x100 into 400x400: twice as large, centred vertically.
    let fit = json?["fit"] as? [String: Double]
    XCTAssertEqual(fit?["scale"], 2)
    XCTAssertEqual(fit?["x"], 0)
    XCTAssertEqual(fit?["y"], 100)
  }

  // MARK: batch

  func testBatchJobsTakeLottieDocuments() throws {
    let inline = try String(contentsOfFile: document, encoding: .utf8)
      .replacingOccurrences(of: "\n", with: " ")
    let jobs = """
      {"scene": "\(document)", "frames": "all", "output": "all.y4m"}
      {"scene": "\(document)", "marker": "intro", "output": "intro/%02d.png"}
      {"scene": "\(document)", "frame": 40, "background": "#102030", "output": "f40.png"}
      {"scene": \(inline), "time": 1, "scale": 0.5, "output": "inline.png"}
      {"scene": "\(document)", "marker": "nope", "output": "x.y4m"}
      """
    let run = try lamina(["batch", "-"], input: jobs)
    XCTAssertEqual(run.status, 1, run.stderr)
    let results = run.lines.compactMap {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    XCTAssertEqual(results.map { $0["ok"] as? Bool }, [true, true, true, true, false])
    XCTAssertEqual(results.map { $0["frames"] as? Int }, [60, 15, 1, 1, nil])
    XCTAssertTrue(
      (results[4]["error"] as? String ?? "").contains("has no marker 'nope'"), "\(results[4])")
    XCTAssertEqual(try files("intro"), (0..<15).map { String(format: "%02d.png", $0) })
    let f40 = try CGImage.decode(fileAt: path("f40.png"))
    XCTAssertEqual([f40.width, f40.height], [200, 100])
    XCTAssertEqual(Array(f40.pixels[0..<4]), [0x10, 0x20, 0x30, 255])
    XCTAssertEqual(try CGImage.decode(fileAt: path("inline.png")).width, 100)
    // The same frame as `render` writes.
    let single = try lamina(
      ["render", document, "--frame", "40", "--background", "#102030", "-o", "r40.png"])
    XCTAssertEqual(single.status, 0, single.stderr)
    XCTAssertEqual(
      try Data(contentsOf: URL(fileURLWithPath: path("f40.png"))),
      try Data(contentsOf: URL(fileURLWithPath: path("r40.png"))))
  }

  // MARK: show

  /// `show` takes a Lottie document (loaded, looped, before any display is
  /// touched): with no such card, only the card is wrong; a document that
  /// does not load is reported first.
  func testShowLoadsALottieDocumentBeforeTheDisplay() throws {
    let run = try lamina(["show", document, "--drm", "/dev/dri/card97"])
    XCTAssertEqual(run.status, 1)
    XCTAssertTrue(
      run.stderr.contains("/dev/dri/card97: cannot open the DRM device"), run.stderr)
    let bad = path("bad.json")
    try #"{"v": "5", "fr": 30, "ip": 0, "op": 10, "w": "wide", "h": 10, "layers": []}"#.write(
      toFile: bad, atomically: true, encoding: .utf8)
    let failed = try lamina(["show", bad, "--drm", "/dev/dri/card97"])
    XCTAssertEqual(failed.status, 1)
    XCTAssertTrue(failed.stderr.contains("bad.json"), failed.stderr)
    XCTAssertFalse(failed.stderr.contains("card97"), failed.stderr)
  }

  // MARK: a dashed stroke at a corner

  /// A dashed stroke (dash 4, gap 3, dash 5, gap 3; width 3, round caps and
  /// joins) on a path with a corner, as in the real file whose frames ran
  /// into the 20 s frame budget: the stroke program of a corner piece took
  /// llvmpipe that long to compile, where no shader cache held it. With the
  /// on-disk shader cache off and a frame budget of 5 s it renders, and the
  /// stroke is drawn along both legs (the round caps close gaps of 3 at a
  /// width of 3).
  func testADashedStrokeAtACornerRendersWithinTheFrameBudget() throws {
    let document = path("dashes.json")
    try #"""
      {"v":"5.7.0","fr":30,"ip":0,"op":30,"w":200,"h":200,"assets":[],"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},"shapes":[{"ty":"gr","it":[{"ty":"sh","ks":{"a":0,"k":{"v":[[20,20],[180,180],[20,180]],"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]],"c":false}}},{"ty":"st","c":{"a":0,"k":[0,0,0,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":3},"lc":2,"lj":2,"d":[{"n":"d","v":{"a":0,"k":4}},{"n":"g","v":{"a":0,"k":3}},{"n":"d","v":{"a":0,"k":5}},{"n":"g","v":{"a":0,"k":3}}]},{"ty":"tr","p":{"a":0,"k":[0,0]}}]}]}]}
      """#.write(toFile: document, atomically: true, encoding: .utf8)
    let r = try Commands.run(
      Commands.laminaBinary, ["render", document, "-o", path("dashes.png")],
      environment: ["MESA_SHADER_CACHE_DISABLE": "true", "LAMINA_FRAME_BUDGET": "5"],
      directory: scratch)
    XCTAssertEqual(r.status, 0, r.stderr)
    let image = try CGImage.decode(fileAt: path("dashes.png"))
    func alpha(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * image.width + x) * 4 + 3] }
    let diagonal = (30..<170).filter { alpha($0, $0) > 200 }.count
    let bottom = (30..<170).filter { alpha($0, 180) > 200 }.count
    XCTAssertGreaterThan(diagonal, 120, "the stroke along the diagonal")
    XCTAssertGreaterThan(bottom, 120, "the stroke along the bottom")
    XCTAssertEqual(alpha(100, 60), 0, "nothing off the path")
  }

  // MARK: a Ray shard

  /// End to end: a shard of a Lottie document as a Ray worker renders it
  /// (`distributed/lamina_ray.py`'s `render_shard`, through `lamina batch`)
  /// is its frames of a single render, at the document's rate. Ray itself
  /// is not needed (DistributedTests runs the driver on a real Ray).
  func testARayShardOfALottieDocumentIsItsFramesOfTheWholeRender() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let r = try Commands.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-m", "unittest", "-v", "distributed/test_lamina_ray.py", "-k", "LottieShard"],
      environment: ["LAMINA": Commands.laminaBinary.path], directory: root)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertTrue(
      r.stderr.contains("LottieShard.test_a_shard_is_its_frames_of_the_whole_render) ... ok"),
      r.stderr)
    XCTAssertTrue(r.stderr.contains("Ran 1 test"), r.stderr)
  }

  // MARK: help

  func testHelpListsTheNewOptions() throws {
    let render = try lamina(["help", "render"])
    for option in ["--frame F", "--frames all", "--marker NAME", "--background COLOR", "--quiet"] {
      XCTAssertTrue(render.stdout.contains(option), option)
    }
    XCTAssertTrue(try lamina(["help", "info"]).stdout.contains("lamina info FILE.json"))
    XCTAssertTrue(try lamina(["help", "bench"]).stdout.contains("Lottie"))
    XCTAssertTrue(try lamina(["help", "batch"]).stdout.contains("marker "))
  }
}
