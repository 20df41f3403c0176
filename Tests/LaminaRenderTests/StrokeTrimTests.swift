import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// `strokeStart`/`strokeEnd` on wide strokes: the cut ends with its cap
/// along the path's tangent there, as if the path had been drawn only that far.
///
/// `StrokeTrimTests` runs these checks on the GPU path renderer (caps at a
/// cut inside a flattened curve square to the curve's tangent),
/// `StrokeTrimCairoTests` on Cairo (`ShapeRasterizer`).
class StrokeTrimChecks: XCTestCase {
  private var wasOnGPU = true
  /// Whether the shapes of these tests are drawn on the GPU.
  var onGPU: Bool { true }

  override func setUp() {
    wasOnGPU = FrameBuilder.shapesOnGPUByDefault
    FrameBuilder.shapesOnGPUByDefault = onGPU
  }

  override func tearDown() {
    FrameBuilder.shapesOnGPUByDefault = wasOnGPU
  }

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
  func checkTrimmedCircleEqualsTheArcDrawnThatFar() throws {
    let circle = CGPath(
      ellipseIn: CGRect(
        x: center.x - radius, y: center.y - radius, width: 2 * radius,
        height: 2 * radius), transform: nil)
    // The edges of the two curves differ by their flattenings: on Cairo
    // (0.1 px) by a few levels, on the GPU (chords within 0.25 px) by up to
    // 0.28 px (72/255) on the edge pixels all along, around the cuts too.
    // A cap square to a chord instead of the tangent is off by up to
    // 230/255 on hundreds of pixels there (the square caps did on the GPU).
    let threshold = onGPU ? 80 : 24
    for cap in [CAShapeLayerLineCap.butt, .round, .square] {
      let trimmed = try render(circle, end: 0.375, cap: cap)
      let drawn = try render(arc(from: 0, to: 3 * .pi / 4), end: 1, cap: cap)
      let comparison = ImageComparison(
        actual: trimmed.straightPixels, expected: drawn.straightPixels, threshold: threshold)
      XCTAssertLessThanOrEqual(
        comparison.pixelsOff, 2, "\(cap.rawValue) cap: \(comparison.summary)")
      XCTAssertLessThan(
        maxDifference(trimmed, drawn, around: 3 * .pi / 4), onGPU ? 80 : 40, "\(cap.rawValue) cap at the cut")
      // Both ends trimmed: from 1/8 (45°) to 3/8 (135°).
      let both = try render(circle, start: 0.125, end: 0.375, cap: cap)
      let part = try render(arc(from: .pi / 4, to: 3 * .pi / 4), end: 1, cap: cap)
      let c2 = ImageComparison(
        actual: both.straightPixels, expected: part.straightPixels, threshold: threshold)
      XCTAssertLessThanOrEqual(c2.pixelsOff, 2, "\(cap.rawValue) cap, both ends: \(c2.summary)")
      for angle in [CGFloat.pi / 4, 3 * .pi / 4] {
        XCTAssertLessThan(
          maxDifference(both, part, around: angle), onGPU ? 80 : 40, "\(cap.rawValue) cap at \(angle)")
      }
    }
  }

  /// The largest channel difference of two 4× renderings within a line
  /// width of the circle's point at `angle` (where a cut's cap is).
  func maxDifference(_ a: RenderedImage, _ b: RenderedImage, around angle: CGFloat) -> Int {
    let x = Int((center.x + radius * cos(angle)) * 4)
    let y = Int((center.y + radius * sin(angle)) * 4)
    var largest = 0
    for py in max(y - 96, 0)..<min(y + 96, a.height) {
      for px in max(x - 96, 0)..<min(x + 96, a.width) {
        let p = a.pixel(px, py)
        let q = b.pixel(px, py)
        for (u, v) in [(p.r, q.r), (p.g, q.g), (p.b, q.b), (p.a, q.a)] {
          largest = max(largest, abs(Int(u) - Int(v)))
        }
      }
    }
    return largest
  }

  /// The butt cap's edge lies on the radius at the cut: just short of it
  /// is stroke, just past it is not, at the stroke's inner and outer edges.
  func checkButtCapIsPerpendicularToTheTangent() throws {
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
  func checkTrimmedStrokeFollowsTheCurve() throws {
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

  /// A closed outline trimmed to end exactly on a corner renders as the
  /// open path drawn to that corner: nothing of the segment after it.
  /// At scale 1 the next segment's reach (a pixel of antialiasing margin)
  /// ended exactly where the trim did, and the segment, touched by the
  /// visible window at one point, was drawn whole (metamorphic finding
  /// trim-end-on-a-corner-strokes-closing-edge, scale-2 seed 996253).
  func checkTrimEndingOnACornerDrawsNothingPastIt() throws {
    func image(_ svg: String, end: CGFloat) throws -> RenderedImage {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 20, height: 64)
      root.position = CGPoint(x: 10, y: 32)
      let shape = CAShapeLayer()
      shape.frame = root.bounds
      shape.path = try CGPath.parseSVG(svg)
      shape.fillColor = nil
      shape.strokeColor = .black
      shape.strokeEnd = end
      root.addSublayer(shape)
      return try RenderTestSupport.renderer().render(layer: root, size: root.bounds.size)
    }
    // 90 points long: half way is the corner (5, 54), after 1 + 44.
    let trimmed = try image("M 4 10 H 5 V 54 H 4 Z", end: 0.5)
    let drawn = try image("M 4 10 H 5 V 54", end: 1)
    let comparison = ImageComparison(
      actual: trimmed.straightPixels, expected: drawn.straightPixels, threshold: 2)
    XCTAssertEqual(comparison.pixelsOff, 0, comparison.summary)
    // The closing edge (x = 4, from y 10 to 54) is not drawn: column 3 is clear.
    XCTAssertEqual((12..<52).filter { trimmed.pixel(3, $0).a != 0 }, [], "rows of column 3 drawn")
  }
}

/// The checks on the GPU path renderer.
final class StrokeTrimTests: StrokeTrimChecks {
  func testTrimEndingOnACornerDrawsNothingPastIt() throws {
    try checkTrimEndingOnACornerDrawsNothingPastIt()
  }

  func testTrimmedCircleEqualsTheArcDrawnThatFar() throws {
    try checkTrimmedCircleEqualsTheArcDrawnThatFar()
  }

  func testButtCapIsPerpendicularToTheTangent() throws { try checkButtCapIsPerpendicularToTheTangent() }

  func testTrimmedStrokeFollowsTheCurve() throws { try checkTrimmedStrokeFollowsTheCurve() }
}

/// The same checks on Cairo (`ShapeRasterizer`, what `LAMINA_SHAPES=cairo`
/// and the GPU path's refusals use).
final class StrokeTrimCairoTests: StrokeTrimChecks {
  override var onGPU: Bool { false }

  func testTrimEndingOnACornerDrawsNothingPastIt() throws {
    try checkTrimEndingOnACornerDrawsNothingPastIt()
  }

  func testTrimmedCircleEqualsTheArcDrawnThatFar() throws {
    try checkTrimmedCircleEqualsTheArcDrawnThatFar()
  }

  func testButtCapIsPerpendicularToTheTangent() throws { try checkButtCapIsPerpendicularToTheTangent() }

  func testTrimmedStrokeFollowsTheCurve() throws { try checkTrimmedStrokeFollowsTheCurve() }
}
