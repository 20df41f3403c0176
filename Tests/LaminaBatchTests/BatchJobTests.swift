import Foundation
import LaminaBatch
import LaminaScene
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Job lines read into render jobs without the command: what each kind of
/// output makes, and every refusal naming the jobs file, the line and the key.
final class BatchJobTests: XCTestCase {
  private func parse(_ line: String, number: Int = 3) throws -> (job: RenderJob, output: String) {
    try BatchJob.parse(Data(line.utf8), line: number, file: "jobs.jsonl")
  }

  private func message(_ line: String) -> String? {
    do {
      _ = try parse(line)
      return nil
    } catch {
      return "\(error)"
    }
  }

  func testImageJob() throws {
    let (job, output) = try parse(
      #"{"scene": "card.json", "time": 1.5, "scale": 2, "output": "card.png"}"#)
    XCTAssertEqual(output, "card.png")
    XCTAssertEqual(job.scale, 2)
    guard case .image(let path, let time) = job.output else { return XCTFail("\(job.output)") }
    XCTAssertEqual(path, "card.png")
    XCTAssertEqual(time, 1.5)
    guard case .file(let url) = job.source else { return XCTFail("\(job.source)") }
    XCTAssertEqual(url.lastPathComponent, "card.json")
  }

  func testSequenceJobs() throws {
    let (png, _) = try parse(
      #"{"scene": "intro.json", "frames": "0..59", "fps": 30, "output": "intro/%04d.png"}"#)
    guard case .sequence(let range, let fps, let pattern?, nil) = png.output else {
      return XCTFail("\(png.output)")
    }
    XCTAssertEqual([range.first, range.last, range.count], [0, 59, 60])
    XCTAssertEqual(fps, 30)
    XCTAssertEqual(pattern.path(7), "intro/0007.png")

    let (video, _) = try parse(#"{"scene": "intro.json", "frames": [60, 119], "output": "b.y4m"}"#)
    guard case .sequence(let r, let f, nil, "b.y4m"?) = video.output else {
      return XCTFail("\(video.output)")
    }
    XCTAssertEqual([r.first, r.last], [60, 119])
    XCTAssertEqual(f, 60)
    XCTAssertFalse(video.document.fpsGiven)
  }

  func testInlineSceneWithBase() throws {
    let (job, _) = try parse(
      #"{"scene": {"lamina": 1}, "base": "assets", "output": "inline.png"}"#, number: 9)
    guard case .inline(_, let base?, let name) = job.source else { return XCTFail("\(job.source)") }
    XCTAssertEqual(base.lastPathComponent, "assets")
    XCTAssertEqual(name, "jobs.jsonl:9")
  }

  func testRefusalsNameTheLineAndTheKey() {
    let cases: [(String, String)] = [
      ("[1]", "jobs.jsonl:3: expected a job object, found an array"),
      (
        #"{"scene": "a.json", "output": "a.png", "colour": 1}"#,
        "jobs.jsonl:3: unknown key 'colour' (a job has " + BatchJob.keys.joined(separator: ", ")
          + ")"
      ),
      (
        #"{"output": "a.png"}"#,
        "jobs.jsonl:3: missing key 'scene' (a scene file's path or a scene object)"
      ),
      (
        #"{"scene": "a.json", "base": "x", "output": "a.png"}"#,
        "jobs.jsonl:3: base: only an inline scene takes a base folder"
      ),
      (
        #"{"scene": "a.json", "output": "-"}"#,
        "jobs.jsonl:3: output: standard output carries the batch's results; name a file"
      ),
      (
        #"{"scene": "a.json", "frames": "9..2", "output": "f%d.png"}"#,
        "jobs.jsonl:3: frames: the last frame (2) comes before the first (9)"
      ),
      (
        #"{"scene": "a.json", "frames": "0..2", "time": 1, "output": "f%d.png"}"#,
        "jobs.jsonl:3: time: does not go with 'frames'"
      ),
      (
        #"{"scene": "a.json", "marker": "m", "frames": "0..2", "output": "f%d.png"}"#,
        "jobs.jsonl:3: marker: does not go with 'frames'"
      ),
      (
        #"{"scene": "a.json", "scale": 9, "output": "a.png"}"#,
        "jobs.jsonl:3: scale: must be between 0.01 and 8.0"
      ),
      (
        #"{"scene": "a.json", "output": "a.mp4"}"#,
        "jobs.jsonl:3: output: a .mp4 video needs 'frames' (or 'marker')"
      ),
      (
        #"{"scene": "a.json", "crf": 20, "output": "a.png"}"#,
        "jobs.jsonl:3: codec, crf, bitrate: go with a video output"
      ),
      (
        #"{"scene": "a.json", "background": "red", "output": "a.png"}"#,
        "jobs.jsonl:3: background: expected a color \"#rrggbb\" or \"#rrggbbaa\", got 'red'"
      ),
      (
        #"{"scene": "a.json", "frames": "0..2", "output": "plain.png"}"#,
        "jobs.jsonl:3: output: frames go to a video (\(VideoFormat.extensionList)) or to PNG"
          + " files named with a %d (or %04d) for the frame number, got 'plain.png'"
      ),
    ]
    for (line, expected) in cases {
      XCTAssertEqual(message(line), expected, line)
    }
  }

  func testSyntaxErrorNamesTheColumn() throws {
    let text = try XCTUnwrap(message(#"{"scene": "a.json",, "output": "a.png"}"#))
    XCTAssertTrue(text.hasPrefix("jobs.jsonl:3:20: "), text)
  }

  func testFrameRangeText() throws {
    XCTAssertEqual(try FrameRange("5").count, 1)
    XCTAssertEqual(try FrameRange("2..11").count, 10)
    XCTAssertThrowsError(try FrameRange("3..1")) { error in
      XCTAssertEqual("\(error)", "--frames: the last frame (1) comes before the first (3)")
    }
    XCTAssertThrowsError(try FrameRange("a..b")) { error in
      XCTAssertEqual(
        "\(error)", "--frames expects FIRST..LAST or N (whole numbers ≥ 0), got 'a..b'")
    }
  }

  func testJSONStringEscapes() {
    XCTAssertEqual(jsonString("a\"b\\c\nd\u{1}"), #""a\"b\\c\nd\u0001""#)
  }
}
