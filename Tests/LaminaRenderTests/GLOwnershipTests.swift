import Foundation
import XCTest

/// One owner of GL: no `gl*` call in `Sources/` outside a folder named `GL`
/// (the device and its executor). Doc comments and names count too, as
/// the team's check counts them: nothing may read as a call.
final class GLOwnershipTests: XCTestCase {
  func testNoGLCallOutsideTheGLFolder() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources")
    let call = try NSRegularExpression(pattern: #"\bgl[A-Z][A-Za-z0-9]*\("#)
    guard let files = FileManager.default.enumerator(atPath: sources.path) else {
      return XCTFail("no Sources folder at \(sources.path)")
    }
    var scanned = 0
    var found: [String] = []
    for case let path as String in files where path.hasSuffix(".swift") {
      scanned += 1
      if path.split(separator: "/").dropLast().contains("GL") { continue }
      let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
      for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let line = String(line)
        if call.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil {
          found.append(
            "Sources/\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    XCTAssertGreaterThan(scanned, 100, "the scan found the sources")
    XCTAssertEqual(found, [], "GL calls outside Sources/**/GL/:\n" + found.joined(separator: "\n"))
  }
}
