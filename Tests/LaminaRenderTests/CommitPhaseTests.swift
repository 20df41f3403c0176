import Foundation
import Lamina
import LaminaTestSupport
import LaminaRender
import XCTest

/// Core Animation's commit runs layout, then display, then the frame is
/// rendered: what `layoutSublayers()` and `display()` set, animations
/// included, is in the frame they were made for (issue 30, item 2).
final class CommitPhaseTests: XCTestCase {

  func pixel(_ image: RenderedImage, _ x: Int, _ y: Int) -> [UInt8] {
    let p = image.pixel(x, y)
    return [p.r, p.g, p.b, p.a]
  }

  func testAnAnimationThatDisplayAddsIsInTheFrame() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
    root.position = CGPoint(x: 8, y: 8)
    let flash = DisplayFlash()
    flash.frame = CGRect(x: 4, y: 4, width: 8, height: 8)
    flash.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    flash.setNeedsDisplay()
    root.addSublayer(flash)
    let image = try Renderer().render(
      layer: root, size: root.bounds.size, scale: 1, background: nil, time: 1)
    XCTAssertEqual(pixel(image, 8, 8), [255, 0, 0, 255], "display()'s animation is drawn")
    XCTAssertEqual(flash.animationKeys(), ["flash"])
  }

  func testLayoutComesBeforeTheFrame() throws {
    let row = LayoutRow()
    row.bounds = CGRect(x: 0, y: 0, width: 32, height: 8)
    row.position = CGPoint(x: 16, y: 4)
    row.item.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    row.addSublayer(row.item)
    row.setNeedsLayout()
    let image = try Renderer().render(layer: row, size: row.bounds.size, scale: 1)
    XCTAssertEqual(pixel(image, 28, 4), [0, 0, 255, 255], "the item is where layout put it")
    XCTAssertEqual(pixel(image, 2, 4)[3], 0, "and not at the origin")
  }
}
