import Foundation
import XCTest

/// `Int(x)` of a floating-point value traps when x is NaN, infinite or out
/// of Int's range, and values derived from input reach such conversions (a
/// radius times a scale, a rate times a lifetime). This lint reads every
/// Swift file in Sources/ and fails on a bare `Int(` whose argument is
/// floating-point: a rounding or math call, a floating-point type or
/// literal, arithmetic, or a plain name the same file declares as Double,
/// CGFloat or Float. The checked spellings are allowed: `Int(exactly:)`,
/// `Int(saturating:)`, `Int(clamping:to:)` (Sources/Lamina/CheckedConversion.swift)
/// and `Int(truncatingIfNeeded:)`/`Int(bitPattern:)` of integers. That
/// file itself is not read: its conversions follow the checks.
final class IntConversionLintTests: XCTestCase {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  static let checkedLabels = [
    "exactly:", "saturating:", "clamping:", "truncatingIfNeeded:", "bitPattern:",
  ]
  static let floatingMarkers = [
    ".rounded(", "floor(", "ceil(", "round(", "trunc(", ".squareRoot(", "sqrt(", "log2(",
    "log10(", "log(", "exp(", "pow(", "Double(", "CGFloat(", "Float(", "TimeInterval(",
    ".pi", "hypot(", "atan2(",
  ]
  static let floatingTypes = "(Double|CGFloat|Float|Float32|Float64|TimeInterval|CFTimeInterval)"

  /// Every bare conversion of a floating-point value: "file:line: text".
  static func offenders() throws -> [String] {
    var found: [String] = []
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      // The checked spellings' own file converts, once it has checked.
      guard url.pathExtension == "swift", url.lastPathComponent != "CheckedConversion.swift"
      else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      let lines = text.components(separatedBy: "\n")
      for (number, raw) in lines.enumerated() {
        let line = code(raw)
        for argument in arguments(in: line) where isFloatingPoint(argument, in: text) {
          let relative = url.path.replacingOccurrences(of: sources.path + "/", with: "")
          found.append("\(relative):\(number + 1): (\(argument))")
        }
      }
    }
    return found.sorted()
  }

  /// The line without its comment and string literals' contents.
  static func code(_ line: String) -> String {
    var out = ""
    var inString = false
    var previous: Character = " "
    var chars = Array(line)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if !inString, c == "/", i + 1 < chars.count, chars[i + 1] == "/" { break }
      if c == "\"", previous != "\\" {
        inString.toggle()
        out.append(c)
      } else if !inString {
        out.append(c)
      }
      previous = c
      i += 1
    }
    chars = []
    return out
  }

  /// The integer types whose initializers trap on a floating-point value
  /// out of range: Swift's and the C aliases the GL and GLib code uses.
  static let integerTypes = [
    "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
    "GLint", "GLuint", "GLsizei", "GLenum", "gint", "guint", "guint16", "gsize", "gssize",
  ]

  /// The arguments of every bare integer conversion (`Int(`, `Int32(`, …) on the line.
  static func arguments(in line: String) -> [String] {
    var result: [String] = []
    let chars = Array(line)
    var i = 0
    while i < chars.count {
      let before: Character? = i > 0 ? chars[i - 1] : nil
      let name = integerTypes.first { type in
        let end = i + type.count
        return end < chars.count && chars[end] == "(" && String(chars[i..<end]) == type
      }
      if let name {
        if let b = before, b.isLetter || b.isNumber || b == "_" || b == "." {
          i += 1
          continue
        }
        var depth = 1
        var j = i + name.count + 1
        var argument = ""
        while j < chars.count, depth > 0 {
          if chars[j] == "(" { depth += 1 }
          if chars[j] == ")" { depth -= 1 }
          if depth > 0 { argument.append(chars[j]) }
          j += 1
        }
        let trimmed = argument.trimmingCharacters(in: .whitespaces)
        if !trimmed.isEmpty, !checkedLabels.contains(where: { trimmed.hasPrefix($0) }) {
          result.append(trimmed)
        }
        i = j
      } else {
        i += 1
      }
    }
    return result
  }

  static func isFloatingPoint(_ argument: String, in file: String) -> Bool {
    if floatingMarkers.contains(where: { argument.contains($0) }) { return true }
    if argument.range(of: #"\d\.\d|\d[eE][-+]?\d"#, options: .regularExpression) != nil {
      return true
    }
    // A plain name: floating-point when this file declares it so (a
    // member's type is not known from here).
    guard argument.range(of: #"^[A-Za-z_][A-Za-z0-9_]*$"#, options: .regularExpression) != nil
    else { return false }
    let name = argument
    let declared = [
      #"\b\#(name)\s*:\s*\#(floatingTypes)\b"#,
      #"\b(let|var)\s+\#(name)\s*=\s*[^\n]*(\.rounded|Double\(|CGFloat\(|Float\(|\d\.\d|squareRoot|sqrt\()"#,
    ]
    return declared.contains { file.range(of: $0, options: .regularExpression) != nil }
  }

  func testNoBareIntConversionOfFloatingPointInSources() throws {
    let offenders = try Self.offenders()
    XCTAssertEqual(
      offenders, [],
      "convert with Int(exactly:), Int(saturating:) or Int(clamping:to:) instead:\n"
        + offenders.joined(separator: "\n"))
  }

  /// The lint itself: it finds what it is for, and passes what it allows.
  func testTheLintFindsFloatingPointConversions() {
    let file = "let scale: CGFloat = 2\nlet count: Int32 = 3\n"
    XCTAssertTrue(Self.isFloatingPoint("scale", in: file))
    XCTAssertTrue(Self.isFloatingPoint("(x * 2).rounded()", in: file))
    XCTAssertTrue(Self.isFloatingPoint("floor(v)", in: file))
    XCTAssertTrue(Self.isFloatingPoint("1.5", in: file))
    XCTAssertFalse(Self.isFloatingPoint("count", in: file))
    XCTAssertFalse(Self.isFloatingPoint("px[i]", in: file))
    XCTAssertEqual(
      Self.arguments(in: "let a = Int(v.rounded()) + UInt(x) + Int(exactly: y) + Int32(z) + xInt(w)"),
      ["v.rounded()", "x", "z"])
    XCTAssertEqual(Self.arguments(in: Self.code("let a = Int(saturating: v) // Int(bad)")), [])
    XCTAssertEqual(Self.arguments(in: Self.code("f(\"Int(in a string)\")")), [])
  }
}
