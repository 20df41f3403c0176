import Foundation
import Lamina
import LaminaTestSupport
@testable import LaminaDisplay
@testable import LaminaRender
import LaminaScene
import XCTest

/// `show` (the display loop, here on a fake panel as `show --headless`
/// drives it) commits before each frame: layout, display, then the frame,
/// so that what `layoutSublayers()` and `display()` set is in the frame
/// they were made for (issue 30, item 2).
final class DisplayLoopCommitTests: XCTestCase {

  func testTheDisplayLoopLaysOutAndDisplaysBeforeTheFrame() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-commit-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("scene.json")
    try #"{"lamina": 1, "canvas": {"width": 32, "height": 16}, "root": {}}"#
      .write(to: url, atomically: true, encoding: .utf8)
    let renderer = try RenderTestSupport.renderer()
    let output = FakeOutput(context: renderer.context, width: 32, height: 16)
    let loop = DisplayLoop(output: output, watcher: try SceneWatcher(url: url), renderer: renderer)
    XCTAssertTrue(try loop.step(now: 0))
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)

    // A program adds layers between frames, through `schedule`.
    let root = loop.scene.root
    XCTAssertTrue(
      loop.schedule { _ in addCommitProbes(to: root) })
    XCTAssertTrue(try loop.step(now: 1.0 / 60))
    let pixels = output.frontPixels()
    func rgba(_ x: Int, _ y: Int) -> [UInt8] {
      let i = (y * 32 + x) * 4
      return Array(pixels[i..<i + 4])
    }
    XCTAssertEqual(rgba(28, 4), [0, 0, 255, 255], "the item where layout put it")
    XCTAssertEqual(rgba(4, 12), [255, 0, 0, 255], "display()'s animation is drawn")
  }
}
