import Foundation
import Lamina
import LaminaFrame

/// Encodes frames into an MP4, WebM, GIF, APNG or MOV file by running the
/// `ffmpeg` program as a child that reads raw RGBA frames on its standard
/// input. Running the program, rather than linking Debian's libavcodec
/// (built with GPL parts such as x264), keeps the `lamina` binary under its
/// own licence, and uses whatever encoders the machine's ffmpeg has
/// (`h264_nvenc`, …). See docs/video.md.
///
/// The file appears whole or not at all: ffmpeg writes an `OutputFile`'s
/// temporary, which `finish()` renames once ffmpeg has exited cleanly;
/// `abandon()`, a failure or a signal (`terminateAll()`) removes it.
///
/// ```swift
/// let plan = try VideoEncoder.Plan(
///   path: "out.mp4", width: 640, height: 360, fps: 30, transparent: false)
/// let video = try VideoEncoder(plan: plan)
/// for image in frames { try video.write(image) }
/// try video.finish()
/// ```
package final class VideoEncoder: @unchecked Sendable {
  /// Everything about a video that can be checked before any frame is
  /// rendered: the format, the encoder and its options, the size.
  package struct Plan: Sendable {
    package let path: String
    package let format: VideoFormat
    package let codec: String
    package let settings: VideoSettings
    package let width: Int
    package let height: Int
    package let fps: Double
    /// The canvas has transparency: formats with alpha keep it.
    package let transparent: Bool
    /// The ffmpeg program.
    package let ffmpeg: String
    /// The video's size when the frames are padded to an even width and
    /// height (a 4:2:0 codec needs them; the frames are rendered at their
    /// own size and ffmpeg adds a column or a row of `padColor` on the
    /// right and at the bottom); nil when they are encoded as they are.
    package let paddedSize: (width: Int, height: Int)?
    /// What the padding is filled with: the canvas background where it is
    /// opaque, else black (what a transparent canvas shows in a video with
    /// no alpha), as `0xRRGGBB`.
    package let padColor: String

    /// Checks `path`'s format, the settings, ffmpeg and its encoder, and
    /// the size, throwing a `VideoError` that names `path`.
    package init(
      path: String, width: Int, height: Int, fps: Double, transparent: Bool,
      background: CGColor? = nil, settings: VideoSettings = VideoSettings()
    ) throws {
      let format = try VideoEncoder.check(path: path, settings: settings)
      guard format != .y4m else {
        throw VideoError.setting(path: path, reason: "YUV4MPEG2 is written by lamina itself")
      }
      let codec = settings.codec ?? format.defaultCodec
      let ffmpeg = try FFmpeg.program(for: path)
      self.path = path
      self.format = format
      self.codec = codec
      self.settings = settings
      self.width = width
      self.height = height
      self.fps = fps
      self.transparent = transparent
      self.ffmpeg = ffmpeg
      let odd = width % 2 != 0 || height % 2 != 0
      // (VP9 codes odd sizes itself.)
      if odd, format == .mp4 || format == .webm, !codec.hasPrefix("libvpx") {
        guard settings.pad else {
          throw VideoError.oddSize(path: path, codec: codec, width: width, height: height)
        }
        paddedSize = (width + width % 2, height + height % 2)
      } else {
        paddedSize = nil
      }
      padColor = Self.hex(transparent ? nil : background)
      // An encoder the user named may be listed yet unable to run here (a
      // hardware encoder without its driver): one black frame tells.
      if settings.codec != nil, format != .gif { try FFmpeg.tryEncoder(self) }
    }

    /// `0xRRGGBB` of an opaque `color`'s components; black for nil.
    static func hex(_ color: CGColor?) -> String {
      guard let c = color?.components, c.count >= 3 else { return "0x000000" }
      let bytes = c.prefix(3).map {
        Int(saturating: min(max($0, 0), 1) * 255, rounding: .toNearestOrAwayFromZero)
      }
      return "0x" + bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// True when the frames keep their alpha.
    package var hasAlpha: Bool {
      switch format {
      case .apng, .mov: return true
      case .webm, .gif: return transparent
      case .mp4, .y4m: return false
      }
    }

    /// The pixel format the encoder is given.
    package var pixelFormat: String {
      switch format {
      case .mp4, .y4m: return "yuv420p"
      case .webm: return hasAlpha ? "yuva420p" : "yuv420p"
      case .mov: return "yuva444p10le"
      case .apng: return "rgba"
      case .gif: return "pal8"
      }
    }

    var chroma420: Bool { pixelFormat.contains("420") }

    /// BT.709 for HD sizes (720 lines and up), BT.601 below, as players
    /// assume for untagged video of those sizes; nil for RGB formats.
    package var colorMatrix: ColorMatrix? {
      guard format.isYUV else { return nil }
      return height >= 720 ? .bt709 : .bt601
    }

    /// The frame rate as a ratio (29.97 → 30000/1001).
    package var rate: (Int, Int) { FFmpeg.rational(fps) }

    /// The palette of a GIF is chosen from these frames (indices into
    /// the `count` frames of the video, from 0): at most `maxPaletteSample`,
    /// evenly spread from the first to the last.
    package static func paletteSample(count: Int) -> [Int] {
      let n = min(count, maxPaletteSample)
      guard n > 1 else { return count > 0 ? [0] : [] }
      return (0..<n).map { $0 * (count - 1) / (n - 1) }
    }

    /// The most frames a GIF's palette is chosen from.
    package static let maxPaletteSample = 32

    /// ffmpeg's arguments to encode raw frames from its standard input
    /// into `output`; `palette`, for a GIF, is the palette image.
    package func arguments(output: String, palette: String? = nil) -> [String] {
      var a = ["-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
      a += [
        "-f", "rawvideo", "-pix_fmt", hasAlpha ? "rgba" : "rgb0", "-s", "\(width)x\(height)",
        "-framerate", "\(rate.0)/\(rate.1)", "-i", "pipe:0",
      ]
      if let palette { a += ["-i", "file:" + palette] }
      var filters: [String] = []
      if let (w, h) = paddedSize { filters.append("pad=\(w):\(h):0:0:color=\(padColor)") }
      if let matrix = colorMatrix {
        // swscale converts with the matrix the tags name, to limited range.
        filters.append("scale=out_color_matrix=\(matrix.swscale):out_range=tv")
        filters.append("format=\(pixelFormat)")
        filters.append(
          "setparams=range=tv:color_primaries=\(matrix.tag):color_trc=\(matrix.tag)"
            + ":colorspace=\(matrix.tag)")
      }
      if codec.hasSuffix("_vaapi") {
        filters = filters.map { $0.hasPrefix("format=") ? "format=nv12" : $0 } + ["hwupload"]
        a = ["-vaapi_device", "/dev/dri/renderD128"] + a
      }
      switch format {
      case .gif:
        a += [
          "-filter_complex",
          "[0:v][1:v]paletteuse=dither=sierra2_4a"
            + (hasAlpha ? ":alpha_threshold=128" : ""),
          "-loop", "0",
        ]
      case .apng:
        a += ["-pix_fmt", "rgba", "-plays", "0", "-pred", "mixed"]
      default:
        a += ["-vf", filters.joined(separator: ",")]
      }
      a += ["-c:v", codec]
      if let matrix = colorMatrix {
        a += [
          "-color_primaries", matrix.tag, "-color_trc", matrix.tag, "-colorspace", matrix.tag,
          "-color_range", "tv",
        ]
      }
      switch codec {
      case "libx264", "libx265":
        a += ["-crf", String(settings.crf ?? 18)]
      case "libvpx-vp9":
        a += ["-deadline", "good", "-cpu-used", "4", "-row-mt", "1"]
        if settings.bitrate == nil { a += ["-crf", String(settings.crf ?? 24), "-b:v", "0"] }
      case "prores_ks":
        a += ["-profile:v", "4444", "-vendor", "apl0"]
      default:
        if let crf = settings.crf { a += ["-crf", String(crf)] }
      }
      if let bitrate = settings.bitrate { a += ["-b:v", bitrate] }
      if format == .mp4 { a += ["-movflags", "+faststart"] }
      a += ["-f", format.muxer, "file:" + output]
      return a
    }

    /// ffmpeg's arguments to choose a GIF's palette from the sample frames
    /// on its standard input and write it to `output` (a PNG).
    package func paletteArguments(output: String) -> [String] {
      [
        "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
        "-f", "rawvideo", "-pix_fmt", hasAlpha ? "rgba" : "rgb0", "-s", "\(width)x\(height)",
        "-framerate", "\(rate.0)/\(rate.1)", "-i", "pipe:0",
        "-vf",
        "palettegen=stats_mode=full"
          + (hasAlpha ? ":reserve_transparent=1" : ":reserve_transparent=0"),
        "-frames:v", "1", "-update", "1", "-f", "image2", "-c:v", "png", "file:" + output,
      ]
    }
  }

  /// The RGB → YUV matrix of a video (and the tags that say so).
  package enum ColorMatrix: String, Sendable {
    /// ITU-R BT.709 (HD).
    case bt709
    /// ITU-R BT.601 (SD), tagged as SMPTE 170M.
    case bt601

    /// swscale's name for the matrix.
    var swscale: String { rawValue }
    /// The value of ffmpeg's `color_primaries`, `color_trc` and `colorspace`.
    package var tag: String { self == .bt709 ? "bt709" : "smpte170m" }
  }

  /// Checks what can be checked of a video before its scene is loaded:
  /// the format `path`'s extension names, `settings` for it, and for an
  /// encoded format ffmpeg and its encoder. Returns the format.
  @discardableResult
  package static func check(path: String, settings: VideoSettings) throws -> VideoFormat {
    let format = try VideoFormat(path: path)
    try settings.check(for: format, path: path)
    guard format != .y4m else { return format }
    // Before anything opens it: opening a FIFO would wait for a reader.
    var info = stat()
    if let target = try? OutputFile.resolve(path), stat(target, &info) == 0,
      (info.st_mode & S_IFMT) != S_IFREG
    {
      throw VideoError.notAFile(path: path, format: format.rawValue)
    }
    let codec = settings.codec ?? format.defaultCodec
    let ffmpeg = try FFmpeg.program(for: path)
    guard try FFmpeg.encoders(ffmpeg).contains(codec) else {
      throw VideoError.missingEncoder(path: path, codec: codec, ffmpeg: ffmpeg)
    }
    return format
  }

  package let plan: Plan
  private let output: OutputFile
  private var child: Child?
  private var palette: (file: OutputFile, child: Child)?
  private var chosenPalette: OutputFile?

  /// Starts encoding to `plan.path`: creates the temporary file and starts
  /// ffmpeg (for a GIF, first the palette chooser, which `addPaletteSample`
  /// feeds; the encoder starts with the first `write`).
  package init(plan: Plan) throws {
    self.plan = plan
    output = try OutputFile(path: plan.path)
    guard case .atomic(let temporary, _) = output.mode else {
      output.discard()
      throw VideoError.notAFile(path: plan.path, format: plan.format.rawValue)
    }
    do {
      if plan.format == .gif {
        let file = try OutputFile(path: plan.path + ".palette.png")
        guard case .atomic(let paletteTemporary, _) = file.mode else {
          file.discard()
          throw VideoError.notAFile(path: plan.path, format: plan.format.rawValue)
        }
        do {
          palette = (
            file,
            try Child(
              plan.ffmpeg, plan.paletteArguments(output: paletteTemporary), path: plan.path)
          )
        } catch {
          file.discard()
          throw error
        }
      } else {
        child = try Child(plan.ffmpeg, plan.arguments(output: temporary), path: plan.path)
      }
    } catch {
      output.discard()
      throw error
    }
  }

  deinit { abandon() }

  /// True until the GIF palette is chosen: frames of
  /// `Plan.paletteSample` go to `addPaletteSample` before the first `write`.
  package var wantsPaletteSample: Bool { palette != nil }

  /// One frame of the GIF's palette sample.
  package func addPaletteSample(_ image: RenderedImage) throws {
    guard let palette else { return }
    try palette.child.write(pixels(image))
  }

  /// Encodes the next frame (frames come in order, from one thread).
  package func write(_ image: RenderedImage) throws {
    guard image.width == plan.width, image.height == plan.height else {
      throw VideoError.sizeChanged(path: plan.path)
    }
    if let palette {
      // The palette file stays until the encoder has read it (`finish`).
      self.palette = nil
      chosenPalette = palette.file
      try palette.child.finish()
      guard case .atomic(let paletteFile, _) = palette.file.mode,
        case .atomic(let temporary, _) = output.mode
      else { return }
      child = try Child(
        plan.ffmpeg, plan.arguments(output: temporary, palette: paletteFile), path: plan.path)
    }
    try child?.write(pixels(image))
  }

  /// Ends the stream, waits for ffmpeg to finish the file, and puts it
  /// under its name.
  package func finish() throws {
    do {
      if palette != nil {
        throw VideoError.encoderFailed(path: plan.path, status: 0, log: "no frames were written")
      }
      try child?.finish()
      child = nil
      chosenPalette?.discard()
      try output.commit()
    } catch {
      abandon()
      throw error
    }
  }

  /// Stops ffmpeg and removes what it wrote.
  package func abandon() {
    child?.kill()
    child = nil
    if let palette {
      palette.child.kill()
      palette.file.discard()
      self.palette = nil
    }
    chosenPalette?.discard()
    output.discard()
  }

  /// Kills every ffmpeg child at once, without waiting (a signal, a frame
  /// past its time budget); `OutputFile.removeAllTemporaries()` then
  /// removes what they wrote.
  package static func terminateAll() { Child.killAll() }

  /// The frame's bytes as ffmpeg reads them: straight RGBA for formats
  /// with alpha, else the premultiplied pixels (the image over black) with
  /// the fourth byte ignored (`rgb0`).
  private func pixels(_ image: RenderedImage) -> [UInt8] {
    plan.hasAlpha ? image.straightPixels : image.premultipliedPixels
  }
}

/// The `ffmpeg` program: where it is, and what it can encode.
package enum FFmpeg {
  /// `$LAMINA_FFMPEG`, else `ffmpeg` on `$PATH`.
  static func program(for path: String) throws -> String {
    let environment = ProcessInfo.processInfo.environment
    if let named = environment["LAMINA_FFMPEG"], !named.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: named) else {
        throw VideoError.noFFmpeg(path: path, searched: "LAMINA_FFMPEG (\(named))")
      }
      return named
    }
    let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
    for folder in folders {
      let candidate = "\(folder)/ffmpeg"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw VideoError.noFFmpeg(path: path, searched: "PATH")
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var known: [String: Set<String>] = [:]

  /// The video encoders `ffmpeg` lists (`ffmpeg -encoders`), asked once per
  /// program.
  package static func encoders(_ ffmpeg: String) throws -> Set<String> {
    lock.lock()
    defer { lock.unlock() }
    if let cached = known[ffmpeg] { return cached }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = ["-hide_banner", "-encoders"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    // Lines after the legend: " V....D libx264   description".
    var names = Set<String>()
    var listing = false
    for line in text.split(separator: "\n") {
      if line.hasPrefix(" ---") {
        listing = true
        continue
      }
      let fields = line.split(separator: " ")
      guard listing, fields.count >= 2, fields[0].first == "V" else { continue }
      names.insert(String(fields[1]))
    }
    known[ffmpeg] = names
    return names
  }

  nonisolated(unsafe) private static var tried: [String: Bool] = [:]

  /// Encodes one black frame as `plan` would encode the video, to nothing;
  /// throws what ffmpeg said when it fails. Asked once per encoder, size
  /// and options.
  static func tryEncoder(_ plan: VideoEncoder.Plan) throws {
    var arguments = plan.arguments(output: "/dev/null")
    arguments.removeLast(3)  // -f MUXER file:OUTPUT
    arguments += ["-frames:v", "1", "-f", "null", "-"]
    let key = arguments.joined(separator: " ")
    lock.lock()
    let known = tried[key]
    lock.unlock()
    if known == true { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: plan.ffmpeg)
    process.arguments = arguments
    let input = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = FileHandle.nullDevice
    process.standardError = errors
    try process.run()
    let frame = [UInt8](repeating: 0, count: plan.width * plan.height * 4)
    signal(SIGPIPE, SIG_IGN)
    try? input.fileHandleForWriting.write(contentsOf: Data(frame))
    try? input.fileHandleForWriting.close()
    let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw VideoError.encoderFailed(
        path: plan.path, status: process.terminationStatus, log: String(log.suffix(2000)))
    }
    lock.lock()
    tried[key] = true
    lock.unlock()
  }

  /// `fps` as a ratio of whole numbers (29.97 → 30000:1001, 60 → 60:1).
  package static func rational(_ fps: Double) -> (Int, Int) {
    if fps == fps.rounded() { return (Int(saturating: fps), 1) }
    for den in [1001, 1000, 100, 10] {
      let num = fps * Double(den)
      // Close relative to the numerator: 0.001 fps is 1:1000, not 1:1001.
      if num.rounded() >= 1, abs(num - num.rounded()) < 1e-6 * num {
        return (Int(saturating: num, rounding: .toNearestOrAwayFromZero), den)
      }
    }
    return (Int(saturating: fps * 1000, rounding: .toNearestOrAwayFromZero), 1000)
  }
}

/// One ffmpeg process: frames go to its standard input; the end of what it
/// says on standard error is kept for the error message.
private final class Child: @unchecked Sendable {
  let process = Process()
  let input: Int32
  let inputHandle: FileHandle
  let path: String
  private let log = LogTail()
  private let logDone = DispatchSemaphore(value: 0)

  private static let lock = NSLock()
  nonisolated(unsafe) private static var running: [ObjectIdentifier: Process] = [:]

  init(_ ffmpeg: String, _ arguments: [String], path: String) throws {
    // A write to an encoder that has died must fail, not end the process.
    signal(SIGPIPE, SIG_IGN)
    self.path = path
    process.executableURL = URL(fileURLWithPath: ffmpeg)
    process.arguments = arguments
    let stdin = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderr
    inputHandle = stdin.fileHandleForWriting
    input = inputHandle.fileDescriptor
    try process.run()
    Self.lock.lock()
    Self.running[ObjectIdentifier(self)] = process
    Self.lock.unlock()
    let reader = stderr.fileHandleForReading
    let log = self.log
    let done = logDone
    Thread.detachNewThread {
      while true {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        log.append(chunk)
      }
      done.signal()
    }
  }

  /// Writes all of `bytes`; an encoder that stopped reading is an error
  /// with what it said.
  func write(_ bytes: [UInt8]) throws {
    try bytes.withUnsafeBytes { raw in
      guard var p = raw.baseAddress else { return }
      var left = raw.count
      while left > 0 {
        let n = Foundation.write(input, p, left)
        if n < 0 {
          if errno == EINTR { continue }
          try finish()
          throw VideoError.encoderFailed(path: path, status: -1, log: "stopped reading frames")
        }
        p += n
        left -= n
      }
    }
  }

  /// Closes the input and waits for ffmpeg; throws unless it succeeded.
  func finish() throws {
    try? inputHandle.close()
    process.waitUntilExit()
    logDone.wait()
    logDone.signal()
    forget()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
      throw VideoError.encoderFailed(
        path: path, status: process.terminationStatus, log: log.text)
    }
  }

  /// Ends ffmpeg at once.
  func kill() {
    if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    try? inputHandle.close()
    process.waitUntilExit()
    forget()
  }

  private func forget() {
    Self.lock.lock()
    Self.running[ObjectIdentifier(self)] = nil
    Self.lock.unlock()
  }

  static func killAll() {
    lock.lock()
    let all = Array(running.values)
    lock.unlock()
    for process in all where process.isRunning {
      Foundation.kill(process.processIdentifier, SIGKILL)
    }
  }
}

/// The last few kilobytes of a child's messages.
private final class LogTail: @unchecked Sendable {
  private let lock = NSLock()
  private var bytes = Data()

  func append(_ data: Data) {
    lock.lock()
    bytes.append(data)
    if bytes.count > 4096 { bytes = bytes.suffix(4096) }
    lock.unlock()
  }

  var text: String {
    lock.lock()
    defer { lock.unlock() }
    return String(decoding: bytes, as: UTF8.self)
  }
}
