import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// Frames to render: `A..B` (inclusive) or a single `N`.
struct FrameRange {
  let first: Int
  let last: Int
  var count: Int { last - first + 1 }

  init(_ text: String) throws {
    let parts = text.components(separatedBy: "..")
    let numbers = parts.map { Int($0) }
    guard parts.count == 1 || parts.count == 2, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else {
      throw UsageError("--frames expects FIRST..LAST or N (whole numbers ≥ 0), got '\(text)'")
    }
    first = numbers[0]!
    last = numbers[numbers.count - 1]!
    guard last >= first else {
      throw UsageError("--frames: the last frame (\(last)) comes before the first (\(first))")
    }
    guard last - first < 10_000_000 else { throw UsageError("--frames: too many frames") }
  }
}

/// A file name pattern with one `%d`, `%Nd` or `%0Nd` for the frame number
/// (`%%` is a literal %).
struct FramePattern {
  let prefix: String, suffix: String
  let width: Int, zeroPadded: Bool

  init(_ pattern: String) throws {
    var prefix = ""
    var rest = Substring(pattern)
    var found: (Int, Bool)?
    var suffix = ""
    while let c = rest.first {
      rest = rest.dropFirst()
      guard c == "%" else {
        if found == nil { prefix.append(c) } else { suffix.append(c) }
        continue
      }
      if rest.first == "%" {
        rest = rest.dropFirst()
        if found == nil { prefix.append("%") } else { suffix.append("%") }
        continue
      }
      let zero = rest.first == "0"
      let digits = rest.prefix { $0.isNumber }
      rest = rest.dropFirst(digits.count)
      guard rest.first == "d", found == nil else {
        throw UsageError(
          "-o for frames needs one %d (or %04d) for the frame number, got '\(pattern)'")
      }
      rest = rest.dropFirst()
      found = (Int(digits) ?? 0, zero)
    }
    guard let (width, zero) = found else {
      throw UsageError("-o for frames needs a %d (or %04d) for the frame number, got '\(pattern)'")
    }
    self.prefix = prefix
    self.suffix = suffix
    self.width = min(width, 32)
    zeroPadded = zero
  }

  func path(_ frame: Int) -> String {
    var number = String(frame)
    if number.count < width {
      number = String(repeating: zeroPadded ? "0" : " ", count: width - number.count) + number
    }
    return prefix + number + suffix
  }
}

/// Renders frames `range` of `scene` at `fps`: frame n shows the scene at
/// n / fps seconds, independently of the frames before it. The GPU renders
/// on this thread while other threads encode and write the frames before
/// (one for a video stream, one per core for PNG files), so a sequence
/// takes about the longer of the two, not their sum. Each frame is checked
/// against the scene's limits (at its time) and the frame limits before it
/// is drawn, and timed by `watchdog`; a lost GL context is found before
/// the frame is handed to the writers.
/// Output: PNG files named by `pattern`, or a video to `videoPath`: a
/// YUV4MPEG2 stream (`.y4m`, or `-` for standard output) or a file that
/// ffmpeg encodes as its extension says (`VideoEncoder`, with `settings`),
/// through a `SequenceWriter`: on any failure nothing of the sequence is
/// left.
func renderSequence(
  scene: Scene, renderer: Renderer, range: FrameRange, fps: Double, scale: Double?,
  pattern: FramePattern?, videoPath: String?, video settings: VideoSettings = VideoSettings(),
  watchdog: FrameWatchdog? = nil
) throws {
  var frames = SceneFrames(scene: scene, scale: scale)
  // An encoded video is checked (format, encoder, size) and started before
  // any frame is drawn; a GIF's palette is chosen from a sample first.
  var encoder: VideoEncoder?
  if let videoPath, try VideoFormat(path: videoPath) != .y4m {
    let background = scene.canvas.background
    let plan = try VideoEncoder.Plan(
      path: videoPath, width: frames.builder.width, height: frames.builder.height, fps: fps,
      transparent: background == nil || (background?.alpha ?? 0) < 1, settings: settings)
    encoder = try VideoEncoder(plan: plan)
  }
  let sample =
    encoder?.wantsPaletteSample == true ? VideoEncoder.Plan.paletteSample(count: range.count) : []
  let progress = Progress(total: range.count + sample.count)
  let output: SequenceWriter =
    if let encoder { SequenceWriter(encoder: encoder) } else if let videoPath {
      try SequenceWriter(videoPath: videoPath, fps: fps)
    } else if let pattern {
      SequenceWriter(pattern: pattern)
    } else {
      throw UsageError("a sequence needs either -o 'frame-%04d.png' or --video OUT.mp4")
    }
  if let encoder, !sample.isEmpty {
    do {
      var sampleFrames = SceneFrames(scene: scene, scale: scale)
      for index in sample {
        let n = range.first + index
        let time = Double(n) / fps
        watchdog?.begin("frame \(n) (t=\(Scene.seconds(time)) s), for the palette")
        defer { watchdog?.end() }
        let image = try FrameError.naming(file: scene.fileName, frame: n, time: time) {
          let image = try renderer.render(sampleFrames.checkedFrame(at: time))
          try renderer.checkContext()
          return image
        }
        try encoder.addPaletteSample(image)
        progress.frameDone()
      }
    } catch {
      output.abandon()
      progress.finish()
      throw error
    }
  }
  // A video is one stream, written in order by one thread; PNG files are
  // independent, encoded on as many threads as there are cores.
  let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
  let writer =
    videoPath != nil
    ? DispatchQueue(label: "lamina.sequence.writer")
    : DispatchQueue(label: "lamina.sequence.writer", attributes: .concurrent)
  let pending = DispatchGroup()
  // At most this many frames wait for the writers: bounds memory. The
  // semaphore starts at 0 and is raised to its count, so that libdispatch
  // never finds it "in use" when it goes, however the loop ends.
  let slots = DispatchSemaphore(value: 0)
  for _ in 0..<(videoPath != nil ? 3 : cores + 1) { slots.signal() }
  let failure = FirstError()

  var previous: (frame: Frame, image: RenderedImage)?
  do {
    for n in range.first...range.last {
      if let failed = failure.error { throw failed }
      let time = Double(n) / fps
      watchdog?.begin("frame \(n) (t=\(Scene.seconds(time)) s)")
      defer { watchdog?.end() }
      let image = try FrameError.naming(file: scene.fileName, frame: n, time: time) {
        let frame = try frames.checkedFrame(at: time)
        // Only what changed since the last frame is drawn again.
        let image =
          if let previous {
            try renderer.render(
              frame, updating: previous.image, damage: Damage(from: previous.frame, to: frame))
          } else {
            try renderer.render(frame)
          }
        previous = (frame, image)
        try renderer.checkContext()
        return image
      }
      // Waiting for the writers (a slow pipe) is not the frame's time.
      watchdog?.end()
      slots.wait()
      writer.async(group: pending) {
        defer { slots.signal() }
        do {
          try output.write(frame: n, image: image, fps: fps)
          progress.frameDone()
        } catch {
          failure.record(error)
        }
      }
    }
    pending.wait()
    if let failed = failure.error { throw failed }
    try output.finish()
  } catch {
    // Let the writers finish (or fail) before the partial output goes.
    pending.wait()
    output.abandon()
    progress.finish()
    throw error
  }
  progress.finish()
}

/// A frame of a scene that could not be rendered: names the file and the frame.
struct FrameError: Error, CustomStringConvertible {
  let file: String
  let frame: Int?
  let time: Double
  let underlying: Error

  var description: String {
    let which = frame.map { "frame \($0) (t=\(Scene.seconds(time)) s)" }
      ?? "frame at t=\(Scene.seconds(time)) s"
    return "\(file): \(which): \(underlying)"
  }
}

extension FrameError {
  /// Runs `body`, the drawing of one frame: its errors come out as
  /// `FrameError`s naming the file and the frame, except a `SceneError`
  /// (which names them already) and a lost GL context (as it is, so that
  /// `lamina batch` retries the job on a new context).
  static func naming<T>(file: String, frame: Int?, time: Double, _ body: () throws -> T) throws
    -> T
  {
    do {
      return try body()
    } catch let error as SceneError {
      throw error
    } catch let error as RendererError where error.meansContextLost {
      throw error
    } catch {
      throw FrameError(file: file, frame: frame, time: time, underlying: error)
    }
  }
}

/// The first error of the writer threads.
final class FirstError: @unchecked Sendable {
  private let lock = NSLock()
  private var first: Error?

  var error: Error? {
    lock.lock()
    defer { lock.unlock() }
    return first
  }

  func record(_ error: Error) {
    lock.lock()
    if first == nil { first = error }
    lock.unlock()
  }
}

/// Writes the frames of a sequence, in any order from any thread: numbered
/// PNG files or one YUV4MPEG2 stream, each through an `OutputFile`. Until
/// `finish()` nothing appears under a final name that is a regular file: the
/// PNG files wait under temporary names and are all renamed at the end, the
/// stream is renamed whole. `abandon()` removes every temporary file and the
/// folders the pattern made, so a failed sequence leaves nothing behind.
/// Devices, FIFOs and standard output are written as the frames come.
///
/// ```swift
/// let out = SequenceWriter(pattern: try FramePattern("out/frame-%04d.png"))
/// try out.write(frame: 0, image: image, fps: 60)
/// try out.finish()
/// ```
final class SequenceWriter: @unchecked Sendable {
  private let pattern: FramePattern?
  private let video: OutputFile?
  private let encoder: VideoEncoder?
  private let lock = NSLock()
  private var frames: [(Int, OutputFile)] = []
  private var madeFolders: [String] = []
  private var y4m: Y4MWriter?

  /// Numbered PNG files named by `pattern`.
  init(pattern: FramePattern) {
    self.pattern = pattern
    video = nil
    encoder = nil
  }

  /// A YUV4MPEG2 stream to `videoPath` (`-`: standard output) at `fps`.
  init(videoPath: String, fps: Double) throws {
    pattern = nil
    video = try OutputFile(path: videoPath)
    encoder = nil
  }

  /// An encoded video (MP4, WebM, GIF, APNG, MOV), already started.
  init(encoder: VideoEncoder) {
    pattern = nil
    video = nil
    self.encoder = encoder
  }

  /// Writes frame `n`. Video frames must come in order (one writer thread).
  func write(frame n: Int, image: RenderedImage, fps: Double) throws {
    if let encoder {
      try encoder.write(image)
      return
    }
    if let video {
      if y4m == nil {
        let writer = Y4MWriter(width: image.width, height: image.height)
        try video.write(writer.header(fps: fps))
        y4m = writer
      }
      guard let y4m, y4m.width == image.width, y4m.height == image.height else {
        throw OutputError.write(path: video.path, reason: "frame size changed within the stream")
      }
      try video.write(y4m.frame(image))
      return
    }
    guard let pattern else { return }
    let path = pattern.path(n)
    try makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent().path)
    let data = try image.pngData()
    let file = try OutputFile(path: path)
    lock.lock()
    frames.append((n, file))
    lock.unlock()
    try file.write(data)
  }

  /// Makes `folder` and its missing parents, remembering those it made.
  private func makeFolder(_ folder: String) throws {
    lock.lock()
    defer { lock.unlock() }
    var missing: [String] = []
    var current = folder
    while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
      missing.append(current)
      current = URL(fileURLWithPath: current).deletingLastPathComponent().path
    }
    for made in missing.reversed() {
      guard mkdir(made, 0o777) == 0 || errno == EEXIST else {
        throw OutputError.open(path: made, reason: String(cString: strerror(errno)))
      }
      madeFolders.append(made)
    }
  }

  /// Puts every frame under its final name (in frame order).
  func finish() throws {
    if let encoder {
      try encoder.finish()
      return
    }
    if let video {
      try video.commit()
      return
    }
    lock.lock()
    let files = frames.sorted { $0.0 < $1.0 }
    lock.unlock()
    var done: [OutputFile] = []
    do {
      for (_, file) in files {
        try file.commit()
        done.append(file)
      }
    } catch {
      // All or nothing: the frames already renamed go too.
      for file in done { if case .atomic(_, let target) = file.mode { unlink(target) } }
      throw error
    }
  }

  /// Removes what the sequence wrote, and the folders it made when empty.
  func abandon() {
    encoder?.abandon()
    video?.discard()
    lock.lock()
    let files = frames
    let folders = madeFolders
    lock.unlock()
    for (_, file) in files { file.discard() }
    for folder in folders.reversed() { rmdir(folder) }
  }
}

/// A progress line on standard error when it is a terminal (frames done,
/// frames per second, time left); nothing otherwise.
final class Progress: @unchecked Sendable {
  let total: Int
  private let enabled = isatty(2) != 0
  private let start = DispatchTime.now().uptimeNanoseconds
  private var done = 0
  private let lock = NSLock()

  init(total: Int) { self.total = total }

  func frameDone() {
    lock.lock()
    done += 1
    let done = self.done
    lock.unlock()
    guard enabled else { return }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let fps = seconds > 0 ? Double(done) / seconds : 0
    let left = fps > 0 ? Double(total - done) / fps : 0
    let width = 30
    let filled = total > 0 ? width * done / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let line = String(
      format: "\r[%@] %d/%d frames  %.1f fps  %.1f s left ", bar, done, total, fps, left)
    FileHandle.standardError.write(Data(line.utf8))
  }

  func finish() {
    if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
