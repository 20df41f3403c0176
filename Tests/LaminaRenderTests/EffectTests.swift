import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import LaminaTestSupport
import XCTest

/// Shadows measured against the Gaussian, and what effects cost in passes
/// and draws.
final class EffectTests: XCTestCase {
  func root(_ width: CGFloat, _ height: CGFloat) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    return root
  }

  /// The shadow of a square (its alpha, premultiplied: black at full
  /// opacity) across its left edge and along a diagonal beyond its corner,
  /// against the Gaussian's integral over the square.
  func shadowProfile(sigma: CGFloat, blurredOffscreen: Bool) throws -> (
    max: Double, mean: Double, passes: Int
  ) {
    let r = root(200, 160)
    let square = CGRect(x: 60, y: 40, width: 80, height: 80)
    let layer = CALayer()
    layer.frame = square
    if blurredOffscreen {
      // An image as the only content: the shadow comes from the rendering.
      layer.contents = CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 255, count: 16))
    } else {
      layer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    }
    layer.shadowOpacity = 1
    layer.shadowRadius = sigma
    layer.shadowOffset = .zero
    r.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    let image = try renderer.render(layer: r, size: r.bounds.size)
    func erf(_ x: Double) -> Double { Foundation.erf(x) }
    func coverage(_ x: Double, _ a: Double, _ b: Double) -> Double {
      0.5 * (erf((b - x) / (sigma * 2.0.squareRoot())) - erf((a - x) / (sigma * 2.0.squareRoot())))
    }
    func expected(_ px: Int, _ py: Int) -> Double {
      let x = Double(px) + 0.5
      let y = Double(py) + 0.5
      return coverage(x, square.minX, square.maxX) * coverage(y, square.minY, square.maxY)
    }
    var errors: [Double] = []
    // Across the left edge, outside the square (inside, the layer covers it).
    for x in 0..<60 { errors.append(abs(Double(image.pixel(x, 80).a) / 255 - expected(x, 80))) }
    // Beyond the top-left corner.
    for d in 1..<40 {
      errors.append(abs(Double(image.pixel(60 - d, 40 - d).a) / 255 - expected(60 - d, 40 - d)))
    }
    let worst = errors.max() ?? 1
    return (
      worst * 255, errors.reduce(0, +) / Double(errors.count) * 255,
      renderer.counters.offscreenPasses
    )
  }

  func testAnalyticShadowMatchesTheGaussian() throws {
    for sigma in [2.0, 6.0, 16.0] as [CGFloat] {
      let result = try shadowProfile(sigma: sigma, blurredOffscreen: false)
      XCTAssertLessThan(result.max, 2, "σ \(sigma): worst error \(result.max)/255")
      XCTAssertEqual(result.passes, 0, "a rect shadow takes no offscreen pass")
    }
  }

  func testBlurredShadowMatchesTheGaussian() throws {
    for sigma in [2.0, 6.0, 16.0] as [CGFloat] {
      let result = try shadowProfile(sigma: sigma, blurredOffscreen: true)
      XCTAssertLessThan(result.max, 2, "σ \(sigma): worst error \(result.max)/255")
      XCTAssertLessThan(result.mean, 1, "σ \(sigma): mean error \(result.mean)/255")
      XCTAssertGreaterThan(result.passes, 0)
    }
  }

  /// A rounded rect's shadow (no offscreen pass) against the Gaussian
  /// convolved numerically with the rounded rect, in each regime of the
  /// shader: blur wide, narrow and comparable next to the radius.
  func testRoundedShadowMatchesNumericalConvolution() throws {
    for (radius, sigma, limit) in [(12.0, 10.0, 2.0), (20.0, 1.5, 6.0), (16.0, 5.0, 2.0)]
      as [(CGFloat, CGFloat, Double)]
    {
      let r = root(160, 120)
      let layer = CALayer()
      let shape = CGRect(x: 40, y: 30, width: 80, height: 60)
      layer.frame = shape
      layer.cornerRadius = radius
      layer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
      layer.shadowOpacity = 1
      layer.shadowRadius = sigma
      layer.shadowOffset = .zero
      r.addSublayer(layer)
      let renderer = try RenderTestSupport.renderer()
      let image = try renderer.render(layer: r, size: r.bounds.size)
      XCTAssertEqual(renderer.counters.offscreenPasses, 0)
      // The convolution at pixel centers, by a midpoint sum over a fine grid.
      func inside(_ x: Double, _ y: Double) -> Bool {
        let cx = min(max(x, shape.minX + radius), shape.maxX - radius)
        let cy = min(max(y, shape.minY + radius), shape.maxY - radius)
        return (x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius
      }
      func expected(_ px: Int, _ py: Int) -> Double {
        let x = Double(px) + 0.5
        let y = Double(py) + 0.5
        let step = 0.25
        let reach = 4 * sigma
        var sum = 0.0
        var sy = max(shape.minY, y - reach) + step / 2
        while sy < min(shape.maxY, y + reach) {
          var sx = max(shape.minX, x - reach) + step / 2
          while sx < min(shape.maxX, x + reach) {
            if inside(sx, sy) {
              let d2 = (sx - x) * (sx - x) + (sy - y) * (sy - y)
              sum += exp(-d2 / (2 * sigma * sigma))
            }
            sx += step
          }
          sy += step
        }
        return sum * step * step / (2 * Double.pi * sigma * sigma)
      }
      var worst = 0.0
      // Along the diagonal out of the top-left corner and across the top edge.
      for d in 0..<min(Int(3 * sigma + 2), Int(shape.minY)) {
        let corner = (Int(shape.minX) - d, Int(shape.minY) - d)
        let edge = (Int(shape.midX), Int(shape.minY) - 1 - d)
        for (x, y) in [corner, edge] where !inside(Double(x) + 0.5, Double(y) + 0.5) {
          worst = max(worst, abs(Double(image.pixel(x, y).a) / 255 - expected(x, y)) * 255)
        }
      }
      XCTAssertLessThan(worst, limit, "radius \(radius), σ \(sigma): worst error \(worst)/255")
    }
  }

  /// The layer's opacity groups it with its shadow: a translucent opaque
  /// layer does not show its own shadow through.
  func testOpacityGroupsTheLayerWithItsShadow() throws {
    let r = root(100, 100)
    let layer = CALayer()
    layer.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
    layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    layer.opacity = 0.5
    layer.shadowOpacity = 1
    layer.shadowRadius = 3
    layer.shadowOffset = CGSize(width: 10, height: 10)
    r.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    let out = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.offscreenPasses, 1)
    let inside = out.pixel(60, 60)  // over the shadow, under the layer
    XCTAssertEqual(Int(inside.r), 128, accuracy: 1)
    XCTAssertEqual(Int(inside.b), 255, accuracy: 1)
    let shadow = out.pixel(82, 82)  // the shadow alone (nearly full), at half opacity
    XCTAssertEqual(Int(shadow.r), 128, accuracy: 6)
  }

  func testRoundedRectShadowTakesNoOffscreenPass() throws {
    let r = root(200, 200)
    let card = CALayer()
    card.frame = CGRect(x: 40, y: 40, width: 120, height: 100)
    card.cornerRadius = 16
    card.borderWidth = 2
    card.shadowOpacity = 0.5
    card.shadowRadius = 10
    // A card's content view: the same rounded rect, opaque, clipping its image.
    let content = CALayer()
    content.frame = card.bounds
    content.cornerRadius = 16
    content.masksToBounds = true
    content.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)
    content.contents = CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 200, count: 16))
    card.addSublayer(content)
    r.addSublayer(card)
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 0)
  }

  func testNineSliceIsOneDraw() throws {
    let r = root(200, 100)
    let layer = CALayer()
    layer.frame = CGRect(x: 10, y: 10, width: 150, height: 60)
    layer.contents = CGImage(width: 8, height: 8, rgba: [UInt8](repeating: 255, count: 256))
    layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
    r.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    XCTAssertEqual(renderer.counters.vertices, 36)
  }

  /// Square clips in an axis-aligned tree cut the items on the CPU: the
  /// layers keep the plain program and batch as before.
  func testAxisAlignedClipsStayInOneBatch() throws {
    let r = root(100, 100)
    let clip = CALayer()
    clip.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
    clip.masksToBounds = true
    for i in 0..<4 {
      let l = CALayer()
      l.frame = CGRect(x: CGFloat(i) * 20 - 10, y: 5, width: 20, height: 18)
      l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
      clip.addSublayer(l)
    }
    r.addSublayer(clip)
    let renderer = try RenderTestSupport.renderer()
    let out = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    XCTAssertEqual(renderer.counters.vertices, 12, "the layer wholly outside is dropped")
    XCTAssertEqual(out.pixel(9, 20).a, 0)
    XCTAssertEqual(out.pixel(10, 20).a, 255)
    XCTAssertEqual(out.pixel(59, 20).a, 255)
    XCTAssertEqual(out.pixel(60, 20).a, 0)
  }

  func testMaskTakesTwoPasses() throws {
    let r = root(100, 100)
    let layer = CALayer()
    layer.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
    layer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let mask = CALayer()
    mask.frame = CGRect(x: 0, y: 0, width: 40, height: 80)
    mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
    layer.mask = mask
    r.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    // Frames counted for this cache alone: the canvas prefix's copy is an
    // offscreen pass of its own (CanvasPrefixTests).
    let keepsPrefix = renderer.canvasPrefix
    renderer.canvasPrefix = false
    defer { renderer.canvasPrefix = keepsPrefix }
    let out = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 2)
    XCTAssertEqual(Int(out.pixel(20, 50).a), 128, accuracy: 1)
    XCTAssertEqual(out.pixel(70, 50).a, 0)
    // Nothing changed: both renderings come from the cache.
    _ = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 0)
    // The mask moves over the same content (whose bounds it still covers):
    // only the mask renders again.
    mask.frame = CGRect(x: 40, y: 0, width: 40, height: 80)
    layer.addSublayer(CALayer())  // (a change elsewhere in the model does not matter)
    let moved = try renderer.render(layer: r, size: r.bounds.size)
    XCTAssertEqual(renderer.counters.offscreenPasses, 1)
    XCTAssertEqual(moved.pixel(20, 50).a, 0)
    XCTAssertEqual(Int(moved.pixel(70, 50).a), 128, accuracy: 1)
  }

  /// A rasterized subtree renders once, is reused while nothing inside it
  /// changes, renders again after a change, and looks as drawn directly.
  func testRasterizedSubtreeIsCachedUntilItChanges() throws {
    func scene(rasterize: Bool) -> (CALayer, CALayer) {
      let r = root(120, 100)
      let card = CALayer()
      card.frame = CGRect(x: 10, y: 10, width: 80, height: 60)
      card.cornerRadius = 12
      card.backgroundColor = CGColor(red: 0.9, green: 0.8, blue: 0.3, alpha: 1)
      card.shouldRasterize = rasterize
      let child = CALayer()
      child.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
      child.backgroundColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)
      card.addSublayer(child)
      r.addSublayer(card)
      return (r, child)
    }
    let renderer = try RenderTestSupport.renderer()
    // Frames counted for this cache alone: the canvas prefix's copy is an
    // offscreen pass of its own (CanvasPrefixTests).
    let keepsPrefix = renderer.canvasPrefix
    renderer.canvasPrefix = false
    defer { renderer.canvasPrefix = keepsPrefix }
    let (r, child) = scene(rasterize: true)
    let first = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.rasterizations, 1)
    _ = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.rasterizations, 0, "unchanged: the cached texture is reused")
    XCTAssertEqual(renderer.counters.offscreenPasses, 0)
    child.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    let changed = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.rasterizations, 1, "a change inside renders it again")
    XCTAssertEqual(Int(changed.pixel(30, 30).r), 204, accuracy: 1)
    let (direct, _) = scene(rasterize: false)
    let expected = try renderer.render(layer: direct, size: direct.bounds.size, background: .white)
    // Antialiased corner pixels are rounded to bytes twice (raster, then composite).
    let comparison = ImageComparison(
      actual: first.straightPixels, expected: expected.straightPixels, threshold: 6)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
  }

  /// The effect programs under 4× multisampling (hardware GPUs) agree with
  /// edge coverage (llvmpipe) but for edge pixels.
  func testEffectsAgreeUnderMultisampling() throws {
    let msaa = try Renderer(antialiasing: .multisample(4))
    let folder = RenderTestSupport.fixtures.appendingPathComponent("reftests")
    for name in [
      "clip_rounded_rotated", "shadows", "masks", "nine_slice_sizes", "border_over_sublayers",
    ] {
      let scene = try SceneLoader.load(contentsOf: folder.appendingPathComponent(name + ".json"))
      var builder = FrameBuilder(
        size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
        scale: scene.canvas.scale)
      let frame = builder.build(root: scene.root, background: scene.canvas.background)
      let a = try msaa.render(frame)
      let b = try RenderTestSupport.render(folder.appendingPathComponent(name + ".json"))
      let comparison = ImageComparison(
        actual: a.straightPixels, expected: b.straightPixels, threshold: 8)
      XCTAssertLessThan(comparison.fractionOff, 0.03, "\(name): \(comparison.summary)")
      XCTAssertGreaterThan(comparison.psnr, 30, "\(name): \(comparison.summary)")
    }
  }
}

/// Blurred shadows of unchanged layers are reused across frames.
final class ShadowCacheTests: XCTestCase {
  func testUnchangedLayerReusesItsBlurredShadow() throws {
    let r = CALayer()
    r.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
    r.position = CGPoint(x: 80, y: 60)
    let layer = CALayer()
    layer.frame = CGRect(x: 40, y: 30, width: 70, height: 50)
    // An image as the only content: the shadow needs the blurred path.
    layer.contents = CGImage(width: 2, height: 2, rgba: [UInt8](repeating: 200, count: 16))
    layer.shadowOpacity = 0.8
    layer.shadowRadius = 7
    r.addSublayer(layer)
    let renderer = try Renderer()
    renderer.canvasPrefix = false  // this cache alone: the prefix copy is a pass of its own
    let first = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertGreaterThan(renderer.counters.offscreenPasses, 0)
    let second = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.offscreenPasses, 0, "the blurred shadow is reused")
    XCTAssertTrue(first == second)
    layer.position.x += 5
    _ = try renderer.render(layer: r, size: r.bounds.size, background: .white)
    XCTAssertGreaterThan(renderer.counters.offscreenPasses, 0, "a moved layer casts a new shadow")
  }
}

extension EffectTests {
  /// A 0.5-point border whose square inner corner lies on a pixel center
  /// covers that pixel by a half (the ring's outer edge a half pixel away,
  /// its inner corner through the center) wherever the layer's group lands:
  /// the ring shader divided the distance by its gradient, which is 0 where
  /// the field is flat across the 2×2 block, so the rounding of the
  /// distance gave 1/2 in one group and 1 in another (finding
  /// square-corner-coverage-from-rounding, alone seed 1300892: 58 against
  /// 115 under an opacity of 0.45).
  func testSquareInnerCornerOnAPixelCenterIsHalfCoveredInAnyGroup() throws {
    var alphas: [UInt8] = []
    for withSibling in [false, true] {
      let root = self.root(105, 49)
      root.opacity = 0.45
      let shape = CAShapeLayer()
      shape.bounds = CGRect(x: 0, y: 0, width: 60, height: 17)
      shape.position = CGPoint(x: 20, y: 35.5)
      shape.borderWidth = 0.5
      shape.path = try CGPath.parseSVG(
        "M 12 2 h 46 v 7 h -46 z m 11.5 1.75 l 23 0 l 0 3.5 l -23 0 z")
      root.addSublayer(shape)
      if withSibling {
        // Overlapping the border: the group's area starts 14 rows higher.
        let holder = CALayer()
        holder.frame = CGRect(x: 0, y: 7, width: 80, height: 30)
        let sibling = CALayer()
        sibling.frame = CGRect(x: 40, y: 4, width: 10, height: 20)
        sibling.backgroundColor = CGColor(red: 0.58, green: 0.3, blue: 0, alpha: 0.76)
        holder.addSublayer(sibling)
        root.addSublayer(holder)
      }
      let image = try RenderTestSupport.renderer().render(
        layer: root, size: root.bounds.size, scale: 1)
      alphas.append(image.pixel(49, 43).a)
    }
    // 0.45 × 1/2 of 255, give or take the 8-bit roundings.
    for a in alphas { XCTAssertEqual(Double(a), 0.45 * 127.5, accuracy: 2, "\(alphas)") }
  }
}
