import Foundation

/// SIGINT and SIGTERM turned into a readable descriptor (the self-pipe
/// trick), so that a display loop blocked in `poll` wakes up, leaves its
/// loop and restores the display instead of dying with the mode set.
public final class StopSignal: @unchecked Sendable {
  /// Readable once a stop signal arrived.
  public let descriptor: Int32
  nonisolated(unsafe) private static var writeEnd: Int32 = -1
  private var previous: [Int32: sigaction] = [:]
  private let signals: [Int32]

  /// Installs the handlers (the previous ones come back on `deinit`).
  public init(signals: [Int32] = [SIGINT, SIGTERM]) throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      throw NSError(domain: NSPOSIXErrorDomain, code: Int(errno))
    }
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    descriptor = ends[0]
    Self.writeEnd = ends[1]
    self.signals = signals
    for number in signals {
      var action = sigaction()
      action.__sigaction_handler.sa_handler = { _ in
        var byte: UInt8 = 1
        _ = write(StopSignal.writeEnd, &byte, 1)
      }
      sigemptyset(&action.sa_mask)
      var old = sigaction()
      sigaction(number, &action, &old)
      previous[number] = old
    }
  }

  /// Whether a stop signal has arrived (without blocking).
  public var isRaised: Bool {
    var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
    return poll(&fds, 1, 0) > 0
  }

  deinit {
    for number in signals {
      if var old = previous[number] { sigaction(number, &old, nil) }
    }
    close(descriptor)
    close(Self.writeEnd)
    Self.writeEnd = -1
  }
}
