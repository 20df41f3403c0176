import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// A fill item's bounds hold every pixel it draws: damage and overlap
/// tests rely on them.
final class FillBoundsTests: XCTestCase {
  /// The metamorphic finding partial-redraw seed 778500: a path whose
  /// curve ends in a sharp spike; the antialiasing ribbon's miter there
  /// reaches 2 px past the region's bounds (alpha 5/255 at (22, 29)), one
  /// more than the item's bounds held, so a partial redraw after the shape
  /// moved left the old faint pixel and missed the new one.
  func testAFillItemsBoundsHoldTheRibbonAtASharpSpike() throws {
    let json = """
      {"lamina": 1, "canvas": {"width": 63, "height": 105},
       "root": {"sublayers": [{"class": "CAShapeLayer", "position": [0, 30],
         "path": "M 25.5 62 C 5.5 3.5 2.5 15 9 49.5 S 8 41 22.5 1"}]}}
      """
    let frame = try RenderTestSupport.frame(ofSceneJSON: json)
    var bounds: [PixelRect] = []
    func collect(_ commands: [DrawCommand]) {
      for command in commands {
        switch command {
        case .item(let item): bounds.append(item.bounds)
        case .group(let group): collect(group.commands)
        }
      }
    }
    collect(frame.commands)
    XCTAssertEqual(bounds.count, 1)
    let b = try XCTUnwrap(bounds.first)
    let image = try RenderTestSupport.renderer().render(frame)
    var outside: [String] = []
    var drawn = 0
    for y in 0..<image.height {
      for x in 0..<image.width where image.pixel(x, y).a > 0 {
        drawn += 1
        if !(x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height) {
          outside.append("(\(x), \(y))")
        }
      }
    }
    XCTAssertGreaterThan(drawn, 100)
    XCTAssertEqual(outside, [], "drawn outside the item's bounds \(b)")
  }
}
