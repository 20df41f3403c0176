import CPango
import Foundation

/// What GLib, GObject and Pango log (their `WARNING` and `CRITICAL`
/// messages about odd input), caught instead of printed: standard error is
/// the program's, and a message a user cannot act on does not belong there.
/// The messages are counted and kept (the last few), and handed to `sink`
/// when one is set (`lamina --verbose` prints them).
///
/// GLib takes one log writer per process, set before its first message;
/// `install()` sets Lamina's once, and drawing text installs it too.
public enum LibraryLog {
  /// A caught message: its domain (`Pango`, `GLib-GObject`), level and text.
  public struct Message: Sendable, CustomStringConvertible {
    public let domain: String
    public let level: String
    public let text: String
    public var description: String { "\(domain)-\(level): \(text)" }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var installed = false
  nonisolated(unsafe) private static var recent: [Message] = []
  nonisolated(unsafe) private static var total = 0
  nonisolated(unsafe) private static var forward: (@Sendable (Message) -> Void)?

  /// Receives each message as it is caught (nil: kept and counted only).
  public static var sink: (@Sendable (Message) -> Void)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return forward
    }
    set {
      install()
      lock.lock()
      forward = newValue
      lock.unlock()
    }
  }

  /// Messages caught since the process started.
  public static var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return total
  }

  /// The last messages caught (at most 32), oldest first.
  public static var messages: [Message] {
    lock.lock()
    defer { lock.unlock() }
    return recent
  }

  /// Routes GLib's structured log (where Pango's and GObject's messages
  /// go) to Lamina. Idempotent.
  public static func install() {
    lock.lock()
    defer { lock.unlock() }
    guard !installed else { return }
    installed = true
    g_log_set_writer_func(
      { level, fields, count, _ in
        LibraryLog.record(level: level, fields: fields, count: Int(truncatingIfNeeded: count))
        return G_LOG_WRITER_HANDLED
      }, nil, nil)
  }

  /// Records a notice of Lamina's own about drawing (a font that fell back
  /// to another), kept and forwarded like the libraries' messages.
  public static func note(_ text: String) {
    keep(Message(domain: "lamina", level: "NOTE", text: text))
  }

  static func keep(_ message: Message) {
    lock.lock()
    total += 1
    recent.append(message)
    if recent.count > 32 { recent.removeFirst(recent.count - 32) }
    let sink = forward
    lock.unlock()
    sink?(message)
  }

  static func record(level: GLogLevelFlags, fields: UnsafePointer<GLogField>?, count: Int) {
    var domain = "GLib"
    var text = ""
    if let fields {
      for i in 0..<count {
        let field = fields[i]
        guard let key = field.key, let value = field.value else { continue }
        let name = String(cString: key)
        guard name == "MESSAGE" || name == "GLIB_DOMAIN" else { continue }
        let bytes = value.assumingMemoryBound(to: UInt8.self)
        let string =
          field.length < 0
          ? String(cString: bytes)
          : String(
            decoding: UnsafeBufferPointer(start: bytes, count: Int(field.length)), as: UTF8.self)
        if name == "MESSAGE" { text = string } else { domain = string }
      }
    }
    let raw = level.rawValue
    let name: String
    if raw & G_LOG_LEVEL_ERROR.rawValue != 0 {
      name = "ERROR"
    } else if raw & G_LOG_LEVEL_CRITICAL.rawValue != 0 {
      name = "CRITICAL"
    } else if raw & G_LOG_LEVEL_WARNING.rawValue != 0 {
      name = "WARNING"
    } else if raw & G_LOG_LEVEL_MESSAGE.rawValue != 0 {
      name = "MESSAGE"
    } else {
      // Info and debug messages are GLib's own business.
      return
    }
    keep(Message(domain: domain, level: name, text: text))
  }
}
