import Foundation
import Lamina
import LaminaTestSupport
import XCTest

@testable import LaminaFrame
@testable import LaminaPlan

/// The canvas's unchanged bottom (`FramePlanner+Prefix.swift`): drawn once
/// into a kept target, copied into the canvas by the frames after.
final class CanvasPrefixTests: XCTestCase {
  /// A gradient background (more than a solid on whole pixels) under a
  /// small layer at `x`.
  private func scene(x: CGFloat, background: CGColor = .white) -> CALayer {
    let r = LaminaTestSupport.root(64, 48)
    let gradient = CAGradientLayer()
    gradient.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
    gradient.colors = [background, CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
    r.addSublayer(gradient)
    r.addSublayer(layer(CGRect(x: x, y: 10, width: 8, height: 8), .black))
    return r
  }

  /// What each frame's plan does with the prefix: "draw" (drawn into the
  /// kept target and copied), "copy" (copied from it), or "none".
  private func prefixSteps(_ roots: [CALayer]) throws -> [String] {
    let device = RecordingDevice()
    let runner = try FrameRunner(device: device, samples: 1, maxTextureSize: 4096)
    var options = PlanOptions()
    options.canvasPrefix = true
    var steps: [String] = []
    for root in roots {
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      let frame = builder.build(root: root, background: .clear)
      let plan = runner.plan(frame, tile: 4096, options: options)
      try runner.run(plan, maxOffscreenBytes: 1 << 30, output: { _, _ in })
      var drew = false
      var copied = false
      for step in plan.steps {
        switch step {
        case .draw(let pass) where pass.label.hasPrefix("canvas prefix"): drew = true
        case .copy(let copy) where copy.label.hasPrefix("canvas prefix"): copied = true
        default: break
        }
      }
      steps.append(drew && copied ? "draw" : copied ? "copy" : drew ? "drawn, not copied" : "none")
    }
    return steps
  }

  func testAnUnchangedBottomIsDrawnOnceThenCopied() throws {
    // The first frame has no frame before; the second finds the gradient
    // unchanged and keeps it; the third copies it; a new background is
    // drawn whole again.
    let frames = [
      scene(x: 2), scene(x: 10), scene(x: 20),
      scene(x: 30, background: CGColor(red: 1, green: 0, blue: 0, alpha: 1)),
    ]
    XCTAssertEqual(try prefixSteps(frames), ["none", "draw", "copy", "none"])
  }

  func testASolidBottomOnWholePixelsIsDrawnNotCopied() throws {
    // A plain solid costs what the copy would.
    func solid(_ x: CGFloat) -> CALayer {
      let r = LaminaTestSupport.root(64, 48)
      r.addSublayer(layer(CGRect(x: 0, y: 0, width: 64, height: 48), .white))
      r.addSublayer(layer(CGRect(x: x, y: 10, width: 8, height: 8), .black))
      return r
    }
    XCTAssertEqual(try prefixSteps([solid(2), solid(10), solid(20)]), ["none", "none", "none"])
  }

  func testTheKeysOfAPrefixStopAtTheFirstChange() {
    let a = DrawCommand.item(
      DrawItem(
        material: .solid, clippedPolygon: nil, rect: CGRect(x: 0, y: 0, width: 4, height: 4),
        uv: (0, 0, 0, 0), matrix: CATransform3DIdentity, color: SIMD4(1, 0, 0, 1),
        bounds: PixelRect(x: 0, y: 0, width: 4, height: 4), layerName: nil))
    let region = PixelRect(x: 0, y: 0, width: 8, height: 8)
    let first = FramePlanner.prefixKeys([a, a, a], region: region, background: nil, last: [])
    XCTAssertEqual(first.count, 1, "nothing to match: the first key only")
    let all = FramePlanner.prefixKeys(
      [a, a, a], region: region, background: nil, last: [first[0], 0, 0])
    XCTAssertEqual(all.count, 2, "up to the first that differs")
    XCTAssertEqual(all[0], first[0])
    let other = FramePlanner.prefixKeys(
      [a], region: region, background: SIMD4(1, 1, 1, 1), last: [])
    XCTAssertNotEqual(other[0], first[0], "the background is part of the key")
  }

  /// A prefix drawn with the blend modes' fallback is not a prefix drawn
  /// with the equations (metamorphic pool-one seed 5500548: the frame
  /// after the fallback's took its kept target, 1/255 apart).
  func testTheKeysDependOnTheOptionsThatDecidePixels() {
    let a = DrawCommand.item(
      DrawItem(
        material: .solid, clippedPolygon: nil, rect: CGRect(x: 0, y: 0, width: 4, height: 4),
        uv: (0, 0, 0, 0), matrix: CATransform3DIdentity, color: SIMD4(1, 0, 0, 1),
        bounds: PixelRect(x: 0, y: 0, width: 4, height: 4), layerName: nil,
        blend: .composite("CISaturationBlendMode")))
    let region = PixelRect(x: 0, y: 0, width: 8, height: 8)
    var fallback = PlanOptions()
    fallback.blendEquations = false
    let equations = FramePlanner.prefixKeys([a], region: region, background: nil, last: [])
    let shader = FramePlanner.prefixKeys(
      [a], region: region, background: nil, options: fallback, last: [])
    XCTAssertNotEqual(equations[0], shader[0])
  }
}
