import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Core Graphics fills a path's whole stroke as one shape: where pieces of
/// the stroke meet (a subpath whose end is its start, a trimmed stroke
/// running from one subpath into the next), there is no seam and no
/// double blending. Each check runs on the GPU path renderer and on Cairo.
final class StrokeOutlineTests: XCTestCase {
  /// The repros these checks come from, copied from `../shared/repros`
  /// into the fixtures (a checkout without the shared folder runs them too).
  func repro(_ name: String) throws -> URL {
    let url = RenderTestSupport.fixtures.appendingPathComponent("repros").appendingPathComponent(
      name)
    guard FileManager.default.fileExists(atPath: url.path) else {
      return try XCTUnwrap(nil as URL?, "\(url.path) is missing from the fixtures")
    }
    return url
  }

  /// The coverage of the white stroke on black in row `y` between `x0` and `x1`
  /// (sum of the red channel over 255).
  func rowCoverage(_ image: RenderedImage, y: Int, x0: Int, x1: Int) -> Double {
    (x0...x1).reduce(0.0) { $0 + Double(image.pixel($1, y).r) / 255 }
  }

  /// `ring-seam.json`: a circle built as an open subpath ending where it
  /// starts (two arcs, as `addArc(… 0, 2π …)` builds it), 2 pt wide with
  /// butt caps, its ends meeting at canvas (30, 20.25): pixel row 40 at
  /// scale 2 holds the meeting point (y = 40.5 px). Core Graphics strokes
  /// the subpath as one outline, so that row is as covered as its
  /// neighbours (the seam had it at about half).
  func checkRingSeam(onGPU: Bool) throws {
    let image = try RenderTestSupport.render(try repro("ring-seam.json"), shapesOnGPU: onGPU)
    XCTAssertEqual(image.width, 80)
    // The stroke crosses rows 38...42 between x = 58 and 62 px (nearly vertical there).
    let meeting = rowCoverage(image, y: 40, x0: 54, x1: 66)
    let above = rowCoverage(image, y: 39, x0: 54, x1: 66)
    let below = rowCoverage(image, y: 41, x0: 54, x1: 66)
    XCTAssertGreaterThan(above, 3.5, "the stroke is 4 px wide")
    XCTAssertGreaterThan(below, 3.5, "the stroke is 4 px wide")
    XCTAssertGreaterThanOrEqual(
      meeting, 0.9 * (above + below) / 2,
      "\(onGPU ? "GPU" : "Cairo"): row 40 \(meeting) against rows 39 and 41 \(above), \(below)")
  }

  func testRingSeamOnTheGPU() throws { try checkRingSeam(onGPU: true) }
  func testRingSeamOnCairo() throws { try checkRingSeam(onGPU: false) }

  /// `trim-across-subpaths.json`: two identical circles (center (55, 30),
  /// radius 25, from (80, 30) clockwise), 12 pt wide with round caps,
  /// trimmed to 0.4...0.6 of the whole length: the last fifth of the first
  /// and the first fifth of the second, one band from 288° through 0° to
  /// 72° meeting at (80, 30). Core Animation draws one band: the pixels
  /// well inside it (more than 1.5 px from its sides) are covered as much
  /// near the meeting point as elsewhere (the seam was a light arc, the
  /// edge of one piece's round cap drawn over the other piece's body).
  func checkTrimAcrossSubpaths(onGPU: Bool) throws {
    let image = try RenderTestSupport.render(
      try repro("trim-across-subpaths.json"), shapesOnGPU: onGPU)
    XCTAssertEqual(image.width, 200)
    // Coverage of #0099e6 on white: its red channel goes from 255 to 0.
    var nearMeeting = (min: 1.0, count: 0)
    var elsewhere = (min: 1.0, count: 0)
    for y in 0..<image.height {
      for x in 0..<image.width {
        let dx = (Double(x) + 0.5) / 2 - 55
        let dy = (Double(y) + 0.5) / 2 - 30
        guard abs((dx * dx + dy * dy).squareRoot() - 25) < 6 - 0.75 else { continue }
        let angle = atan2(dy, dx) * 180 / .pi
        let coverage = 1 - Double(image.pixel(x, y).r) / 255
        if abs(angle) < 20 {
          nearMeeting = (min(nearMeeting.min, coverage), nearMeeting.count + 1)
        } else if abs(angle) > 30 && abs(angle) < 60 {
          elsewhere = (min(elsewhere.min, coverage), elsewhere.count + 1)
        }
      }
    }
    XCTAssertGreaterThan(nearMeeting.count, 500)
    XCTAssertGreaterThan(elsewhere.count, 500)
    XCTAssertGreaterThan(elsewhere.min, 0.99, "the band is drawn whole away from the meeting point")
    XCTAssertGreaterThanOrEqual(
      nearMeeting.min, elsewhere.min - 2.0 / 255,
      "\(onGPU ? "GPU" : "Cairo"): least coverage inside the band near the meeting point "
        + "\(nearMeeting.min), elsewhere \(elsewhere.min)")
  }

  func testTrimAcrossSubpathsOnTheGPU() throws { try checkTrimAcrossSubpaths(onGPU: true) }
  func testTrimAcrossSubpathsOnCairo() throws { try checkTrimAcrossSubpaths(onGPU: false) }

  /// The mesher's decisions: an open subpath ending where it starts in the
  /// direction it leaves is stroked closed; one ending there at a corner
  /// keeps its caps (Core Graphics draws two caps there, not a join); a
  /// subpath going on from the previous one's end in its direction links
  /// to it, one turning there does not.
  func testSubpathsMeetingAsOneOutline() throws {
    func mesh(_ path: CGPath) throws -> StrokeMesh {
      let contours = try XCTUnwrap(PathFlattening.contours(path, tolerance: 0.1))
      return StrokeMesher.mesh(contours, join: .miter, miterLimit: 10)
    }
    let ring = CGMutablePath()
    ring.addArc(
      center: CGPoint(x: 10, y: 10), radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
    XCTAssertEqual(try mesh(ring).subpaths.map(\.closed), [true])
    let triangle = CGMutablePath()
    triangle.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10), .zero])
    XCTAssertEqual(try mesh(triangle).subpaths.map(\.closed), [false])

    func linkFlags(_ m: StrokeMesh) -> (start: Int, end: Int) {
      let flags = m.vertices.filter { $0.kind.x == StrokePiece.segment.rawValue }.map { Int($0.kind.y) }
      return (
        flags.filter { $0 & Int(StrokeMesher.linkStartFlag) != 0 }.count,
        flags.filter { $0 & Int(StrokeMesher.linkEndFlag) != 0 }.count
      )
    }
    let twice = CGMutablePath()
    let circle = CGRect(x: 0, y: 0, width: 20, height: 20)
    twice.addEllipse(in: circle)
    twice.addEllipse(in: circle)
    // One segment (4 vertices) at each side of the link.
    let links = linkFlags(try mesh(twice))
    XCTAssertTrue(links == (4, 4), "\(links)")
    let straight = CGMutablePath()
    straight.addLines(between: [.zero, CGPoint(x: 10, y: 0)])
    straight.addLines(between: [CGPoint(x: 10, y: 0), CGPoint(x: 20, y: 0)])
    XCTAssertTrue(linkFlags(try mesh(straight)) == (4, 4))
    let turning = CGMutablePath()
    turning.addLines(between: [.zero, CGPoint(x: 10, y: 0)])
    turning.addLines(between: [CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)])
    XCTAssertTrue(linkFlags(try mesh(turning)) == (0, 0))
  }

  /// A translucent trimmed stroke across the link is one layer of paint:
  /// the band is as dark at the meeting point as elsewhere, never darker
  /// (no double blending) nor lighter (no seam).
  func testTranslucentTrimAcrossSubpathsIsOneLayerOfPaint() throws {
    let path = CGMutablePath()
    // Meeting at x = 30.25 pt, inside pixel 60 at scale 2.
    path.addLines(between: [CGPoint(x: 10, y: 20), CGPoint(x: 30.25, y: 20)])
    path.addLines(between: [CGPoint(x: 30.25, y: 20), CGPoint(x: 50.5, y: 20)])
    for cap in [CAShapeLayerLineCap.butt, .round, .square] {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
      root.position = CGPoint(x: 30, y: 20)
      let shape = CAShapeLayer()
      shape.frame = root.bounds
      shape.path = path
      shape.fillColor = nil
      shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
      shape.lineWidth = 10
      shape.lineCap = cap
      shape.strokeStart = 0.25
      shape.strokeEnd = 0.75
      root.addSublayer(shape)
      let image = try RenderTestSupport.renderer().render(
        layer: root, size: root.bounds.size, scale: 2, background: .white)
      // Along the middle row (y = 20 pt) from x = 22 to 38 pt, across the meeting point.
      let values = (44..<76).map { Int(image.pixel($0, 40).r) }
      XCTAssertEqual(values.min(), values.max(), "\(cap.rawValue): \(values)")
      XCTAssertEqual(Double(values[0]), 127.5, accuracy: 2, "\(cap.rawValue)")
    }
  }
}
