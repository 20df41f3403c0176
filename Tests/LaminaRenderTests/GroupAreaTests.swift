import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaRender

/// A group made for one region and drawn back in another is sampled where
/// that region lies in its target.
final class GroupAreaTests: XCTestCase {
  /// The metamorphic finding first-frame seed 777499 (shrunk: fixed/
  /// group-made-for-its-shadow): a masked layer with a shadow, under a
  /// rotated `masksToBounds` layer. The first frame made the masked group
  /// for its shadow's canvas (14 × 10 px) and drew it back into the clip's
  /// region (4 × 10 px) as its whole texture, squeezed; the second frame
  /// took the shadow from the cache, made the group for the clip's region
  /// only and drew it right: the same frame gave different pixels (up to
  /// 26/255 on 7 pixels).
  func testTheFirstFrameOfAShadowedMaskedGroupInAClipEqualsTheNext() throws {
    let json = """
      {"lamina": 1, "canvas": {"width": 77, "height": 122, "background": "#6e9882"},
       "root": {"sublayers": [{"bounds": [0, 0, 22, 42], "position": [34, 91], "masksToBounds": true,
         "sublayers": [{"frame": [0, 20.25, 6, 21.5], "transform.rotation.z": -2.15,
           "masksToBounds": true,
           "sublayers": [{"position": [4, 15.5], "transform": [{"rotate": [-2.41, 0, 0, 1]}],
             "shadowOpacity": 0.34,
             "sublayers": [{"frame": [-1, 5, 5, 10], "backgroundColor": "#b18558c7"}],
             "mask": {"class": "CAShapeLayer", "path": "M 2.5 9.5 L 4.5 7 L 0.5 6 L 2.5 1.5 Z"}}]}]}]}}
      """
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-group-area-\(getpid()).json")
    try json.write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    // A renderer of its own: its caches start empty, as the finding's did.
    let renderer = try Renderer()
    var images: [RenderedImage] = []
    for _ in 0..<3 {
      let scene = try SceneLoader.load(contentsOf: url)
      let root = PresentationTree(root: scene.root).update(time: 0)
      var builder = FrameBuilder(size: CGSize(width: 77, height: 122), scale: 1)
      images.append(try renderer.render(builder.build(root: root, background: scene.canvas.background)))
    }
    XCTAssertEqual(images[0].width, 77)
    for k in 1..<3 {
      var off = 0
      for (a, b) in zip(images[0].premultipliedPixels, images[k].premultipliedPixels) where a != b {
        off += 1
      }
      XCTAssertEqual(off, 0, "frame \(k) against the first: \(off) bytes differ")
    }
  }
}
