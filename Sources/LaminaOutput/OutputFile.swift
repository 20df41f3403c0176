import Foundation
import LaminaFrame

/// One output of a command, written so that a failure leaves nothing behind
/// and nothing that is not a plain file is ever replaced:
///
/// - `-` is standard output;
/// - a regular file (or a name that does not exist yet) is written under a
///   temporary name beside it and renamed over it by `commit()`: it appears
///   whole or not at all, and `discard()` (or a failure, or deinit without
///   a commit) removes the temporary file;
/// - a symbolic link is followed: its target is what is written (atomically
///   when the target is a regular file), and the link stays a link;
/// - a device, a FIFO or a socket is opened and written through (`/dev/null`
///   stays `/dev/null`, a FIFO's reader sees the bytes as they come).
///
/// ```swift
/// let out = try OutputFile(path: "out.y4m")
/// try out.write(header)
/// try out.write(frame)
/// try out.commit()      // out.y4m appears now
/// ```
package final class OutputFile: @unchecked Sendable {
  /// How the bytes reach `path`.
  package enum Mode: Equatable, Sendable {
    /// Standard output.
    case standardOutput
    /// A temporary file renamed over `target` on commit.
    case atomic(temporary: String, target: String)
    /// `target` itself, opened for writing (a device, a FIFO).
    case through(target: String)
  }

  /// The path as given.
  package let path: String
  package let mode: Mode
  private var descriptor: Int32
  private var state = State.open
  private let lock = NSLock()

  private enum State { case open, committed, discarded }

  /// Opens `path` for writing (`-`: standard output), as the type's
  /// documentation says.
  package init(path: String) throws {
    self.path = path
    if path == "-" {
      mode = .standardOutput
      descriptor = STDOUT_FILENO
      return
    }
    let target = try Self.resolve(path)
    var info = stat()
    if stat(target, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
      guard (info.st_mode & S_IFMT) != S_IFDIR else {
        throw OutputError.open(path: path, reason: "is a directory")
      }
      let fd = open(target, O_WRONLY | O_CLOEXEC)
      guard fd >= 0 else { throw OutputError.open(path: path, reason: Self.reason()) }
      mode = .through(target: target)
      descriptor = fd
      return
    }
    let url = URL(fileURLWithPath: target)
    let directory = url.deletingLastPathComponent().path
    // Hidden, unique, and in the target's own directory, so that the rename
    // is atomic and never crosses file systems.
    var fd: Int32 = -1
    var temporary = ""
    for attempt in 0..<100 {
      temporary =
        (directory.isEmpty ? "." : directory)
        + "/.\(url.lastPathComponent).\(getpid())-\(Self.nextSerial())-\(attempt).tmp"
      fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
      if fd >= 0 || errno != EEXIST { break }
    }
    guard fd >= 0 else { throw OutputError.open(path: path, reason: Self.reason()) }
    mode = .atomic(temporary: temporary, target: target)
    descriptor = fd
    Self.live(temporary, true)
  }

  deinit { discard() }

  /// Writes all of `data`.
  package func write(_ data: Data) throws {
    lock.lock()
    defer { lock.unlock() }
    guard state == .open else {
      throw OutputError.open(path: path, reason: "written after it was closed")
    }
    try data.withUnsafeBytes { raw in
      guard var p = raw.baseAddress else { return }
      var left = raw.count
      while left > 0 {
        let n = Foundation.write(descriptor, p, left)
        if n < 0 {
          if errno == EINTR { continue }
          throw OutputError.write(path: path, reason: Self.reason())
        }
        p += n
        left -= n
      }
    }
  }

  /// Finishes the output: a temporary file is renamed over its target.
  package func commit() throws {
    lock.lock()
    defer { lock.unlock() }
    guard state == .open else { return }
    switch mode {
    case .standardOutput:
      state = .committed
    case .through:
      state = .committed
      guard close(descriptor) == 0 else {
        throw OutputError.write(path: path, reason: Self.reason())
      }
    case .atomic(let temporary, let target):
      let closed = close(descriptor)
      let reasonAtClose = Self.reason()
      guard closed == 0 else {
        unlink(temporary)
        Self.live(temporary, false)
        state = .discarded
        throw OutputError.write(path: path, reason: reasonAtClose)
      }
      guard rename(temporary, target) == 0 else {
        let reason = Self.reason()
        unlink(temporary)
        Self.live(temporary, false)
        state = .discarded
        throw OutputError.rename(path: path, reason: reason)
      }
      Self.live(temporary, false)
      state = .committed
    }
  }

  /// Abandons the output: a temporary file is removed; what was written
  /// through a device or FIFO stays written. Nothing after a commit.
  package func discard() {
    lock.lock()
    defer { lock.unlock() }
    guard state == .open else { return }
    state = .discarded
    switch mode {
    case .standardOutput: break
    case .through: close(descriptor)
    case .atomic(let temporary, _):
      close(descriptor)
      unlink(temporary)
      Self.live(temporary, false)
    }
  }

  /// Removes the temporary file of every output neither committed nor
  /// discarded yet, without waiting on any output: for a process that must
  /// exit at once (a frame past its time budget, a signal).
  package static func removeAllTemporaries() {
    temporariesLock.lock()
    let paths = temporaries
    temporaries.removeAll()
    temporariesLock.unlock()
    for path in paths { unlink(path) }
  }

  private static let temporariesLock = NSLock()
  nonisolated(unsafe) private static var temporaries = Set<String>()

  private static func live(_ path: String, _ isLive: Bool) {
    temporariesLock.lock()
    if isLive { temporaries.insert(path) } else { temporaries.remove(path) }
    temporariesLock.unlock()
  }

  /// The file a write to `path` reaches: `path`, or the target its
  /// symbolic links lead to (a link to a file that does not exist yet
  /// leads to that name).
  static func resolve(_ path: String) throws -> String {
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        if errno == ENOENT { return current }
        throw OutputError.open(path: path, reason: reason())
      }
      guard (info.st_mode & S_IFMT) == S_IFLNK else { return current }
      var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
      let n = readlink(current, &buffer, buffer.count - 1)
      guard n >= 0 else { throw OutputError.open(path: path, reason: reason()) }
      let link = String(
        decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      current =
        link.hasPrefix("/")
        ? link
        : URL(fileURLWithPath: current).deletingLastPathComponent().appendingPathComponent(link)
          .path
    }
    throw OutputError.open(path: path, reason: "too many levels of symbolic links")
  }

  static func reason() -> String { String(cString: strerror(errno)) }

  private static let serialLock = NSLock()
  nonisolated(unsafe) private static var serial = 0
  static func nextSerial() -> Int {
    serialLock.lock()
    defer { serialLock.unlock() }
    serial += 1
    return serial
  }
}
