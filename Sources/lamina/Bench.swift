import Foundation
import Lamina
import LaminaBatch
import LaminaLottie
import LaminaRender
import LaminaScene

let benchUsage = """
  usage: lamina bench FILE.json [--frames N] [--warmup N] [--start SECONDS] [--fps F]
                                [--size WxH] [--json] [--assets DIR]... [--allow-any-path]
         lamina bench [--suite] [--frames N] [--warmup N] [--json]

  Measures how fast this machine and its GL driver composite a scene
  (Benchmarks/README.md): frame i shows the scene at start + i / fps; the
  warm-up frames come first, untimed; each timed frame is a full redraw
  finished with glFinish. Reports frames per second, frame time median, p95
  and p99, CPU and GPU time per frame, the CPU time split into Lamina's own
  stages (presentation update, frame building, planning, vertices, the
  executor) and the driver's time inside GL calls (uploads, draws, state),
  draw calls, uploads and offscreen passes per frame, and peak memory. A
  Lottie animation (recognised by its content) loops over its frames ip..op
  at its own frame rate: frame i shows ip + (start + i / fps) * fr, wrapped
  into ip..op.

  With no file (or --suite) it runs the built-in suite, carried in the
  binary: the eleven benchmark scenes at 1920x1080 and three Lottie
  documents at 512x512, one line per scene (frames per second, frame time,
  draws and offscreen passes a frame) and a score, the geometric mean of
  their frames per second, with the GL renderer it ran on: compare two
  machines or two drivers by their scores (Benchmarks/README.md).

  options:
    --frames N              timed frames (default 120; 1...1000000)
    --warmup N              untimed frames before them (default 10; 0...1000000)
    --start SECONDS         the scene time of the first timed frame (default 10; a
                            Lottie document: 0, its in-point)
    --fps F                 frames per second of scene time (default 60; a Lottie
                            document: its frame rate fr; 1...10000)
    --size WxH              render at WxH pixels, the canvas stretched to it (a Lottie
                            animation is fitted into it, aspect kept, centred; default:
                            the canvas size times its scale)
    --json                  print the report as JSON (for comparing runs)
    --suite                 run the built-in suite (the default without a file)
  \(AccessOptions.usage)
  \(ExpressionOptions.usage)
    -h, --help              print this help
  """

/// `lamina bench SCENE.json [...]`: the protocol of the benchmark scenes
/// (Benchmarks/README.md): frame i is the scene at `start + i/fps`; warm-up
/// frames first, untimed; then timed frames, each a full redraw finished
/// with glFinish. Frame time = CPU time (frame building, and encoding the
/// draw list into vertices and GL calls) + GPU time (the rest, until glFinish
/// returns; with llvmpipe the rasterizer threads start while encoding goes on).
/// The CPU time is split into stages (`EncodeStages`): what Lamina does
/// itself, which any GPU waits for, and what the driver does inside GL
/// calls, which on llvmpipe includes vertex shading and waits for offscreen
/// targets.
func runBench(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments,
      valued: AccessOptions.valued.union(ExpressionOptions.valued).union([
        "--frames", "--warmup", "--start", "--fps", "--size",
      ]),
      switches: AccessOptions.switches.union(["--json", "--suite"]), command: "bench",
      usage: benchUsage)
    let suite = options.has("--suite") || options.positional.isEmpty
    guard suite ? options.positional.isEmpty : options.positional.count == 1 else {
      throw UsageError("bench needs one scene file, or none for the built-in suite\n" + benchUsage)
    }
    let settings = BenchSettings(
      frames: try options.integer("--frames", range: 1...1_000_000) ?? 120,
      warmup: try options.integer("--warmup", range: 0...1_000_000) ?? 10,
      start: try options.number("--start", range: 0...1e9),
      fps: try options.number("--fps", range: 1...10_000), size: try options.size("--size"))
    if suite {
      for name in ["--start", "--fps", "--size"] where options.string(name) != nil {
        throw UsageError("\(name) goes with a scene file, not the suite")
      }
      try runSuite(settings, json: options.has("--json"))
      return 0
    }
    let report = try benchDocument(
      URL(fileURLWithPath: options.positional[0]), settings,
      access: try AccessOptions.policy(options),
      expressions: try ExpressionOptions.policy(options))
    print(options.has("--json") ? report.json() : report.text())
    return 0
  }
}

/// What a bench run measures by: frames, warm-up, start time, rate, size.
struct BenchSettings {
  var frames: Int
  var warmup: Int
  var start: Double?
  var fps: Double?
  var size: (Int, Int)?
}

/// One document benchmarked on a renderer of its own.
func benchDocument(
  _ url: URL, _ settings: BenchSettings, access: FileAccessPolicy,
  expressions: LottieExpressionPolicy? = nil
) throws
  -> BenchReport
{
  let (frames, warmup, givenStart, givenFPS, size) = (
    settings.frames, settings.warmup, settings.start, settings.fps, settings.size
  )
  let path = url.path
  let renderer = try Renderer()
  renderer.measuresStages = true
  let document = try Document.load(
    contentsOf: url, maxImageDimension: renderer.maxTextureSize, access: access,
    expressions: expressions)
  let lottie = document.lottie
  let start = givenStart ?? (lottie != nil ? 0 : 10)
  let fps = givenFPS ?? lottie?.frameRate ?? 60
  // A Lottie animation at --size is fitted into it; a scene is stretched.
  let fit = size.flatMap { document.fit(width: $0.0, height: $0.1) }
  let scene = fit?.scene ?? document.scene
  let pixelSize = size ?? (scene.canvas.pixelWidth, scene.canvas.pixelHeight)
  /// The time of frame `i`: a Lottie animation's wraps into ip..op.
  func time(_ i: Int) -> Double {
    let t = start + Double(i - warmup) / fps
    guard let lottie else { return t }
    let wrapped = t.truncatingRemainder(dividingBy: lottie.duration)
    return wrapped < 0 ? wrapped + lottie.duration : wrapped
  }

  var sceneFrames = SceneFrames(
    scene: scene, scale: nil, pixelSize: pixelSize, caches: renderer.caches)
  var update: [Double] = []
  var building: [Double] = []
  var cpu: [Double] = []
  var gpu: [Double] = []
  var total: [Double] = []
  var draws: [Int] = []
  var uploads: [Int] = []
  var passes: [Int] = []
  var allPasses: [Int] = []
  var stateChanges: [Int] = []
  var cpuRuns: [Int] = []
  var cpuItems: [Int] = []
  var runsRedrawn: [Int] = []
  var runPixels: [Int] = []
  var breaks: [String: Int] = [:]
  var sortMs: [Double] = []
  var stages: [EncodeStages] = []
  var pieces: [Int] = []
  var layerCounts = LayerCounts()
  for i in 0..<(warmup + frames) {
    // Warm-up frames come just before `start`, timed frames from `start` on.
    let time = time(i)
    let t0 = DispatchTime.now().uptimeNanoseconds
    Renderer.commit(scene.root)
    let root = sceneFrames.presentation.update(time: time)
    let tu = DispatchTime.now().uptimeNanoseconds
    let frame = sceneFrames.frame(root: root, time: time)
    let t1 = DispatchTime.now().uptimeNanoseconds
    try renderer.draw(frame)
    renderer.finish()
    let t2 = DispatchTime.now().uptimeNanoseconds
    guard i >= warmup else { continue }
    // CPU: building the frame and encoding it; GPU: waiting for glFinish.
    let encode = renderer.lastEncodeMilliseconds
    cpu.append(Double(t1 - t0) / 1e6 + encode)
    update.append(Double(tu - t0) / 1e6)
    building.append(Double(t1 - tu) / 1e6)
    gpu.append(max(0, Double(t2 - t1) / 1e6 - encode))
    total.append(Double(t2 - t0) / 1e6)
    draws.append(renderer.counters.drawCalls)
    uploads.append(renderer.counters.textureUploads)
    passes.append(renderer.counters.offscreenPasses)
    allPasses.append(renderer.counters.passes)
    stateChanges.append(renderer.counters.stateChanges)
    cpuRuns.append(renderer.counters.cpuPathRuns)
    cpuItems.append(renderer.counters.cpuPathItems)
    runsRedrawn.append(renderer.counters.cpuPathRunsRedrawn)
    runPixels.append(renderer.counters.cpuPathRunPixels)
    breaks.merge(renderer.counters.batchBreaks, uniquingKeysWith: +)
    sortMs.append(frame.stats.depthSortMilliseconds)
    stages.append(renderer.lastStages)
    pieces.append(frame.stats.sortedPieces)
    layerCounts.add(
      visited: sceneFrames.presentation.visitedLayers,
      applied: sceneFrames.presentation.appliedLayers, build: frame.stats)
  }
  let report = BenchReport(
    scene: (path as NSString).lastPathComponent, width: pixelSize.0, height: pixelSize.1,
    frames: frames, warmup: warmup, start: start, fps: fps, frameMs: total, cpuMs: cpu,
    gpuMs: gpu,
    updateMs: update, buildMs: building, drawCalls: draws, uploads: uploads,
    offscreenPasses: passes,
    passes: allPasses, stateChanges: stateChanges, cpuPathRuns: cpuRuns,
    cpuPathItems: cpuItems, cpuPathRunsRedrawn: runsRedrawn, cpuPathRunPixels: runPixels,
    batchBreaks: breaks,
    depthSortMs: sortMs, depthSortPieces: pieces, layers: layerCounts, stages: stages,
    peakMemoryMB: peakMemoryMB(), renderer: renderer,
    lottie: lottie.map {
      BenchReport.LottieLoop(
        inPoint: $0.inPoint, outPoint: $0.outPoint, frameRate: $0.frameRate,
        fit: fit.map { [$0.scale, $0.x, $0.y] })
    })
  return report
}

/// Layers the presentation update and frame building touched, summed over
/// the timed frames (`PresentationTree.visitedLayers`, `FrameBuildStats`).
struct LayerCounts {
  var frames = 0
  var visited = 0, applied = 0
  var derived = 0, reused = 0, faded = 0

  mutating func add(visited: Int, applied: Int, build: FrameBuildStats) {
    frames += 1
    self.visited += visited
    self.applied += applied
    derived += build.derivedLayers
    reused += build.reusedLayers
    faded += build.fadedLayers
  }

  func mean(_ total: Int) -> Double { frames == 0 ? 0 : Double(total) / Double(frames) }
}

/// Peak resident memory of the process so far, in MiB.
func peakMemoryMB() -> Double {
  var usage = rusage()
  getrusage(RUSAGE_SELF.rawValue, &usage)
  return Double(usage.ru_maxrss) / 1024
}

struct BenchReport {
  let scene: String
  let width: Int, height: Int
  let frames: Int, warmup: Int
  let start: Double, fps: Double
  let frameMs: [Double], cpuMs: [Double], gpuMs: [Double]
  /// Bringing the presentation tree to the frame's time (part of the CPU time).
  let updateMs: [Double]
  /// Building the frame from the presentation tree (part of the CPU time).
  let buildMs: [Double]
  let drawCalls: [Int], uploads: [Int], offscreenPasses: [Int]
  /// Every pass of the frame plan (canvas included), and the GL state
  /// changes the device made (binds beyond programs and textures, viewport,
  /// scissor, blending).
  let passes: [Int], stateChanges: [Int]
  /// Runs of paths drawn by Cairo and the path items they held
  /// (`RenderCounters.cpuPathRuns`; docs/rendering.md, "Paths on the CPU").
  let cpuPathRuns: [Int], cpuPathItems: [Int]
  /// Of those runs, the ones drawn only where they differ from the last
  /// frame's, and the pixels the runs drew (`RenderCounters.cpuPathRunsRedrawn`,
  /// `cpuPathRunPixels`).
  let cpuPathRunsRedrawn: [Int], cpuPathRunPixels: [Int]
  /// Batches of all timed frames by why each began (`RenderCounters.batchBreaks`).
  let batchBreaks: [String: Int]
  let depthSortMs: [Double], depthSortPieces: [Int]
  /// What the presentation update and frame building did with the layers.
  let layers: LayerCounts
  /// Where each frame's encoding time went.
  let stages: [EncodeStages]
  let peakMemoryMB: Double
  let renderer: Renderer
  /// For a Lottie animation: the frames it loops over, and how --size fitted it.
  var lottie: LottieLoop? = nil

  struct LottieLoop {
    let inPoint: Double, outPoint: Double, frameRate: Double
    /// Scale, x and y of the animation fitted into --size.
    let fit: [Double]?
  }

  static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = p / 100 * Double(sorted.count - 1)
    let lower = Int(saturating: rank, rounding: .down)
    let upper = Int(saturating: rank, rounding: .up)
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - Double(lower))
  }

  var median: Double { Self.percentile(frameMs, 50) }
  func mean(_ values: [Int]) -> Double {
    values.isEmpty ? 0 : Double(values.reduce(0, +)) / Double(values.count)
  }
  func mean(_ values: [Double]) -> Double {
    values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
  }

  /// Lamina's own CPU time of each frame: presentation update, frame
  /// building, planning, vertices, the executor.
  var laminaMs: [Double] { zip(zip(updateMs, buildMs), stages).map { $0.0 + $0.1 + $1.lamina } }
  /// The driver's CPU time of each frame: inside GL calls.
  var driverMs: [Double] { stages.map(\.driver) }

  /// The mean of each stage of the CPU time, in milliseconds: they add up
  /// to the mean CPU time (each is measured apart; none is negative).
  var stageMeans: KeyValuePairs<String, Double> {
    [
      "presentationUpdate": mean(updateMs), "frameBuilding": mean(buildMs),
      "planning": mean(stages.map(\.planning)), "vertices": mean(stages.map(\.vertices)),
      "executor": mean(stages.map(\.executor)), "glUploads": mean(stages.map(\.glUploads)),
      "glDraws": mean(stages.map(\.glDraws)), "glState": mean(stages.map(\.glState)),
    ]
  }

  /// `batchBreaks` per timed frame.
  var breaksPerFrame: [String: Double] {
    batchBreaks.mapValues { Double($0) / Double(max(frames, 1)) }
  }

  func text() -> String {
    func f(_ v: Double) -> String { String(format: "%.2f", v) }
    let own = [
      ("presentation update", updateMs), ("frame building", buildMs),
      ("planning", stages.map(\.planning)), ("vertices", stages.map(\.vertices)),
      ("executor", stages.map(\.executor)),
    ].map { "\($0.0) \(f(mean($0.1)))" }
    let driver = [
      ("uploads", stages.map(\.glUploads)), ("draws", stages.map(\.glDraws)),
      ("state", stages.map(\.glState)),
    ].map { "\($0.0) \(f(mean($0.1)))" }
    let stagesLine =
      "cpu stages, mean ms: Lamina \(f(mean(laminaMs))) (\(own.joined(separator: ", "))); "
      + "driver in GL calls \(f(mean(driverMs))) (\(driver.joined(separator: ", ")))"
    return """
      scene \(scene)  \(width)x\(height)  \(frames) frames from t=\(start)s at \(Int(saturating: fps)) fps (\(warmup) warm-up)
      renderer \(renderer.context.platform.rawValue), \(renderer.samples)x MSAA
      fps \(f(median > 0 ? 1000 / median : 0))  frame ms: median \(f(median))  p95 \(f(Self.percentile(frameMs, 95)))  p99 \(f(Self.percentile(frameMs, 99)))
      cpu (build + encode) ms: median \(f(Self.percentile(cpuMs, 50))) (presentation update \(f(Self.percentile(updateMs, 50))), frame building \(f(Self.percentile(buildMs, 50))))  gpu (to glFinish) ms: median \(f(Self.percentile(gpuMs, 50)))
      \(stagesLine)
      per frame: \(f(mean(drawCalls))) draw calls, \(f(mean(uploads))) uploads, \(f(mean(offscreenPasses))) offscreen passes, \(f(mean(passes))) passes in all, \(f(mean(stateChanges))) state changes, \(f(mean(cpuPathRuns))) runs of \(f(mean(cpuPathItems))) paths drawn by Cairo
      batches per frame by why each began: \(breaksPerFrame.sorted { $0.value > $1.value }.map { "\($0.key) \(f($0.value))" }.joined(separator: ", "))
      layers per frame: presentation visited \(f(layers.mean(layers.visited))), animations applied \(f(layers.mean(layers.applied))); frame building derived \(f(layers.mean(layers.derived))), reused \(f(layers.mean(layers.reused))), faded \(f(layers.mean(layers.faded)))
      depth sort: \(f(Self.percentile(depthSortMs, 50))) ms median for \(f(mean(depthSortPieces))) pieces (part of cpu)
      peak memory \(f(peakMemoryMB)) MiB
      caches \(f(Double(renderer.cacheReport.bytes) / 1048576)) of \(f(Double(renderer.caches.maxBytes) / 1048576)) MiB
      """
        + (lottie.map {
          "\nlottie: frames \(Scene.seconds($0.inPoint))..\(Scene.seconds($0.outPoint)) at \(Scene.seconds($0.frameRate)) fps, looped"
            + ($0.fit.map { " (fitted: scale \(f($0[0])), offset \(f($0[1])), \(f($0[2])))" } ?? "")
        } ?? "")
  }

  /// The renderer's caches after the last frame, against their budget.
  var cachesJSON: [String: Any] {
    let report = renderer.cacheReport
    return [
      "maxBytes": report.maxBytes, "bytes": report.bytes, "evictions": report.evictions,
      "cpuBudgetBytes": report.cpuBudgetBytes, "textureBudgetBytes": report.textureBudgetBytes,
      "drawnContentBytes": report.cpu.drawnBytes, "pathGeometryBytes": report.cpu.pathBytes,
      "tileBytes": report.cpu.tileBytes, "glyphAtlasBytes": report.cpu.glyphBytes,
      "textureBytes": report.textureBytes, "rasterBytes": report.rasterBytes,
      "maskBytes": report.maskBytes, "pathBufferBytes": report.pathBufferBytes,
    ]
  }

  func json() -> String {
    let data =
      (try? JSONSerialization.data(
        withJSONObject: jsonObject, options: [.prettyPrinted, .sortedKeys]))
      ?? Data()
    return String(decoding: data, as: UTF8.self)
  }

  /// The report as JSON values.
  var jsonObject: [String: Any] {
    [
      "scene": scene, "width": width, "height": height, "frames": frames, "warmup": warmup,
      "start": start, "fps": fps,
      "platform": renderer.context.platform.rawValue, "msaaSamples": renderer.samples,
      "framesPerSecond": median > 0 ? 1000 / median : 0,
      "frameMs": [
        "median": median, "p95": Self.percentile(frameMs, 95), "p99": Self.percentile(frameMs, 99),
      ],
      "cpuMs": [
        "median": Self.percentile(cpuMs, 50), "p95": Self.percentile(cpuMs, 95),
        "mean": mean(cpuMs),
      ],
      "cpuStagesMs": Dictionary(uniqueKeysWithValues: stageMeans.map { ($0.key, $0.value) }),
      "laminaCpuMs": [
        "median": Self.percentile(laminaMs, 50), "p95": Self.percentile(laminaMs, 95),
        "mean": mean(laminaMs),
      ],
      "driverCpuMs": [
        "median": Self.percentile(driverMs, 50), "p95": Self.percentile(driverMs, 95),
        "mean": mean(driverMs),
      ],
      "presentationUpdateMs": [
        "median": Self.percentile(updateMs, 50), "p95": Self.percentile(updateMs, 95),
      ],
      "frameBuildingMs": [
        "median": Self.percentile(buildMs, 50), "p95": Self.percentile(buildMs, 95),
      ],
      "gpuMs": ["median": Self.percentile(gpuMs, 50), "p95": Self.percentile(gpuMs, 95)],
      "drawCallsPerFrame": mean(drawCalls), "uploadsPerFrame": mean(uploads),
      "offscreenPassesPerFrame": mean(offscreenPasses), "peakMemoryMB": peakMemoryMB,
      "passesPerFrame": mean(passes), "stateChangesPerFrame": mean(stateChanges),
      "cpuPathRunsPerFrame": mean(cpuPathRuns), "cpuPathItemsPerFrame": mean(cpuPathItems),
      "cpuPathRunsRedrawnPerFrame": mean(cpuPathRunsRedrawn),
      "cpuPathRunPixelsPerFrame": mean(cpuPathRunPixels),
      "batchBreaksPerFrame": breaksPerFrame,
      "depthSortMs": [
        "median": Self.percentile(depthSortMs, 50), "p95": Self.percentile(depthSortMs, 95),
      ],
      "depthSortPiecesPerFrame": mean(depthSortPieces),
      "layersPerFrame": [
        "presentationVisited": layers.mean(layers.visited),
        "animationsApplied": layers.mean(layers.applied),
        "derived": layers.mean(layers.derived), "reused": layers.mean(layers.reused),
        "faded": layers.mean(layers.faded),
      ],
      "caches": cachesJSON,
    ].merging(
      lottie.map { loop -> [String: Any] in
        var fields: [String: Any] = [
          "lottie": [
            "inPoint": loop.inPoint, "outPoint": loop.outPoint, "frameRate": loop.frameRate,
          ]
        ]
        if let fit = loop.fit { fields["fit"] = ["scale": fit[0], "x": fit[1], "y": fit[2]] }
        return fields
      } ?? [:], uniquingKeysWith: { a, _ in a })
  }
}
