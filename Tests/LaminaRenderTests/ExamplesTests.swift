import Foundation
import Lamina
import XCTest

/// Examples/iOS: small programs written as iOS code is, built with one
/// `swift build` of their package, each run to write its PNG, compared with
/// its golden in Examples/iOS/Goldens (fuzzy(2,0)); and the README's API
/// example, which is one of them, exactly as printed.
final class ExamplesTests: XCTestCase {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let package = root.appendingPathComponent("Examples/iOS")
  static let goldens = package.appendingPathComponent("Goldens")

  /// Each example program and the PNG it writes.
  static let examples = [
    ("Compass", "compass"), ("Cube", "cube"), ("Snowfall", "snowfall"),
    ("ActivityIndicator", "activity-indicator"), ("ProgressRing", "progress-ring"),
    ("Shimmer", "shimmer"), ("CardFlip", "card-flip"),
  ]

  /// Runs `executable` with `arguments` in `directory`; output and errors
  /// come back as one text.
  @discardableResult
  func run(_ executable: String, _ arguments: [String], in directory: URL? = nil) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  func testExamplesBuildRunAndMatchTheirGoldens() throws {
    var build = try run("/usr/bin/env", ["swift", "build", "--package-path", Self.package.path])
    if build.status != 0 {
      // An incremental build of a path dependency can miss a source file
      // added to it since the last build (SwiftPM reuses its build
      // description once); the next build sees it.
      build = try run("/usr/bin/env", ["swift", "build", "--package-path", Self.package.path])
    }
    if build.status != 0 {
      // A source file of the path dependency was removed since the last
      // build ("because of missing inputs"), or a target was added to it
      // ("no such module" for a new system library): SwiftPM's kept build
      // description keeps failing; a fresh build does not.
      try? FileManager.default.removeItem(at: Self.package.appendingPathComponent(".build"))
      build = try run("/usr/bin/env", ["swift", "build", "--package-path", Self.package.path])
    }
    guard build.status == 0 else {
      return XCTFail("the examples do not build:\n\(build.output.suffix(4000))")
    }
    let binaries = Self.package.appendingPathComponent(".build/debug")
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-examples-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    for (program, name) in Self.examples {
      let output = scratch.appendingPathComponent("\(name).png")
      let result = try run(binaries.appendingPathComponent(program).path, [output.path])
      XCTAssertEqual(result.status, 0, "\(program): \(result.output)")
      try compare(output, golden: name)
    }
    // The README's example reads photo.png and writes page.png where it runs.
    try FileManager.default.copyItem(
      at: Self.root.appendingPathComponent("Examples/images/photo.png"),
      to: scratch.appendingPathComponent("photo.png"))
    let readme = try run(
      binaries.appendingPathComponent("ReadmeExample").path, [], in: scratch)
    XCTAssertEqual(readme.status, 0, readme.output)
    try compare(scratch.appendingPathComponent("page.png"), golden: "readme-page")
  }

  /// The README's API example is Examples/iOS/Sources/ReadmeExample/main.swift,
  /// character for character: the program the test above builds and runs.
  func testReadmeAPIExampleIsTheExampleProgram() throws {
    let readme = try String(
      contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try XCTUnwrap(readme.range(of: "## The API"))
    let rest = readme[section.upperBound...]
    let open = try XCTUnwrap(rest.range(of: "```swift\n"))
    let close = try XCTUnwrap(rest[open.upperBound...].range(of: "```"))
    let block = String(rest[open.upperBound..<close.lowerBound])
    let program = try String(
      contentsOf: Self.package.appendingPathComponent("Sources/ReadmeExample/main.swift"),
      encoding: .utf8)
    XCTAssertEqual(block, program)
    // And the README links every example's picture.
    for (_, name) in Self.examples {
      XCTAssertTrue(readme.contains("Examples/iOS/Goldens/\(name).png"), name)
    }
  }

  /// `image` against `Goldens/NAME.png`: on a mismatch NAME.actual.png is
  /// written beside the golden; RECORD_GOLDENS=1 records it and fails.
  func compare(
    _ image: URL, golden name: String, file: StaticString = #filePath, line: UInt = #line
  )
    throws
  {
    let golden = Self.goldens.appendingPathComponent("\(name).png")
    let actual = try CGImage.decode(fileAt: image.path)
    if RenderTestSupport.recording {
      try? FileManager.default.removeItem(at: golden)
      try FileManager.default.copyItem(at: image, to: golden)
      return XCTFail("recorded \(golden.path); look at it, then run again", file: file, line: line)
    }
    guard FileManager.default.fileExists(atPath: golden.path) else {
      return XCTFail(
        "no golden \(golden.path) (RECORD_GOLDENS=1 records it)", file: file, line: line)
    }
    let expected = try CGImage.decode(fileAt: golden.path)
    guard actual.width == expected.width, actual.height == expected.height else {
      return XCTFail(
        "\(name): \(actual.width)×\(actual.height), golden \(expected.width)×\(expected.height)",
        file: file, line: line)
    }
    let comparison = ImageComparison(actual: actual.pixels, expected: expected.pixels, threshold: 2)
    if comparison.pixelsOff > 0 {
      let written = Self.goldens.appendingPathComponent("\(name).actual.png")
      try? FileManager.default.removeItem(at: written)
      try FileManager.default.copyItem(at: image, to: written)
      XCTFail("\(name): \(comparison.summary); wrote \(written.path)", file: file, line: line)
    }
  }
}
