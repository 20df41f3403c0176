import Foundation
import Lamina
import LaminaRender
import XCTest

/// `strokeStart`/`strokeEnd` on wide strokes: the cut ends with its cap
/// along the path's tangent there, as if the path had been drawn only that far.
final class StrokeTrimTests: XCTestCase {
  let center = CGPoint(x: 70, y: 70)
  let radius: CGFloat = 50

  func render(_ path: CGPath, start: CGFloat = 0, end: CGFloat, cap: CAShapeLayerLineCap)
    throws -> RenderedImage
  {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 140, height: 140)
    root.position = CGPoint(x: 70, y: 70)
    let ring = CAShapeLayer()
    ring.frame = root.bounds
    ring.path = path
    ring.fillColor = nil
    ring.strokeColor = CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
    ring.lineWidth = 24
    ring.lineCap = cap
    ring.strokeStart = start
    ring.strokeEnd = end
    root.addSublayer(ring)
    return try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, scale: 4, background: .white)
  }

  func arc(from a: CGFloat, to b: CGFloat) -> CGPath {
    let path = CGMutablePath()
    path.addArc(center: center, radius: radius, startAngle: a, endAngle: b, clockwise: false)
    return path
  }

  /// A circle trimmed to 3/8 of its length (the cut half way along its
  /// second quarter, 135° round) renders as the arc drawn to 135°.
  func testTrimmedCircleEqualsTheArcDrawnThatFar() throws {
    let circle = CGPath(
      ellipseIn: CGRect(
        x: center.x - radius, y: center.y - radius, width: 2 * radius,
        height: 2 * radius), transform: nil)
    for cap in [CAShapeLayerLineCap.butt, .round, .square] {
      let trimmed = try render(circle, end: 0.375, cap: cap)
      let drawn = try render(arc(from: 0, to: 3 * .pi / 4), end: 1, cap: cap)
      let comparison = ImageComparison(
        actual: trimmed.straightPixels, expected: drawn.straightPixels, threshold: 24)
      // The two circles differ by Bézier approximations of a circle (a
      // pixel at most); a cap along a chord instead of the tangent is off
      // by up to 230/255 over hundreds of pixels.
      XCTAssertLessThanOrEqual(
        comparison.pixelsOff, 2, "\(cap.rawValue) cap: \(comparison.summary)")
      XCTAssertLessThan(comparison.maxChannelDifference, 40, comparison.summary)
      // Both ends trimmed: from 1/8 (45°) to 3/8 (135°).
      let both = try render(circle, start: 0.125, end: 0.375, cap: cap)
      let part = try render(arc(from: .pi / 4, to: 3 * .pi / 4), end: 1, cap: cap)
      let c2 = ImageComparison(
        actual: both.straightPixels, expected: part.straightPixels, threshold: 24)
      XCTAssertLessThanOrEqual(c2.pixelsOff, 2, "\(cap.rawValue) cap, both ends: \(c2.summary)")
      XCTAssertLessThan(c2.maxChannelDifference, 40, c2.summary)
    }
  }

  /// The butt cap's edge lies on the radius at the cut: just short of it
  /// is stroke, just past it is not, at the stroke's inner and outer edges.
  func testButtCapIsPerpendicularToTheTangent() throws {
    let circle = CGPath(
      ellipseIn: CGRect(
        x: center.x - radius, y: center.y - radius, width: 2 * radius,
        height: 2 * radius), transform: nil)
    let image = try render(circle, end: 0.375, cap: .butt)
    let cut = 3 * CGFloat.pi / 4
    for r in [radius - 11, radius + 11] {
      for (delta, inside) in [(-0.02, true), (0.02, false)] as [(CGFloat, Bool)] {
        // Points 1 pt to either side of the cut, along the circle of radius r.
        let angle = cut + delta * 50 / r
        let p = CGPoint(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
        let pixel = image.pixel(Int(p.x * 4), Int(p.y * 4))
        if inside {
          XCTAssertLessThan(pixel.r, 60, "stroke just before the cut at radius \(r)")
        } else {
          XCTAssertGreaterThan(pixel.r, 200, "no stroke just past the cut at radius \(r)")
        }
      }
    }
  }

  /// Along its body a trimmed stroke covers exactly the pixels of the
  /// whole stroke (it is the same curve, cut), at a scale of 1 too.
  func testTrimmedStrokeFollowsTheCurve() throws {
    let ring = CGPath(
      ellipseIn: CGRect(x: 20, y: 20, width: 40, height: 40), transform: nil)
    func image(end: CGFloat) throws -> RenderedImage {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
      root.position = CGPoint(x: 40, y: 40)
      let shape = CAShapeLayer()
      shape.frame = root.bounds
      shape.path = ring
      shape.fillColor = nil
      shape.strokeColor = .black
      shape.lineWidth = 3
      shape.strokeEnd = end
      root.addSublayer(shape)
      return try RenderTestSupport.renderer().render(layer: root, size: root.bounds.size)
    }
    let whole = try image(end: 1)
    let trimmed = try image(end: 0.75)
    // The lower half (0 to 1/2 of the length, from 3 o'clock clockwise on screen).
    for y in 42..<80 {
      for x in 0..<80 {
        XCTAssertEqual(trimmed.pixel(x, y).a, whole.pixel(x, y).a, "at \(x), \(y)")
      }
    }
  }
}
