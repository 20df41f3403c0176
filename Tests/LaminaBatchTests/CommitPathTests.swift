import Foundation
import Lamina
import LaminaTestSupport
import LaminaBatch
import LaminaRender
import LaminaScene
import XCTest

/// The commit's phases (layout, display, then the frame) in the paths of
/// the `render` command and `batch` (`SceneFrames`): what layer code sets
/// in `layoutSublayers()` and `display()` is in the frame it was made for
/// (issue 30, item 2).
final class CommitPathTests: XCTestCase {

  func scene() throws -> Scene {
    let json = #"{"lamina": 1, "canvas": {"width": 32, "height": 16}, "root": {}}"#
    return try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "commit.json")
  }

  func rgba(_ image: RenderedImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixel(x, y)
    return [p.r, p.g, p.b, p.a]
  }

  func testTheRenderCommandPathLaysOutAndDisplaysBeforeTheFrame() throws {
    let scene = try scene()
    addCommitProbes(to: scene.root)
    let image = try Renderer().render(scene: scene, time: 0.5, scale: 1)
    XCTAssertEqual(rgba(image, 28, 4), [0, 0, 255, 255], "the item where layout put it")
    XCTAssertEqual(rgba(image, 2, 4)[3], 0, "not at the origin")
    XCTAssertEqual(rgba(image, 4, 12), [255, 0, 0, 255], "display()'s animation is drawn")
  }

  func testASequenceCommitsBeforeEachFrame() throws {
    let renderer = try Renderer()
    let scene = try scene()
    var frames = SceneFrames(scene: scene, scale: nil, caches: renderer.caches)
    let first = try renderer.render(try frames.checkedFrame(at: 0))
    XCTAssertEqual(rgba(first, 28, 4)[3], 0, "nothing yet")
    // Between frames, as a program changes a shown scene: new layers.
    addCommitProbes(to: scene.root)
    let second = try renderer.render(try frames.checkedFrame(at: 1.0 / 60))
    XCTAssertEqual(rgba(second, 28, 4), [0, 0, 255, 255], "laid out for this frame")
    XCTAssertEqual(rgba(second, 4, 12), [255, 0, 0, 255], "displayed for this frame")
    let third = try renderer.render(frames.frame(at: 2.0 / 60))
    XCTAssertEqual(rgba(third, 28, 4), [0, 0, 255, 255])
    XCTAssertEqual(rgba(third, 4, 12), [255, 0, 0, 255])
  }
}
