import Foundation
import Lamina
import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// `CALayer.render(in:)`: a snapshot of the model tree in the layer's own space.
final class RenderInContextTests: XCTestCase {
  func testRenderInDrawsTheTreeInItsBoundsSpace() throws {
    LaminaDraw.install()
    let card = CALayer()
    card.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
    card.position = CGPoint(x: 500, y: 500)  // not applied: the layer's own space
    card.transform = CATransform3DMakeRotation(1, 0, 0, 1)
    card.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let dot = CALayer()
    dot.frame = CGRect(x: 30, y: 5, width: 10, height: 10)
    dot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    card.addSublayer(dot)
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0
    fade.toValue = 0
    fade.fillMode = .both
    card.add(fade, forKey: nil)  // ignored: the model tree renders
    let ctx = try XCTUnwrap(CGContext.bitmap(width: 80, height: 40))
    ctx.scaleBy(x: 2, y: 2)
    card.render(in: ctx)
    let image = try XCTUnwrap(ctx.makeImage())
    func pixel(_ x: Int, _ y: Int) -> [UInt8] {
      Array(image.pixels[(y * 80 + x) * 4..<(y * 80 + x) * 4 + 4])
    }
    XCTAssertEqual(pixel(10, 20), [0, 0, 255, 255], "the background")
    XCTAssertEqual(pixel(70, 20), [255, 0, 0, 255], "the sublayer, at its place")
    XCTAssertEqual(card.position, CGPoint(x: 500, y: 500), "the model is left as it was")
  }
}
