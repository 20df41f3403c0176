import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
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
    // A renderer of its own: its caches start empty, as the finding's did.
    let renderer = try Renderer()
    var images: [RenderedImage] = []
    for _ in 0..<3 {
      images.append(try renderer.render(RenderTestSupport.frame(ofSceneJSON: json)))
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

  /// The metamorphic finding partial-redraw seed 778661: a filtered group's
  /// target starts at an even pixel, a row above the group's bounds here;
  /// a color matrix adding alpha showed that row (alpha 51 at y = 8), which
  /// the frame's damage (the group's bounds) did not hold, so a partial
  /// redraw missed it. The group draws its bounds only. (Those bounds are
  /// what the layer's geometry covers: an alpha bias fills them, so they
  /// are laid out as in points, without the pixel of antialiasing reach
  /// around it: finding alpha-bias-filter-area-in-pixels-at-scale-2.)
  func testAFilteredGroupDrawsItsBoundsOnly() throws {
    let json = """
      {"lamina": 1, "canvas": {"width": 65, "height": 84},
       "root": {"sublayers": [{"bounds": [0, 0, 6, 10], "position": [0, 15], "borderWidth": 2,
         "filters": [{"name": "CIColorMatrix", "inputBiasVector": [0, 0, 0, 0.2]}]}]}}
      """
    let frame = try RenderTestSupport.frame(ofSceneJSON: json)
    guard case .group(let group)? = frame.commands.first, frame.commands.count == 1 else {
      return XCTFail("expected one filtered group: \(frame.commands)")
    }
    let b = group.bounds
    XCTAssertEqual(b.y, 10, "the layer (y 10...20)")
    let image = try RenderTestSupport.renderer().render(frame)
    var outside: [String] = []
    var drawn = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x, y).a > 0 {
        drawn += 1
        if !(x >= b.x && x < b.maxX && y >= b.y && y < b.maxY) { outside.append("(\(x), \(y))") }
      }
    }
    XCTAssertEqual(drawn, 30, "the layer's part on the canvas (x 0...3, y 10...20)")
    XCTAssertEqual(outside, [], "drawn outside the group's bounds \(b)")
  }
}
