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
  private static let customSource = Locked<(() -> CFTimeInterval)?>(nil)

  /// The time source, or nil for the monotonic system clock.
  public static var source: (() -> CFTimeInterval)? {
    get { customSource.value }
    set { customSource.value = newValue }
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

/// A value shared between threads, read and written under a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  init(_ value: Value) { stored = value }

  var value: Value {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }

  /// Runs `body` on the value under the lock.
  func withLock<T>(_ body: (inout Value) -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body(&stored)
  }
}
