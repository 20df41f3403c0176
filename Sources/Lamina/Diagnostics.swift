import Foundation

/// Warnings about layer code that Core Animation would silently ignore (an
/// animation of a key path the layer does not have), so that a port that
/// does nothing says why. They go to standard error unless a handler is set.
///
/// ```swift
/// Diagnostics.handler = { message in logger.warning("\(message)") }
/// ```
public enum Diagnostics {
  private static let custom = Locked<((String) -> Void)?>(nil)
  private static let reported = Locked<Set<String>>([])

  /// Receives every warning; nil (the default) writes them to standard error.
  public static var handler: ((String) -> Void)? {
    get { custom.value }
    set { custom.value = newValue }
  }

  /// Reports `message` the first time it is given in the process.
  package static func warnOnce(_ message: String) {
    if reported.withLock({ $0.insert(message).inserted }) { warn(message) }
  }

  /// Reports `message` ("lamina: warning: " is prepended on standard error).
  package static func warn(_ message: String) {
    if let handler {
      handler(message)
    } else {
      FileHandle.standardError.write(Data(("lamina: warning: " + message + "\n").utf8))
    }
  }
}
