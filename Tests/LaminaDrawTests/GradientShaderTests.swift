import CCairo
import Foundation
import Lamina
import XCTest

@testable import LaminaDraw

/// Gradients painted on the CPU (`GradientShader`, through
/// `PathRunRasterizer`): gradient.glsl's colors worked out by hand (the
/// place along the gradient, the ramp's texel, the alpha, the noise of
/// ±1 level), over the pixels a fill (FreeType's coverage) or a stroke
/// (Cairo's) covers.
final class GradientShaderTests: XCTestCase {
  /// A ramp of `width` texels from black to opaque white (premultiplied
  /// RGBA floats), texel i holding i / (width − 1).
  func grayRamp(_ width: Int = 256) -> GradientShader.Ramp {
    GradientShader.Ramp(
      (0..<width).flatMap { i -> [Float] in
        let v = Float(i) / Float(width - 1)
        return [v, v, v, 1]
      })
  }

  /// An axial gradient from x = 0 to x = `length` in the bitmap's pixels
  /// (t = x / length), its ramp's ends on t = 0 and 1, as
  /// `GradientProgram.rampMapping` places them.
  func axial(
    length: Float = 256, alpha: Float = 1, nearest: Bool = true, ramp: GradientShader.Ramp? = nil,
    toGradient: CGAffineTransform = .identity
  ) -> GradientShader {
    let n = Float(256)
    let scale = (n - 1) / n
    return GradientShader(
      kind: .axial, parameters: SIMD4(1 / length, 0, 0, 0), ramp: ramp ?? grayRamp(), rampScale: scale,
      rampOffset: 0.5 / n, nearest: nearest, alpha: alpha, toGradient: toGradient,
      noiseOrigin: .zero)
  }

  /// gradient.glsl's noise in double precision, from its definition.
  func noise(_ x: Double, _ y: Double) -> Double {
    func fract(_ v: Double) -> Double { v - v.rounded(.down) }
    return fract(52.9829189 * fract(x * 0.06711056 + y * 0.00583715))
  }

  func words(_ pointer: UnsafeMutablePointer<UInt32>, _ n: Int) -> [UInt32] {
    Array(UnsafeBufferPointer(start: pointer, count: n))
  }

  /// `n` words from (`x`, `y`) of `shader`, kept alive until they are
  /// copied (its buffer goes with it).
  func shaded(_ shader: GradientShader, x: Int = 0, y: Int = 0, _ n: Int) -> [UInt32] {
    withExtendedLifetime(shader) { words(shader.shade(x: x, y: y, count: n), n) }
  }

  /// Along an axial gradient over 256 pixels, pixel x takes texel
  /// ⌊(x + ½)/256 · 255/256 · 256 + ½⌋ (the texel under its center), that
  /// texel's gray plus the noise at the pixel, rounded: within half a level
  /// of the hand-computed value (single against double precision), opaque.
  func testAnAxialRowIsTheRampPlusTheNoise() {
    let shader = axial()
    let row = shaded(shader, x: 0, y: 3, 256)
    for x in 0..<256 {
      let u = (Double(x) + 0.5) / 256 * 255 / 256 + 0.5 / 256
      let texel = min(max(Int((u * 256).rounded(.down)), 0), 255)
      let dither = noise(Double(x) + 0.5, 3.5) + noise(3.5 + 17, Double(x) + 0.5 + 17) - 1
      let want = min(max(Double(texel) + dither, 0), 255)
      let word = row[x]
      XCTAssertEqual(word >> 24, 255, "x \(x)")
      let gray = Double(word & 0xff)
      XCTAssertEqual(gray, want, accuracy: 0.5 + 1e-3, "x \(x)")
      XCTAssertEqual(word >> 16 & 0xff, word & 0xff, "x \(x): a gray")
      XCTAssertEqual(word >> 8 & 0xff, word & 0xff, "x \(x): a gray")
    }
    // The noise moves values by up to a level either way and averages out.
    let mean = (0..<256).map { Double(row[$0] & 0xff) - Double($0) }.reduce(0, +) / 256
    XCTAssertEqual(mean, 0, accuracy: 0.2)
  }

  /// The same pixels shaded in one span or in pieces of any length (the
  /// shader works eight lanes at a time) are the same words.
  func testSpansOfAnyLengthAgree() {
    let shader = axial(nearest: false)
    let whole = shaded(shader, x: 5, y: 9, 37)
    var pieces: [UInt32] = []
    var x = 5
    for n in [1, 3, 8, 9, 16] {
      pieces += shaded(shader, x: x, y: 9, n)
      x += n
    }
    XCTAssertEqual(pieces, whole)
  }

  /// The paint's alpha scales every component, and color stays within
  /// alpha after the noise (premultiplied-valid).
  func testAlphaScalesAndColorStaysWithinIt() {
    let shader = axial(alpha: 0.5)
    let row = shaded(shader, x: 0, y: 0, 256)
    for (x, word) in row.enumerated() {
      let a = word >> 24
      XCTAssertEqual(a, 128, "x \(x): 0.5 · 255 rounded")
      XCTAssertLessThanOrEqual(word & 0xff, a, "x \(x)")
      XCTAssertEqual(Double(word & 0xff), Double(x) / 2, accuracy: 1.5, "x \(x)")
    }
  }

  /// A radial gradient: the start color at the center, the end color on
  /// and past the radius (the ramp clamps), in between by distance.
  func testARadialGradientGoesByDistance() {
    let n = Float(256)
    let shader = GradientShader(
      kind: .radial, parameters: SIMD4(100, 100, 1.0 / 64, 1.0 / 64), ramp: grayRamp(),
      rampScale: (n - 1) / n, rampOffset: 0.5 / n, nearest: true, alpha: 1, toGradient: .identity,
      noiseOrigin: .zero)
    let row = shaded(shader, x: 0, y: 99, 200)
    func gray(_ x: Int) -> Int { Int(row[x] & 0xff) }
    XCTAssertLessThanOrEqual(gray(99), 3, "at the center")
    XCTAssertEqual(gray(100 + 32), 128, accuracy: 3, "half the radius")
    XCTAssertEqual(gray(100 - 32), 128, accuracy: 3, "half the radius, the other side")
    XCTAssertGreaterThanOrEqual(gray(100 + 64), 253, "on the radius")
    XCTAssertEqual(gray(199), 255, "past it")
  }

  /// Places that are not numbers (a map of NaN, an infinite one) and a
  /// ramp of NaN paint the ramp's first texel or nothing: no trap, no
  /// read outside the ramp.
  func testHostileValuesPaintNoGarbage() {
    let nan = CGAffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    let row = shaded(axial(toGradient: nan), 20)
    for word in row { XCTAssertLessThanOrEqual(word & 0xff, 1) }
    let huge = CGAffineTransform(a: 1e30, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    let far = shaded(axial(toGradient: huge), 20)
    XCTAssertEqual(far.last.map { $0 & 0xff }, 255)
    let bad = GradientShader.Ramp([.nan, 0, 0, 1, 1, 1, 1, 1])
    let words = shaded(axial(ramp: bad), 8)
    XCTAssertTrue(words.allSatisfy { $0 >> 24 <= 255 })
    XCTAssertEqual(GradientShader.Ramp([]).red.count, 1, "an empty ramp paints nothing")
  }

  /// Through a run: a fill (FreeType) and a stroke (Cairo's coverage)
  /// painted with the gradient, source over; the covered pixels hold the
  /// shader's words, the others nothing, partly covered ones a share.
  func testARunPaintsFillsAndStrokesWithTheGradient() throws {
    func style(_ svg: String, stroke: Bool) throws -> ShapeStyle {
      let layer = CAShapeLayer()
      layer.path = try CGPath.parseSVG(svg)
      layer.fillColor = stroke ? nil : .black
      layer.strokeColor = stroke ? .black : nil
      layer.lineWidth = 4
      return try XCTUnwrap(ShapeStyle(layer))
    }
    let fill = PathRunRasterizer.Part(
      style: try style("M 0 2 L 64 2 L 64 10 L 0 10 Z", stroke: false), stroke: false,
      color: SIMD4(0, 0, 0, 1), transform: .identity, shader: axial(length: 64))
    let stroke = PathRunRasterizer.Part(
      style: try style("M 0 20 L 64 20", stroke: true), stroke: true, color: SIMD4(0, 0, 0, 1),
      transform: .identity, shader: axial(length: 64, alpha: 0.5))
    let image = try XCTUnwrap(PathRunRasterizer.render([fill, stroke], width: 64, height: 32))
    let bytes = try XCTUnwrap(image.premultipliedPixels)
    func pixel(_ x: Int, _ y: Int) -> [Int] {
      let i = (y * 64 + x) * 4
      return bytes[i..<i + 4].map(Int.init)
    }
    let expected = axial(length: 64)
    for x in [0, 10, 31, 63] {
      let word = shaded(expected, x: x, y: 5, 1)[0]
      let gray = Int(word & 0xff)
      XCTAssertEqual(pixel(x, 5), [gray, gray, gray, 255], "fill at x \(x)")
      XCTAssertEqual(Double(gray), Double(x) * 4 + 2, accuracy: 3, "fill at x \(x)")
    }
    XCTAssertEqual(pixel(10, 1), [0, 0, 0, 0], "above the fill")
    // The stroke covers y 18...22 at half alpha.
    for x in [8, 40] {
      let p = pixel(x, 19)
      XCTAssertEqual(p[3], 128, "stroke at x \(x)")
      XCTAssertEqual(Double(p[0]), Double(x) * 2, accuracy: 3, "stroke at x \(x)")
    }
    XCTAssertEqual(pixel(20, 23), [0, 0, 0, 0], "below the stroke")
    XCTAssertEqual(pixel(20, 15), [0, 0, 0, 0], "above the stroke")
  }

  /// A gradient stroke under a rounded clip: only what the clip holds.
  func testAClippedGradientStrokeIsCutByTheClip() throws {
    let layer = CAShapeLayer()
    layer.path = try CGPath.parseSVG("M 0 16 L 64 16")
    layer.fillColor = nil
    layer.strokeColor = .black
    layer.lineWidth = 8
    let part = PathRunRasterizer.Part(
      style: try XCTUnwrap(ShapeStyle(layer)), stroke: true, color: SIMD4(0, 0, 0, 1),
      transform: .identity,
      clip: PathRunRasterizer.Clip(
        rect: CGRect(x: 16, y: 0, width: 32, height: 32), radii: SIMD4(repeating: 4),
        transform: .identity),
      shader: axial(length: 64))
    let image = try XCTUnwrap(PathRunRasterizer.render([part], width: 64, height: 32))
    let bytes = try XCTUnwrap(image.premultipliedPixels)
    func alpha(_ x: Int, _ y: Int) -> Int { Int(bytes[(y * 64 + x) * 4 + 3]) }
    XCTAssertEqual(alpha(10, 16), 0, "left of the clip")
    XCTAssertEqual(alpha(20, 16), 255, "inside")
    XCTAssertEqual(alpha(50, 16), 0, "right of the clip")
    XCTAssertEqual(alpha(20, 8), 0, "outside the stroke")
  }
}
