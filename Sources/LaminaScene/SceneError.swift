import Foundation
import Lamina

/// Why a scene file did not load. Every message names the file and, past
/// the JSON syntax, the JSON path of the offending value, such as
/// `scene.json: root.sublayers[3].opacity: expected a number, found a string`.
public enum SceneError: Error, Equatable, CustomStringConvertible {
  /// The scene file could not be read.
  case unreadable(file: String, reason: String)
  /// The file is not valid JSON (or not UTF-8, or nested too deeply).
  case syntax(file: String, line: Int, column: Int, message: String)
  /// The `lamina` format version is not 1.
  case unsupportedVersion(file: String, found: String)
  /// A required key is missing from an object.
  case missingKey(file: String, path: String, key: String)
  /// An object has a key that its class (or the format) does not have.
  case unknownKey(file: String, path: String, key: String, owner: String)
  /// A value has the wrong JSON type or shape.
  case wrongType(file: String, path: String, expected: String, found: String)
  /// A number is outside its allowed range.
  case outOfRange(file: String, path: String, expected: String, found: String)
  /// A string is not one of an enumeration's values.
  case invalidEnumValue(file: String, path: String, value: String, allowed: [String])
  /// A layer or animation class that the format does not have.
  case unknownClass(file: String, path: String, name: String, allowed: [String])
  /// A color string that is neither `#rrggbb` nor `#rrggbbaa`.
  case invalidColor(file: String, path: String, found: String)
  /// A transform that is neither 16 numbers nor a list of steps, or a malformed step.
  case invalidTransform(file: String, path: String, message: String)
  /// A transform step whose name is not translate, rotate, scale, perspective or matrix.
  case unknownTransformStep(file: String, path: String, name: String)
  /// An image name that is not an entry of `images`.
  case unknownImage(file: String, path: String, name: String, known: [String])
  /// An image file that is missing, corrupt or too large (the decoder's message).
  case imageFailed(file: String, path: String, message: String)
  /// A file path the scene may not read, or one missing or unreadable
  /// (one message for all: `FileAccessPolicy`).
  case fileAccess(FileAccessError)
  /// SVG path data that does not parse.
  case invalidPath(file: String, path: String, error: PathError)
  /// A filter name that Lamina does not know.
  case unknownFilter(file: String, path: String, name: String, allowed: [String])
  /// An animation key path that the layer's class does not have or cannot animate.
  case unknownAnimationKeyPath(file: String, path: String, keyPath: String, className: String)
  /// A value that is well-typed but inconsistent (list lengths that differ, …).
  case invalidValue(file: String, path: String, message: String)
  /// The scene exceeds one of the `Limits` (a count, a size, a total once
  /// replicators and emitters are expanded), at load or at a frame's time.
  case limitExceeded(file: String, path: String, exceeded: LimitExceeded)

  public var description: String {
    let q = { (text: String) in MessageText.quoted(text) }
    switch self {
    case .unreadable(let file, let reason):
      return "\(file): cannot read the scene file: \(reason)"
    case .syntax(let file, let line, let column, let message):
      return "\(file):\(line):\(column): \(message)"
    case .unsupportedVersion(let file, let found):
      return "\(file): lamina: unsupported format version \(found); this reader knows version 1"
    case .missingKey(let file, let path, let key):
      return "\(file): \(MessageText.place(path)): missing required key \(q(key))"
    case .unknownKey(let file, let path, let key, let owner):
      return "\(file): \(MessageText.place(path)): unknown key \(q(key)) for \(owner)"
    case .wrongType(let file, let path, let expected, let found):
      return "\(file): \(MessageText.place(path)): expected \(expected), found \(found)"
    case .outOfRange(let file, let path, let expected, let found):
      return "\(file): \(MessageText.place(path)): expected \(expected), found \(found)"
    case .invalidEnumValue(let file, let path, let value, let allowed):
      return "\(file): \(MessageText.place(path)): \(q(value)) is not one of \(Self.list(allowed))"
    case .unknownClass(let file, let path, let name, let allowed):
      return
        "\(file): \(MessageText.place(path)): unknown class \(q(name)); expected one of \(Self.list(allowed))"
    case .invalidColor(let file, let path, let found):
      return
        "\(file): \(MessageText.place(path)): expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found \(found)"
    case .invalidTransform(let file, let path, let message):
      return "\(file): \(MessageText.place(path)): \(message)"
    case .unknownTransformStep(let file, let path, let name):
      return
        "\(file): \(MessageText.place(path)): unknown transform step \(q(name)); expected one of translate, rotate, scale, perspective, matrix"
    case .unknownImage(let file, let path, let name, let known):
      let hint =
        known.isEmpty ? "the scene has no images" : "known images: \(Self.list(known, most: 20))"
      return "\(file): \(MessageText.place(path)): no image named \(q(name)) in images (\(hint))"
    case .imageFailed(let file, let path, let message):
      return "\(file): \(MessageText.place(path)): \(message)"
    case .fileAccess(let error):
      return error.description
    case .invalidPath(let file, let path, let error):
      return "\(file): \(MessageText.place(path)): bad SVG path data \(error)"
    case .unknownFilter(let file, let path, let name, let allowed):
      return
        "\(file): \(MessageText.place(path)): unknown filter \(q(name)); expected one of \(Self.list(allowed))"
    case .unknownAnimationKeyPath(let file, let path, let keyPath, let className):
      return
        "\(file): \(MessageText.place(path)): \(q(keyPath)) is not an animatable key path of \(className)"
    case .invalidValue(let file, let path, let message):
      return "\(file): \(MessageText.place(path)): \(message)"
    case .limitExceeded(let file, let path, let exceeded):
      return "\(file): \(MessageText.place(path)): \(exceeded)"
    }
  }

  /// The values quoted; past `most`, how many more there are (a file's
  /// own names, its images, can be many and long).
  static func list(_ values: [String], most: Int = .max) -> String {
    let shown = values.prefix(most).map { MessageText.quoted($0) }.joined(separator: ", ")
    return values.count > most ? shown + " and \(values.count - most) more" : shown
  }
}
