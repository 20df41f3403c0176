import Foundation
import Lamina
import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaTestSupport
import XCTest

/// A delegate that draws an arrow: a stroked shaft and a filled head.
private final class ArrowDrawer: CALayerDelegate {
  var draws = 0
  func draw(_ layer: CALayer, in ctx: CGContext) {
    draws += 1
    let b = layer.bounds
    ctx.setStrokeColor(CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1))
    ctx.setLineWidth(6)
    ctx.setLineCap(.round)
    ctx.move(to: CGPoint(x: b.minX + 10, y: b.midY))
    ctx.addLine(to: CGPoint(x: b.maxX - 30, y: b.midY))
    ctx.strokePath()
    ctx.setFillColor(CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1))
    ctx.move(to: CGPoint(x: b.maxX - 36, y: b.midY - 16))
    ctx.addLine(to: CGPoint(x: b.maxX - 6, y: b.midY))
    ctx.addLine(to: CGPoint(x: b.maxX - 36, y: b.midY + 16))
    ctx.closePath()
    ctx.fillPath()
  }
}

/// A delegate with both methods: its `display(_:)` wins.
private final class DisplayingDelegate: CALayerDelegate {
  var drew = false
  func display(_ layer: CALayer) {
    layer.contents = CGImage(width: 1, height: 1, rgba: [0, 255, 0, 255])
  }
  func draw(_ layer: CALayer, in ctx: CGContext) { drew = true }
}

/// A subclass that sets an image in `display()`: a 2×2 checker.
private final class CheckerLayer: CALayer {
  override func display() {
    contents = CGImage(
      width: 2, height: 2,
      rgba: [255, 255, 255, 255, 30, 30, 30, 255, 30, 30, 30, 255, 255, 255, 255, 255])
  }
}

/// A subclass that draws with Core Graphics calls: gradients, clip, image, dashes.
private final class SamplerLayer: CALayer {
  override func draw(in ctx: CGContext) {
    let gradient = CGGradient(
      colorsSpace: nil,
      colors: [
        CGColor(red: 1, green: 0.8, blue: 0.2, alpha: 1),
        CGColor(red: 0.6, green: 0.1, blue: 0.6, alpha: 1),
      ],
      locations: [0, 1])!
    ctx.saveGState()
    ctx.addEllipse(in: CGRect(x: 4, y: 4, width: 52, height: 52))
    ctx.clip()
    ctx.drawRadialGradient(
      gradient, startCenter: CGPoint(x: 24, y: 24), startRadius: 0,
      endCenter: CGPoint(x: 30, y: 30),
      endRadius: 28, options: [.drawsAfterEndLocation])
    ctx.restoreGState()
    ctx.saveGState()
    ctx.translateBy(x: 90, y: 30)
    ctx.rotate(by: .pi / 6)
    ctx.drawLinearGradient(
      gradient, start: CGPoint(x: -20, y: 0), end: CGPoint(x: 20, y: 0), options: [])
    ctx.restoreGState()
    ctx.setStrokeColor(.black)
    ctx.setLineDash(phase: 0, lengths: [4, 3])
    ctx.stroke(CGRect(x: 66, y: 6, width: 48, height: 48))
    let checker = CGImage(
      width: 2, height: 2, rgba: [255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255])!
    ctx.setAlpha(0.5)
    ctx.draw(checker, in: CGRect(x: 120, y: 10, width: 30, height: 40))
  }
}

final class DisplayTests: XCTestCase {
  private let size = CGSize(width: 160, height: 140)

  private func root() -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(origin: .zero, size: size)
    root.position = CGPoint(x: size.width / 2, y: size.height / 2)
    root.backgroundColor = .white
    return root
  }

  func testDelegateArrowSubclassDisplayAndCoreGraphicsCalls() throws {
    let root = root()
    let arrowDelegate = ArrowDrawer()
    let arrow = CALayer()
    arrow.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
    arrow.contentsScale = 2
    arrow.delegate = arrowDelegate
    arrow.setNeedsDisplay()
    let checker = CheckerLayer()
    checker.frame = CGRect(x: 110, y: 5, width: 40, height: 40)
    checker.magnificationFilter = .nearest
    checker.setNeedsDisplay()
    let sampler = SamplerLayer()
    sampler.frame = CGRect(x: 0, y: 60, width: 160, height: 60)
    sampler.contentsScale = 2
    sampler.setNeedsDisplay()
    root.sublayers = [arrow, checker, sampler]
    let image = try RenderTestSupport.renderer().render(layer: root, size: size, scale: 1)
    try RenderTestSupport.assertMatches(
      image, golden: "drawing/display.png", tolerance: .fuzzy(maxDifference: 2, maxPixels: 0))
    // The backing store is bounds × contentsScale pixels.
    let contents = try XCTUnwrap(arrow.contents as? CGImage)
    XCTAssertEqual(contents.width, 200)
    XCTAssertEqual(contents.height, 100)
    XCTAssertEqual(arrowDelegate.draws, 1)
    XCTAssertFalse(arrow.needsDisplay())
  }

  /// Drawn once per `setNeedsDisplay()`, uploaded once per redisplay.
  func testDisplayHappensOncePerSetNeedsDisplay() throws {
    let root = root()
    let delegate = ArrowDrawer()
    let arrow = CALayer()
    arrow.frame = CGRect(x: 0, y: 0, width: 100, height: 50)
    arrow.delegate = delegate
    arrow.needsDisplayOnBoundsChange = true
    root.addSublayer(arrow)
    let renderer = try RenderTestSupport.renderer()
    XCTAssertNil(arrow.contents, "a layer does not draw until asked")
    arrow.setNeedsDisplay()
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(delegate.draws, 1)
    XCTAssertEqual(renderer.counters.textureUploads, 0)
    arrow.bounds.size.width = 120  // needsDisplayOnBoundsChange
    XCTAssertTrue(arrow.needsDisplay())
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(delegate.draws, 2)
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    arrow.position.x += 1  // no redraw for a move
    XCTAssertFalse(arrow.needsDisplay())
  }

  func testDelegateDisplayWinsOverDraw() {
    LaminaDraw.install()
    let delegate = DisplayingDelegate()
    let layer = CALayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.delegate = delegate
    layer.setNeedsDisplay()
    layer.displayIfNeeded()
    XCTAssertFalse(delegate.drew)
    XCTAssertEqual((layer.contents as? CGImage)?.pixels, [0, 255, 0, 255])
  }

  /// A mask image drawn in code, as with UIGraphicsImageRenderer.
  func testMakeImageDrawsAMask() throws {
    LaminaDraw.install()
    let context = try XCTUnwrap(CGContext.bitmap(width: 20, height: 10))
    context.setFillColor(.black)
    context.fillEllipse(in: CGRect(x: 0, y: 0, width: 10, height: 10))
    context.fill(CGRect(x: 15, y: 0, width: 5, height: 10))
    let image = try XCTUnwrap(context.makeImage())
    func alpha(_ x: Int, _ y: Int) -> UInt8 { image.pixels[(y * 20 + x) * 4 + 3] }
    XCTAssertEqual(alpha(5, 5), 255)
    XCTAssertEqual(alpha(12, 5), 0)
    XCTAssertEqual(alpha(17, 0), 255)
    XCTAssertEqual(alpha(0, 0), 0)
  }

  /// Shape, text and gradient layers draw from their properties: asking them
  /// to display sets no backing store.
  func testPropertyDrawnLayersMakeNoBackingStore() {
    LaminaDraw.install()
    for layer in [CAShapeLayer(), CATextLayer(), CAGradientLayer()] as [CALayer] {
      layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
      layer.setNeedsDisplay()
      layer.displayIfNeeded()
      XCTAssertNil(layer.contents)
    }
  }
}
