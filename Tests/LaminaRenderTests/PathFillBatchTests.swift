import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaPlan
@testable import LaminaRender

/// Path fills of different meshes and clips, overlapping and translucent,
/// drawn in one draw (`PathBatch`): the same pixels as each fill drawn by a
/// draw of its own, in order.
final class PathFillBatchTests: XCTestCase {
  /// A star of `points` points (a mesh of its own per size and count).
  static func star(_ points: Int, radius: CGFloat, inner: CGFloat) -> CGPath {
    let path = CGMutablePath()
    for i in 0..<(2 * points) {
      let angle = CGFloat(i) * .pi / CGFloat(points) - .pi / 2
      let r = i % 2 == 0 ? radius : inner
      let p = CGPoint(x: r * cos(angle), y: r * sin(angle))
      if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
    }
    path.closeSubpath()
    return path
  }

  /// Twenty overlapping translucent stars and ellipses, rotated and
  /// scaled, then a clipped container (rotated, rounded) with ten more and
  /// two more on top: what a Lottie character's shapes look like to the
  /// batcher.
  static func scene() -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 160, height: 120)
    root.position = CGPoint(x: 80, y: 60)
    root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    func shape(_ i: Int, into parent: CALayer) {
      let layer = CAShapeLayer()
      layer.path =
        i % 3 == 0
        ? CGPath(ellipseIn: CGRect(x: -20, y: -12 - CGFloat(i % 5), width: 40, height: 24), transform: nil)
        : star(4 + i % 4, radius: 18 + CGFloat(i % 6) * 2, inner: 8)
      layer.fillColor = CGColor(
        red: CGFloat(i % 4) / 3, green: CGFloat(i % 3) / 2, blue: CGFloat(i % 5) / 4, alpha: 0.6)
      layer.position = CGPoint(x: 20 + CGFloat(i * 37 % 120), y: 18 + CGFloat(i * 23 % 84))
      layer.transform = CATransform3DMakeRotation(CGFloat(i) * 0.4, 0, 0, 1)
      parent.addSublayer(layer)
    }
    for i in 0..<20 { shape(i, into: root) }
    let clip = CALayer()
    clip.bounds = CGRect(x: 0, y: 0, width: 90, height: 60)
    clip.position = CGPoint(x: 80, y: 60)
    clip.masksToBounds = true
    clip.cornerRadius = 12
    clip.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
    root.addSublayer(clip)
    for i in 20..<30 { shape(i, into: clip) }
    for i in 30..<32 { shape(i, into: root) }
    return root
  }

  func testOverlappingFillsOfManyMeshesAndClipsDrawInOneDrawWithTheSamePixels() throws {
    let renderer = try Renderer()
    renderer.cpuPaths = false  // the GPU path renderer's batches
    let root = Self.scene()
    let size = CGSize(width: 160, height: 120)
    // Large fills too in the one draw (a hardware GPU's limit).
    renderer.mergedFillMaxPixels = Int.max
    let batched = try renderer.render(layer: root, size: size)
    let draws = renderer.counters.drawCalls
    let breaks = renderer.counters.batchBreaks
    // With llvmpipe's limit the large fills batch by mesh: the same pixels.
    renderer.mergedFillMaxPixels = PlanOptions.softwareMergedFillMaxPixels
    let split = try renderer.render(layer: root, size: size)
    XCTAssertGreaterThan(renderer.counters.drawCalls, 2)
    XCTAssertTrue(split.premultipliedPixels == batched.premultipliedPixels, "split fills differ")
    renderer.mergedFillMaxPixels = Int.max
    renderer.batchesDraws = false
    let alone = try renderer.render(layer: root, size: size)
    // The background, then every fill (clipped or not) in one draw.
    XCTAssertEqual(draws, 2, "draws a frame, batched (\(breaks))")
    XCTAssertEqual(breaks, ["pass": 1, "program": 1])
    // The background and the 30 fills that reach the canvas (the clip
    // culls two of its shapes), a draw each.
    XCTAssertEqual(renderer.counters.drawCalls, 31)
    XCTAssertEqual(renderer.counters.batchBreaks, ["unbatched": 31])
    if let dir = ProcessInfo.processInfo.environment["LAMINA_TEST_OUT"] {
      try batched.writePNG(to: URL(fileURLWithPath: dir).appendingPathComponent("path-fill-batch.png"))
    }
    let a = batched.premultipliedPixels
    let b = alone.premultipliedPixels
    var differing = 0
    for i in 0..<a.count where a[i] != b[i] { differing += 1 }
    XCTAssertEqual(differing, 0, "bytes that differ between batched and unbatched fills")
    // Something was drawn: most pixels are not the white background.
    var colored = 0
    for p in 0..<(a.count / 4) where a[4 * p] < 250 || a[4 * p + 1] < 250 || a[4 * p + 2] < 250 {
      colored += 1
    }
    XCTAssertGreaterThan(colored, a.count / 4 / 3)
  }
}
