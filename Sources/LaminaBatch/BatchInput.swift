import Foundation

/// SIGTERM and SIGINT as a request to stop between jobs: the handler only
/// records the signal and wakes `poll` through a pipe (the self-pipe
/// trick), so the job that is running finishes and writes its output.
package final class BatchStop: @unchecked Sendable {
  /// Readable once a stop signal arrived.
  package let descriptor: Int32
  nonisolated(unsafe) private static var writeEnd: Int32 = -1
  nonisolated(unsafe) private static var received: sig_atomic_t = 0

  package init() throws {
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
  package var signal: Int32? { Self.received == 0 ? nil : Self.received }
}

/// Lines of a jobs file or of standard input, read as they come (a driver
/// may write jobs one by one and read each result before the next), and
/// given up on as soon as a stop signal arrives while waiting for one.
package struct LineReader {
  /// The longest line read (an inline scene can be long, but not unbounded).
  package static let maxLineBytes = 64 << 20

  package enum Line {
    case text(Data)
    /// A line over `maxLineBytes`; the rest of it was skipped.
    case tooLong
  }

  private let fd: Int32
  private let stop: BatchStop
  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the search for the next line break goes on (bytes before it,
  /// from `start`, hold none).
  private var scanned = 0
  private var atEnd = false
  /// Whether the line being read is past `maxLineBytes` and is dropped.
  private var skipping = false

  package init(fd: Int32, stop: BatchStop) {
    self.fd = fd
    self.stop = stop
  }

  /// The next line without its line break, or nil at the end of the input
  /// or when a stop signal came first.
  package mutating func next() throws -> Line? {
    while true {
      if let newline = lineBreak(from: max(start, scanned)) {
        let end = newline > start && buffer[newline - 1] == 0x0D ? newline - 1 : newline
        if end - start > Self.maxLineBytes { skipping = true }
        let line = skipping ? Data() : Data(buffer[start..<end])
        start = newline + 1
        scanned = start
        return finishLine(line)
      }
      scanned = buffer.count
      if buffer.count - start > Self.maxLineBytes {
        // Keep nothing of it: only its end is looked for now.
        buffer.removeAll(keepingCapacity: true)
        start = 0
        scanned = 0
        skipping = true
      }
      if atEnd {
        guard start < buffer.count || skipping else { return nil }
        if buffer.count - start > Self.maxLineBytes { skipping = true }
        let line = skipping ? Data() : Data(buffer[start...])
        start = buffer.count
        scanned = start
        return finishLine(line)
      }
      if start > 0 {
        buffer.removeFirst(start)
        scanned -= start
        start = 0
      }
      guard try fill() else { return nil }
    }
  }

  /// The index of the first line break at or after `index` (memchr: long
  /// inline scenes are searched at memory speed, in debug builds too).
  private func lineBreak(from index: Int) -> Int? {
    guard index < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { p -> Int? in
      guard let base = p.baseAddress, let found = memchr(base + index, 0x0A, p.count - index)
      else { return nil }
      return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }
  }

  private mutating func finishLine(_ line: Data) -> Line {
    guard skipping else { return .text(line) }
    skipping = false
    return .tooLong
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
    var chunk = [UInt8](repeating: 0, count: 1 << 20)
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN { return true }
      throw readError()
    }
    if count == 0 { atEnd = true }
    chunk.withUnsafeBytes { buffer.append(contentsOf: $0.prefix(count)) }
    return true
  }

  private func readError() -> BatchError {
    BatchError(description: "cannot read the jobs: \(String(cString: strerror(errno)))")
  }
}
