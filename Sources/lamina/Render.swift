import Foundation
import Lamina
import LaminaBatch
import LaminaPlan
import LaminaRender
import LaminaScene

let renderUsage = """
  usage: lamina render FILE.json -o OUT.png [--time SECONDS | --frame F] [--scale S]
                       [--background COLOR]
         lamina render FILE.json (--frames FIRST..LAST | --frames all | --marker NAME)
                       [--fps F] [--scale S]
                       (-o 'out/frame-%04d.png' | --video OUT.mp4 | --video -)
                       [--codec NAME] [--crf N | --bitrate R] [--no-pad]

  Renders a scene file or a Lottie animation at a time: one frame to a PNG,
  or a sequence of frames to numbered PNGs or to a video. A Lottie document
  (Bodymovin JSON, a .lottie archive or a .tgs sticker) is recognised by its
  content: its canvas is its w x h points at --scale (pixel size rounded
  up), transparent unless --background is given. A file that does not load
  is not rendered: the error names the file, the JSON path and the key, and
  nothing is written.

  videos (the extension chooses; all but .y4m are encoded by the ffmpeg program):
    .mp4    H.264, yuv420p, +faststart: plays everywhere (over black)
    .webm   VP9, with alpha when the canvas is transparent: video for the web
    .gif    256 colors chosen from a sample of up to 32 frames, dithered
    .apng   animated PNG: lossless, with alpha
    .mov    ProRes 4444 with alpha (yuva444p10le): editing, broadcast graphics
    .y4m, - YUV4MPEG2 (4:2:0, BT.601 limited range, over black), for other tools
    Colors: BT.709 at 720 lines and up, BT.601 below, limited range, tagged.

  options:
    -o, --output PATH       the PNG to write (written atomically); for a sequence, a
                            file name with one %d, %4d or %04d for the frame number
    --time SECONDS          the time to render at (default 0; 0...1e9): scene time, or
                            seconds from a Lottie document's in-point ip; not with --frames
    --frame F               a Lottie document's frame number, on its own numbering (as
                            ip and op; fractions allowed); not with --time
    --scale S               pixels per point, instead of the scene's canvas.scale
                            (0.01...8; a Lottie document's default is 1)
    --background COLOR      the color behind the canvas (#rrggbb or #rrggbbaa), instead
                            of the scene's canvas.background (a Lottie one is transparent)
    --frames FIRST..LAST    render the frames FIRST to LAST (or one frame N); frame n
                            shows the scene at n / fps seconds (a Lottie document: its
                            frame ip + n * fr / fps)
    --frames all            (Lottie) every frame from ip up to, not including, op
    --marker NAME           (Lottie) the frames of the marker NAME's range
    --fps F                 frames per second of a sequence (default 60, a Lottie
                            document's own frame rate fr; 0.001...10000)
    --video PATH            write the sequence as a video (format by extension, above;
                            written whole or not at all), or YUV4MPEG2 to standard
                            output with -
    --codec NAME            the ffmpeg encoder instead of the format's (libx265,
                            h264_nvenc, hevc_nvenc, h264_vaapi, …); checked first
    --crf N                 quality for libx264/libx265 (0...51, default 18) and
                            libvpx-vp9 (0...63, default 24); lower is better
    --bitrate R             a target bitrate instead (4M, 800k), not for GIF, APNG,
                            ProRes
    --no-pad                refuse frames of an odd width or height for a 4:2:0 codec
                            (H.264) instead of padding them to even with the
                            background (black where it is transparent)
    --quiet                 do not name on standard error what a Lottie import left out
                            (one line per kind of unsupported feature)
    --png-compression C     how hard PNG files are compressed: fast (zlib level 1, the
                            sub filter), default (level 6, the Paeth filter) or best
                            (level 9, every filter tried)
    --verbose               (every command's) a sequence also reports its wall time a
                            frame and how much of it the writer threads spent
                            encoding PNG files
    --dry-run               print each frame's output, time (and Lottie frame), render
                            nothing
    --dump-plan             print the frame plan of every frame drawn (one line per
                            pass and per batch) to standard output (to standard error
                            when the video goes to standard output); without -o, one
                            frame is only planned and drawn
  \(AccessOptions.usage)
  \(ExpressionOptions.usage)
    -h, --help              print this help

  examples:
    lamina render scene.json -o out.png --time 1.5 --scale 2
    lamina render scene.json --frames 0..239 --fps 30 --video out.mp4
    lamina render scene.json --frames 0..59 --fps 30 --video badge.webm --crf 30
    lamina render scene.json --frames 0..239 --video - | ffmpeg -i - out.mkv
    lamina render anim.json --frames all --video anim.mp4
    lamina render sticker.tgs -o frame.png --frame 30 --background '#ffffff'
  """

/// `lamina render FILE.json -o OUT.png [--time T | --frame F] [--scale S]
/// [--background COLOR]`, or a sequence: `--frames A..B|all` or `--marker
/// NAME`, `--fps F`, with `-o 'frame-%04d.png'` or `--video OUT.mp4` (or
/// .webm, .gif, .apng, .mov, .y4m; `-` for a YUV4MPEG2 stream to standard
/// output) with `--codec`, `--crf`, `--bitrate`. `--dump-plan` prints the
/// plan of every frame drawn.
func runRender(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments,
      valued: AccessOptions.valued.union(ExpressionOptions.valued).union([
        "-o", "--output", "--time", "--frame", "--scale", "--frames", "--fps", "--video",
        "--codec", "--crf", "--bitrate", "--background", "--marker", "--png-compression",
      ]),
      switches: AccessOptions.switches.union([
        "--dump-plan", "--quiet", "--dry-run", "--no-pad",
      ]),
      command: "render", usage: renderUsage)
    guard options.positional.count == 1 else {
      throw UsageError("render needs one scene file\n" + renderUsage)
    }
    let output = options.string("-o") ?? options.string("--output")
    let video = options.string("--video")
    let marker = options.string("--marker")
    let sequence = options.string("--frames") != nil || video != nil || marker != nil
    let dumpPlan = options.has("--dump-plan")
    let source = RenderJob.Source.file(URL(fileURLWithPath: options.positional[0]))
    let access = try AccessOptions.policy(options)
    var request = DocumentRequest()
    request.background = try options.string("--background").map(backgroundColor)
    request.quiet = options.has("--quiet")
    request.dryRun = options.has("--dry-run")
    var job: RenderJob
    if sequence {
      guard options.string("--frames") != nil || marker != nil else {
        throw UsageError("--video needs --frames A..B (or --frames all, --marker NAME)")
      }
      if options.string("--frames") != nil && marker != nil {
        throw UsageError("--marker does not go with --frames")
      }
      guard (output == nil) != (video == nil) else {
        throw UsageError("a sequence needs either -o 'frame-%04d.png' or --video OUT.mp4")
      }
      let settings = try videoSettings(options, video: video)
      guard options.string("--time") == nil, options.string("--frame") == nil else {
        throw UsageError(
          "\(options.string("--time") != nil ? "--time" : "--frame") does not go with --frames")
      }
      let frames = options.string("--frames") ?? "all"
      let range: FrameRange
      if let marker {
        request.frames = .marker(marker)
        range = FrameRange(first: 0, last: 0)
      } else if frames == "all" {
        request.frames = .all
        range = FrameRange(first: 0, last: 0)
      } else {
        range = try FrameRange(frames)
      }
      let pattern = try output.map { try FramePattern($0) }
      let fps = try options.number("--fps", range: RenderJob.fpsRange)
      request.fpsGiven = fps != nil
      let scale = try options.number("--scale", range: RenderJob.scaleRange)
      if request.frames == nil, let fps {
        try RenderJob.checkTimes(range, fps: fps, frames: frames)
      }
      job = RenderJob(
        source: source, output: .sequence(range, fps: fps ?? 60, pattern: pattern, video: video),
        scale: scale, videoSettings: settings)
    } else {
      guard output != nil || dumpPlan || request.dryRun else {
        throw UsageError("render needs -o OUT.png (or --dump-plan)")
      }
      if options.string("--fps") != nil { throw UsageError("--fps goes with --frames") }
      for name in ["--codec", "--crf", "--bitrate"] where options.string(name) != nil {
        throw UsageError("\(name) goes with --video")
      }
      if options.string("--time") != nil && options.string("--frame") != nil {
        throw UsageError("--time and --frame name the same thing: give one")
      }
      let time = try options.number("--time", range: RenderJob.timeRange) ?? 0
      request.frame = try options.number("--frame", range: -1e9...1e9)
      let scale = try options.number("--scale", range: RenderJob.scaleRange)
      job = RenderJob(
        source: source, output: output.map { .image(path: $0, time: time) } ?? .plan(time: time),
        scale: scale)
    }
    job.access = access
    job.expressions = try ExpressionOptions.policy(options)
    job.document = request
    // (`--verbose` is every command's, taken off the arguments in main.swift.)
    job.verbose = verbose
    if let level = options.string("--png-compression") {
      guard let compression = PNGCompression(rawValue: level) else {
        throw UsageError("--png-compression expects fast, default or best, got '\(level)'")
      }
      PNGFile.compression = compression
    }
    let renderer = try Renderer()
    if dumpPlan { renderer.planObserver = planPrinter(toError: video == "-") }
    try job.run(
      renderer: renderer, watchdog: FrameWatchdog(file: sceneName(options.positional[0])))
    return 0
  }
}

/// `--codec`, `--crf` and `--bitrate`, checked with the video's format
/// (its extension, the encoder on this machine) before anything loads.
func videoSettings(_ options: Options, video: String?) throws -> VideoSettings {
  var settings = VideoSettings(
    codec: options.string("--codec"), bitrate: options.string("--bitrate"),
    pad: !options.has("--no-pad"))
  if let text = options.string("--crf") {
    guard let crf = Int(text) else {
      throw UsageError("--crf expects a whole number, got '\(text)'")
    }
    settings.crf = crf
  }
  guard let video else {
    if !settings.isDefault {
      throw UsageError("--codec, --crf, --bitrate and --no-pad go with --video")
    }
    return settings
  }
  try VideoEncoder.check(path: video, settings: settings)
  return settings
}

/// `--background COLOR` (and a batch job's `background`): `#rrggbb` or `#rrggbbaa`.
func backgroundColor(_ text: String) throws -> CGColor {
  guard let color = CGColor(hex: text) else {
    throw UsageError("--background expects a color #rrggbb or #rrggbbaa, got '\(text)'")
  }
  return color
}

/// Writes each frame plan to standard output (or error).
func planPrinter(toError: Bool) -> (FramePlan) -> Void {
  { plan in
    let text = Data((plan.description + "\n" + plan.breakSummary + "\n").utf8)
    (toError ? FileHandle.standardError : FileHandle.standardOutput).write(text)
  }
}

/// The scene file's name, as errors give it.
func sceneName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }
