import Foundation
import LaminaBatch
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// What only the loaded document answers (frames, markers, the rate), told
/// apart by content and resolved without the command or a GL context.
final class DocumentRequestTests: XCTestCase {
  private let base = URL(fileURLWithPath: FileManager.default.temporaryDirectory.path)

  private func scene() throws -> Document {
    let text = #"{"lamina": 1, "canvas": {"width": 40, "height": 20}, "root": {}}"#
    return try Document.load(
      data: Data(text.utf8), base: base, name: "s.json", maxImageDimension: 4096, images: nil)
  }

  private func lottie() throws -> Document {
    let text = #"""
      {"v": "5.7.0", "fr": 30, "ip": 0, "op": 60, "w": 100, "h": 50, "layers": [],
       "markers": [{"cm": "intro", "tm": 10, "dr": 20}]}
      """#
    return try Document.load(
      data: Data(text.utf8), base: base, name: "a.json", maxImageDimension: 4096, images: nil)
  }

  private func sequence(_ request: DocumentRequest, _ document: Document, fps: Double = 60) throws
    -> (first: Int, last: Int, fps: Double)
  {
    let output = RenderJob.Output.sequence(
      FrameRange(first: 0, last: 0), fps: fps, pattern: try FramePattern("f%d.png"), video: nil)
    guard case .sequence(let range, let fps, _, _) = try request.resolve(output, for: document)
    else { throw UsageError("not a sequence") }
    return (range.first, range.last, fps)
  }

  func testContentTellsSceneFromLottie() throws {
    XCTAssertNil(try scene().lottie)
    let animation = try lottie()
    XCTAssertNotNil(animation.lottie)
    // A Lottie canvas is w × h points at the scale.
    let canvas = animation.scene(scale: 2, background: nil).canvas
    XCTAssertEqual([canvas.width, canvas.height, canvas.scale], [100, 50, 2])
  }

  func testAllFramesAndMarkersOfALottieDocument() throws {
    var request = DocumentRequest()
    request.frames = .all
    request.fpsGiven = false
    // ip 0 to op 60 at the document's 30 fps: frames 0...59.
    let all = try sequence(request, lottie())
    XCTAssertEqual(all.first, 0)
    XCTAssertEqual(all.last, 59)
    XCTAssertEqual(all.fps, 30)
    request.frames = .marker("intro")
    let intro = try sequence(request, lottie())
    XCTAssertEqual([intro.first, intro.last], [10, 29])
    request.frames = .marker("outro")
    XCTAssertThrowsError(try sequence(request, lottie())) { error in
      XCTAssertEqual("\(error)", "a.json has no marker 'outro'; its markers: 'intro'")
    }
  }

  func testASceneHasNoFrameNumbersOrMarkers() throws {
    var request = DocumentRequest()
    request.frames = .all
    XCTAssertThrowsError(try sequence(request, scene())) { error in
      XCTAssertTrue(error is UsageError)
      XCTAssertEqual(
        "\(error)",
        "--frames all needs a Lottie document (in and out points, markers); s.json is a scene")
    }
    var one = DocumentRequest()
    one.frame = 3
    XCTAssertThrowsError(
      try one.resolve(.image(path: "a.png", time: 0), for: scene())
    ) { error in
      XCTAssertEqual(
        "\(error)",
        "--frame needs a Lottie document (its frame numbers); s.json is a scene: use --time")
    }
  }

  func testDryRunPlanNamesEachFrame() throws {
    let output = RenderJob.Output.sequence(
      FrameRange(first: 2, last: 3), fps: 30, pattern: try FramePattern("f%02d.png"), video: nil)
    XCTAssertEqual(
      DocumentRequest.plan(output, for: try lottie()),
      [
        "2 frames at 30 fps",
        "f02.png t=\(Scene.seconds(2.0 / 30)) frame=\(Scene.seconds(2.0 / 30 * 30))",
        "f03.png t=\(Scene.seconds(3.0 / 30)) frame=\(Scene.seconds(3.0 / 30 * 30))",
      ])
  }
}
