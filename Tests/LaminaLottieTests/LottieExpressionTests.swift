import Foundation
import Lamina
import LaminaLottie
import LaminaTestSupport
import XCTest

/// Expressions evaluated in lamina-expr: each After Effects function on a
/// small document of its own, its value at three frames against the
/// formula worked out by hand; hostile expressions against the limits.
final class LottieExpressionTests: XCTestCase {
  typealias S = LottieTestSupport

  /// A document at 10 fps over frames 0..<30 whose layers are `layers`.
  func document(_ layers: String, extra: String = "") -> String {
    """
    {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "nm": "Main", "layers": [\(layers)]\(extra)}
    """
  }

  /// A null layer `name` (index `ind`) with transform `ks` (JSON members).
  func null(_ name: String, ind: Int = 1, ks: String, extra: String = "") -> String {
    """
    {"ty": 3, "nm": "\(name)", "ind": \(ind), "ip": 0, "op": 30, "st": 0, "ks": {\(ks)}\(extra)}
    """
  }

  /// A property with expression `x` over static value `k`.
  func expr(_ x: String, _ k: String = "[0, 0]") -> String {
    let quoted = String(data: try! JSONSerialization.data(withJSONObject: [x]), encoding: .utf8)!
      .dropFirst().dropLast()
    return #"{"a": 0, "k": \#(k), "x": \#(quoted)}"#
  }

  func options(_ policy: LottieExpressionPolicy = .evaluate) -> LottieOptions {
    var o = LottieOptions()
    o.expressions = policy
    return o
  }

  /// The position of layer `name` at each frame.
  func positions(_ a: LottieAnimation, _ name: String = "n", _ frames: [Double]) throws -> [CGPoint]
  {
    try frames.map { f in
      try XCTUnwrap(S.named(name, in: S.presentation(a, at: a.time(ofFrame: f)))).position
    }
  }

  /// X of layer n's position, evaluated from `x` over `k`, at frames 0, 10, 25.
  func xs(_ x: String, _ k: String = "[0, 0]", layers: String = "", frames: [Double] = [0, 10, 25])
    throws
    -> [Double]
  {
    let doc = document(
      (layers.isEmpty ? "" : layers + ",") + null("n", ind: 1, ks: #""p": \#(expr(x, k))"#))
    let a = try S.load(doc, options: options())
    XCTAssertTrue(a.unsupported.isEmpty, "\(a.unsupported)")
    return try positions(a, "n", frames).map { Double($0.x) }
  }

  func assertEqual(
    _ a: [Double], _ b: [Double], accuracy: Double = 1e-4, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) {
      XCTAssertEqual(x, y, accuracy: accuracy, "\(a) vs \(b)", file: file, line: line)
    }
  }

  // MARK: Time, value and keyframes

  func testTime() throws {
    // time is the composition's seconds: frame / 10.
    assertEqual(try xs("[time * 100, 0]"), [0, 100, 250])
  }

  func testValueIsTheKeyframedValue() throws {
    // Keys 0 → 0 and 20 → 200 (linear), plus 5 by expression.
    let k =
      #"[{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [200, 0]}]"#
    let doc = document(
      null(
        "n", ks: #""p": {"a": 1, "k": \#(k), "x": "var $bm_rt; $bm_rt = $bm_sum(value, [5, 0]);"}"#)
    )
    let a = try S.load(doc, options: options())
    assertEqual(try positions(a, "n", [0, 10, 25]).map { Double($0.x) }, [5, 105, 205])
  }

  func testValueAtTimeAndVelocityAtTime() throws {
    let k =
      #"[{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [200, 0]}]"#
    let lag = null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "valueAtTime(time - 0.5)"}"#)
    let a = try S.load(document(lag), options: options())
    // Half a second (5 frames) behind, clamped before the first key.
    assertEqual(try positions(a, "n", [0, 10, 25]).map { Double($0.x) }, [0, 50, 200])
    // 10 units a frame = 100 a second while it moves, 0 after.
    let v = null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "[velocityAtTime(time)[0], 0]"}"#)
    let b = try S.load(document(v), options: options())
    assertEqual(
      try positions(b, "n", [0, 10, 25]).map { Double($0.x) }, [100, 100, 0], accuracy: 1e-3)
  }

  func testSmoothAndTemporalWiggle() throws {
    // Keys 0 → 0 and 20 → 200, linear: smooth(0.2, 5) averages frames
    // f − 1, f − ½, f, f + ½, f + 1 (clamped to the keys).
    let k =
      #"[{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [200, 0]}]"#
    let doc = document(null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "smooth(0.2, 5)"}"#))
    let a = try S.load(doc, options: options())
    assertEqual(try positions(a, "n", [0, 10, 20]).map { Double($0.x) }, [3, 100, 197])
    // temporalWiggle(2, 0.3): the value at most 0.3 s (3 frames) away.
    let w = document(null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "temporalWiggle(2, 0.3)"}"#))
    let b = try S.load(w, options: options())
    let xs = try positions(b, "n", [5, 10, 15]).map { Double($0.x) }
    for (x, frame) in zip(xs, [5.0, 10, 15]) {
      XCTAssertLessThanOrEqual(abs(x - frame * 10), 30 + 1e-6, "frame \(frame)")
    }
    XCTAssertNotEqual(xs, [50, 100, 150])
  }

  // MARK: Loops

  /// Keys at 0 (0), 5 (50), 10 (0), linear.
  let triangle =
    #"[{"t": 0, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 5, "s": [50, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 10, "s": [20, 0]}]"#

  func loopXs(_ x: String, frames: [Double]) throws -> [Double] {
    let doc = document(null("n", ks: #""p": {"a": 1, "k": \#(triangle), "x": "\#(x)"}"#))
    return try positions(try S.load(doc, options: options()), "n", frames).map { Double($0.x) }
  }

  func testLoopOutCycle() throws {
    // Frame 12 = 2 into the cycle: 20; 17 = 7 in: 50 - 30 * 2/5 = 38; 23 = 3 in: 30.
    assertEqual(try loopXs("loopOut('cycle')", frames: [12, 17, 23]), [20, 38, 30])
  }

  func testLoopOutPingpong() throws {
    // 12: 2 back from the end: 50 - 30 * 3/5 = 32; 17: 7 back = key at 3: 30; 23: forward 3: 30.
    assertEqual(try loopXs("loopOut('pingpong')", frames: [12, 17, 22]), [32, 30, 20])
  }

  func testLoopOutOffset() throws {
    // Each cycle adds last − first = 20: 12 → 20 + 20 = 40; 17 → 38 + 20 = 58; 23 → 30 + 40 = 70.
    assertEqual(try loopXs("loopOut('offset')", frames: [12, 17, 23]), [40, 58, 70])
  }

  func testLoopOutContinue() throws {
    // The last segment's velocity (−6 a frame) goes on: 20 − 6 × 2, × 7, × 15.
    assertEqual(
      try loopXs("loopOut('continue')", frames: [12, 17, 25]), [8, -22, -70], accuracy: 1e-3)
  }

  func testLoopOutOverLastKeysAndDuration() throws {
    // loopOut('cycle', 1): the last segment only (5 → 10): 12 → 2 in: 50 − 12 = 38.
    assertEqual(try loopXs("loopOut('cycle', 1)", frames: [12, 16, 21]), [38, 44, 44])
    // loopOutDuration('cycle', 0.5): the last 5 frames, the same segment.
    assertEqual(try loopXs("loopOutDuration('cycle', 0.5)", frames: [12, 16, 21]), [38, 44, 44])
  }

  func testLoopIn() throws {
    // Keys moved to 10, 15, 20 by a layer that starts before them.
    let k =
      #"[{"t": 10, "s": [0, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 15, "s": [50, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [20, 0]}]"#
    let doc = document(null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "loopIn('cycle')"}"#))
    let a = try S.load(doc, options: options())
    // Frame 2 = 2 into the cycle that ends at 10: 20; 7 → 2 into the second half: 38; 12 (after): 20.
    assertEqual(try positions(a, "n", [2, 7, 12]).map { Double($0.x) }, [20, 38, 20])
    let d = document(
      null("n", ks: #""p": {"a": 1, "k": \#(k), "x": "loopInDuration('pingpong', 0.5)"}"#))
    let b = try S.load(d, options: options())
    // Over the first 5 frames, mirrored: frame 8 = 2 before: key value at 12 = 20; 3 → 7 before: 3 in from 10: 30.
    assertEqual(try positions(b, "n", [8, 3, 10]).map { Double($0.x) }, [20, 30, 0])
  }

  // MARK: Interpolation

  /// y at x on the cubic (0,0) (x1,y1) (x2,y2) (1,1), by bisection.
  func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ u: Double) -> Double {
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<80 {
      let t = (lo + hi) / 2
      let x = 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t
      if x < u { lo = t } else { hi = t }
    }
    let t = (lo + hi) / 2
    return 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t
  }

  func testLinear() throws {
    // linear(time, 0.5, 2, 10, 160): 10 before 0.5 s, 10 + 150 (t − 0.5)/1.5, 160 after 2 s.
    assertEqual(try xs("[linear(time, 0.5, 2, 10, 160), 0]"), [10, 60, 160])
    // The three-argument form over [0, 1].
    assertEqual(try xs("[linear(time / 2, 0, 100), 0]", frames: [0, 10, 20]), [0, 50, 100])
  }

  func testEaseEaseInEaseOut() throws {
    // After Effects' curves as lottie-web gives them.
    for (name, c) in [
      ("ease", (0.33, 0.0, 0.667, 1.0)), ("easeIn", (0.333, 0.0, 0.833, 0.833)),
      ("easeOut", (0.167, 0.167, 0.667, 1.0)),
    ] {
      let got = try xs("[\(name)(time, 0, 2, 0, 100), 0]", frames: [4, 10, 15])
      let want = [0.2, 0.5, 0.75].map { 100 * bezier(c.0, c.1, c.2, c.3, $0) }
      assertEqual(got, want, accuracy: 1e-3)
    }
  }

  // MARK: Other layers and effects

  func testThisCompLayerTransform() throws {
    // Layer "A" moves 0 → 200 over frames 0–20; n follows its position
    // (by name) and its rotation (by index), offset.
    let k =
      #"[{"t": 0, "s": [0, 30], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [200, 30]}]"#
    let leader = null("A", ind: 2, ks: #""p": {"a": 1, "k": \#(k)}, "r": {"a": 0, "k": 45}"#)
    let x =
      "var $bm_rt; $bm_rt = $bm_sum(thisComp.layer('A').transform.position, [thisComp.layer(2).transform.rotation, 0]);"
    let doc = document(null("n", ind: 1, ks: #""p": \#(expr(x))"#) + "," + leader)
    let a = try S.load(doc, options: options())
    let p = try positions(a, "n", [0, 10, 25])
    assertEqual(p.map { Double($0.x) }, [45, 145, 245])
    assertEqual(p.map { Double($0.y) }, [30, 30, 30])
  }

  func testLayerFollowsAnotherLayersExpression() throws {
    // B's position is itself an expression (time × 100); n reads B's value.
    let b = null("B", ind: 2, ks: #""p": \#(expr("[time * 100, 0]"))"#)
    assertEqual(try xs("thisComp.layer('B').position.value", layers: b), [0, 100, 250])
  }

  func testEffectSlider() throws {
    let slider = #"""
      , "ef": [{"ty": 5, "nm": "Speed", "mn": "ADBE Slider Control", "ef": [
        {"ty": 0, "nm": "Slider", "mn": "ADBE Slider Control-0001", "v": {"a": 0, "k": 40}}]}]
      """#
    let doc = document(
      null(
        "n",
        ks:
          #""p": \#(expr("[effect('Speed')('Slider') * time, thisLayer.effect('Speed')(1).value]"))"#,
        extra: slider))
    let a = try S.load(doc, options: options())
    // An expression control draws nothing: not reported.
    XCTAssertEqual(a.unsupported, [])
    let p = try positions(a, "n", [0, 10, 25])
    assertEqual(p.map { Double($0.x) }, [0, 40, 100])
    assertEqual(p.map { Double($0.y) }, [40, 40, 40])
  }

  func testIndexAndCompFunctions() throws {
    // index, thisComp.width, framesToTime, timeToFrames, comp(name).
    let x =
      "[index * 10 + thisComp.width + comp('Main').height, framesToTime(timeToFrames(time) * 2)]"
    let doc = document(null("n", ind: 3, ks: #""p": \#(expr(x))"#))
    let a = try S.load(doc, options: options())
    let p = try positions(a, "n", [0, 10, 25])
    assertEqual(p.map { Double($0.x) }, [230, 230, 230])
    assertEqual(p.map { Double($0.y) }, [0, 2, 5])
  }

  // MARK: Vector math, $bm_ helpers, Math

  func testVectorMath() throws {
    let x = """
      var a = [3, 4]; var b = add(a, [1, 1]); var c = sub(b, [2, 2]); var d = mul(c, time * 10);
      var e = div(d, 2); [length(a) + length([0, 0], [6, 8]) + e[0], normalize(a)[1] + clamp(time * 10, 2, 20)]
      """
    let doc = document(null("n", ks: #""p": \#(expr(x))"#))
    let p = try positions(try S.load(doc, options: options()), "n", [0, 10, 25])
    // length 5 + 10 + (2 × frame / 2); 0.8 + frame clamped to [2, 20].
    assertEqual(p.map { Double($0.x) }, [15, 25, 40])
    assertEqual(p.map { Double($0.y) }, [2.8, 10.8, 20.8])
  }

  func testBodymovinHelpers() throws {
    let x = """
      var $bm_rt; var s = $bm_mul([2, 4], 3);
      $bm_rt = $bm_sub($bm_div($bm_sum(s, [time, 0]), 2), [0, $bm_mod(7, 4)]);
      """
    let p = try positions(
      try S.load(document(null("n", ks: #""p": \#(expr(x))"#)), options: options()), "n",
      [0, 10, 25])
    assertEqual(p.map { Double($0.x) }, [3, 3.5, 4.25])
    assertEqual(p.map { Double($0.y) }, [3, 3, 3])
  }

  func testPosterizeTime() throws {
    // Two steps a second: frames 0–4 read time 0, 5–9 0.5, 25 2.5 s; a
    // wiggle posterized holds its value over each step.
    assertEqual(try xs("posterizeTime(2); [time * 100, 0]", frames: [4, 7, 25]), [0, 50, 250])
    let held = try xs("posterizeTime(2); wiggle(3, 20)", "[50, 50]", frames: [5, 6, 9])
    XCTAssertEqual(Set(held).count, 1, "\(held)")
  }

  func testMath() throws {
    assertEqual(
      try xs("[Math.sin(time * Math.PI / 2) * 100 + Math.max(1, 2) + Math.round(2.6), 0]"),
      [5, 105, 5 + 100 * sin(2.5 * .pi / 2)])
  }

  // MARK: Randomness, deterministic

  func testWiggleIsDeterministicAndBounded() throws {
    let doc = document(null("n", ks: #""p": \#(expr("wiggle(3, 20)", "[50, 50]"))"#))
    let frames = Array(stride(from: 0.0, to: 30, by: 1))
    let a = try positions(try S.load(doc, options: options()), "n", frames)
    let b = try positions(try S.load(doc, options: options()), "n", frames)
    XCTAssertEqual(a, b)
    for p in a {
      XCTAssertLessThanOrEqual(abs(p.x - 50), 20)
      XCTAssertLessThanOrEqual(abs(p.y - 50), 20)
    }
    // It moves, and x and y move apart.
    XCTAssertGreaterThan(Set(a.map(\.x)).count, 20)
    XCTAssertNotEqual(a.map(\.x), a.map(\.y))
    // With one octave at the knots (t × freq whole) it stays within amp;
    // with two octaves at most amp × 1.5.
    let two = document(null("n", ks: #""p": \#(expr("wiggle(2, 10, 2, 0.5)", "[50, 50]"))"#))
    for p in try positions(try S.load(two, options: options()), "n", frames) {
      XCTAssertLessThanOrEqual(abs(p.x - 50), 15)
    }
  }

  func testRandomSeeded() throws {
    let x = "seedRandom(5, true); [random(10, 20), gaussRandom(100, 200)]"
    let doc = document(null("n", ks: #""p": \#(expr(x))"#))
    let p = try positions(try S.load(doc, options: options()), "n", [0, 10, 25])
    // Timeless: one value at every frame, within the range.
    XCTAssertEqual(Set(p.map(\.x)).count, 1)
    XCTAssertTrue((10..<20).contains(p[0].x))
    // Without timeless, each frame its own value, the same on every load.
    let y = "[random(), random([5, 5])[1]]"
    let d2 = document(null("n", ks: #""p": \#(expr(y))"#))
    let q1 = try positions(try S.load(d2, options: options()), "n", [0, 10, 25])
    let q2 = try positions(try S.load(d2, options: options()), "n", [0, 10, 25])
    XCTAssertEqual(q1, q2)
    XCTAssertEqual(Set(q1.map(\.x)).count, 3)
    for q in q1 {
      XCTAssertTrue((0..<1).contains(q.x))
      XCTAssertTrue((0..<5).contains(q.y))
    }
  }

  // MARK: The sandbox and its limits

  func testNoClockNoHostObjects() throws {
    let x = """
      [typeof Date == 'undefined' && typeof performance == 'undefined' && typeof Duktape == 'undefined'
       && typeof require == 'undefined' && typeof process == 'undefined' ? 1 : 0, 0]
      """
    assertEqual(try xs(x), [1, 1, 1])
  }

  func hostile(
    _ x: String, cpu: Int = 1, memory: Int = 64 << 20, policy: LottieExpressionPolicy = .evaluate
  )
    throws -> (String, TimeInterval)
  {
    var o = options(policy)
    o.limits.expressionCPUSeconds = cpu
    o.limits.expressionMemoryBytes = memory
    o.limits.expressionWallSeconds = 20
    let doc = document(null("n", ks: #""p": \#(expr(x))"#))
    let start = Date()
    let message = S.error(doc, options: o)
    return (message, Date().timeIntervalSince(start))
  }

  /// The child as the kernel sees it while an expression runs: seccomp
  /// filter on, no new privileges, an empty environment, `/` as its folder,
  /// only its socket and /dev/null open, no processes, the limits set.
  func testTheHelperRunsConfined() throws {
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      _ = try? self.hostile("while (true) {}", cpu: 2)
      done.signal()
    }
    defer { done.wait() }
    let me = getpid()
    var child: String?
    for _ in 0..<1000 where child == nil {
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
      where Int(entry) != nil {
        guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
          stat.contains("(lamina-expr)"),
          let close = stat.lastIndex(of: ")"),
          let ppid = stat[stat.index(close, offsetBy: 2)...].split(separator: " ").dropFirst()
            .first,
          Int32(ppid) == me
        else { continue }
        child = entry
      }
      if child == nil { usleep(10_000) }
    }
    let pid = try XCTUnwrap(child, "no lamina-expr child seen")
    // Seen right after its exec, the child may not have confined itself
    // yet (a loaded machine); it does before it reads anything, so wait
    // for its filter (up to 10 s) before reading the rest.
    var status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    for _ in 0..<1000 where !status.contains("Seccomp:\t2") {
      usleep(10_000)
      status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    }
    XCTAssertTrue(status.contains("Seccomp:\t2"), status)
    XCTAssertTrue(status.contains("NoNewPrivs:\t1"), status)
    let environment = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ"))
    XCTAssertEqual(environment.count, 0)
    XCTAssertEqual(
      try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/cwd"), "/")
    let fds = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").sorted()
    XCTAssertEqual(fds, ["1", "2"])
    let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
    XCTAssertTrue(
      limits.split(separator: "\n").contains {
        $0.hasPrefix("Max cpu time")
          && $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first == "2"
      }, limits)
    XCTAssertTrue(
      limits.split(separator: "\n").contains {
        $0.hasPrefix("Max address space") && $0.contains("\(64 << 20)")
      }, limits)
  }

  func testEndlessLoopEndsAtItsCPULimit() throws {
    let (message, seconds) = try hostile("while (true) {}")
    XCTAssertTrue(message.contains("test.json: layers[0].ks.p.x: expression:"), message)
    XCTAssertTrue(message.contains("CPU time limit (1 s)"), message)
    XCTAssertLessThan(seconds, 10)
  }

  func testDeepRecursionEnds() throws {
    let (message, _) = try hostile("function f(n) { return f(n + 1) + 1; } f(0)")
    XCTAssertTrue(message.contains("layers[0].ks.p.x: expression:"), message)
    XCTAssertTrue(message.contains("RangeError"), message)
  }

  func testHugeAllocationEndsAtItsMemoryLimit() throws {
    let (message, _) = try hostile("var s = 'x'; while (true) s = s + s;", cpu: 5)
    XCTAssertTrue(message.contains("layers[0].ks.p.x: expression:"), message)
    XCTAssertTrue(message.contains("memory limit (64 MiB)"), message)
  }

  func testErrorsNameThePath() throws {
    XCTAssertTrue(try hostile("[1, ").0.contains("layers[0].ks.p.x: expression: SyntaxError"))
    XCTAssertTrue(
      try hostile("[0/0, 0]").0.contains(
        "layers[0].ks.p.x: expression: TypeError: the expression gives NaN"))
    XCTAssertTrue(try hostile("thisComp.layer('nope').position").0.contains("no layer \"nope\""))
  }

  func testFallBackKeepsTheKeyframedValueWithAWarning() throws {
    var o = options(.fallBack)
    o.limits.expressionCPUSeconds = 1
    // The endless one falls back; the batch runs again for the other.
    let doc = document(
      null("n", ind: 1, ks: #""p": \#(expr("while (true) {}", "[7, 8]"))"#) + ","
        + null("m", ind: 2, ks: #""p": \#(expr("[time * 100, 0]"))"#))
    let a = try S.load(doc, options: o)
    XCTAssertEqual(try positions(a, "n", [0, 10]), [CGPoint(x: 7, y: 8), CGPoint(x: 7, y: 8)])
    assertEqual(try positions(a, "m", [0, 10, 25]).map { Double($0.x) }, [0, 100, 250])
    XCTAssertEqual(a.unsupported.map(\.path), ["layers[0].ks.p.x"])
    XCTAssertTrue(a.unsupported[0].feature.contains("CPU time limit"), a.unsupported[0].feature)
  }

  /// Falling back reruns the batch without the culprit, all runs within
  /// the one wall-clock limit: three endless loops do not take three times it.
  func testFallBackRunsStayWithinTheWallClockLimit() throws {
    var o = options(.fallBack)
    o.limits.expressionCPUSeconds = 1
    o.limits.expressionWallSeconds = 2.5
    let layers = (1...3).map { i in
      null("n\(i)", ind: i, ks: #""p": \#(expr("for (;;) {}", "[7, 8]"))"#)
    }
    let start = Date()
    let a = try S.load(document(layers.joined(separator: ",")), options: o)
    // The limit and the time to load the rest (a loaded machine: margin).
    XCTAssertLessThan(Date().timeIntervalSince(start), 6)
    XCTAssertEqual(a.unsupported.count, 3)
    // Each stopped by its CPU limit or by what was left of the wall clock;
    // the last always by the wall clock (1 s of CPU each does not fit 3 in 2.5 s).
    XCTAssertTrue(a.unsupported.allSatisfy { $0.feature.contains("limit (") }, "\(a.unsupported)")
    XCTAssertTrue(
      a.unsupported.contains { $0.feature.contains("wall-clock limit (2.5 s)") }, "\(a.unsupported)"
    )
    XCTAssertEqual(try positions(a, "n3", [10]), [CGPoint(x: 7, y: 8)])
  }

  /// Values out of range: an error naming the path, or with `.fallBack`
  /// the keyframed value and a report.
  func testOutOfRangeValues() throws {
    let doc = document(null("n", ks: #""p": \#(expr("[1e12, 0]", "[7, 8]"))"#))
    let message = S.error(doc, options: options())
    XCTAssertTrue(
      message.hasPrefix(
        "test.json: layers[0].ks.p.x: expression: gives 1000000000000.0 at frame 0.0, out of range"),
      message)
    let a = try S.load(doc, options: options(.fallBack))
    XCTAssertEqual(try positions(a, "n", [10]), [CGPoint(x: 7, y: 8)])
    XCTAssertEqual(a.unsupported.map(\.path), ["layers[0].ks.p.x"])
    XCTAssertTrue(a.unsupported[0].feature.contains("out of range"), a.unsupported[0].feature)
  }

  func testKeyframedPolicyRunsNothing() throws {
    let doc = document(null("n", ks: #""p": \#(expr("while (true) {}", "[7, 8]"))"#))
    let a = try S.load(doc, options: options(.keyframed))
    XCTAssertEqual(try positions(a, "n", [10]), [CGPoint(x: 7, y: 8)])
    XCTAssertEqual(
      a.unsupported, [LottieUnsupported(feature: "expression", path: "layers[0].ks.p.x")])
  }
}

/// Expressions inside precompositions and batches.
final class LottieExpressionPrecompTests: XCTestCase {
  typealias S = LottieTestSupport

  /// An expression of a composition asset runs in the asset's time and
  /// sees the asset as thisComp; three uses share one evaluation.
  func testPrecompositionExpression() throws {
    let assets = """
      [{"id": "a", "nm": "Inner", "w": 40, "h": 40, "layers": [{"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 60, "st": 0,
        "ks": {"p": {"a": 0, "k": [0, 0], "x": "[time * 60, thisComp.width + (thisComp.name == 'Inner' ? 1 : 0)]"}}}]}]
      """
    let use =
      #"{"ty": 0, "nm": "use", "refId": "a", "w": 100, "h": 100, "ip": 0, "op": 60, "st": 0, "ks": {}}"#
    let a = try S.load(S.document(layers: "[\(use), \(use), \(use)]", assets: assets))
    XCTAssertEqual(a.unsupported, [])
    for frame in [0.0, 15, 30] {
      let shown = S.all(S.presentation(a, at: a.time(ofFrame: frame))).filter { $0.name == "n" }
      XCTAssertEqual(shown.count, 3)
      for n in shown {
        XCTAssertEqual(Double(n.position.x), frame, accuracy: 1e-6)
        XCTAssertEqual(Double(n.position.y), 41, accuracy: 1e-6)
      }
    }
  }

  /// Many expressions of one document: one batch, every value right.
  func testManyExpressionsInOneDocument() throws {
    let layers = (1...40).map { i in
      """
      {"ty": 3, "nm": "n\(i)", "ind": \(i), "ip": 0, "op": 60, "st": 0,
       "ks": {"p": {"a": 0, "k": [0, 0], "x": "[index * 2 + time * 60, 0]"}, "o": {"a": 0, "k": 100, "x": "50 + index"}}}
      """
    }.joined(separator: ",")
    let a = try S.load(S.document(layers: "[\(layers)]"))
    let p = S.presentation(a, at: a.time(ofFrame: 12))
    for i in [1, 17, 40] {
      let n = try XCTUnwrap(S.named("n\(i)", in: p))
      XCTAssertEqual(Double(n.position.x), Double(i * 2 + 12), accuracy: 1e-6)
      XCTAssertEqual(Double(n.opacity), Double(50 + i) / 100, accuracy: 1e-6)
    }
  }
}

/// The property tree real files address: groups by name, match name and
/// index, `content`, `propertyGroup`, `toComp`.
final class LottieExpressionTreeTests: XCTestCase {
  typealias S = LottieTestSupport

  func testShapeGroupsByNameMatchNameAndIndex() throws {
    // A rectangle of size [40, 30] animated to [80, 30] over frames 0–20,
    // in group "G"; layer n reads it three ways.
    let size =
      #"{"a": 1, "k": [{"t": 0, "s": [40, 30], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [80, 30]}], "ix": 2}"#
    let shapes = #"""
      [{"ty": "gr", "nm": "G", "ix": 1, "it": [
        {"ty": "rc", "nm": "Box", "ix": 1, "s": \#(size), "p": {"a": 0, "k": [0, 0], "ix": 3}, "r": {"a": 0, "k": 0, "ix": 4}},
        {"ty": "tr", "p": {"a": 0, "k": [5, 6], "ix": 2}, "a": {"a": 0, "k": [0, 0], "ix": 1},
         "s": {"a": 0, "k": [100, 100], "ix": 3}, "r": {"a": 0, "k": 30, "ix": 6}, "o": {"a": 0, "k": 100, "ix": 7}}]}]
      """#
    let shapeLayer =
      #"{"ty": 4, "nm": "S", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": \#(shapes)}"#
    let x = """
      var $bm_rt; var L = thisComp.layer('S');
      $bm_rt = [L.content('G').content('Box').size[0] + L(2)('G')(2)('Box')('ADBE Vector Rect Size')[1],
        L.content('G').transform.rotation + L('ADBE Root Vectors Group')('G')('ADBE Vector Transform Group')(2)[1]];
      """
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0], "x": \(quoted(x))}}},
        \(shapeLayer)]}
      """
    let a = try S.load(doc)
    for (frame, width) in [(0.0, 40.0), (10, 60), (25, 80)] {
      let n = try XCTUnwrap(S.named("n", in: S.presentation(a, at: a.time(ofFrame: frame))))
      XCTAssertEqual(Double(n.position.x), width + 30, accuracy: 1e-6, "frame \(frame)")
      XCTAssertEqual(Double(n.position.y), 36, accuracy: 1e-6, "frame \(frame)")
    }
  }

  func testPropertyGroupAndPropertyIndex() throws {
    // The rectangle's position is half its size plus its value (a common
    // exported rig): propertyGroup(1) is the rectangle, (2) its size.
    let shapes = #"""
      [{"ty": "rc", "nm": "Box", "ix": 1,
        "s": {"a": 1, "k": [{"t": 0, "s": [40, 20], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [80, 20]}], "ix": 2},
        "p": {"a": 0, "k": [1, 2], "ix": 3, "x": "var $bm_rt; $bm_rt = sum(div(thisProperty.propertyGroup(1)(2), 2), [value[0], thisProperty.propertyIndex]);"},
        "r": {"a": 0, "k": 0, "ix": 4}}, {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]
      """#
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 4, "nm": "S", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": \(shapes)}]}
      """
    let a = try S.load(doc)
    XCTAssertEqual(a.unsupported, [])
    // The rectangle is centred at its position: its box's x origin is
    // position.x − width / 2 = (width / 2 + 1) − width / 2 = 1 at every frame,
    // and its y origin (10 + 3) − 10 = 3.
    for frame in [0.0, 10, 25] {
      let shape = try XCTUnwrap(
        S.first(CAShapeLayer.self, in: S.presentation(a, at: a.time(ofFrame: frame))))
      let box = try XCTUnwrap(shape.path?.boundingBoxOfPath)
      XCTAssertEqual(Double(box.minX), 1, accuracy: 1e-4, "frame \(frame)")
      XCTAssertEqual(Double(box.minY), 3, accuracy: 1e-4, "frame \(frame)")
      XCTAssertEqual(Double(box.width), [0.0: 40.0, 10: 60, 25: 80][frame]!, accuracy: 1e-4)
    }
  }

  func testToCompAndFromComp() throws {
    // P: position [50, 50], rotation 90, scale 200 %, anchor [10, 0].
    // C (child of P): position [5, 0]. C's [1, 0] in the composition:
    // in P: [6, 0]; − anchor [−4, 0]; × 2 [−8, 0]; rotated 90° (y down) [0, −8]; + [50, 50] = [50, 42].
    let p =
      #"{"ty": 3, "nm": "P", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 90}, "s": {"a": 0, "k": [200, 200]}, "a": {"a": 0, "k": [10, 0]}}}"#
    let c =
      #"{"ty": 3, "nm": "C", "ind": 2, "parent": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [5, 0]}}}"#
    let x =
      "var $bm_rt; var c = thisComp.layer('C'); var q = c.toComp([1, 0]); var back = c.fromComp(q); $bm_rt = [q[0] * 1000 + q[1], back[0] * 1000 + time];"
    let n =
      #"{"ty": 3, "nm": "n", "ind": 3, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0], "x": \#(quoted(x))}}}"#
    let a = try S.load(
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [\#(n), \#(c), \#(p)]}"#
    )
    for frame in [0.0, 10, 25] {
      let shown = try XCTUnwrap(S.named("n", in: S.presentation(a, at: a.time(ofFrame: frame))))
      XCTAssertEqual(Double(shown.position.x), 50_042, accuracy: 1e-3)
      XCTAssertEqual(Double(shown.position.y), 1000 + frame / 10, accuracy: 1e-3)
    }
  }

  /// A Layer Control parameter is the layer it names; layer methods are
  /// callable bare (`toComp`, `fromComp`).
  func testLayerControlAndBareLayerMethods() throws {
    let target =
      #"{"ty": 3, "nm": "T", "ind": 7, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 10], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [40, 10]}]}}}"#
    let control =
      #", "ef": [{"ty": 5, "nm": "Target", "mn": "ADBE Layer Control", "ef": [{"ty": 10, "nm": "Layer", "mn": "ADBE Layer Control-0001", "v": {"a": 0, "k": 7}}]}]"#
    let x = "var l = effect('Target')('ADBE Layer Control-0001'); fromComp(l.toComp(l.anchorPoint))"
    let n =
      #"{"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [5, 5], "x": \#(quoted(x))}}\#(control)}"#
    let a = try S.load(
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [\#(n), \#(target)]}"#
    )
    XCTAssertEqual(a.unsupported, [])
    // T's anchor in the composition is T's position; into n's space: − n's position [5, 5].
    for (frame, x) in [(0.0, -5.0), (10, 15), (25, 35)] {
      let shown = try XCTUnwrap(S.named("n", in: S.presentation(a, at: a.time(ofFrame: frame))))
      XCTAssertEqual(Double(shown.position.x), x, accuracy: 1e-4, "frame \(frame)")
      XCTAssertEqual(Double(shown.position.y), 5, accuracy: 1e-4, "frame \(frame)")
    }
  }

  /// A layer's width and height (a precomposition's, a solid's) and its
  /// masks by name, index or match name.
  func testLayerSizeAndMasks() throws {
    let square =
      #"{"v": [[0, 0], [10, 0], [10, 10]], "i": [[0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0]], "c": true}"#
    let mask =
      #"{"nm": "Cut", "mode": "a", "pt": {"a": 0, "k": \#(square)}, "o": {"a": 0, "k": 80}, "x": {"a": 1, "k": [{"t": 0, "s": [0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": [20]}]}}"#
    let solid =
      ##"{"ty": 1, "nm": "M", "ind": 2, "ip": 0, "op": 30, "st": 0, "sw": 40, "sh": 30, "sc": "#ff0000", "ks": {}, "masksProperties": [\##(mask)]}"##
    let x = """
      var m = thisComp.layer('M');
      [m.width * 100 + m.height, m.mask('Cut').maskExpansion + m.mask(1)('ADBE Mask Opacity') + thisComp.layer('M').mask(1).maskPath.points()[1][0]]
      """
    let n =
      #"{"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0], "x": \#(quoted(x))}}}"#
    let a = try S.load(
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [\#(n), \#(solid)]}"#
    )
    XCTAssertEqual(a.unsupported, [])
    for (frame, expansion) in [(0.0, 0.0), (10, 10), (25, 20)] {
      let shown = try XCTUnwrap(S.named("n", in: S.presentation(a, at: a.time(ofFrame: frame))))
      XCTAssertEqual(Double(shown.position.x), 4030, accuracy: 1e-6)
      XCTAssertEqual(
        Double(shown.position.y), expansion + 80 + 10, accuracy: 1e-6, "frame \(frame)")
    }
  }

  func quoted(_ s: String) -> String {
    String(data: try! JSONSerialization.data(withJSONObject: [s]), encoding: .utf8)!.dropFirst()
      .dropLast().description
  }
}

/// The limits of expressions that are checked before anything runs.
final class LottieExpressionLimitTests: XCTestCase {
  typealias S = LottieTestSupport

  func testExpressionSourceLimit() throws {
    var o = LottieOptions()
    o.limits.maxExpressionBytes = 100
    let long = String(repeating: "1+", count: 60) + "1"
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"o": {"a": 0, "k": 100, "x": "\(long)"}}}]}
      """
    let message = S.error(doc, options: o)
    XCTAssertTrue(
      message.hasPrefix("test.json: layers[0].ks.o.x: bytes of one expression: 121"), message)
    XCTAssertTrue(message.contains("maxExpressionBytes"), message)
  }

  func testOutputLimitStopsTheBatch() throws {
    var o = LottieOptions()
    o.limits.maxExpressionOutputBytes = 1000
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 300, "w": 100, "h": 100, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 300, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0], "x": "[time * 1.2345678, time / 7]"}}}]}
      """
    let message = S.error(doc, options: o)
    XCTAssertTrue(
      message.contains("layers[0].ks.p.x: expression: wrote more than 1000 bytes of values"),
      message)
  }

  /// What expressions can read goes to the engine sampled once a frame:
  /// counted against `maxSampledValues` before anything runs (many long
  /// keyframed layers and one expression).
  func testTheValuesSentAreBudgeted() throws {
    var o = LottieOptions()
    o.limits.maxSampledValues = 20_000
    let layers = (1...10).map { i in
      #"{"ty": 3, "nm": "l\#(i)", "ind": \#(i + 1), "ip": 0, "op": 30, "st": 0, "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 4000, "s": [360]}]}}}"#
    }.joined(separator: ",")
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"o": {"a": 0, "k": 100, "x": "50"}}}, \(layers)]}
      """
    let message = S.error(doc, options: o)
    XCTAssertTrue(message.contains(".ks.r: values sampled from keyframes"), message)
    XCTAssertTrue(message.contains("maxSampledValues"), message)
  }

  func testAMissingHelperIsAClearError() throws {
    var o = LottieOptions()
    o.expressionHelper = URL(fileURLWithPath: "/nonexistent/lamina-expr")
    let doc = """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"o": {"a": 0, "k": 100, "x": "50"}}}]}
      """
    let message = S.error(doc, options: o)
    XCTAssertTrue(message.hasPrefix("test.json: layers[0].ks.o.x: expression:"), message)
    XCTAssertTrue(message.contains("lamina-expr was not found"), message)
  }
}

/// Expressions on paths and path functions.
final class LottieExpressionPathTests: XCTestCase {
  typealias S = LottieTestSupport

  /// Path "Source" (a square of side 10 growing to 30 over frames 0–20);
  /// "Copy"'s path is an expression over it.
  func document(_ copy: String, extraLayers: String = "") -> String {
    let square = { (s: Int) in
      #"[{"v": [[0, 0], [\#(s), 0], [\#(s), \#(s)], [0, \#(s)]], "i": [[0, 0], [0, 0], [0, 0], [0, 0]], "o": [[0, 0], [0, 0], [0, 0], [0, 0]], "c": true}]"#
    }
    let source =
      #"{"a": 1, "k": [{"t": 0, "s": \#(square(10)), "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 20, "s": \#(square(30))}]}"#
    let quoted = String(data: try! JSONSerialization.data(withJSONObject: [copy]), encoding: .utf8)!
      .dropFirst().dropLast()
    let fill = #"{"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}"#
    return """
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [
        {"ty": 4, "nm": "Copy", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {},
         "shapes": [{"ty": "sh", "nm": "Path 1", "ks": {"a": 0, "k": \(square(1).dropFirst().dropLast()), "x": \(quoted)}}, \(fill)]},
        {"ty": 4, "nm": "Source", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {},
         "shapes": [{"ty": "gr", "nm": "Shape 1", "it": [{"ty": "sh", "nm": "Path 1", "ks": \(source)}, \(fill),
           {"ty": "tr", "p": {"a": 0, "k": [0, 0]}}]}]}\(extraLayers)]}
      """
  }

  func copyBox(_ a: LottieAnimation, _ frame: Double) throws -> CGRect {
    let p = S.presentation(a, at: a.time(ofFrame: frame))
    let copy = try XCTUnwrap(S.named("Copy", in: p))
    let shape = try XCTUnwrap(S.first(CAShapeLayer.self, in: copy))
    return try XCTUnwrap(shape.path?.boundingBoxOfPath)
  }

  func testAPathFollowsAnotherPath() throws {
    let a = try S.load(
      document("thisComp.layer('Source').content('Shape 1').content('Path 1').path"))
    XCTAssertEqual(a.unsupported, [])
    for (frame, side) in [(0.0, 10.0), (10, 20), (25, 30)] {
      XCTAssertEqual(Double(try copyBox(a, frame).width), side, accuracy: 1e-4, "frame \(frame)")
    }
  }

  func testCreatePathFromPointsAndPointOnPath() throws {
    // A triangle whose third point is the point half way along the source's
    // outline (its opposite corner: [s, s]); the box is s × s.
    let x = """
      var src = thisComp.layer('Source').content('Shape 1').content('Path 1').path;
      var q = src.pointOnPath(0.5); var pts = src.points();
      createPath([pts[0], [pts[1][0], 0], q], [], [], true)
      """
    let a = try S.load(document(x))
    XCTAssertEqual(a.unsupported, [])
    for (frame, side) in [(0.0, 10.0), (10, 20), (25, 30)] {
      let box = try copyBox(a, frame)
      XCTAssertEqual(Double(box.width), side, accuracy: 1e-3, "frame \(frame)")
      XCTAssertEqual(Double(box.height), side, accuracy: 1e-3, "frame \(frame)")
    }
  }

  func testANumberIsNotAPath() throws {
    let message = S.error(document("[1, 2]"))
    XCTAssertTrue(
      message.contains(
        "layers[0].shapes[0].ks.x: expression: TypeError: the expression gives 2 numbers, not a path"
      ), message)
  }
}

/// The command: `lamina` finds lamina-expr beside itself, and
/// `LAMINA_EXPRESSIONS` chooses the policy.
final class LottieExpressionCommandTests: XCTestCase {
  func testTheCommandEvaluatesExpressionsAndTakesThePolicyFromTheEnvironment() throws {
    let scratch = try Commands.commandScratch("lamina-expr")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let doc = #"""
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 10, "h": 10, "layers": [
        {"ty": 3, "nm": "n", "ind": 1, "ip": 0, "op": 30, "st": 0,
         "ks": {"p": {"a": 0, "k": [0, 0], "x": "[time, 0]"}, "o": {"a": 0, "k": 100, "x": "thisComp.layer('gone').opacity"}}}]}
      """#
    let file = scratch.appendingPathComponent("e.json")
    try Data(doc.utf8).write(to: file)
    func info(_ policy: String) throws -> (Int32, String) {
      let r = try Commands.run(
        Commands.laminaBinary, ["info", "--json", file.path],
        environment: ["LAMINA_EXPRESSIONS": policy])
      return (r.status, String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }
    // Evaluated: the failing one fails the file, naming its path.
    let (status, text) = try info("evaluate")
    XCTAssertEqual(status, 1, text)
    XCTAssertTrue(
      text.contains("e.json: layers[0].ks.o.x: expression: ReferenceError: no layer \"gone\""), text
    )
    // Falling back: the good one evaluated, the failing one reported.
    let (fallback, report) = try info("fallback")
    XCTAssertEqual(fallback, 0, report)
    XCTAssertTrue(report.contains("layers[0].ks.o.x"), report)
    XCTAssertFalse(report.contains("layers[0].ks.p.x"), report)
    // Keyframed: both reported, nothing run.
    let (keyframed, both) = try info("keyframed")
    XCTAssertEqual(keyframed, 0, both)
    XCTAssertTrue(both.contains("layers[0].ks.p.x") && both.contains("layers[0].ks.o.x"), both)
  }
}

extension LottieExpressionCommandTests {
  /// `--expressions` chooses the policy on the command line, over the
  /// environment's, for `info`, `render` and `batch`.
  func testTheExpressionsOptionChoosesThePolicy() throws {
    let scratch = try Commands.commandScratch("lamina-expr-option")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let doc = #"""
      {"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 10, "h": 10, "layers": [
        {"ty": 1, "nm": "s", "ind": 1, "ip": 0, "op": 30, "st": 0, "sw": 10, "sh": 10, "sc": "#ff0000",
         "ks": {"o": {"a": 0, "k": 100, "x": "thisComp.layer('gone').opacity"}}}]}
      """#
    let file = scratch.appendingPathComponent("e.json")
    try Data(doc.utf8).write(to: file)
    func lamina(_ arguments: [String], environment: [String: String] = [:]) throws -> (
      Int32, String
    ) {
      let r = try Commands.run(Commands.laminaBinary, arguments, environment: environment)
      return (r.status, String(decoding: r.stdout, as: UTF8.self) + r.stderr)
    }
    let failure = "e.json: layers[0].ks.o.x: expression: ReferenceError: no layer \"gone\""
    // info: the option over the environment, both ways.
    let (evaluated, text) = try lamina(
      ["info", "--json", "--expressions", "evaluate", file.path],
      environment: ["LAMINA_EXPRESSIONS": "fallback"])
    XCTAssertEqual(evaluated, 1, text)
    XCTAssertTrue(text.contains(failure), text)
    let (fellBack, report) = try lamina(
      ["info", "--json", "--expressions", "fallback", file.path],
      environment: ["LAMINA_EXPRESSIONS": "evaluate"])
    XCTAssertEqual(fellBack, 0, report)
    XCTAssertTrue(report.contains("layers[0].ks.o.x"), report)
    // render: fails naming the path; with fallback draws the keyframed
    // opacity (the solid, opaque) and warns on standard error.
    let out = scratch.appendingPathComponent("e.png").path
    let (failed, message) = try lamina(["render", file.path, "-o", out])
    XCTAssertEqual(failed, 1, message)
    XCTAssertTrue(message.contains(failure), message)
    XCTAssertTrue(message.contains("--expressions fallback"), message)
    let (drawn, warning) = try lamina(["render", file.path, "-o", out, "--expressions", "fallback"])
    XCTAssertEqual(drawn, 0, warning)
    XCTAssertTrue(warning.contains("layers[0].ks.o.x"), warning)
    let image = try CGImage.decode(fileAt: out)
    XCTAssertEqual(Array(image.pixels[0..<4]), [255, 0, 0, 255])
    // batch: every job under the policy.
    let jobs = scratch.appendingPathComponent("jobs.jsonl")
    let batchOut = scratch.appendingPathComponent("b.png").path
    try Data("{\"scene\": \"\(file.path)\", \"output\": \"\(batchOut)\"}\n".utf8).write(to: jobs)
    let (batchFailed, lines) = try lamina(["batch", jobs.path])
    XCTAssertTrue(lines.contains("layers[0].ks.o.x"), lines)
    XCTAssertFalse(FileManager.default.fileExists(atPath: batchOut), lines)
    _ = batchFailed
    let (batchDone, done) = try lamina(["batch", "--expressions", "keyframed", jobs.path])
    XCTAssertEqual(batchDone, 0, done)
    XCTAssertTrue(FileManager.default.fileExists(atPath: batchOut), done)
    // Another name is a usage error naming the three.
    let (usage, wrong) = try lamina(["render", file.path, "-o", out, "--expressions", "maybe"])
    XCTAssertEqual(usage, 2, wrong)
    XCTAssertTrue(wrong.contains("--expressions expects evaluate, fallback or keyframed"), wrong)
  }
}

/// sourceText: a text layer's text from its expression, frame by frame.
final class LottieExpressionTextTests: XCTestCase {
  typealias S = LottieTestSupport

  /// The text shown at a frame: the string of the text layer not hidden.
  func shownText(_ a: LottieAnimation, _ frame: Double) -> [String] {
    let p = S.presentation(a, at: a.time(ofFrame: frame))
    func visible(_ l: CALayer) -> Bool {
      var x: CALayer? = l
      while let y = x {
        if y.isHidden { return false }
        x = y.superlayer
      }
      return true
    }
    return S.all(p).compactMap { $0 as? CATextLayer }.filter(visible).compactMap {
      $0.string as? String
    }
  }

  func testSourceTextCountsAndReadsAnotherLayersText() throws {
    // A counter (numbers shown as text), and a label that reads it.
    let counter =
      #"{"ty": 5, "nm": "C", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "x", "s": 10, "f": "Sans"}}], "x": "Math.round(time * 40)"}}}"#
    let label =
      #"{"ty": 5, "nm": "L", "ind": 2, "ip": 0, "op": 30, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "y", "s": 10, "f": "Sans"}}], "x": "value + ': ' + thisComp.layer('C').text.sourceText"}}}"#
    let a = try S.load(
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [\#(counter), \#(label)]}"#
    )
    XCTAssertEqual(a.unsupported, [])
    // time × 40 rounded: frame 0 → 0, 5 → 20, 25 → 100.
    for (frame, n) in [(0.0, 0), (5, 20), (25, 100)] {
      XCTAssertEqual(shownText(a, frame).sorted(), ["\(n)", "y: \(n)"].sorted(), "frame \(frame)")
    }
  }

  /// Text from an expression counts against maxTextLength at the expression.
  func testTextFromAnExpressionIsLimited() throws {
    let doc =
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [{"ty": 5, "nm": "C", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "x", "s": 10}}], "x": "new Array(Math.round(time * 10) + 1000).join('ab')"}}}]}"#
    var o = LottieOptions()
    o.limits.maxTextLength = 5000
    let message = S.error(doc, options: o)
    XCTAssertTrue(
      message.hasPrefix("test.json: layers[0].t.d.x: characters of one text layer:"), message)
    o.expressions = .fallBack
    let a = try S.load(doc, options: o)
    XCTAssertEqual(a.unsupported.map(\.path), ["layers[0].t.d.x"])
    XCTAssertEqual(shownText(a, 5), ["x"])
  }

  func testKeyframedPolicyReportsTextExpressions() throws {
    let doc =
      #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 30, "w": 100, "h": 100, "layers": [{"ty": 5, "nm": "C", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "t": {"d": {"k": [{"t": 0, "s": {"t": "x", "s": 10}}], "x": "'no'"}}}]}"#
    var o = LottieOptions()
    o.expressions = .keyframed
    let a = try S.load(doc, options: o)
    XCTAssertEqual(
      a.unsupported, [LottieUnsupported(feature: "expression", path: "layers[0].t.d.x")])
    XCTAssertEqual(shownText(a, 5), ["x"])
  }
}

/// The engine takes the model as data.
extension LottieExpressionTests {
  /// Many sampled values (20 layers keyframed over 4,000 frames: 80,020
  /// numbers) reach the engine as data, not as constants of its program:
  /// Duktape refuses a program with more than 65,536 constants ("const
  /// limit"), which failed every expression of lottie-web's `navidad.json`.
  func testManySampledValuesAreData() throws {
    let layers = (1...20).map { i in
      #"{"ty": 3, "nm": "l\#(i)", "ind": \#(i + 1), "ip": 0, "op": 30, "st": 0, "ks": {"r": {"a": 1, "k": [{"t": 0, "s": [0]}, {"t": 4000, "s": [\#(360 + i)]}]}}}"#
    }.joined(separator: ",")
    // l20 turns 0 to 380 degrees over 4,000 frames, read at 20 × time:
    // frames 0, 200 and 500 at frames 0, 10 and 25 (0, 1 and 2.5 s).
    assertEqual(
      try xs(
        "[thisComp.layer('l20').rotation.valueAtTime(time * 20), 0]", layers: layers),
      [0, 19, 47.5])
  }
}

/// A text animator's expression selector: evaluated once per character.
extension LottieExpressionTextTests {
  /// "LOTTO" in glyph shapes, one animator moving characters up 100 points
  /// by an expression selector `selectorValue * textIndex / textTotal *
  /// time`: character k (from 0) of 5 rises 100 × (k + 1) / 5 × time, so at
  /// frames 0, 15 and 30 (0, 0.5 and 1 s): 0; 10 … 50; 20 … 100.
  func testExpressionSelectorIsEvaluatedPerCharacter() throws {
    let a = try LottieAnimation(
      contentsOf: S.fixtures.appendingPathComponent("text-expression-selector.json"))
    XCTAssertEqual(a.unsupported, [])
    for (frame, t) in [(0.0, 0.0), (15, 0.5), (30, 1)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let glyphs = try XCTUnwrap(S.all(p).first { $0.name == "glyphs" })
      let rises = (glyphs.sublayers ?? []).map { -Double($0.transform.m42) }
      XCTAssertEqual(rises.count, 5)
      for (k, rise) in rises.enumerated() {
        XCTAssertEqual(rise, 100 * Double(k + 1) / 5 * t, accuracy: 1e-3, "frame \(frame) k \(k)")
      }
    }
  }
}

extension LottieExpressionTextTests {
  /// An expression selector's value is After Effects' Amount [x, y, z],
  /// per character: `[textIndex / textTotal * 100 * time, 50, 100]` on an
  /// animator that moves by (40, −100), scales 200 % and turns 90°.
  /// Character k (of 5) at time t: x influence w = (k + 1) / 5 · t, y 0.5,
  /// z 1 (as lottie-web: x and y of position and scale take x and y,
  /// rotation z): scale x 1 + w, y 1.5, turned 90° (m12 = sx, m21 = −sy),
  /// moved 40·w right and 50 up. Frames 0, 15, 30 are t 0, 0.5, 1. Before,
  /// only the first number counted, for every dimension.
  func testExpressionSelectorAmountIsPerDimension() throws {
    var json = try String(
      contentsOf: S.fixtures.appendingPathComponent("text-expression-selector.json"), encoding: .utf8)
    json = json.replacingOccurrences(
      of: #""x": "selectorValue * textIndex / textTotal * time""#,
      with: #""x": "[textIndex / textTotal * 100 * time, 50, 100]""#)
    json = json.replacingOccurrences(
      of: #""a": {"p": {"a": 0, "k": [0, -100]}}"#,
      with: #""a": {"p": {"a": 0, "k": [40, -100]}, "s": {"a": 0, "k": [200, 200]}, "r": {"a": 0, "k": 90}}"#)
    let a = try S.load(json)
    XCTAssertEqual(a.unsupported, [])
    for (frame, t) in [(0.0, 0.0), (15, 0.5), (30, 1)] {
      let p = S.presentation(a, at: a.time(ofFrame: frame))
      let glyphs = try XCTUnwrap(S.all(p).first { $0.name == "glyphs" })
      let characters = glyphs.sublayers ?? []
      XCTAssertEqual(characters.count, 5)
      for (k, c) in characters.enumerated() {
        let w = Double(k + 1) / 5 * t
        let m = c.transform
        XCTAssertEqual(Double(m.m12), 1 + w, accuracy: 1e-3, "frame \(frame) k \(k) scale x")
        XCTAssertEqual(Double(m.m21), -1.5, accuracy: 1e-3, "frame \(frame) k \(k) scale y")
        XCTAssertEqual(Double(m.m11), 0, accuracy: 1e-3, "frame \(frame) k \(k) turned")
        XCTAssertEqual(Double(m.m41), 40 * w, accuracy: 1e-3, "frame \(frame) k \(k) x")
        XCTAssertEqual(Double(m.m42), -50, accuracy: 1e-3, "frame \(frame) k \(k) y")
      }
    }
  }
}

extension LottieExpressionTests {
  /// A value out of range from an expression (scripts/fuzz-expressions.py
  /// found `div(time, -1e-09)` on a rectangle's position) is the
  /// expression's error, naming its path; with `.fallBack` the keyframed
  /// value stays and the expression is reported.
  func testAnExpressionValueOutOfRangeIsTheExpressionsError() throws {
    let doc = document(
      #"{"ty": 4, "nm": "A", "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {}, "shapes": [{"ty": "rc", "s": {"a": 0, "k": [10, 10]}, "p": \#(expr("div(time, -1e-09)"))}]}"#
    )
    let message = S.error(doc, options: options())
    XCTAssertTrue(
      message.contains(
        "layers[0].shapes[0].p.x: expression: gives -1100000000.0 at frame 11.0, out of range"),
      message)
    let a = try S.load(doc, options: options(.fallBack))
    XCTAssertEqual(a.unsupported.map(\.path), ["layers[0].shapes[0].p.x"])
  }
}
