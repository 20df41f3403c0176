import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaTestSupport
import XCTest

/// Draw calls, uploads and passes: stable numbers where timings are not.
final class RenderCountTests: XCTestCase {
  func root(_ width: CGFloat, _ height: CGFloat) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    return root
  }

  func image(_ rgba: (UInt8, UInt8, UInt8, UInt8)) -> CGImage {
    CGImage(width: 2, height: 2, rgba: Array([rgba.0, rgba.1, rgba.2, rgba.3].repeated(4)))!
  }

  func testSolidLayersBatchIntoOneDrawCall() throws {
    let r = root(100, 100)
    for i in 0..<100 {
      let l = CALayer()
      l.frame = CGRect(x: CGFloat(i % 10) * 10, y: CGFloat(i / 10) * 10, width: 8, height: 8)
      l.backgroundColor = CGColor(red: CGFloat(i) / 100, green: 0.5, blue: 0.2, alpha: 1)
      r.addSublayer(l)
    }
    let renderer = try RenderTestSupport.renderer()
    let out = try renderer.render(layer: r, size: CGSize(width: 100, height: 100))
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    XCTAssertEqual(renderer.counters.vertices, 400)
    let p = out.pixel(95, 95)
    XCTAssertEqual(Int(p.r), 252, accuracy: 1)
    XCTAssertEqual(Int(p.g), 128, accuracy: 1)
  }

  func testImagesUploadOnceAndBatchPerTexture() throws {
    let r = root(100, 100)
    let red = image((255, 0, 0, 255))
    let blue = image((0, 0, 255, 255))
    for (i, contents) in [red, red, blue, blue, red].enumerated() {
      let l = CALayer()
      l.frame = CGRect(x: CGFloat(i) * 20, y: 0, width: 18, height: 18)
      l.contents = contents
      r.addSublayer(l)
    }
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: r, size: CGSize(width: 100, height: 100))
    XCTAssertEqual(renderer.counters.textureUploads, 2)
    XCTAssertEqual(renderer.counters.drawCalls, 3)  // red×2, blue×2, red
    _ = try renderer.render(layer: r, size: CGSize(width: 100, height: 100))
    XCTAssertEqual(renderer.counters.textureUploads, 0, "textures are reused while images live")
  }

  func testTenThousandReplicatorInstancesTakeOneDrawAndOneUpload() throws {
    let r = root(200, 200)
    let replicator = CAReplicatorLayer()
    replicator.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
    replicator.instanceCount = 100
    replicator.instanceTransform = CATransform3DMakeTranslation(2, 0, 0)
    let rows = CAReplicatorLayer()
    rows.frame = CGRect(x: 0, y: 0, width: 2, height: 200)
    rows.instanceCount = 100
    rows.instanceTransform = CATransform3DMakeTranslation(0, 2, 0)
    let dot = CALayer()
    dot.frame = CGRect(x: 0, y: 0, width: 1.5, height: 1.5)
    dot.contents = image((255, 255, 255, 255))
    rows.addSublayer(dot)
    replicator.addSublayer(rows)
    r.addSublayer(replicator)
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: r, size: CGSize(width: 200, height: 200))
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    XCTAssertLessThanOrEqual(renderer.counters.textureUploads, 1)
    XCTAssertEqual(renderer.counters.vertices, 40_000)
  }

  func testOverlappingGroupTakesOneOffscreenPass() throws {
    let r = root(100, 100)
    let group = CALayer()
    group.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
    group.opacity = 0.5
    for x in [0, 30] as [CGFloat] {
      let l = CALayer()
      l.frame = CGRect(x: x, y: 0, width: 50, height: 50)
      l.backgroundColor =
        x == 0
        ? CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        : CGColor(red: 0, green: 0, blue: 1, alpha: 1)
      group.addSublayer(l)
    }
    r.addSublayer(group)
    let renderer = try RenderTestSupport.renderer()
    let out = try renderer.render(
      layer: r, size: CGSize(width: 100, height: 100), background: .white)
    XCTAssertEqual(renderer.counters.offscreenPasses, 1)
    // Where they overlap, only blue shows, at half opacity over white.
    let p = out.pixel(50, 30)
    XCTAssertEqual(Int(p.r), 128, accuracy: 1)
    XCTAssertEqual(Int(p.g), 128, accuracy: 1)
    XCTAssertEqual(Int(p.b), 255, accuracy: 1)
  }

  func testLargeCanvasRendersInTilesWithTheSamePixels() throws {
    let r = root(300, 200)
    let l = CALayer()
    l.frame = CGRect(x: 20, y: 30, width: 200, height: 120)
    l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    l.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.7)
    r.addSublayer(l)
    let tiled = try Renderer(maxTileSize: 128)
    let whole = try RenderTestSupport.renderer()
    let a = try tiled.render(layer: r, size: CGSize(width: 300, height: 200), background: .white)
    let b = try whole.render(layer: r, size: CGSize(width: 300, height: 200), background: .white)
    XCTAssertEqual(a.premultipliedPixels.count, b.premultipliedPixels.count)
    // Shifting the viewport changes float rounding in clip space: a unit in
    // the last place of a byte at most.
    let worst = zip(a.premultipliedPixels, b.premultipliedPixels).map { abs(Int($0) - Int($1)) }
      .max()
    XCTAssertLessThanOrEqual(worst ?? 99, 1, "tiled and whole renderings differ")
  }

  func testSameSceneSameBytes() throws {
    let r = root(64, 64)
    let l = CALayer()
    l.frame = CGRect(x: 5, y: 5, width: 50, height: 40)
    l.transform = CATransform3DMakeRotation(0.7, 1, 1, 0)
    l.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 0.8)
    r.addSublayer(l)
    let renderer = try RenderTestSupport.renderer()
    let a = try renderer.render(layer: r, size: CGSize(width: 64, height: 64))
    let b = try renderer.render(layer: r, size: CGSize(width: 64, height: 64))
    XCTAssertTrue(a == b, "two renderings of one scene differ")
  }
}

extension Array {
  func repeated(_ count: Int) -> [Element] { Array((0..<count).map { _ in self }.joined()) }
}

/// The two antialiasing paths agree: 4× multisampling (resolved before
/// read-back) and edge coverage in the shaders.
final class AntialiasingTests: XCTestCase {
  func testMultisampledAndEdgeCoverageRenderingsAgree() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 90)
    root.position = CGPoint(x: 60, y: 45)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 300
    root.sublayerTransform = perspective
    let l = CALayer()
    l.frame = CGRect(x: 20, y: 15, width: 80, height: 60)
    l.transform = CATransform3DRotate(CATransform3DMakeRotation(0.4, 0, 0, 1), 0.6, 0, 1, 0)
    l.backgroundColor = CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
    root.addSublayer(l)
    let msaa = try Renderer(antialiasing: .multisample(4))
    let edges = try Renderer(antialiasing: .edges)
    XCTAssertEqual(msaa.samples, 4)
    XCTAssertEqual(edges.samples, 1)
    let a = try msaa.render(layer: root, size: root.bounds.size, background: .white)
    let b = try edges.render(layer: root, size: root.bounds.size, background: .white)
    // Only edge pixels may differ: 4 samples quantize coverage to quarters,
    // so against exact coverage a pixel is off by up to a quarter of the
    // contrast (here 230/4 ≈ 58), never more.
    let comparison = ImageComparison(
      actual: a.straightPixels, expected: b.straightPixels, threshold: 64)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
    XCTAssertGreaterThan(comparison.psnr, 34, comparison.summary)
    // Both antialias: some edge pixels are neither background nor fill.
    for image in [a, b] {
      let partial = (0..<(120 * 90)).filter { i in
        let p = image.pixel(i % 120, i / 120)
        return p.r > 40 && p.r < 220
      }
      XCTAssertGreaterThan(partial.count, 50)
    }
  }

  func testCombinedModeKeepsExactEdges() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 80, height: 60)
    root.position = CGPoint(x: 40, y: 30)
    let l = CALayer()
    l.frame = CGRect(x: 10, y: 10, width: 50, height: 35)
    l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    l.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.1, alpha: 1)
    root.addSublayer(l)
    let combined = try Renderer(antialiasing: .combined(4))
    XCTAssertEqual(combined.samples, 4)
    XCTAssertTrue(combined.antialiasing.usesEdgeCoverage)
    let a = try combined.render(layer: root, size: root.bounds.size, background: .white)
    let b = try Renderer(antialiasing: .edges).render(
      layer: root, size: root.bounds.size, background: .white)
    // Edge coverage decides every layer edge either way; the samples of a
    // fragment all get its (coverage-weighted) color.
    let comparison = ImageComparison(
      actual: a.straightPixels, expected: b.straightPixels, threshold: 2)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
  }
}
