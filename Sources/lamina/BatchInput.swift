import Foundation

/// SIGTERM and SIGINT as a request to stop between jobs: the handler only
/// records the signal and wakes `poll` through a pipe (the self-pipe
/// trick), so the job that is running finishes and writes its output.
final class BatchStop: @unchecked Sendable {
  /// Readable once a stop signal arrived.
  let descriptor: Int32
  nonisolated(unsafe) private static var writeEnd: Int32 = -1
  nonisolated(unsafe) private static var received: sig_atomic_t = 0

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw BatchError(description: "cannot make a pipe: \(String(cString: strerror(errno)))")
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    descriptor = ends[0]
    Self.writeEnd = ends[1]
    for number in [SIGTERM, SIGINT] {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { number in
        BatchStop.received = number
        var byte: UInt8 = 1
        _ = write(BatchStop.writeEnd, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      // Restart interrupted calls: the job goes on as if nothing happened.
      action.sa_flags = SA_RESTART
      sigaction(number, &action, nil)
    }
  }

  /// The stop signal that arrived, or nil.
  var signal: Int32? { Self.received == 0 ? nil : Self.received }
}

/// Lines of a jobs file or of standard input, read as they come (a driver
/// may write jobs one by one and read each result before the next), and
/// given up on as soon as a stop signal arrives while waiting for one.
struct LineReader {
  /// The longest line read (an inline scene can be long, but not unbounded).
  static let maxLineBytes = 64 << 20

  enum Line {
    case text(Data)
    /// A line over `maxLineBytes`; the rest of it was skipped.
    case tooLong
  }

  private let fd: Int32
  private let stop: BatchStop
  private var buffer: [UInt8] = []
  private var start = 0
  private var atEnd = false
  private var skipping = false

  init(fd: Int32, stop: BatchStop) {
    self.fd = fd
    self.stop = stop
  }

  /// The next line without its line break, or nil at the end of the input
  /// or when a stop signal came first.
  mutating func next() throws -> Line? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let end = newline > start && buffer[newline - 1] == 0x0D ? newline - 1 : newline
        let line = Data(buffer[start..<end])
        start = newline + 1
        if skipping {
          skipping = false
          return .tooLong
        }
        return .text(line)
      }
      if buffer.count - start > Self.maxLineBytes {
        buffer.removeAll(keepingCapacity: true)
        start = 0
        skipping = true
      }
      if atEnd {
        guard start < buffer.count else { return skipping ? .tooLong : nil }
        let line = Data(buffer[start...])
        start = buffer.count
        return skipping ? .tooLong : .text(line)
      }
      if start > 0 {
        buffer.removeFirst(start)
        start = 0
      }
      guard try fill() else { return nil }
    }
  }

  /// Reads what is there; false when a stop signal came first.
  private mutating func fill() throws -> Bool {
    var fds = [
      pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
      pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0),
    ]
    while true {
      if stop.signal != nil { return false }
      let ready = poll(&fds, 2, -1)
      if ready < 0 && errno == EINTR { continue }
      guard ready >= 0 else { throw readError() }
      if fds[1].revents != 0 { return false }
      if fds[0].revents != 0 { break }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return true }
      throw readError()
    }
    if count == 0 { atEnd = true }
    buffer.append(contentsOf: chunk[0..<count])
    return true
  }

  private func readError() -> BatchError {
    BatchError(description: "cannot read the jobs: \(String(cString: strerror(errno)))")
  }
}
