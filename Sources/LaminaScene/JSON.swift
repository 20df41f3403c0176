import Foundation

/// A JSON value that keeps the order of object keys, as written (package
/// access: the generated tests build and shrink scenes as JSON).
package indirect enum JSON: Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([(key: String, value: JSON)])

  package static func == (a: JSON, b: JSON) -> Bool {
    switch (a, b) {
    case (.null, .null): return true
    case (.bool(let x), .bool(let y)): return x == y
    case (.number(let x), .number(let y)): return x == y
    case (.string(let x), .string(let y)): return x == y
    case (.array(let x), .array(let y)): return x == y
    case (.object(let x), .object(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// How the value is named in "found …" messages.
  package var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }

  /// The value for `key` when this is an object.
  package subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.key == key }?.value
  }
}

/// A JSON syntax error at a line and column (both from 1).
struct JSONSyntaxError: Error, Equatable {
  enum Reason: Equatable {
    case unexpected(expected: String, found: String)
    case invalidUTF8
    case tooDeep(limit: Int)
    case notFinite(text: String)
    case duplicateKey(String)
    case invalidEscape
    case controlCharacter
  }
  let line: Int
  let column: Int
  let reason: Reason
  /// The JSON path of the value the error is in (`root.sublayers[0].opacity`),
  /// for errors in a value (a number out of range), as other errors name it.
  var path: String? = nil
}

/// A strict RFC 8259 reader: no comments, no trailing commas, no NaN or
/// Infinity, finite numbers only, valid UTF-8, unique keys, bounded nesting
/// (so adversarial input cannot overflow the stack).
package struct JSONParser {
  static let maxDepth = 512

  private let bytes: [UInt8]
  private var index = 0
  private var depth = 0
  /// Where the value being read is: object keys and array indices from the
  /// top (kept for messages; an index is updated in place).
  private var path: [PathComponent] = []

  enum PathComponent {
    case key(String)
    case index(Int)
  }

  /// `path` written as scene errors write it: `root.sublayers[3].opacity`.
  private var pathText: String? {
    guard !path.isEmpty else { return nil }
    var text = ""
    for component in path {
      switch component {
      case .key(let key): text += text.isEmpty ? key : "." + key
      case .index(let i): text += "[\(i)]"
      }
    }
    return text
  }

  init(_ data: Data) { bytes = [UInt8](data) }

  package static func parse(_ data: Data) throws -> JSON {
    var parser = JSONParser(data)
    // A UTF-8 byte order mark is tolerated.
    if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
    parser.skipSpace()
    let value = try parser.value()
    parser.skipSpace()
    if parser.index < parser.bytes.count {
      throw parser.error(.unexpected(expected: "the end of the document", found: parser.found))
    }
    return value
  }

  private func position(of offset: Int) -> (Int, Int) {
    var line = 1
    var column = 1
    var i = 0
    while i < offset && i < bytes.count {
      if bytes[i] == 0x0A {
        line += 1
        column = 1
      } else if bytes[i] & 0xC0 != 0x80 {
        column += 1
      }
      i += 1
    }
    return (line, column)
  }

  private func error(_ reason: JSONSyntaxError.Reason, at offset: Int? = nil) -> JSONSyntaxError {
    let (line, column) = position(of: offset ?? index)
    return JSONSyntaxError(line: line, column: column, reason: reason)
  }

  private var found: String {
    guard index < bytes.count else { return "the end of the document" }
    let b = bytes[index]
    if b >= 0x20 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
    return String(format: "byte 0x%02X", b)
  }

  private mutating func skipSpace() {
    while index < bytes.count,
      bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09
    {
      index += 1
    }
  }

  private mutating func value() throws -> JSON {
    guard index < bytes.count else { throw error(.unexpected(expected: "a value", found: found)) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object()
    case UInt8(ascii: "["): return try array()
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): return try literal("true", .bool(true))
    case UInt8(ascii: "f"): return try literal("false", .bool(false))
    case UInt8(ascii: "n"): return try literal("null", .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
    case UInt8(ascii: "N"), UInt8(ascii: "I"):
      throw error(.unexpected(expected: "a value (NaN and Infinity are not JSON)", found: found))
    default:
      throw error(.unexpected(expected: "a value", found: found))
    }
  }

  private mutating func literal(_ word: String, _ result: JSON) throws -> JSON {
    let w = Array(word.utf8)
    guard bytes.count - index >= w.count, Array(bytes[index..<index + w.count]) == w else {
      throw error(.unexpected(expected: "a value", found: found))
    }
    index += w.count
    return result
  }

  private mutating func enter() throws {
    depth += 1
    if depth > Self.maxDepth { throw error(.tooDeep(limit: Self.maxDepth)) }
  }

  private mutating func object() throws -> JSON {
    try enter()
    index += 1
    var members: [(key: String, value: JSON)] = []
    var seen = Set<String>()
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      depth -= 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error(.unexpected(expected: "a key in double quotes", found: found))
      }
      let keyOffset = index
      let key = try string()
      guard seen.insert(key).inserted else { throw error(.duplicateKey(key), at: keyOffset) }
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error(.unexpected(expected: "':' after the key", found: found))
      }
      index += 1
      skipSpace()
      path.append(.key(key))
      members.append((key, try value()))
      path.removeLast()
      skipSpace()
      guard index < bytes.count else {
        throw error(.unexpected(expected: "',' or '}'", found: found))
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        depth -= 1
        return .object(members)
      }
      throw error(.unexpected(expected: "',' or '}'", found: found))
    }
  }

  private mutating func array() throws -> JSON {
    try enter()
    index += 1
    var items: [JSON] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      depth -= 1
      return .array(items)
    }
    path.append(.index(0))
    defer { path.removeLast() }
    while true {
      skipSpace()
      path[path.count - 1] = .index(items.count)
      items.append(try value())
      skipSpace()
      guard index < bytes.count else {
        throw error(.unexpected(expected: "',' or ']'", found: found))
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        depth -= 1
        return .array(items)
      }
      throw error(.unexpected(expected: "',' or ']'", found: found))
    }
  }

  private func isDigit(_ i: Int) -> Bool {
    i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
  }

  private mutating func number() throws -> JSON {
    let start = index
    var i = index
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard isDigit(i) else {
      index = i
      throw error(.unexpected(expected: "a digit", found: found))
    }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
    } else {
      while isDigit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard isDigit(i) else {
        index = i
        throw error(.unexpected(expected: "a digit after '.'", found: found))
      }
      while isDigit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard isDigit(i) else {
        index = i
        throw error(.unexpected(expected: "a digit in the exponent", found: found))
      }
      while isDigit(i) { i += 1 }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      var e = error(.notFinite(text: text), at: start)
      e.path = pathText
      throw e
    }
    index = i
    return .number(value)
  }

  private func hex(_ b: UInt8) -> UInt32? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func hex4() throws -> UInt32 {
    guard bytes.count - index >= 4 else { throw error(.invalidEscape) }
    var v: UInt32 = 0
    for _ in 0..<4 {
      guard let d = hex(bytes[index]) else { throw error(.invalidEscape) }
      v = v * 16 + d
      index += 1
    }
    return v
  }

  private mutating func string() throws -> String {
    let open = index
    index += 1
    var out: [UInt8] = []
    while true {
      guard index < bytes.count else {
        throw error(.unexpected(expected: "'\"' to end the string", found: found))
      }
      let b = bytes[index]
      if b == UInt8(ascii: "\"") {
        index += 1
        break
      }
      if b < 0x20 { throw error(.controlCharacter) }
      if b == UInt8(ascii: "\\") {
        index += 1
        guard index < bytes.count else { throw error(.invalidEscape) }
        let e = bytes[index]
        index += 1
        switch e {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if (0xD800..<0xDC00).contains(scalar) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"),
              bytes[index + 1] == UInt8(ascii: "u")
            else { throw error(.invalidEscape) }
            index += 2
            let low = try hex4()
            guard (0xDC00..<0xE000).contains(low) else { throw error(.invalidEscape) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00..<0xE000).contains(scalar) {
            throw error(.invalidEscape)
          }
          guard let u = Unicode.Scalar(scalar) else { throw error(.invalidEscape) }
          out.append(contentsOf: Array(String(Character(u)).utf8))
        default:
          index -= 1
          throw error(.invalidEscape)
        }
        continue
      }
      out.append(b)
      index += 1
    }
    guard let s = String(validating: out, as: UTF8.self) else {
      throw error(.invalidUTF8, at: open)
    }
    return s
  }
}
