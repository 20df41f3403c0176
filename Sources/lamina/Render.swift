import Foundation
import Lamina
import LaminaRender
import LaminaScene

let renderUsage = """
  usage: lamina render SCENE.json -o OUT.png [--time SECONDS] [--scale S]
         lamina render SCENE.json --frames FIRST..LAST [--fps F] [--scale S]
                       (-o 'out/frame-%04d.png' | --video OUT.y4m | --video -)

  Renders a scene file at a time: one frame to a PNG, or a sequence of frames
  to numbered PNGs or to a YUV4MPEG2 video stream. A scene that does not load
  is not rendered: the error names the file, the JSON path and the key, and
  nothing is written.

  options:
    -o, --output PATH       the PNG to write (written atomically); for a sequence, a
                            file name with one %d, %4d or %04d for the frame number
    --time SECONDS          the scene time to render at (default 0; 0...1e9);
                            not with --frames
    --scale S               pixels per point, instead of the scene's canvas.scale
                            (0.01...8)
    --frames FIRST..LAST    render the frames FIRST to LAST (or one frame N); frame n
                            shows the scene at n / fps seconds
    --fps F                 frames per second of a sequence (default 60; 0.001...10000)
    --video PATH            write the sequence as YUV4MPEG2 (4:2:0, BT.601 limited
                            range, over black) to PATH, or to standard output with -
    --dump-plan             print the frame plan of every frame drawn (one line per
                            pass and per batch) to standard output (to standard error
                            when the video goes to standard output); without -o, one
                            frame is only planned and drawn
    -h, --help              print this help

  examples:
    lamina render scene.json -o out.png --time 1.5 --scale 2
    lamina render scene.json --frames 0..239 --video - | ffmpeg -i - out.mp4
  """

/// `lamina render SCENE.json -o OUT.png [--time T] [--scale S]`, or a
/// sequence: `--frames A..B --fps F` with `-o 'frame-%04d.png'` or
/// `--video OUT.y4m` (`-` for standard output). `--dump-plan` prints the
/// plan of every frame drawn.
func runRender(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments, valued: ["-o", "--output", "--time", "--scale", "--frames", "--fps", "--video"],
      switches: ["--dump-plan"], command: "render", usage: renderUsage)
    guard options.positional.count == 1 else {
      throw UsageError("render needs one scene file\n" + renderUsage)
    }
    let output = options.string("-o") ?? options.string("--output")
    let video = options.string("--video")
    let sequence = options.string("--frames") != nil || video != nil
    let dumpPlan = options.has("--dump-plan")
    let source = RenderJob.Source.file(URL(fileURLWithPath: options.positional[0]))
    let job: RenderJob
    if sequence {
      guard let frames = options.string("--frames") else {
        throw UsageError("--video needs --frames A..B")
      }
      guard (output == nil) != (video == nil) else {
        throw UsageError("a sequence needs either -o 'frame-%04d.png' or --video OUT.y4m")
      }
      guard options.string("--time") == nil else {
        throw UsageError("--time does not go with --frames")
      }
      let range = try FrameRange(frames)
      let pattern = try output.map { try FramePattern($0) }
      let fps = try options.number("--fps", range: RenderJob.fpsRange) ?? 60
      let scale = try options.number("--scale", range: RenderJob.scaleRange)
      try RenderJob.checkTimes(range, fps: fps, frames: frames)
      job = RenderJob(
        source: source, output: .sequence(range, fps: fps, pattern: pattern, video: video),
        scale: scale)
    } else {
      guard output != nil || dumpPlan else {
        throw UsageError("render needs -o OUT.png (or --dump-plan)")
      }
      if options.string("--fps") != nil { throw UsageError("--fps goes with --frames") }
      let time = try options.number("--time", range: RenderJob.timeRange) ?? 0
      let scale = try options.number("--scale", range: RenderJob.scaleRange)
      job = RenderJob(
        source: source, output: output.map { .image(path: $0, time: time) } ?? .plan(time: time),
        scale: scale)
    }
    let renderer = try Renderer()
    if dumpPlan { renderer.planObserver = planPrinter(toError: video == "-") }
    try job.run(
      renderer: renderer, watchdog: FrameWatchdog(file: sceneName(options.positional[0])))
    return 0
  }
}

/// Writes each frame plan to standard output (or error).
func planPrinter(toError: Bool) -> (FramePlan) -> Void {
  { plan in
    let text = Data((plan.description + "\n").utf8)
    (toError ? FileHandle.standardError : FileHandle.standardOutput).write(text)
  }
}

/// The scene file's name, as errors give it.
func sceneName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

extension Renderer {
  /// Renders a loaded scene at `time` seconds (canvas scale overridable),
  /// checked as `checkedFrame` checks it.
  func render(scene: Scene, time: Double, scale: Double?) throws -> RenderedImage {
    var frames = SceneFrames(scene: scene, scale: scale)
    return try render(frames.checkedFrame(at: time))
  }
}

/// The frames of one scene at successive times: one presentation tree and
/// one frame builder for all of them, so that each frame copies, animates
/// and derives only what changed since the one before.
struct SceneFrames {
  let scene: Scene
  let presentation: PresentationTree
  var builder: FrameBuilder

  /// Frames at the canvas scale (or `scale`), or stretched to `pixelSize`.
  init(scene: Scene, scale: Double?, pixelSize: (Int, Int)? = nil) {
    self.scene = scene
    presentation = PresentationTree(root: scene.root)
    let size = CGSize(width: scene.canvas.width, height: scene.canvas.height)
    if let pixelSize {
      builder = FrameBuilder(size: size, pixelWidth: pixelSize.0, pixelHeight: pixelSize.1)
    } else {
      builder = FrameBuilder(size: size, scale: CGFloat(scale ?? Double(scene.canvas.scale)))
    }
  }

  /// The frame at `time` seconds: layout on the model, the presentation
  /// tree at that time, drawn.
  mutating func frame(at time: Double) -> Frame {
    scene.root.layoutIfNeeded()
    return frame(root: presentation.update(time: time), time: time)
  }

  /// The frame at `time` seconds as `frame(at:)` makes it, checked: the
  /// presentation tree against the scene's limits first (animations move
  /// values past what the file says; a `SceneError` names the file, the
  /// layer's JSON path and the time), then the built frame against the
  /// frame limits, before anything walks its draw list (damage does): a
  /// frame past them can be exponentially long to walk (nested shadows).
  mutating func checkedFrame(at time: Double) throws -> Frame {
    scene.root.layoutIfNeeded()
    let root = presentation.update(time: time)
    try scene.checkLimits(root, time: time)
    let frame = frame(root: root, time: time)
    do {
      try FrameLimits.check(frame)
    } catch var error as FrameLimitError {
      // Named by their places in the file.
      error.largestPlace = error.largestSource.flatMap(scene.place(ofLayerWith:))
      error.costliestPlace = error.costliest.flatMap { scene.place(ofLayerWith: $0.layer) }
      throw error
    }
    return frame
  }

  /// The frame drawing `root` (a presentation root already brought to
  /// `time`, which emitters also follow).
  mutating func frame(root: CALayer, time: Double) -> Frame {
    builder.time = time
    return builder.build(root: root, background: scene.canvas.background)
  }
}
