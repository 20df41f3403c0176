import Foundation

/// Warnings about layer code that Core Animation would silently ignore (an
/// animation of a key path the layer does not have), so that a port that
/// does nothing says why. They go to standard error unless a handler is set.
///
/// ```swift
/// Diagnostics.handler = { message in logger.warning("\(message)") }
/// ```
public enum Diagnostics {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var custom: ((String) -> Void)?

  /// Receives every warning; nil (the default) writes them to standard error.
  public static var handler: ((String) -> Void)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return custom
    }
    set {
      lock.lock()
      custom = newValue
      lock.unlock()
    }
  }

  nonisolated(unsafe) private static var reported: Set<String> = []

  /// Reports `message` the first time it is given in the process.
  static func warnOnce(_ message: String) {
    lock.lock()
    let first = reported.insert(message).inserted
    lock.unlock()
    if first { warn(message) }
  }

  /// Reports `message` ("lamina: warning: " is prepended on standard error).
  static func warn(_ message: String) {
    if let handler {
      handler(message)
    } else {
      FileHandle.standardError.write(Data(("lamina: warning: " + message + "\n").utf8))
    }
  }
}
