import Foundation
@testable import Lamina
@testable import LaminaOutput
@testable import LaminaRender
import XCTest

/// Draws a red square in `draw(in:)`.
private final class RedLayer: CALayer {
  override func draw(in ctx: CGContext) {
    ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    ctx.fill(bounds)
  }
}

/// A program that builds its tree and calls `CATransaction.flush()` before
/// anything has rendered: on iOS the flush displays, so the first frame
/// shows what `display()` set, and nothing of it animates.
///
/// The test starts where a fresh process starts: no drawing backend
/// (`CGContext.bitmapContextMaker` is nil until the first render installs
/// LaminaDraw's). It takes the backend away for the build and the flush and
/// gives it back as the first render would install it.
final class FlushBeforeFirstRenderTests: XCTestCase {
  func testTheFirstFrameShowsWhatTheFlushDisplayed() throws {
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: CALayer(), size: CGSize(width: 1, height: 1))
    let maker = CGContext.bitmapContextMaker
    let textDrawer = CGContext.textDrawer
    CGContext.bitmapContextMaker = nil
    CGContext.textDrawer = nil
    defer {
      CGContext.bitmapContextMaker = maker
      CGContext.textDrawer = textDrawer
    }

    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    let square = RedLayer()
    square.frame = root.bounds
    square.setNeedsDisplay()
    root.addSublayer(square)
    CATransaction.flush()

    CGContext.bitmapContextMaker = maker
    CGContext.textDrawer = textDrawer
    let image = try renderer.render(
      layer: root, size: root.bounds.size, time: CACurrentMediaTime())
    XCTAssertNotNil(square.contents, "displayed")
    XCTAssertEqual(square.animationKeys() ?? [], [], "the first contents do not animate")
    let p = image.pixel(10, 10)
    XCTAssertEqual([p.r, p.g, p.b, p.a], [255, 0, 0, 255])
  }
}
