import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A mask that is one opaque rectangle (a shape layer filling a rect
/// path, as Lottie's rectangular masks and mattes are) clips what it
/// masks: no offscreen pass for the content and none for the mask, and
/// the pixels the two offscreen passes give, within antialiasing.
final class RectMaskClipTests: XCTestCase {
  /// A masked layer under `maskTransform`: an image-like gradient with
  /// sublayers that overlap, masked by a rect path shape layer.
  func scene(
    maskTransform: CATransform3D, rectPath: CGPath? = nil, fillAlpha: CGFloat = 1,
    dots: Int = 0
  ) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 120, height: 90)
    root.position = CGPoint(x: 60, y: 45)
    root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
    let content = Self.gradientContent()
    for i in 0..<dots {
      let dot = CAShapeLayer()
      dot.path = CGPath(
        ellipseIn: CGRect(x: 10 + 25 * CGFloat(i), y: 12 + 9 * CGFloat(i), width: 40, height: 34),
        transform: nil)
      dot.fillColor = CGColor(red: 0.2 * CGFloat(i), green: 0.9, blue: 0.3, alpha: 0.8)
      content.addSublayer(dot)
    }
    let mask = CAShapeLayer()
    mask.frame = content.bounds
    mask.path =
      rectPath ?? CGPath(rect: CGRect(x: 14.5, y: 9.25, width: 61.3, height: 47.6), transform: nil)
    mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: fillAlpha)
    mask.transform = maskTransform
    content.mask = mask
    root.addSublayer(content)
    return root
  }

  /// The masked content of these tests and `PathMaskTests`: a diagonal
  /// gradient with a translucent stop, 100 × 76 at (6, 5).
  static func gradientContent() -> CAGradientLayer {
    let content = CAGradientLayer()
    content.frame = CGRect(x: 6, y: 5, width: 100, height: 76)
    content.colors = [
      CGColor(red: 1, green: 0.4, blue: 0, alpha: 1), CGColor(red: 0, green: 0.6, blue: 1, alpha: 0.7),
    ]
    content.startPoint = CGPoint(x: 0, y: 0)
    content.endPoint = CGPoint(x: 1, y: 1)
    return content
  }

  /// The frame of `root` rendered by a renderer of its own (nothing
  /// cached from another rendering), and its offscreen passes. Masks that
  /// are one path are left offscreen (`pathMasks` off): what these tests
  /// compare is a rect mask as a clip against its offscreen mask
  /// (PathMaskTests has the masks the composite draws).
  func render(_ root: CALayer, asClips: Bool, _ shared: Renderer) throws -> (RenderedImage, Int) {
    let renderer = try Renderer()
    renderer.pathMasks = false
    Renderer.commit(root)
    var builder = FrameBuilder(size: CGSize(width: 120, height: 90), scale: 2, caches: renderer.caches)
    builder.masksAsClips = asClips
    let frame = builder.build(root: PresentationTree(root: root).update(time: 0), background: nil)
    let image = try renderer.render(frame)
    return (image, renderer.counters.offscreenPasses)
  }

  func testRectMasksClipWithoutPassesAndMatchTheOffscreenMask() throws {
    let renderer = try RenderTestSupport.renderer()
    let transforms: [(name: String, CATransform3D)] = [
      ("identity", CATransform3DIdentity),
      ("rotated", CATransform3DMakeRotation(0.5, 0, 0, 1)),
      ("scaled", CATransform3DMakeScale(1.3, 0.7, 1)),
      ("squashed", CATransform3DMakeScale(0.825, 1, 1)),
      ("turned about y", CATransform3DMakeRotation(0.6, 0, 1, 0)),
    ]
    for (name, transform) in transforms {
      // One item masked (the gradient): clipped when the mask is seen
      // straight; turned or in perspective, offscreen as before.
      let straight = name != "rotated" && name != "turned about y"
      let (clipped, clipPasses) = try render(scene(maskTransform: transform), asClips: true, renderer)
      let (masked, maskPasses) = try render(scene(maskTransform: transform), asClips: false, renderer)
      XCTAssertEqual(clipPasses == 0, straight, name)
      XCTAssertGreaterThanOrEqual(maskPasses, 1, name)
      let comparison = ImageComparison(
        actual: clipped.straightPixels, expected: masked.straightPixels, threshold: 2)
      // Edge pixels: the clip's coverage and the mask path's ribbon round
      // apart by a 255th or two; nothing else differs.
      XCTAssertEqual(comparison.pixelsOff, 0, "\(name): \(comparison.summary)")
    }
  }

  /// Overlapping translucent items under a rect mask: clipped (each item
  /// to the rect) only where its edges are whole pixels, where that is
  /// exact; offscreen where an edge pixel would take the edge's coverage
  /// once per item.
  func testOverlappingContentIsClippedOnlyOnPixelEdges() throws {
    let renderer = try RenderTestSupport.renderer()
    // In the content at (6, 5), at scale 2: edges at x 41 and 163, y 29
    // and 124, whole pixels.
    let aligned = CGPath(rect: CGRect(x: 14.5, y: 9.5, width: 61, height: 47.5), transform: nil)
    let (clipped, clipPasses) = try render(
      scene(maskTransform: CATransform3DIdentity, rectPath: aligned, dots: 3), asClips: true,
      renderer)
    let (masked, _) = try render(
      scene(maskTransform: CATransform3DIdentity, rectPath: aligned, dots: 3), asClips: false,
      renderer)
    XCTAssertEqual(clipPasses, 0)
    let comparison = ImageComparison(
      actual: clipped.straightPixels, expected: masked.straightPixels, threshold: 2)
    XCTAssertEqual(comparison.pixelsOff, 0, "\(comparison.summary)")
    let (_, fractionalPasses) = try render(
      scene(maskTransform: CATransform3DIdentity, dots: 3), asClips: true, renderer)
    XCTAssertGreaterThanOrEqual(fractionalPasses, 1)
  }

  /// Masks that are not one opaque rectangle still go offscreen.
  func testOtherMasksStayOffscreen() throws {
    let renderer = try RenderTestSupport.renderer()
    let ellipse = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 60, height: 40), transform: nil)
    let twoRects = CGMutablePath()
    twoRects.addRect(CGRect(x: 5, y: 5, width: 20, height: 20))
    twoRects.addRect(CGRect(x: 40, y: 30, width: 20, height: 20))
    let blended = scene(maskTransform: CATransform3DIdentity)
    blended.sublayers?[0].compositingFilter = "multiplyBlendMode"
    let blendedInside = scene(maskTransform: CATransform3DIdentity, dots: 1)
    blendedInside.sublayers?[0].sublayers?[0].compositingFilter = "screenBlendMode"
    let cases: [(String, CALayer)] = [
      ("ellipse", scene(maskTransform: CATransform3DIdentity, rectPath: ellipse)),
      // A blend mode inside a masked layer blends with its isolated
      // rendering: offscreen.
      ("blend inside", blendedInside),
      ("two rects", scene(maskTransform: CATransform3DIdentity, rectPath: twoRects)),
      ("translucent", scene(maskTransform: CATransform3DIdentity, fillAlpha: 0.5)),
    ]
    for (name, root) in cases {
      let (_, passes) = try render(root, asClips: true, renderer)
      XCTAssertGreaterThanOrEqual(passes, 1, name)
    }
  }

  /// Which flattened contours are one rectangle.
  func testRectangleDetection() {
    func rect(_ path: CGPath) -> CGRect? {
      FlatContour.rectangle(PathFlattening.contours(path, tolerance: 0.1) ?? [])
    }
    let r = CGRect(x: 2, y: 3, width: 10, height: 5)
    XCTAssertEqual(rect(CGPath(rect: r, transform: nil)), r)
    // Drawn the other way, from another corner, with the first corner
    // repeated and a side split in two: the same rectangle.
    let other = CGMutablePath()
    other.move(to: CGPoint(x: 12, y: 8))
    other.addLine(to: CGPoint(x: 12, y: 3))
    other.addLine(to: CGPoint(x: 7, y: 3))
    other.addLine(to: CGPoint(x: 2, y: 3))
    other.addLine(to: CGPoint(x: 2, y: 8))
    other.addLine(to: CGPoint(x: 12, y: 8))
    other.closeSubpath()
    XCTAssertEqual(rect(other), r)
    var turn = CGAffineTransform(rotationAngle: 0.3)
    XCTAssertNil(rect(CGPath(rect: r, transform: &turn)))
    XCTAssertNil(rect(CGPath(ellipseIn: r, transform: nil)))
    let bow = CGMutablePath()  // crossing sides
    bow.move(to: CGPoint(x: 0, y: 0))
    bow.addLine(to: CGPoint(x: 10, y: 0))
    bow.addLine(to: CGPoint(x: 0, y: 10))
    bow.addLine(to: CGPoint(x: 10, y: 10))
    bow.closeSubpath()
    XCTAssertNil(rect(bow))
    let flat = CGMutablePath()
    flat.addRect(CGRect(x: 0, y: 0, width: 10, height: 0))
    XCTAssertNil(rect(flat))
  }
}
