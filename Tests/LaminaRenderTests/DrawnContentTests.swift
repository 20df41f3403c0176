import Foundation
import Lamina
import LaminaDraw
import XCTest

@testable import LaminaDraw
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Shape and text layers drawn on the CPU (shapes: the Cairo path that
/// takes what the GPU path renderer cannot), cached, shown as images.
final class DrawnContentTests: XCTestCase {
  /// A frame of `root` with shape layers drawn by Cairo.
  private func cairoFrame(_ root: CALayer, size: CGSize) throws -> DrawList {
    var builder = try FrameBuilder(
      size: size, scale: 1, caches: RenderTestSupport.renderer().caches)
    builder.drawsShapesOnGPU = false
    return builder.build(root: root, background: nil)
  }

  private func scene(_ layer: CALayer, size: CGFloat = 100) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: size, height: size)
    root.position = CGPoint(x: size / 2, y: size / 2)
    root.addSublayer(layer)
    return root
  }

  private func shape() -> CAShapeLayer {
    let shape = CAShapeLayer()
    shape.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
    shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 80))
    shape.fillColor = nil
    shape.strokeColor = CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1)
    shape.lineWidth = 6
    return shape
  }

  /// New shapes of a frame are drawn together after the walk: identical
  /// ones once, in groups and masks too, and no placeholder is left.
  func testNewShapesOfAFrameAreDrawnOnceEachAndReplaceTheirPlaceholders() throws {
    let tint = CGColor(red: 0.1, green: 0.6, blue: 0.3, alpha: 1)
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 300, height: 100)
    root.position = CGPoint(x: 150, y: 50)
    var twins: [CAShapeLayer] = []
    for i in 0..<3 {
      let s = shape()
      s.strokeColor = tint
      s.frame.origin.x = 10 + CGFloat(i) * 95
      twins.append(s)
      root.addSublayer(s)
    }
    twins[1].opacity = 0.5
    twins[2].shadowOpacity = 1
    let masked = CALayer()
    masked.frame = CGRect(x: 200, y: 0, width: 100, height: 100)
    masked.backgroundColor = tint
    let mask = shape()
    mask.lineWidth = 9
    mask.frame = masked.bounds
    masked.mask = mask
    root.addSublayer(masked)
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    builder.drawsShapesOnGPU = false
    let frame = builder.build(root: root, background: .white)
    XCTAssertEqual(builder.caches.drawn.rasterizations, 2, "the twins and the mask")
    var images = 0
    func check(_ commands: [DrawCommand]) {
      for command in commands {
        switch command {
        case .item(let item):
          if case .image(let image, _) = item.material {
            images += 1
            XCTAssertGreaterThan(image.width, 1, "a placeholder was left")
          }
        case .group(let group):
          check(group.commands)
          if let mask = group.mask { check(mask.commands) }
        }
      }
    }
    check(frame.commands)
    XCTAssertGreaterThanOrEqual(images, 4, "three twins and the mask")
    let image = try RenderTestSupport.renderer().render(frame)
    // The top of the first twin's ring (y 7…13 at x 50): the stroke color.
    let p = image.pixel(50, 10)
    for (got, want) in zip([p.0, p.1, p.2], [0.1, 0.6, 0.3]) {
      XCTAssertEqual(Double(got), want * 255, accuracy: 1)
    }
  }

  /// An unchanged shape reuses its bitmap and texture; a new `strokeEnd`
  /// draws and uploads that one layer again.
  func testShapeIsRasterizedOnceAndAgainOnlyWhenItChanges() throws {
    let renderer = try RenderTestSupport.renderer()
    let a = shape()
    let b = shape()
    b.position.y += 1000  // off screen: never drawn
    b.lineWidth = 7
    let root = scene(a)
    root.addSublayer(b)
    let size = CGSize(width: 100, height: 100)
    _ = try renderer.render(cairoFrame(root, size: size))
    let first = renderer.caches.drawn.rasterizations
    _ = try renderer.render(cairoFrame(root, size: size))
    XCTAssertEqual(renderer.caches.drawn.rasterizations, first)
    XCTAssertEqual(renderer.counters.textureUploads, 0)
    a.strokeEnd = 0.5
    _ = try renderer.render(cairoFrame(root, size: size))
    XCTAssertEqual(renderer.caches.drawn.rasterizations, first + 1)
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
  }

  /// A shape is rasterized at the scale it is shown at: 8× zoom, 8× pixels.
  func testShownScaleFollowsTheTransform() {
    let rect = CGRect(x: 0, y: 0, width: 10, height: 10)
    XCTAssertEqual(FrameBuilder.shownScale(CATransform3DMakeScale(8, 8, 1), rect), 8)
    XCTAssertEqual(FrameBuilder.shownScale(CATransform3DMakeScale(2, 3, 1), rect), 3)
    // In between: rounded up to a quarter octave.
    XCTAssertEqual(
      FrameBuilder.shownScale(CATransform3DMakeScale(1.1, 1.1, 1), rect), pow(2, 0.25),
      accuracy: 1e-9)
    XCTAssertEqual(
      FrameBuilder.shownScale(CATransform3DMakeScale(100, 100, 1), rect), FrameBuilder.maxDrawnScale
    )
  }

  func testShapeBitmapCoversTheStroke() throws {
    let style = try XCTUnwrap(ShapeStyle(shape()))
    let raster = try XCTUnwrap(ShapeRasterizer.rasterize(style, scale: 2))
    // The stroke reaches 3 points outside the 80-point circle.
    XCTAssertLessThanOrEqual(raster.rect.minX, -3)
    XCTAssertGreaterThanOrEqual(raster.rect.maxX, 83)
    XCTAssertEqual(CGFloat(raster.image.width), raster.rect.width * 2, accuracy: 1e-9)
  }

  func testTrimmingByArcLength() {
    let path = CGMutablePath()
    path.move(to: .zero)
    path.addLine(to: CGPoint(x: 10, y: 0))
    path.addLine(to: CGPoint(x: 10, y: 10))
    let lines = PathTrimming.trim(path, start: 0.25, end: 0.75, tolerance: 0.1)
    XCTAssertEqual(lines, [[CGPoint(x: 5, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 5)]])
    XCTAssertEqual(PathTrimming.trim(path, start: 0.5, end: 0.5, tolerance: 0.1), [])
  }

  /// A family that is not installed falls back through fontconfig and the
  /// text still draws.
  func testMissingFontFallsBack() throws {
    let text = CATextLayer()
    text.frame = CGRect(x: 0, y: 0, width: 100, height: 30)
    text.string = "Fallback"
    text.font = "No Such Font Family"
    text.fontSize = 16
    text.foregroundColor = .black
    let style = try XCTUnwrap(TextStyle(text))
    let raster = try XCTUnwrap(TextRasterizer.rasterize(style, scale: 1))
    XCTAssertTrue(TextRasterizer.checkedFamilies.contains("No Such Font Family"))
    XCTAssertFalse(raster.image.isOpaque)
    XCTAssertTrue(
      stride(from: 3, to: raster.image.pixels.count, by: 4).contains {
        raster.image.pixels[$0] > 200
      })
  }

  /// An attributed string: runs with their own font, size and color; the
  /// layer's font, size and color are not used (Helvetica 12, black).
  func testAttributedRuns() throws {
    let text = NSMutableAttributedString(string: "Big red, small blue, plain")
    text.addAttributes(
      [
        .font: CTFontCreateWithName("DejaVu Serif", 28, nil),
        .foregroundColor: CGColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1),
      ], range: NSRange(location: 0, length: 8))
    text.addAttributes(
      [
        .font: CTFontCreateWithName("DejaVu Sans Mono", 14, nil),
        .foregroundColor: CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.8),
      ], range: NSRange(location: 9, length: 10))
    let layer = CATextLayer()
    layer.frame = CGRect(x: 5, y: 5, width: 290, height: 40)
    layer.string = text
    layer.fontSize = 40
    layer.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    let style = try XCTUnwrap(TextStyle(layer))
    XCTAssertEqual(style.runs.count, 2)
    XCTAssertEqual(style.runs[1].start, 9)
    let root = scene(layer, size: 300)
    root.bounds.size.height = 50
    root.position.y = 25
    root.backgroundColor = .white
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: CGSize(width: 300, height: 50), scale: 2)
    try RenderTestSupport.assertMatches(
      image, golden: "drawing/attributed_text.png",
      tolerance: .fuzzy(maxDifference: 2, maxPixels: 20))
  }

  private func textLayer(_ string: String, y: CGFloat, size: CGFloat = 14) -> CATextLayer {
    let text = CATextLayer()
    text.frame = CGRect(x: 0, y: y, width: 200, height: size * 1.5)
    text.string = string
    text.font = "DejaVu Sans"
    text.fontSize = size
    text.foregroundColor = .black
    return text
  }

  /// Text layers share the glyph atlas: all their glyphs draw in one call,
  /// and a new string made of known glyphs rasterizes nothing new.
  func testTextLayersShareTheGlyphAtlas() throws {
    // A renderer of its own: an empty atlas, whatever earlier tests drew.
    let renderer = try Renderer()
    let root = scene(textLayer("atlas shared", y: 0), size: 200)
    let second = textLayer("by both layers", y: 30)
    root.addSublayer(second)
    let size = CGSize(width: 200, height: 200)
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    let glyphs = renderer.caches.glyphs.rasterizedGlyphs
    second.string = "shared atlas"  // the same letters again
    _ = try renderer.render(layer: root, size: size)
    XCTAssertEqual(renderer.caches.glyphs.rasterizedGlyphs, glyphs)
    XCTAssertEqual(renderer.counters.textureUploads, 0)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
  }

  /// Very large text draws as one bitmap of its layer instead.
  func testLargeTextUsesALayerBitmap() throws {
    let renderer = try RenderTestSupport.renderer()
    let big = textLayer("Big", y: 0, size: 120)
    big.bounds.size = CGSize(width: 200, height: 180)
    let root = scene(big, size: 200)
    let image = try renderer.render(layer: root, size: CGSize(width: 200, height: 200))
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    var inked = 0
    for y in 0..<200 { for x in 0..<200 where image.pixel(x, y).a > 128 { inked += 1 } }
    XCTAssertGreaterThan(inked, 2000)
  }
}
