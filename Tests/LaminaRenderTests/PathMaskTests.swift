import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A mask that is one path (a shape layer's fill or stroke, as a Lottie
/// layer's mask or a gradient stroke's shape is) composites as that path
/// painted with the masked rendering: no pass for the mask, and the
/// pixels the offscreen mask gives, within antialiasing (the mask's
/// coverage is no longer rounded to 8 bits before it multiplies). When the
/// masked rendering is one gradient, the path is painted with the gradient
/// computed per pixel: no pass at all.
final class PathMaskTests: XCTestCase {
  /// A gradient layer (with a translucent stop) at `opacity`, masked by
  /// `mask` (laid out over the gradient's bounds), over a dark background
  /// with a path drawn before it (so the composite takes a later depth
  /// level of the canvas).
  func scene(
    _ mask: CALayer, opacity: Float = 1, transform: CATransform3D = CATransform3DIdentity,
    clipped: Bool = false, content: CAGradientLayer = RectMaskClipTests.gradientContent(),
    composed: Bool = false
  ) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 90)
    root.position = CGPoint(x: 60, y: 45)
    root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
    let before = CAShapeLayer()
    before.frame = root.bounds
    before.path = CGPath(ellipseIn: CGRect(x: 20, y: 30, width: 70, height: 40), transform: nil)
    before.fillColor = CGColor(red: 0.9, green: 0.8, blue: 0.1, alpha: 0.9)
    root.addSublayer(before)
    if composed {
      // More than the gradient: the masked layer's rendering is a texture.
      let dot = CALayer()
      dot.frame = CGRect(x: 40, y: 30, width: 24, height: 18)
      dot.backgroundColor = CGColor(red: 0.2, green: 1, blue: 0.3, alpha: 0.8)
      content.addSublayer(dot)
    }
    content.opacity = opacity
    content.transform = transform
    mask.frame = content.bounds
    content.mask = mask
    if clipped {
      // A turned rounded clip over the masked layer: the group's clip,
      // which the painted path takes in its own plane.
      let holder = CALayer()
      holder.frame = CGRect(x: 14, y: 8, width: 80, height: 70)
      holder.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
      holder.masksToBounds = true
      holder.cornerRadius = 18
      content.frame = content.frame.offsetBy(dx: -14, dy: -8)
      holder.addSublayer(content)
      root.addSublayer(holder)
    } else {
      root.addSublayer(content)
    }
    return root
  }

  /// A trimmed, round-capped stroke of a curve (inside the gradient's
  /// bounds, with what its pieces reach past it).
  func strokeMask() -> CAShapeLayer {
    let mask = CAShapeLayer()
    let path = CGMutablePath()
    path.move(to: CGPoint(x: 12, y: 14))
    path.addCurve(
      to: CGPoint(x: 30, y: 60), control1: CGPoint(x: 100, y: 0), control2: CGPoint(x: 95, y: 78))
    mask.path = path
    mask.fillColor = nil
    mask.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    mask.lineWidth = 11
    mask.lineCap = .round
    mask.strokeEnd = 0.7
    return mask
  }

  /// A gradient of `type` with three stops (one translucent), its color
  /// taken at pixel corners with `corners`.
  func gradient(_ type: CAGradientLayerType, focal: CGPoint = .zero, corners: Bool = false) -> CAGradientLayer {
    let g = RectMaskClipTests.gradientContent()
    g.type = type
    g.colors = [
      CGColor(red: 1, green: 0.4, blue: 0, alpha: 1), CGColor(red: 0.3, green: 0.9, blue: 0.2, alpha: 0.5),
      CGColor(red: 0, green: 0.6, blue: 1, alpha: 0.9),
    ]
    g.locations = [0, 0.4, 1]
    g.startPoint = CGPoint(x: 0.45, y: 0.5)
    g.endPoint = type == .axial ? CGPoint(x: 1, y: 0.8) : CGPoint(x: 0.95, y: 1)
    g.focalPointOffset = focal
    g.samplesAtPixelCorners = corners
    return g
  }

  /// An ellipse filled at 80 % (a fill too large to merge: its pieces'
  /// programs draw it).
  func fillMask(evenOdd: Bool = false) -> CAShapeLayer {
    let mask = CAShapeLayer()
    let path = CGMutablePath()
    path.addEllipse(in: CGRect(x: 8, y: 6, width: 84, height: 62))
    if evenOdd { path.addEllipse(in: CGRect(x: 30, y: 20, width: 30, height: 24)) }
    mask.path = path
    mask.fillRule = evenOdd ? .evenOdd : .nonZero
    mask.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.8)
    return mask
  }

  /// The frame of `root` from a renderer of its own, with path masks on or
  /// off, and its offscreen passes.
  func render(_ root: CALayer, pathMasks: Bool) throws -> (RenderedImage, Int) {
    let (image, counters) = try render(root, pathMasks: pathMasks, cpuPaths: false)
    return (image, counters.offscreenPasses)
  }

  /// The frame of `root` and the renderer's counters; `cpuPaths` as asked
  /// (off, both mask routes are the GPU path renderer's: with paths on the
  /// CPU the offscreen mask's path would be Cairo's, the painted one the
  /// GPU's).
  func render(_ root: CALayer, pathMasks: Bool, cpuPaths: Bool) throws -> (RenderedImage, RenderCounters) {
    try RenderTestSupport.renderLayer(root) { renderer in
      renderer.pathMasks = pathMasks
      renderer.cpuPaths = cpuPaths
    }
  }

  /// With paths drawn on the CPU, a gradient painted over its mask's path
  /// is drawn there too, in the path's run: the gradient's colors
  /// (`GradientShader`, gradient.glsl's on the CPU) at the path's coverage
  /// (FreeType's for a fill, Cairo's for a stroke), against the offscreen
  /// mask route with the same coverage in its mask; no pass, no draw of a
  /// gradient program, both paths of the scene in one run.
  func testGradientsPaintedOnTheCPUMatchTheOffscreenMask() throws {
    let cases: [(String, () -> CALayer)] = [
      ("stroke", { self.scene(self.strokeMask()) }),
      ("stroke at 60 %", { self.scene(self.strokeMask(), opacity: 0.6) }),
      ("stroke, turned", { self.scene(self.strokeMask(), transform: CATransform3DMakeRotation(0.5, 0, 0, 1)) }),
      ("stroke, clipped", { self.scene(self.strokeMask(), clipped: true) }),
      ("fill", { self.scene(self.fillMask()) }),
      ("fill, clipped", { self.scene(self.fillMask(), opacity: 0.7, clipped: true) }),
      ("fill even-odd, scaled", { self.scene(self.fillMask(evenOdd: true), transform: CATransform3DMakeScale(1.2, 0.8, 1)) }),
      ("radial", { self.scene(self.fillMask(), opacity: 0.8, content: self.gradient(.radial)) }),
      ("radial, focal point", { self.scene(self.fillMask(), content: self.gradient(.radial, focal: CGPoint(x: -0.2, y: 0.15))) }),
      ("conic, stroke", { self.scene(self.strokeMask(), content: self.gradient(.conic)) }),
    ]
    for (name, make) in cases {
      let (painted, counters) = try render(make(), pathMasks: true, cpuPaths: true)
      let (masked, maskedCounters) = try render(make(), pathMasks: false, cpuPaths: true)
      XCTAssertEqual(counters.offscreenPasses, 0, name)
      XCTAssertEqual(maskedCounters.offscreenPasses, 2, name)
      XCTAssertEqual(counters.cpuPathRuns, 1, name)
      XCTAssertEqual(counters.cpuPathItems, 2, "\(name): the path before, the gradient's")
      XCTAssertEqual(counters.drawCalls, 2, "\(name): the background, the run's quad")
      // The mask's coverage rounded to 8 bits before it multiplies, and
      // the dither after (as on the GPU): a level or two. A clipped
      // stroke's clip is Cairo's in the run and the GPU's in the offscreen
      // route's composite: their antialiasing differs along the clip's
      // edge (a few dozen pixels, within 32 levels).
      let comparison = ImageComparison(
        actual: painted.straightPixels, expected: masked.straightPixels, threshold: 3)
      if name == "stroke, clipped" {
        XCTAssertLessThan(comparison.pixelsOff, 60, "\(name): \(comparison.summary)")
        XCTAssertLessThanOrEqual(comparison.maxChannelDifference, 32, "\(name): \(comparison.summary)")
      } else {
        XCTAssertEqual(comparison.pixelsOff, 0, "\(name): \(comparison.summary)")
      }
      let background = ImageComparison(
        actual: painted.straightPixels,
        expected: try render(scene(CALayer()), pathMasks: true, cpuPaths: true).0.straightPixels,
        threshold: 2)
      XCTAssertGreaterThan(background.pixelsOff, 1000, name)
    }
  }

  func testPathMasksTakeNoPassAndMatchTheOffscreenMask() throws {
    let cases: [(String, (Bool) -> CALayer)] = [
      ("stroke", { self.scene(self.strokeMask(), composed: $0) }),
      ("stroke at 60 %", { self.scene(self.strokeMask(), opacity: 0.6, composed: $0) }),
      ("stroke, turned", { self.scene(self.strokeMask(), transform: CATransform3DMakeRotation(0.5, 0, 0, 1), composed: $0) }),
      ("stroke, clipped", { self.scene(self.strokeMask(), clipped: true, composed: $0) }),
      ("fill", { self.scene(self.fillMask(), composed: $0) }),
      ("fill, clipped", { self.scene(self.fillMask(), opacity: 0.7, clipped: true, composed: $0) }),
      ("fill even-odd, scaled", { self.scene(self.fillMask(evenOdd: true), transform: CATransform3DMakeScale(1.2, 0.8, 1), composed: $0) }),
    ]
    for (name, make) in cases {
      for composed in [false, true] {
        let label = "\(name)\(composed ? ", composed" : "")"
        // The gradient alone: no pass; composed: the content's pass only;
        // without path masks, the mask's as well.
        try check(label, make(composed), passes: composed ? 1 : 0, threshold: composed ? 2 : 3)
      }
    }
  }

  /// Renders `root` with path masks on and off and compares: `passes`
  /// offscreen passes against 2, every pixel within `threshold`, and
  /// something drawn through the mask.
  func check(_ name: String, _ root: @autoclosure () -> CALayer, passes: Int, threshold: Int) throws {
    let (painted, paintedPasses) = try render(root(), pathMasks: true)
    let (masked, maskedPasses) = try render(root(), pathMasks: false)
    XCTAssertEqual(paintedPasses, passes, name)
    XCTAssertEqual(maskedPasses, 2, name)
    // A gradient painted per pixel is dithered after its opacity and
    // coverage multiply, not before (one level more).
    let comparison = ImageComparison(
      actual: painted.straightPixels, expected: masked.straightPixels, threshold: threshold)
    XCTAssertEqual(comparison.pixelsOff, 0, "\(name): \(comparison.summary)")
    let background = ImageComparison(
      actual: painted.straightPixels, expected: try render(scene(CALayer()), pathMasks: true).0.straightPixels,
      threshold: 2)
    XCTAssertGreaterThan(background.pixelsOff, 1000, name)
  }

  /// Every kind of gradient, and its color taken at pixel corners, painted
  /// over a path as the offscreen route draws it.
  func testGradientsOfEveryKindPaintTheirMaskPath() throws {
    let cases: [(String, CAGradientLayer)] = [
      ("radial", gradient(.radial)),
      ("radial, focal point", gradient(.radial, focal: CGPoint(x: -0.2, y: 0.15))),
      ("conic", gradient(.conic)),
      ("axial at pixel corners", gradient(.axial, corners: true)),
    ]
    for (name, content) in cases {
      try check(name, scene(fillMask(), opacity: 0.8, content: content), passes: 0, threshold: 3)
    }
  }

  /// A mask path reaching past the gradient's bounds keeps the texture
  /// (the gradient's own edges are antialiased there).
  func testAPathPastTheGradientsBoundsPaintsItsRendering() throws {
    let mask = fillMask()
    mask.path = CGPath(ellipseIn: CGRect(x: -10, y: 6, width: 84, height: 62), transform: nil)
    try check("past the bounds", scene(mask), passes: 1, threshold: 2)
  }

  /// Masks the composite cannot draw as a path keep their pass.
  func testOtherMasksKeepTheirPass() throws {
    let luminance = scene(fillMask())
    luminance.sublayers?[1].maskMode = .luminance
    let twoShapes = CALayer()
    twoShapes.addSublayer(fillMask())
    twoShapes.addSublayer(strokeMask())
    let perspective = CATransform3DRotate(
      { var t = CATransform3DIdentity; t.m34 = -1 / 300; return t }(), 0.6, 0, 1, 0)
    let cases: [(String, CALayer)] = [
      ("luminance", luminance),
      ("two shapes", scene(twoShapes)),
      ("in perspective", scene(strokeMask(), transform: perspective)),
    ]
    for (name, root) in cases {
      let (_, passes) = try render(root, pathMasks: true)
      XCTAssertGreaterThanOrEqual(passes, 2, name)
    }
  }
}
