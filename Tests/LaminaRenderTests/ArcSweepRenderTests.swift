import Foundation
import Lamina
@testable import LaminaOutput
@testable import LaminaRender
import XCTest

/// A progress ring drawn as iOS code draws it: one arc from twelve o'clock
/// past a full turn, stroked by a shape layer and trimmed with `strokeEnd`.
/// The trim follows the whole sweep (five quarter turns), not a sweep cut
/// to one turn.
final class ArcSweepRenderTests: XCTestCase {
  func testStrokeEndFollowsTheWholeSweep() throws {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
    root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    let ring = CAShapeLayer()
    ring.frame = root.bounds
    let p = CGMutablePath()
    p.addArc(
      center: CGPoint(x: 30, y: 30), radius: 20, startAngle: -.pi / 2, endAngle: 2 * .pi,
      clockwise: false)
    ring.path = p
    ring.fillColor = nil
    ring.strokeColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    ring.lineWidth = 6
    // Half of 2.5π: from twelve o'clock (y down: clockwise on screen) to
    // 3π/4, half past four; cut to one turn it would stop at six.
    ring.strokeEnd = 0.5
    root.addSublayer(ring)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, scale: 1)
    func blue(atAngle a: CGFloat) -> Bool {
      let p = image.pixel(Int(30 + 20 * cos(a)), Int(30 + 20 * sin(a)))
      return p.b > 200 && p.r < 60
    }
    XCTAssertTrue(blue(atAngle: 0), "three o'clock")
    XCTAssertTrue(blue(atAngle: .pi / 2 + .pi / 8), "past six o'clock")
    XCTAssertFalse(blue(atAngle: .pi), "nine o'clock")
    XCTAssertFalse(blue(atAngle: -.pi / 4 - .pi / 2), "half past ten")
    try RenderTestSupport.assertMatches(
      image, golden: "drawing/arc_past_a_turn.png",
      tolerance: .fuzzy(maxDifference: 8, maxPixels: 10))
  }
}
