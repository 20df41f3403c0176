import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A badge as iOS code draws one: a red disc under its number.
private final class Badge: CATextLayer {
  var draws = 0

  override init() {
    super.init()
    fontSize = 20
    alignmentMode = .center
    foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    contentsScale = 2
  }
  override init(layer: Any) { super.init(layer: layer) }
  required init?(coder: NSCoder) { super.init(coder: coder) }

  override func draw(in ctx: CGContext) {
    draws += 1
    ctx.setFillColor(CGColor(red: 0.9, green: 0, blue: 0, alpha: 1))
    ctx.fillEllipse(in: bounds)
    super.draw(in: ctx)
  }
}

/// A subclass only for its defaults: its text still shows.
private final class Caption: CATextLayer {
  override init() {
    super.init()
    fontSize = 20
    foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    contentsScale = 2
  }
  override init(layer: Any) { super.init(layer: layer) }
  required init?(coder: NSCoder) { super.init(coder: coder) }
}

final class TextSubclassTests: XCTestCase {
  func render(_ layer: CALayer, time: Double? = nil) throws -> RenderedImage {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    root.position = CGPoint(x: 20, y: 20)
    layer.frame = root.bounds
    root.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    if let time {
      return try renderer.render(layer: root, size: root.bounds.size, scale: 2, time: time)
    }
    return try renderer.render(layer: root, size: root.bounds.size, scale: 2, background: .black)
  }

  /// White pixels of the text over the layer's own drawing.
  func textPixels(_ image: RenderedImage, where pixel: ((UInt8, UInt8, UInt8, UInt8)) -> Bool)
    -> Int
  {
    var n = 0
    for y in 0..<image.height {
      for x in 0..<image.width where pixel(image.pixel(x, y)) { n += 1 }
    }
    return n
  }

  func testAnOverridingDrawInIsCalledAndSuperDrawsTheText() throws {
    let badge = Badge()
    badge.string = "7"
    let image = try render(badge)
    XCTAssertGreaterThan(badge.draws, 0, "the subclass's draw(in:) ran")
    // The disc: red at the edge of the text.
    let disc = image.pixel(6 * 2, 20 * 2)
    XCTAssertGreaterThan(disc.r, 200)
    XCTAssertLessThan(disc.g, 40)
    // The number: white pixels on the disc.
    XCTAssertGreaterThan(textPixels(image) { $0.0 > 240 && $0.1 > 240 && $0.2 > 240 }, 20)
    // A new string draws again.
    let before = badge.draws
    badge.string = "42"
    let changed = try render(badge)
    XCTAssertGreaterThan(badge.draws, before)
    XCTAssertNotEqual(changed.premultipliedPixels, image.premultipliedPixels)
    // Through the presentation tree (a plain CATextLayer copy) too.
    let animated = Badge()
    animated.string = "3"
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 1
    fade.toValue = 1
    fade.duration = 1
    animated.add(fade, forKey: nil)
    let shown = try render(animated, time: 0.5)
    XCTAssertGreaterThan(animated.draws, 0)
    XCTAssertGreaterThan(shown.pixel(6 * 2, 20 * 2).r, 200)
  }

  func testASubclassWithoutDrawInStillShowsItsText() throws {
    let caption = Caption()
    caption.string = "Hi"
    caption.backgroundColor = .white
    let image = try render(caption)
    XCTAssertGreaterThan(textPixels(image) { $0.0 < 60 && $0.3 == 255 }, 20, "dark glyphs")
  }
}
