import Foundation

/// The clock animations run on: `CACurrentMediaTime()` reads it. By default
/// it is the system's monotonic clock; tests and offline renderers install
/// their own source to drive time by hand.
///
/// ```swift
/// var now = 0.0
/// CAMediaClock.source = { now }
/// now = 0.125   // half way through a 0.25 s implicit animation
/// ```
public enum CAMediaClock {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var customSource: (() -> CFTimeInterval)?

  /// The time source, or nil for the monotonic system clock.
  public static var source: (() -> CFTimeInterval)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return customSource
    }
    set {
      lock.lock()
      customSource = newValue
      lock.unlock()
    }
  }

  /// Seconds of the monotonic system clock.
  static func systemTime() -> CFTimeInterval {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
  }
}

/// The current absolute time of the animation clock, in seconds (see
/// `CAMediaClock`).
public func CACurrentMediaTime() -> CFTimeInterval {
  CAMediaClock.source?() ?? CAMediaClock.systemTime()
}
