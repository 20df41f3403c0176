import Foundation
import LaminaFrame

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
package final class SequenceWriter: @unchecked Sendable {
  private let pattern: FramePattern?
  private let video: OutputFile?
  private let encoder: VideoEncoder?
  private let lock = NSLock()
  private var frames: [(Int, OutputFile)] = []
  private var encoding: UInt64 = 0

  /// Seconds the writer threads spent encoding PNG files, all together.
  package var encodeSeconds: Double {
    lock.lock()
    defer { lock.unlock() }
    return Double(encoding) / 1e9
  }
  private var madeFolders: [String] = []
  private var y4m: Y4MWriter?

  /// Numbered PNG files named by `pattern`.
  package init(pattern: FramePattern) {
    self.pattern = pattern
    video = nil
    encoder = nil
  }

  /// A YUV4MPEG2 stream to `videoPath` (`-`: standard output) at `fps`.
  package init(videoPath: String, fps: Double) throws {
    pattern = nil
    video = try OutputFile(path: videoPath)
    encoder = nil
  }

  /// An encoded video (MP4, WebM, GIF, APNG, MOV), already started.
  package init(encoder: VideoEncoder) {
    pattern = nil
    video = nil
    self.encoder = encoder
  }

  /// Writes frame `n`. Video frames must come in order (one writer thread).
  package func write(frame n: Int, image: RenderedImage, fps: Double) throws {
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
    let start = DispatchTime.now().uptimeNanoseconds
    let data = try image.pngData()
    let spent = DispatchTime.now().uptimeNanoseconds &- start
    let file = try OutputFile(path: path)
    lock.lock()
    frames.append((n, file))
    encoding &+= spent
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
  package func finish() throws {
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
  package func abandon() {
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
