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
/// takes about the longer of the two, not their sum.
/// Output: PNG files named by `pattern`, or a YUV4MPEG2 stream to
/// `videoPath` (`-`: standard output).
func renderSequence(
  scene: Scene, renderer: Renderer, range: FrameRange, fps: Double, scale: Double?,
  pattern: FramePattern?, videoPath: String?
) throws {
  var frames = SceneFrames(scene: scene, scale: scale)
  let progress = Progress(total: range.count)
  // A video is one stream, written in order by one thread; PNG files are
  // independent, encoded on as many threads as there are cores.
  let cores = max(1, ProcessInfo.processInfo.activeProcessorCount)
  let writer =
    videoPath != nil
    ? DispatchQueue(label: "lamina.sequence.writer")
    : DispatchQueue(label: "lamina.sequence.writer", attributes: .concurrent)
  let pending = DispatchGroup()
  // At most this many frames wait for the writers: bounds memory.
  let slots = DispatchSemaphore(value: videoPath != nil ? 3 : cores + 1)
  let failure = FirstError()
  // PNG frames written so far: a sequence that fails removes them.
  let written = WrittenFiles()

  var video: VideoOutput?
  if let videoPath {
    video = try VideoOutput(path: videoPath)
  }
  defer { video?.abandon() }
  var y4m: Y4MWriter?

  var previous: (frame: Frame, image: RenderedImage)?
  do {
    for n in range.first...range.last {
      if let failed = failure.error { throw failed }
      slots.wait()
      let frame = frames.frame(at: Double(n) / fps)
      // Only what changed since the last frame is drawn again.
      let image: RenderedImage
      do {
        image =
          if let previous {
            try renderer.render(
              frame, updating: previous.image, damage: Damage(from: previous.frame, to: frame))
          } else {
            try renderer.render(frame)
          }
        try renderer.checkContext()
        if video != nil && y4m == nil {
          let writer = Y4MWriter(width: image.width, height: image.height)
          try video?.write(writer.header(fps: fps))
          y4m = writer
        }
      } catch {
        // No writer takes this slot: give it back before the semaphore goes.
        slots.signal()
        throw error
      }
      previous = (frame, image)
      let encoder = y4m
      let output = video
      writer.async(group: pending) {
        defer { slots.signal() }
        do {
          if let encoder, let output {
            try output.write(encoder.frame(image))
          } else if let pattern {
            let path = pattern.path(n)
            try FileManager.default.createDirectory(
              at: URL(fileURLWithPath: path).deletingLastPathComponent(),
              withIntermediateDirectories: true)
            try image.writePNG(to: URL(fileURLWithPath: path))
            written.add(path)
          }
          progress.frameDone()
        } catch {
          failure.record(error)
        }
      }
    }
    pending.wait()
    if let failed = failure.error { throw failed }
    try video?.finish()
  } catch {
    // Let the writers finish (or fail) before the partial output goes.
    pending.wait()
    progress.finish()
    written.removeAll()
    throw error
  }
  progress.finish()
}

/// Files a sequence wrote, removed again when it fails.
final class WrittenFiles: @unchecked Sendable {
  private let lock = NSLock()
  private var paths: [String] = []

  func add(_ path: String) {
    lock.lock()
    paths.append(path)
    lock.unlock()
  }

  func removeAll() {
    lock.lock()
    defer { lock.unlock() }
    for path in paths { unlink(path) }
    paths.removeAll()
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

/// Where a video stream goes: standard output, or a file written under a
/// temporary name and renamed when complete (no partial file on failure).
final class VideoOutput: @unchecked Sendable {
  let path: String
  private let handle: FileHandle
  private let temporary: String?
  private var finished = false

  init(path: String) throws {
    self.path = path
    if path == "-" {
      handle = FileHandle.standardOutput
      temporary = nil
    } else {
      let temp = path + ".partial-\(getpid())"
      guard FileManager.default.createFile(atPath: temp, contents: nil) else {
        throw UsageError("cannot write '\(path)'")
      }
      guard let h = FileHandle(forWritingAtPath: temp) else {
        throw UsageError("cannot write '\(path)'")
      }
      handle = h
      temporary = temp
    }
  }

  func write(_ data: Data) throws {
    try handle.write(contentsOf: data)
  }

  func finish() throws {
    guard let temporary else { return }
    try handle.close()
    if rename(temporary, path) != 0 {
      throw OutputError.rename(path: path, reason: String(cString: strerror(errno)))
    }
    finished = true
  }

  /// Removes the partial file unless `finish()` succeeded.
  func abandon() {
    guard !finished, let temporary else { return }
    try? handle.close()
    unlink(temporary)
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
