import Foundation
import Lamina
import XCTest

/// `lamina render` on what a server's users send: the classes of issue 14
/// (traps, hangs, memory, messages, outputs that are not regular files,
/// partial outputs), each run as a user would and checked by exit status,
/// message and what is left on disk.
final class HostileInputTests: XCTestCase {
  var scratch: URL!

  override func setUpWithError() throws {
    scratch = try RenderTestSupport.commandScratch("lamina-hostile")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  struct Run {
    var status: Int32
    var stdout: Data
    var stderr: String
  }

  /// Runs lamina with `arguments` (and extra environment).
  func lamina(_ arguments: [String], environment: [String: String] = [:]) throws -> Run {
    let run = try RenderTestSupport.run(
      RenderTestSupport.laminaBinary, arguments, environment: environment)
    return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
  }

  func write(_ name: String, _ text: String) throws -> String {
    let url = scratch.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  /// The files in the scratch folder, hidden ones too, except `keep`.
  func leftovers(keeping keep: Set<String>) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { !keep.contains($0) }
      .sorted()
  }

  let simple = """
    {"lamina": 1, "canvas": {"width": 40, "height": 30, "background": "#ffffff"},
     "root": {"sublayers": [{"frame": [5, 5, 20, 10], "backgroundColor": "#ff0000"}]}}
    """

  /// Fine at t < 2, past the blur limit from t = 2 on (a cumulative animation).
  let failsAtTwoSeconds = """
    {"lamina": 1, "canvas": {"width": 40, "height": 30},
     "root": {"sublayers": [{"frame": [5, 5, 20, 10], "backgroundColor": "#ff0000",
       "shadowOpacity": 1, "animations": [{"keyPath": "shadowRadius", "fromValue": 0,
       "byValue": 300, "isCumulative": true, "duration": 1, "repeatCount": 5}]}]}}
    """

  // MARK: Traps

  func testHugeTimesAndFrameRatesAreUsageErrorsOrRender() throws {
    let scene = try write("scene.json", simple)
    let huge = try lamina(["render", scene, "-o", path("out.png"), "--time", "1e300"])
    XCTAssertEqual(huge.status, 2)
    XCTAssertTrue(huge.stderr.contains("--time must be between 0.0 and 1000000000.0"), huge.stderr)
    let zero = try lamina(["render", scene, "--frames", "0..1", "--fps", "0", "--video", "-"])
    XCTAssertEqual(zero.status, 2)
    XCTAssertTrue(zero.stderr.contains("--fps must be between 0.001 and 10000.0"), zero.stderr)
    // Past the largest time by frames: refused before anything renders.
    let far = try lamina(["render", scene, "--frames", "0..9999999", "--fps", "0.001", "--video", "-"])
    XCTAssertEqual(far.status, 2)
    XCTAssertTrue(far.stderr.contains("past the largest time 1000000000 s"), far.stderr)
    // One frame a thousand seconds: renders, at once.
    let slow = try lamina(["render", scene, "--frames", "0..2", "--fps", "0.001", "--video", "-"])
    XCTAssertEqual(slow.status, 0, slow.stderr)
    XCTAssertEqual(slow.stderr, "")
    XCTAssertTrue(slow.stdout.starts(with: Array("YUV4MPEG2 W40 H30 F1:1000".utf8)))
  }

  /// The frame sequence writer's semaphore trapped when a frame failed;
  /// now the real error is printed and nothing is left, for PNG sequences
  /// and video, `--frames 0..0` included.
  func testAFailingFrameInASequenceReportsItsErrorAndLeavesNothing() throws {
    let scene = try write("scene.json", failsAtTwoSeconds)
    let expected =
      "lamina: scene.json: root.sublayers[0].shadowRadius at 2 s: shadowRadius must be finite and within ±500: 600, over the limit of 500 (maxBlurRadius)"
    for output in [["-o", path("frames/f-%03d.png")], ["--video", path("out.y4m")]] {
      let run = try lamina(["render", scene, "--frames", "0..4", "--fps", "1"] + output)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertEqual(run.stderr.trimmingCharacters(in: .newlines), expected)
      XCTAssertEqual(try leftovers(keeping: ["scene.json"]), [], "\(output)")
    }
    // A sequence of one frame that fails: the same.
    for output in [["-o", path("f-%d.png")], ["--video", path("one.y4m")]] {
      let run = try lamina(["render", scene, "--frames", "2..2", "--fps", "1"] + output)
      XCTAssertEqual(run.status, 1, run.stderr)
      XCTAssertEqual(run.stderr.trimmingCharacters(in: .newlines), expected)
      XCTAssertEqual(try leftovers(keeping: ["scene.json"]), [])
    }
    // And one that succeeds writes its frame.
    let ok = try lamina(["render", scene, "--frames", "0..0", "-o", path("f-%d.png")])
    XCTAssertEqual(ok.status, 0, ok.stderr)
    XCTAssertEqual(try leftovers(keeping: ["scene.json"]), ["f-0.png"])
  }

  // MARK: Outputs that are not regular files

  /// A character device like /dev/null: a private node made here when the
  /// tests run as root (a regression then replaces that node, not the
  /// machine's /dev/null), else /dev/null, which others cannot replace.
  func nullDevice() -> String {
    let node = path("null")
    // Device 1:3 (memory devices, null) in Linux's dev_t encoding.
    let null: dev_t = (1 << 8) | 3
    if getuid() == 0, mknod(node, S_IFCHR | 0o666, null) == 0 { return node }
    return "/dev/null"
  }

  func testVideoToACharacterDeviceWritesThroughIt() throws {
    let scene = try write("scene.json", simple)
    let device = nullDevice()
    let run = try lamina(["render", scene, "--frames", "0..1", "--video", device])
    XCTAssertEqual(run.status, 0, run.stderr)
    var info = stat()
    XCTAssertEqual(stat(device, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR, "\(device) is still a device")
    let png = try lamina(["render", scene, "-o", device])
    XCTAssertEqual(png.status, 0, png.stderr)
    XCTAssertEqual(stat(device, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFCHR)
    // Nothing was made beside it.
    XCTAssertEqual(
      try leftovers(keeping: ["scene.json"]), device == "/dev/null" ? [] : ["null"])
  }

  func testVideoToAFIFOIsStreamedToItsReader() throws {
    let scene = try write("scene.json", simple)
    let fifo = path("video.fifo")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    nonisolated(unsafe) var received = Data()
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
      if let handle = FileHandle(forReadingAtPath: fifo) {
        received = handle.readDataToEndOfFile()
      }
    }
    let run = try lamina(["render", scene, "--frames", "0..2", "--video", fifo])
    reader.wait()
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertTrue(received.starts(with: Array("YUV4MPEG2 W40 H30".utf8)))
    let header = (received.firstIndex(of: 0x0A) ?? 0) + 1
    XCTAssertEqual(received.count, header + 3 * (6 + 40 * 30 * 3 / 2), "header and three frames")
    var info = stat()
    XCTAssertEqual(lstat(fifo, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
  }

  func testOutputThroughASymlinkWritesItsTargetAndKeepsTheLink() throws {
    let scene = try write("scene.json", simple)
    let link = path("link.png")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.png")
    let run = try lamina(["render", scene, "-o", link])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: link), "target.png",
      "the link is still a link")
    XCTAssertEqual(try CGImage.decode(fileAt: path("target.png")).width, 40)
    // Again, now that the target exists: replaced atomically, link kept.
    XCTAssertEqual(try lamina(["render", scene, "-o", link, "--scale", "2"]).status, 0)
    XCTAssertEqual(try CGImage.decode(fileAt: path("target.png")).width, 80)
    XCTAssertEqual(try leftovers(keeping: []), ["link.png", "scene.json", "target.png"])
  }

  // MARK: Messages

  func testAnOversizedCanvasNamesTheSceneFile() throws {
    let big = try write(
      "big.json",
      #"{"lamina": 1, "canvas": {"width": 16384, "height": 16384}, "root": {}}"#)
    let run = try lamina(["render", big, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: big.json: canvas: canvas pixels (width × height × scale²): 268435456, over the limit of 67108864 (maxCanvasPixels)\n"
    )
    let scene = try write("scene.json", simple)
    let scaled = try lamina(["render", scene, "-o", path("out.png"), "--scale", "0.01"])
    XCTAssertEqual(scaled.status, 1)
    XCTAssertEqual(
      scaled.stderr,
      "lamina: scene.json: canvas: expected a canvas at --scale 0.01 of at least 1×1 pixels, found 0.4×0.3 pixels\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["big.json", "scene.json"]), [])
  }

  /// Pango and GLib printed CRITICAL warnings on odd text while the render
  /// exited 0; fontconfig fallbacks were printed too. Now standard error is
  /// empty unless --verbose asks.
  func testOddTextRendersWithNothingOnStandardErrorUnlessVerbose() throws {
    let scene = try write(
      "text.json",
      """
      {"lamina": 1, "canvas": {"width": 120, "height": 60},
       "root": {"sublayers": [
         {"class": "CATextLayer", "frame": [0, 0, 120, 30], "string": "nul\\u0000in\\u0000text\\u202e\\u0301\\u0301",
          "font": "No Such Font Family", "fontSize": 12, "isWrapped": true, "truncationMode": "middle"},
         {"class": "CATextLayer", "frame": [0, 30, 120, 30], "string": "\\ufeff\\ufffd\\u200d", "font": "", "fontSize": 0}]}}
      """)
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 0, run.stderr)
    XCTAssertEqual(run.stderr, "")
    let verbose = try lamina(["render", scene, "-o", path("out.png"), "--verbose"])
    XCTAssertEqual(verbose.status, 0)
    XCTAssertTrue(
      verbose.stderr.contains("font 'No Such Font Family' is not installed"), verbose.stderr)
  }

  // MARK: Frame limits and the time budget

  func testAFrameOfTooManyOffscreenPassesIsRefusedBeforeDrawing() throws {
    // (Blurs: color filters over solid colors are drawn with no pass.)
    let blurred = Array(
      repeating:
        ##"{"frame": [1, 1, 4, 4], "backgroundColor": "#00ff00", "filters": [{"name": "CIGaussianBlur", "inputRadius": 1}]}"##,
      count: 1100
    ).joined(separator: ",")
    let scene = try write(
      "passes.json",
      #"{"lamina": 1, "canvas": {"width": 40, "height": 30}, "root": {"sublayers": [\#(blurred)]}}"#)
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: passes.json: frame at t=0 s: offscreen passes in one frame: more than 1024, over the limit of 1024 (maxOffscreenPasses); the largest pass is the filters of a layer at root.sublayers[0]\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["passes.json"]), [])
  }

  /// Many siblings with large blurred shadows took gigabytes: each shadow's
  /// blur canvas (its source and three sigmas around it) counts.
  func testAFrameOfTooManyOffscreenPixelsIsRefusedBeforeDrawing() throws {
    let shadowed = (0..<20).map {
      ##"{"frame": [\##(10 + $0), 10, 60, 40], "backgroundColor": "#ff0000", "shadowOpacity": 1, "shadowRadius": 500, "shadowPath": "M 0 0 L 60 0 L 30 40 Z"}"##
    }.joined(separator: ",")
    let scene = try write(
      "shadows.json",
      #"{"lamina": 1, "canvas": {"width": 400, "height": 300}, "root": {"sublayers": [\#(shadowed)]}}"#)
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: shadows.json: frame at t=0 s: pixels of offscreen targets in one frame: 187270000, over the limit of 134217728 (maxOffscreenPixels); the largest pass is the shadow of a layer (blurred offscreen) at root.sublayers[0]\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["shadows.json"]), [])
  }

  /// Sixty full-canvas layers of sixteen blurs each: every count within its
  /// limit, but a minute of GPU work. The filtered pixels of the frame
  /// (pixels × filter stages) are refused before drawing.
  func testAFrameOfTooMuchFilterWorkIsRefusedBeforeDrawing() throws {
    let blurs = Array(repeating: #"{"name": "CIGaussianBlur", "inputRadius": 2}"#, count: 16)
      .joined(separator: ",")
    let layers = Array(
      repeating: ##"{"frame": [0, 0, 1000, 1000], "backgroundColor": "#ff00ff", "filters": [\##(blurs)]}"##,
      count: 60
    ).joined(separator: ",")
    let scene = try write(
      "filters.json",
      #"{"lamina": 1, "canvas": {"width": 1000, "height": 1000}, "root": {"sublayers": [\#(layers)]}}"#
    )
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: filters.json: frame at t=0 s: filtered pixels in one frame (pixels × filter stages): 960000000, over the limit of 268435456 (maxFilteredPixels); the largest pass is the filters of a layer at root.sublayers[0]\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["filters.json"]), [])
  }

  /// 20,000 layers each covering a 2048 × 2048 canvas ran for the whole
  /// 20 s frame budget before they were refused; the frame's fill, counted
  /// from its plan, refuses it before drawing, naming the layer that costs
  /// most (all cost the same: the first).
  func testAFrameThatFillsTooManyPixelsIsRefusedBeforeDrawing() throws {
    let layers = Array(
      repeating: ##"{"frame": [0, 0, 2048, 2048], "backgroundColor": "#ff000080"}"##,
      count: 20_000
    ).joined(separator: ",")
    let scene = try write(
      "fill.json",
      #"{"lamina": 1, "canvas": {"width": 2048, "height": 2048}, "root": {"sublayers": [\#(layers)]}}"#
    )
    let started = Date()
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: fill.json: frame at t=0 s: pixels filled in one frame (pixels covered × passes and filter stages): 83886080000, over the limit of 8589934592 (maxFramePixelFill); the layer that costs most is root.sublayers[0] (4194304 pixels filled)\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["fill.json"]), [])
    // Loading and building 20,000 layers takes a few seconds in a debug
    // build on a loaded machine; drawing them took more than the 20 s budget.
    XCTAssertLessThan(Date().timeIntervalSince(started), 15)
  }

  /// Issue 41's scene: 1,000 layers a million points on a side on a 2048²
  /// canvas passed every count and were refused by the 20 s watchdog, 20 s
  /// later, naming no layer. Their predicted time (llvmpipe at one thread)
  /// refuses them before drawing, naming the layer that costs most.
  func testAFramePredictedPastTheTimeBudgetIsRefusedAtOnce() throws {
    let layers = Array(
      repeating: ##"{"frame": [0, 0, 1000000, 1000000], "backgroundColor": "#ff000080"}"##,
      count: 1000
    ).joined(separator: ",")
    let scene = try write(
      "million.json",
      #"{"lamina": 1, "canvas": {"width": 2048, "height": 2048}, "#
        + #""root": {"sublayers": [\#(layers)]}}"#)
    let started = Date()
    let run = try lamina(["render", scene, "-o", path("out.png")])
    XCTAssertEqual(run.status, 1)
    XCTAssertEqual(
      run.stderr,
      "lamina: million.json: frame at t=0 s: predicted seconds to draw one frame (llvmpipe at one thread): 37.8, over the limit of 20 (maxPredictedFrameSeconds); the layer that costs most is root.sublayers[0] (0.0378 s predicted)\n"
    )
    XCTAssertEqual(try leftovers(keeping: ["million.json"]), [])
    // 0.4 s measured for the whole run (a debug build); drawing took more
    // than the 20 s budget.
    XCTAssertLessThan(Date().timeIntervalSince(started), 5)
  }

  func testAFramePastItsTimeBudgetEndsTheRunAndLeavesNothing() throws {
    let scene = try write(
      "slow.json",
      """
      {"lamina": 1, "canvas": {"width": 1500, "height": 1500},
       "root": {"sublayers": [{"frame": [0, 0, 1500, 1500], "backgroundColor": "#336699",
         "filters": [{"name": "CIGaussianBlur", "inputRadius": 40}, {"name": "CIColorInvert"},
                     {"name": "CIGaussianBlur", "inputRadius": 40}]}]}}
      """)
    let run = try lamina(
      ["render", scene, "--frames", "0..50", "--video", path("out.y4m")],
      environment: ["LAMINA_FRAME_BUDGET": "0.001"])
    XCTAssertEqual(run.status, 1)
    // With the frame's prediction and its costliest layer, when the budget
    // ran out after the frame was checked (it usually has: building and
    // checking it take less than drawing it), else without.
    let message =
      "lamina: slow.json: frame 0 (t=0 s): seconds to draw one frame: more than 0.001, over the limit of 0.001 (frameTimeBudget)"
    XCTAssertTrue(
      [
        message + "\n",
        message
          + "; predicted 0.344 s, the layer that costs most is root.sublayers[0] (0.33 s predicted)\n",
      ].contains(run.stderr), run.stderr)
    XCTAssertEqual(try leftovers(keeping: ["slow.json"]), [])
  }

  func testAnInterruptedVideoLeavesNoTemporaryFile() throws {
    let scene = try write("scene.json", simple)
    let process = Process()
    process.executableURL = RenderTestSupport.laminaBinary
    process.arguments = ["render", scene, "--frames", "0..9999999", "--video", path("out.y4m")]
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait until the temporary file exists, then interrupt.
    let deadline = Date(timeIntervalSinceNow: 30)
    while Date() < deadline, try leftovers(keeping: ["scene.json"]).isEmpty {
      usleep(20_000)
    }
    XCTAssertFalse(try leftovers(keeping: ["scene.json"]).isEmpty, "the video was started")
    process.terminate()
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    XCTAssertEqual(try leftovers(keeping: ["scene.json"]), [])
  }
}
