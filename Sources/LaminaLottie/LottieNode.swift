import Foundation
import LaminaScene

/// A JSON value with the path it was found at, for messages
/// (`layers[3].shapes[0].it[2].ks.k[5].s`). Accessors throw `LottieError`s
/// that name the file and the path.
struct Node {
  let json: JSON
  let path: String
  let file: String

  func child(_ key: String) -> Node? {
    guard let v = json[key] else { return nil }
    if case .null = v { return nil }
    return Node(json: v, path: path.isEmpty ? key : path + "." + key, file: file)
  }

  func has(_ key: String) -> Bool { child(key) != nil }

  func required(_ key: String) throws -> Node {
    guard let c = child(key) else { throw LottieError.missingKey(file: file, path: path, key: key) }
    return c
  }

  var items: [Node]? {
    guard case .array(let a) = json else { return nil }
    return a.enumerated().map { Node(json: $0.element, path: path + "[\($0.offset)]", file: file) }
  }

  func array() throws -> [Node] {
    guard let a = items else { throw wrongType("an array") }
    return a
  }

  func wrongType(_ expected: String) -> LottieError {
    .wrongType(file: file, path: path, expected: expected, found: json.kindDescription)
  }

  func invalid(_ message: String) -> LottieError {
    .invalidValue(file: file, path: path, message: message)
  }

  var isObject: Bool {
    if case .object = json { return true }
    return false
  }

  var isArray: Bool {
    if case .array = json { return true }
    return false
  }

  func number() throws -> Double {
    switch json {
    case .number(let n): return n
    case .bool(let b): return b ? 1 : 0
    // A one-element array stands for its number in some exporters.
    case .array(let a) where a.count == 1:
      if case .number(let n) = a[0] { return n }
      throw wrongType("a number")
    default: throw wrongType("a number")
    }
  }

  func string() throws -> String {
    guard case .string(let s) = json else { throw wrongType("a string") }
    return s
  }

  func numbers() throws -> [Double] {
    switch json {
    case .number(let n): return [n]
    case .array(let a):
      return try a.enumerated().map { i, v in
        guard case .number(let n) = v else {
          throw LottieError.wrongType(
            file: file, path: path + "[\(i)]", expected: "a number", found: v.kindDescription)
        }
        return n
      }
    default: throw wrongType("a number or an array of numbers")
    }
  }

  func number(_ key: String, default d: Double) throws -> Double {
    guard let c = child(key) else { return d }
    return try c.number()
  }

  func int(_ key: String, default d: Int) throws -> Int {
    guard let c = child(key) else { return d }
    let n = try c.number()
    guard n.isFinite, abs(n) < 1e9 else { throw c.invalid("\(n) is out of range") }
    return Int(n)
  }

  func string(_ key: String) throws -> String? {
    guard let c = child(key) else { return nil }
    return try c.string()
  }

  func bool(_ key: String) -> Bool {
    guard let c = child(key) else { return false }
    switch c.json {
    case .bool(let b): return b
    case .number(let n): return n != 0
    default: return false
    }
  }
}
