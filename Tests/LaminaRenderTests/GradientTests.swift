import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

final class GradientTests: XCTestCase {
  private func gradient(
    _ colors: [CGColor], width: CGFloat, height: CGFloat, type: CAGradientLayerType = .axial
  ) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    root.position = CGPoint(x: width / 2, y: height / 2)
    let layer = CAGradientLayer()
    layer.frame = root.bounds
    layer.colors = colors
    layer.type = type
    layer.startPoint = CGPoint(x: 0, y: 0.5)
    layer.endPoint = CGPoint(x: 1, y: 0.5)
    root.addSublayer(layer)
    return root
  }

  /// #000000 to #101010 over 3840 pixels has 17 levels, so an undithered
  /// rendering shows runs of 240 identical pixels; dithered, no run is that long.
  func testSlowGradientAcross4KDoesNotBand() throws {
    let root = gradient(
      [
        CGColor(red: 0, green: 0, blue: 0, alpha: 1),
        CGColor(red: 16 / 255, green: 16 / 255, blue: 16 / 255, alpha: 1),
      ],
      width: 3840, height: 4)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: CGSize(width: 3840, height: 4))
    let step = 3840 / 16
    for y in 0..<4 {
      var longest = 0
      var run = 0
      var previous: UInt8?
      var total = 0
      for x in 0..<3840 {
        let p = image.pixel(x, y)
        XCTAssertLessThanOrEqual(p.r, 17)
        total += Int(p.r)
        run = p.r == previous ? run + 1 : 1
        previous = p.r
        longest = max(longest, run)
      }
      XCTAssertLessThan(longest, step, "row \(y): a run of \(longest) identical pixels")
      // The average still follows the gradient (8/255 midway).
      XCTAssertEqual(Double(total) / 3840, 8, accuracy: 0.5)
    }
  }

  /// Red to clear black interpolates straight components: midway is
  /// (0.5, 0, 0) at alpha 0.5, so over black the pixel is a dark red.
  func testInterpolatesUnpremultipliedComponents() throws {
    let root = gradient(
      [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 0)],
      width: 101, height: 4)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: CGSize(width: 101, height: 4),
      background: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    let mid = image.pixel(50, 2)
    XCTAssertEqual(Double(mid.r), 0.25 * 255, accuracy: 3)
    XCTAssertLessThanOrEqual(mid.g, 1)
  }

  /// The stops go to the GPU as a ramp texture, uploaded once per distinct
  /// stops: one draw per gradient, and no upload on later frames, nor for
  /// another layer (of another kind and size) with the same stops.
  func testRampUploadsOncePerDistinctStops() throws {
    let root = gradient([.white, .black], width: 64, height: 64, type: .conic)
    let renderer = try RenderTestSupport.renderer()
    _ = try renderer.render(layer: root, size: CGSize(width: 64, height: 64))
    XCTAssertEqual(renderer.counters.drawCalls, 1)
    XCTAssertEqual(renderer.counters.rampUploads, 1)
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    for _ in 0..<3 {
      _ = try renderer.render(layer: root, size: CGSize(width: 64, height: 64))
      XCTAssertEqual(renderer.counters.textureUploads, 0)
    }
    let same = gradient([.white, .black], width: 30, height: 20, type: .radial)
    _ = try renderer.render(layer: same, size: CGSize(width: 64, height: 64))
    XCTAssertEqual(renderer.counters.rampUploads, 0)
    let other = gradient([.white, .black, .white], width: 30, height: 20)
    _ = try renderer.render(layer: other, size: CGSize(width: 64, height: 64))
    XCTAssertEqual(renderer.counters.rampUploads, 1)
  }

  /// The ramp, sampled without filtering (its 1,024 texels are closer than
  /// the dither's step), draws the stops worked out by hand: a gradient of
  /// four stops with a hard one.
  func testNearestRampDrawsTheStops() throws {
    let root = gradient([], width: 200, height: 4)
    let layer = try XCTUnwrap(root.sublayers?.first as? CAGradientLayer)
    layer.colors = [
      CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0),
      CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
    ]
    layer.locations = [0, 0.5, 0.5, 1]
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: CGSize(width: 200, height: 4),
      background: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
    // Pixel 50's center lies at t = 0.2525, 0.505 of the way from opaque
    // red to clear blue: (0.495, 0, 0.505) at alpha 0.495 over black;
    // pixel 100, past the hard stop, green; pixel 99 before it, all but clear.
    XCTAssertEqual(Double(image.pixel(50, 2).r), 255 * 0.495 * 0.495, accuracy: 2)
    XCTAssertEqual(Double(image.pixel(50, 2).b), 255 * 0.505 * 0.495, accuracy: 2)
    XCTAssertEqual(Double(image.pixel(100, 2).g), 255, accuracy: 2)
    XCTAssertEqual(Double(image.pixel(99, 2).r), 0, accuracy: 4)
    XCTAssertEqual(Double(image.pixel(99, 2).g), 0, accuracy: 4)
  }

  /// A ramp is sampled without filtering unless a segment changes a
  /// component by more than an 8-bit step per texel: black to white over
  /// the whole span moves 1/1023 a texel; over a fifth of it, 5/1023, more
  /// than 1/255 (a hard stop's jump does not count).
  func testRampSamplesNearestUnlessASegmentIsSteep() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.colors = [CGColor.black, CGColor.white]
    XCTAssertEqual(GradientPaint(layer)?.rampSamplesNearest, true)
    layer.locations = [0, 0.2]
    XCTAssertEqual(GradientPaint(layer)?.rampSamplesNearest, false)
    layer.locations = [0, 0.26]
    XCTAssertEqual(GradientPaint(layer)?.rampSamplesNearest, true)
    layer.colors = [CGColor.black, CGColor.black, CGColor.white, CGColor.white]
    layer.locations = [0, 0.5, 0.5, 1]
    XCTAssertEqual(GradientPaint(layer)?.rampSamplesNearest, true)
  }

  /// The ramp holds the stops exactly: straight colors interpolated, then
  /// premultiplied; equal locations make a hard edge between two texels.
  func testRampTexels() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.colors = [
      CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0),
      CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
    ]
    layer.locations = [0, 0.5, 0.5, 1]
    let paint = try XCTUnwrap(GradientPaint(layer))
    let texels = paint.rampTexels(width: 5)  // t = 0, 0.25, 0.5, 0.75, 1
    func texel(_ i: Int) -> [Float] { Array(texels[(i * 4)..<(i * 4 + 4)]) }
    XCTAssertEqual(texel(0), [1, 0, 0, 1])
    // Halfway from opaque red to clear blue: (0.5, 0, 0.5) at alpha 0.5.
    XCTAssertEqual(texel(1), [0.25, 0, 0.25, 0.5])
    XCTAssertEqual(texel(2), [0, 1, 0, 1], "the later of two equal stops wins")
    XCTAssertEqual(texel(4), [0, 1, 0, 1])
    XCTAssertEqual(paint.span.lower, 0)
    XCTAssertEqual(paint.span.upper, 1)
  }

  /// Axial projects in points: in a 200×100 layer the diagonal's
  /// perpendicular through the center is not the other diagonal.
  func testAxialProjectsInPoints() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    layer.colors = [CGColor.white, CGColor.black]
    layer.startPoint = .zero
    layer.endPoint = CGPoint(x: 1, y: 1)
    let p = try XCTUnwrap(GradientPaint(layer)).parameters
    func t(_ x: Float, _ y: Float) -> Float { p.x * x + p.y * y + p.z }
    XCTAssertEqual(t(0, 0), 0, accuracy: 1e-6)
    XCTAssertEqual(t(200, 100), 1, accuracy: 1e-6)
    XCTAssertEqual(t(100, 50), 0.5, accuracy: 1e-6)
    // (200, 0) projects to (200·200) / (200² + 100²) = 0.8, not 0.5.
    XCTAssertEqual(t(200, 0), 0.8, accuracy: 1e-6)
  }

  /// Conic's zero points from the center toward the end point; radial's
  /// radii are |end − start| per axis, in points.
  func testConicAndRadialParameters() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
    layer.colors = [CGColor.white, CGColor.black]
    layer.type = .conic
    layer.startPoint = CGPoint(x: 0.5, y: 0.5)
    layer.endPoint = CGPoint(x: 0.5, y: 1)  // straight down: a quarter turn clockwise
    let conic = try XCTUnwrap(GradientPaint(layer)).parameters
    XCTAssertEqual(conic.x, 50)
    XCTAssertEqual(conic.y, 25)
    XCTAssertEqual(conic.z, 0.25, accuracy: 1e-6)
    layer.type = .radial
    layer.endPoint = CGPoint(x: 1, y: 1)
    let radial = try XCTUnwrap(GradientPaint(layer)).parameters
    XCTAssertEqual(radial.z, 1 / 50, accuracy: 1e-7)
    XCTAssertEqual(radial.w, 1 / 25, accuracy: 1e-7)
  }

  /// A focal point (Lamina's `focalPointOffset`) moves location 0 there,
  /// location 1 staying on the circle around the start point: the white
  /// spot sits at the focal point, the rim is blue all round, and a zero
  /// offset keeps Core Animation's radial gradient.
  func testRadialFocalPointMovesLocationZero() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.position = CGPoint(x: 50, y: 50)
    let layer = CAGradientLayer()
    layer.frame = root.bounds
    // White to blue (stops no other test uses: the ramp cache is shared).
    layer.colors = [CGColor.white, CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
    layer.type = .radial
    layer.startPoint = CGPoint(x: 0.5, y: 0.5)
    layer.endPoint = CGPoint(x: 1, y: 1)  // radius 50 points
    XCTAssertEqual(try XCTUnwrap(GradientPaint(layer)).kind, .radial)
    layer.focalPointOffset = CGPoint(x: -0.25, y: 0.25)  // (25, 75): lower left
    root.addSublayer(layer)
    let paint = try XCTUnwrap(GradientPaint(layer))
    XCTAssertEqual(paint.kind, .focal)
    XCTAssertEqual(paint.focal.x, -0.5, accuracy: 1e-6)
    XCTAssertEqual(paint.focal.y, 0.5, accuracy: 1e-6)
    let image = try RenderTestSupport.renderer().render(layer: root, size: CGSize(width: 100, height: 100))
    XCTAssertGreaterThanOrEqual(image.pixel(25, 75).r, 240, "white at the focal point")
    XCTAssertLessThan(image.pixel(50, 50).r, 200, "the centre is part way")
    // On the ray from the focal point through the centre, t = 1 at the far
    // rim: (50 + 50/√2, 50 − 50/√2) ≈ (85, 15) has no red, (75, 25) little.
    XCTAssertLessThanOrEqual(image.pixel(84, 16).r, 12)
    XCTAssertLessThan(image.pixel(75, 25).r, image.pixel(50, 50).r)
    // Halfway from the focal point to the near rim (≈ (15, 85)) is half red.
    XCTAssertEqual(Double(image.pixel(20, 80).r), 255 * 0.5, accuracy: 40)
    // A focal point beyond the circle is kept just inside it.
    layer.focalPointOffset = CGPoint(x: -2, y: 0)
    XCTAssertEqual(try XCTUnwrap(GradientPaint(layer)).focal.x, -0.99, accuracy: 1e-6)
  }

  /// `samplesAtPixelCorners` takes the color at each pixel's top-left
  /// corner (After Effects'): a gradient over the first two pixels reads 0
  /// and 0.5 at pixels 0 and 1 instead of 0.25 and 0.75, across and down.
  func testGradientSampledAtPixelCorners() throws {
    for vertical in [false, true] {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
      root.position = CGPoint(x: 5, y: 5)
      let layer = CAGradientLayer()
      layer.frame = root.bounds
      // Black to red (stops no other test uses: the ramp cache is shared).
      layer.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 0, blue: 0, alpha: 1)]
      layer.startPoint = .zero
      layer.endPoint = vertical ? CGPoint(x: 0, y: 0.2) : CGPoint(x: 0.2, y: 0)
      root.addSublayer(layer)
      let renderer = try RenderTestSupport.renderer()
      func red(_ i: Int) throws -> Double {
        let image = try renderer.render(layer: root, size: CGSize(width: 10, height: 10))
        return Double(vertical ? image.pixel(5, i).r : image.pixel(i, 5).r)
      }
      XCTAssertEqual(try red(0), 255 * 0.25, accuracy: 3)
      XCTAssertEqual(try red(1), 255 * 0.75, accuracy: 3)
      layer.samplesAtPixelCorners = true
      XCTAssertEqual(try red(0), 0, accuracy: 3, vertical ? "down" : "across")
      XCTAssertEqual(try red(1), 255 * 0.5, accuracy: 3, vertical ? "down" : "across")
    }
  }

  /// On an affine plane the shift to the pixel's corner is folded into the
  /// texture coordinates (`FramePlanner.cornerShiftFolded`: the item takes
  /// the program that samples at the center); under a perspective the
  /// shader takes it from screen derivatives. A plane turned a thousandth
  /// of a radian under a perspective draws what the flat one draws.
  func testCornerShiftFoldedOnAffinePlanes() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
    layer.colors = [CGColor.white, CGColor.black]
    layer.samplesAtPixelCorners = true
    let gradient = try XCTUnwrap(GradientPaint(layer))
    var item = DrawItem(
      material: .gradient(gradient), rect: CGRect(x: 0, y: 0, width: 40, height: 20),
      uv: (0, 0, 40, 20), matrix: CATransform3DScale(CATransform3DMakeTranslation(3, 2, 0), 2, 1, 1),
      color: SIMD4(repeating: 1), bounds: PixelRect(x: 0, y: 0, width: 90, height: 30), layerName: nil)
    let folded = try XCTUnwrap(FramePlanner.cornerShiftFolded(item, gradient))
    guard case .gradient(let foldedPaint) = folded.material else { return XCTFail("not a gradient") }
    XCTAssertFalse(foldedPaint.atPixelCorners)
    // Half a pixel left and up is a quarter point across (x scaled by 2)
    // and half a point down the plane.
    XCTAssertEqual(folded.uv.u0, -0.25)
    XCTAssertEqual(folded.uv.v0, -0.5)
    XCTAssertEqual(folded.uv.u1, 39.75)
    XCTAssertEqual(folded.uv.v1, 19.5)
    var turned = CATransform3DIdentity
    turned.m34 = -1 / 500
    item.matrix = CATransform3DConcat(CATransform3DMakeRotation(0.001, 0, 1, 0), turned)
    XCTAssertNil(FramePlanner.cornerShiftFolded(item, gradient))

    func render(turn: CGFloat, with renderer: Renderer? = nil) throws -> RenderedImage {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 40, height: 10)
      root.position = CGPoint(x: 20, y: 5)
      var perspective = CATransform3DIdentity
      perspective.m34 = -1 / 500
      root.sublayerTransform = perspective
      let g = CAGradientLayer()
      g.frame = root.bounds
      g.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1)]
      g.startPoint = .zero
      g.endPoint = CGPoint(x: 1, y: 0)
      g.samplesAtPixelCorners = true
      g.transform = CATransform3DMakeRotation(turn, 0, 1, 0)
      root.addSublayer(g)
      return try (renderer ?? RenderTestSupport.renderer()).render(
        layer: root, size: CGSize(width: 40, height: 10))
    }
    // The planner takes the fold: the flat plane's batch is the program
    // without the corner step, its gentle ramp sampled nearest; the turned
    // one keeps the corner program.
    func batches(turn: CGFloat) throws -> [Batch] {
      let renderer = try Renderer()  // (its own: the observer stays with it)
      var seen: [Batch] = []
      renderer.planObserver = { plan in
        for case .draw(let pass) in plan.steps { seen += pass.batches }
      }
      _ = try render(turn: turn, with: renderer)
      return seen
    }
    let flatBatches = try batches(turn: 0)
    XCTAssertEqual(flatBatches.map(\.program), [.gradient(.axial, blend: false, corners: false)])
    XCTAssertEqual(flatBatches.first?.sampler, FramePlanner.nearest)
    XCTAssertEqual(try batches(turn: 0.001).map(\.program), [.gradient(.axial, blend: false, corners: true)])
    let (plane, tilted) = (try render(turn: 0), try render(turn: 0.001))
    for x in 1..<39 {
      XCTAssertEqual(Double(plane.pixel(x, 5).g), Double(tilted.pixel(x, 5).g), accuracy: 3, "x \(x)")
    }
    // At corners: pixel 0 reads t = 0, pixel 20 halfway.
    XCTAssertEqual(Double(plane.pixel(0, 5).g), 0, accuracy: 2)
    XCTAssertEqual(Double(plane.pixel(20, 5).g), 127.5, accuracy: 2)
  }

  /// Every stop is kept (the ramp takes any count); one stop renders.
  func testManyStopsAndOneStop() throws {
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
    layer.colors = (0..<40).map { CGColor(red: CGFloat($0) / 39, green: 0, blue: 0, alpha: 1) }
    let paint = try XCTUnwrap(GradientPaint(layer))
    XCTAssertEqual(paint.colors.count, 40)
    XCTAssertEqual(paint.locations.first, 0)
    XCTAssertEqual(paint.locations.last, 1)
    layer.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1)]
    let root = gradient([CGColor(red: 0, green: 1, blue: 0, alpha: 1)], width: 10, height: 10)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: CGSize(width: 10, height: 10))
    XCTAssertGreaterThanOrEqual(image.pixel(5, 5).g, 253)  // dithered by at most a step or two
  }
}
