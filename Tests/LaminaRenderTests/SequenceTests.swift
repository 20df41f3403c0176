import Foundation
import Lamina
import XCTest

/// `lamina render --frames`: PNG sequences and YUV4MPEG2 video, decoded
/// back and compared with single renders.
final class SequenceTests: XCTestCase {
  var binary: URL { RenderTestSupport.laminaBinary }

  var scratch: URL!
  var scene: String {
    RenderTestSupport.fixtures.appendingPathComponent("reftests/animation_mix.json").path
  }

  override func setUpWithError() throws {
    guard FileManager.default.isExecutableFile(atPath: binary.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-seq-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  @discardableResult
  func lamina(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> (
    Int32, Data, String
  ) {
    let r = try RenderTestSupport.runLamina(arguments)
    return (r.status, r.stdout, r.stderr)
  }

  /// A decoded YUV4MPEG2 stream: its size, rate and 4:2:0 frames.
  struct Y4M {
    var width = 0, height = 0
    var rate = ""
    var frames: [(y: [UInt8], u: [UInt8], v: [UInt8])] = []

    init(_ data: Data) throws {
      let bytes = [UInt8](data)
      guard let end = bytes.firstIndex(of: 0x0A) else { throw NSError(domain: "y4m", code: 1) }
      let header = String(decoding: bytes[..<end], as: UTF8.self).split(separator: " ")
      guard header.first == "YUV4MPEG2" else { throw NSError(domain: "y4m", code: 2) }
      for field in header.dropFirst() {
        switch field.first {
        case "W": width = Int(field.dropFirst()) ?? 0
        case "H": height = Int(field.dropFirst()) ?? 0
        case "F": rate = String(field.dropFirst())
        case "C": XCTAssertEqual(field, "C420jpeg")
        default: break
        }
      }
      let cw = (width + 1) / 2
      let ch = (height + 1) / 2
      var i = end + 1
      while i < bytes.count {
        guard i + 6 <= bytes.count, String(decoding: bytes[i..<(i + 5)], as: UTF8.self) == "FRAME",
          let eol = bytes[i...].firstIndex(of: 0x0A)
        else { throw NSError(domain: "y4m", code: 3) }
        i = eol + 1
        let ySize = width * height
        let cSize = cw * ch
        guard i + ySize + 2 * cSize <= bytes.count else { throw NSError(domain: "y4m", code: 4) }
        frames.append(
          (
            Array(bytes[i..<(i + ySize)]), Array(bytes[(i + ySize)..<(i + ySize + cSize)]),
            Array(bytes[(i + ySize + cSize)..<(i + ySize + 2 * cSize)])
          ))
        i += ySize + 2 * cSize
      }
    }
  }

  func testVideoFrame17MatchesAPNGRenderOfFrame17() throws {
    let video = scratch.appendingPathComponent("out.y4m").path
    let (status, _, stderr) = try lamina(
      [scene, "--frames", "0..29", "--fps", "30", "--video", video].prefixed)
    XCTAssertEqual(status, 0, stderr)
    XCTAssertEqual(stderr, "", "quiet when standard error is not a terminal")
    let y4m = try Y4M(Data(contentsOf: URL(fileURLWithPath: video)))
    XCTAssertEqual(y4m.frames.count, 30)
    XCTAssertEqual([y4m.width, y4m.height], [200, 120])
    XCTAssertEqual(y4m.rate, "30:1")

    let png = scratch.appendingPathComponent("f17.png").path
    XCTAssertEqual(try lamina([scene, "--time", String(17.0 / 30), "-o", png].prefixed).0, 0)
    let image = try CGImage.decode(fileAt: png)
    let frame = y4m.frames[17]
    // Luma of every pixel and chroma of every 2×2 block, BT.601 limited
    // range, computed here on their own.
    var worstY = 0.0
    var worstC = 0.0
    func rgb(_ x: Int, _ y: Int) -> (Double, Double, Double) {
      let i = (y * image.width + x) * 4
      let a = Double(image.pixels[i + 3]) / 255
      return (
        Double(image.pixels[i]) * a, Double(image.pixels[i + 1]) * a,
        Double(image.pixels[i + 2]) * a
      )
    }
    for y in 0..<image.height {
      for x in 0..<image.width {
        let (r, g, b) = rgb(x, y)
        let luma = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
        worstY = max(worstY, abs(luma - Double(frame.y[y * image.width + x])))
      }
    }
    let cw = (image.width + 1) / 2
    for cy in 0..<(image.height / 2) {
      for cx in 0..<(image.width / 2) {
        var sum = (0.0, 0.0, 0.0)
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
          let p = rgb(cx * 2 + dx, cy * 2 + dy)
          sum = (sum.0 + p.0 / 4, sum.1 + p.1 / 4, sum.2 + p.2 / 4)
        }
        let cb = 128 + (-37.797 * sum.0 - 74.203 * sum.1 + 112 * sum.2) / 255
        let cr = 128 + (112 * sum.0 - 93.786 * sum.1 - 18.214 * sum.2) / 255
        worstC = max(
          worstC, abs(cb - Double(frame.u[cy * cw + cx])), abs(cr - Double(frame.v[cy * cw + cx])))
      }
    }
    XCTAssertLessThanOrEqual(worstY, 0.51)
    XCTAssertLessThanOrEqual(worstC, 0.51)
    // Time moves: frame 16 is another picture.
    XCTAssertNotEqual(y4m.frames[16].y, frame.y)
  }

  func testPNGSequenceFramesEqualSingleRenders() throws {
    let pattern = scratch.appendingPathComponent("seq/frame-%04d.png").path
    let (status, _, stderr) = try lamina(
      [scene, "--frames", "10..13", "--fps", "8", "-o", pattern].prefixed)
    XCTAssertEqual(status, 0, stderr)
    let names = try FileManager.default.contentsOfDirectory(
      atPath: scratch.appendingPathComponent("seq").path)
    XCTAssertEqual(
      names.sorted(), ["frame-0010.png", "frame-0011.png", "frame-0012.png", "frame-0013.png"])
    let single = scratch.appendingPathComponent("single.png").path
    XCTAssertEqual(try lamina([scene, "--time", "1.5", "-o", single].prefixed).0, 0)
    let a = try CGImage.decode(fileAt: scratch.appendingPathComponent("seq/frame-0012.png").path)
    let b = try CGImage.decode(fileAt: single)
    XCTAssertEqual(a.pixels, b.pixels)
  }

  func testVideoToStandardOutputAndUsageErrors() throws {
    let (status, stdout, _) = try lamina([scene, "--frames", "0..2", "--video", "-"].prefixed)
    XCTAssertEqual(status, 0)
    XCTAssertEqual(try Y4M(stdout).frames.count, 3)
    for bad in [
      ["--frames", "5..2", "--video", "-"], ["--frames", "0..2", "-o", "plain.png"],
      ["--video", "-"], ["--frames", "x", "--video", "-"],
    ] {
      let (code, out, err) = try lamina([scene] + bad, prefixed: true)
      XCTAssertEqual(code, 2, "\(bad): \(err)")
      XCTAssertTrue(out.isEmpty)
    }
    // A failing sequence leaves no partial video.
    let video = scratch.appendingPathComponent("missing-dir/out.y4m").path
    XCTAssertNotEqual(try lamina([scene, "--frames", "0..2", "--video", video].prefixed).0, 0)
    XCTAssertFalse(FileManager.default.fileExists(atPath: video))
  }

  func lamina(_ arguments: [String], prefixed: Bool) throws -> (Int32, Data, String) {
    try lamina(arguments.prefixed)
  }
}

extension Array where Element == String {
  /// The arguments after `render`.
  fileprivate var prefixed: [String] { ["render"] + self }
}
