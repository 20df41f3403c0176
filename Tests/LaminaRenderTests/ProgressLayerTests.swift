import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// The iOS pattern of a custom animatable property, end to end: a layer
/// draws a wedge of `progress` in `draw(in:)`, `progress` animates, and the
/// frames at two times show the wedge of that moment.
private final class ProgressLayer: CALayer, PresentationCopyable {
  // iOS: @NSManaged var progress: CGFloat
  var progress: CGFloat {
    get { value(forKey: "progress") as? CGFloat ?? 0 }
    set { setValue(newValue, forKey: "progress") }
  }

  override class func needsDisplay(forKey key: String) -> Bool {
    key == "progress" || super.needsDisplay(forKey: key)
  }

  /// A red wedge from twelve o'clock, clockwise, over `progress` of the turn.
  override func draw(in ctx: CGContext) {
    guard progress > 0 else { return }
    let center = CGPoint(x: bounds.midX, y: bounds.midY)
    let radius = min(bounds.width, bounds.height) / 2 - 1
    ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    ctx.move(to: center)
    let steps = 64
    for i in 0...steps {
      let angle = 2 * .pi * progress * CGFloat(i) / CGFloat(steps)
      ctx.addLine(
        to: CGPoint(x: center.x + radius * sin(angle), y: center.y - radius * cos(angle)))
    }
    ctx.closePath()
    ctx.fillPath()
  }
}

/// The same without `PresentationCopyable`: its presentation copies are
/// plain `CALayer`s, so an animation cannot redraw them; they show what the
/// model drew (a blue square), never a blank.
private final class PlainProgressLayer: CALayer {
  override class func needsDisplay(forKey key: String) -> Bool {
    key == "progress" || super.needsDisplay(forKey: key)
  }

  override func draw(in ctx: CGContext) {
    ctx.setFillColor(CGColor(red: 0, green: 0, blue: 1, alpha: 1))
    ctx.fill(bounds)
  }
}

final class ProgressLayerTests: XCTestCase {
  func testWithoutPresentationCopiesTheModelsDrawingShows() throws {
    let plain = PlainProgressLayer()
    plain.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    plain.setValue(CGFloat(0), forKey: "progress")
    plain.setNeedsDisplay()
    let fill = CABasicAnimation(keyPath: "progress")
    fill.fromValue = CGFloat(0)
    fill.toValue = CGFloat(1)
    fill.duration = 1
    plain.add(fill, forKey: nil)
    let image = try RenderTestSupport.renderer().render(
      layer: plain, size: CGSize(width: 20, height: 20), time: 0.5)
    let p = image.pixel(10, 10)
    XCTAssertEqual([p.r, p.g, p.b, p.a], [0, 0, 255, 255])
  }

  func testTheAnimatedProgressIsDrawnByThePresentationLayer() throws {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
    let ring = ProgressLayer()
    ring.frame = root.bounds
    ring.progress = 0
    ring.setNeedsDisplay()
    root.addSublayer(ring)
    let fill = CABasicAnimation(keyPath: "progress")
    fill.fromValue = 0
    fill.toValue = 1
    fill.duration = 1
    ring.add(fill, forKey: "fill")
    let renderer = try RenderTestSupport.renderer()
    func red(_ image: RenderedImage, _ x: Int, _ y: Int) -> Bool {
      let p = image.pixel(x, y)
      return p.a > 250 && p.r > 250 && p.g < 5
    }
    func clear(_ image: RenderedImage, _ x: Int, _ y: Int) -> Bool { image.pixel(x, y).a == 0 }
    // A quarter: the top-right quadrant only.
    let quarter = try renderer.render(layer: root, size: root.bounds.size, time: 0.25)
    XCTAssertTrue(red(quarter, 28, 10), "top right")
    XCTAssertTrue(clear(quarter, 28, 30), "bottom right")
    XCTAssertTrue(clear(quarter, 11, 30), "bottom left")
    XCTAssertTrue(clear(quarter, 11, 10), "top left")
    // Three quarters: all but the top-left quadrant.
    let most = try renderer.render(layer: root, size: root.bounds.size, time: 0.75)
    XCTAssertTrue(red(most, 28, 10), "top right")
    XCTAssertTrue(red(most, 28, 30), "bottom right")
    XCTAssertTrue(red(most, 11, 30), "bottom left")
    XCTAssertTrue(clear(most, 11, 10), "top left")
    // After the animation, the model's value (0): nothing.
    let after = try renderer.render(layer: root, size: root.bounds.size, time: 2)
    XCTAssertTrue(clear(after, 28, 10))
    XCTAssertEqual(ring.progress, 0)
  }
}
