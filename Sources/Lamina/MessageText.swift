import Foundation

/// Input quoted in a message (a key, a name, a key path, from a file or a
/// caller), cut to a readable length: a message fits on a screen however
/// long the input was, and says how long that was.
public enum MessageText {
  /// The most characters of one input that a message quotes.
  public static let maxQuoted = 64
  /// The most characters of a place (a JSON path) that a message shows.
  public static let maxPlace = 160

  /// `text` between `mark`s; when longer than `maxQuoted` characters, its
  /// first ones and how long it was: `'aaaa…' (10000 characters)`.
  public static func quoted(_ text: String, mark: String = "'") -> String {
    let count = text.count
    guard count > maxQuoted else { return mark + text + mark }
    return mark + text.prefix(maxQuoted) + "…" + mark + " (\(count) characters)"
  }

  /// A place in a file (a JSON path, which holds the file's own keys and
  /// names); when longer than `maxPlace` characters, its start and its end
  /// around a note of how long it was.
  public static func place(_ path: String) -> String {
    let count = path.count
    guard count > maxPlace else { return path }
    return path.prefix(maxPlace / 2) + "…(\(count) characters)…" + path.suffix(maxPlace / 4)
  }
}
