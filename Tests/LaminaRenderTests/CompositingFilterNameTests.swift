import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

// Every compositing filter name renders as its formula says: a source
// layer (straight orange at 60 %) over a backdrop layer, both solid, on a
// transparent canvas; the overlap, the source alone and the backdrop alone
// are compared with the formula computed here, in premultiplied 8-bit.
final class CompositingFilterNameTests: XCTestCase {
  typealias RGBA = SIMD4<Double>  // premultiplied

  static let source = (r: 0.9, g: 0.5, b: 0.1, a: 0.6)

  /// Renders the backdrop (x 0…30) and the source (x 10…40) on a 40×10
  /// canvas; returns the premultiplied pixels at the overlap, at the source
  /// alone and at the backdrop alone.
  func render(
    _ filter: Any?, backdrop: (r: Double, g: Double, b: Double, a: Double), equations: Bool = true,
    grouped: Bool = false
  ) throws -> (both: RGBA, source: RGBA, backdrop: RGBA) {
    let root = CALayer()
    root.frame = CGRect(x: 0, y: 0, width: 40, height: 10)
    let back = CALayer()
    back.frame = CGRect(x: 0, y: 0, width: 30, height: 10)
    back.backgroundColor = CGColor(
      red: backdrop.r, green: backdrop.g, blue: backdrop.b, alpha: backdrop.a)
    root.addSublayer(back)
    let top = CALayer()
    top.name = "top"
    top.frame = CGRect(x: 10, y: 0, width: 30, height: 10)
    let s = Self.source
    let color = CGColor(red: s.r, green: s.g, blue: s.b, alpha: s.a)
    if grouped {
      // Two sublayers side by side: the layer composites as one group.
      for x in [0.0, 15.0] {
        let half = CALayer()
        half.frame = CGRect(x: x, y: 0, width: 15, height: 10)
        half.backgroundColor = color
        top.addSublayer(half)
      }
    } else {
      top.backgroundColor = color
    }
    top.compositingFilter = filter
    root.addSublayer(top)
    let renderer = try RenderTestSupport.renderer()
    let saved = renderer.usesBlendEquations
    renderer.usesBlendEquations = equations
    defer { renderer.usesBlendEquations = saved }
    let image = try renderer.render(layer: root, size: CGSize(width: 40, height: 10))
    func at(_ x: Int) -> RGBA {
      let i = (5 * image.width + x) * 4
      let p = image.premultipliedPixels
      return RGBA(Double(p[i]), Double(p[i + 1]), Double(p[i + 2]), Double(p[i + 3])) / 255
    }
    return (at(20), at(35), at(5))
  }

  func premultiplied(_ c: (r: Double, g: Double, b: Double, a: Double)) -> RGBA {
    RGBA(c.r * c.a, c.g * c.a, c.b * c.a, c.a)
  }

  func assertClose(
    _ actual: RGBA, _ expected: RGBA, _ what: String, tolerance: Double = 2.5 / 255,
    line: UInt = #line
  ) {
    let d = actual - expected
    let off = max(max(abs(d.x), abs(d.y)), max(abs(d.z), abs(d.w)))
    XCTAssertLessThanOrEqual(
      off, tolerance, "\(what): got \(actual * 255), expected \(expected * 255)", line: line)
  }

  // MARK: Porter–Duff

  /// Fa and Fb of each operator, from αs and αd.
  static let porterDuff: [String: (Double, Double) -> (Double, Double)] = [
    "clear": { _, _ in (0, 0) },
    "copy": { _, _ in (1, 0) },
    "sourceOver": { s, _ in (1, 1 - s) },
    "sourceIn": { _, d in (d, 0) },
    "sourceOut": { _, d in (1 - d, 0) },
    "sourceAtop": { s, d in (d, 1 - s) },
    "destOver": { _, d in (1 - d, 1) },
    "destIn": { s, _ in (0, s) },
    "destOut": { s, _ in (0, 1 - s) },
    "destAtop": { s, d in (1 - d, s) },
    "xor": { s, d in (1 - d, 1 - s) },
    "plusL": { _, _ in (1, 1) },
  ]

  func testPorterDuffOperators() throws {
    let backdrop = (r: 0.2, g: 0.4, b: 0.8, a: 0.5)
    let d = premultiplied(backdrop)
    let s = premultiplied(Self.source)
    func check(
      _ name: String, _ factors: (Double, Double) -> (Double, Double), grouped: Bool
    ) throws {
      let got = try render(name, backdrop: backdrop, grouped: grouped)
      let name = grouped ? name + " (a group)" : name
      let (fa, fb) = factors(s.w, d.w)
      let both = (s * fa + d * fb).clamped(lowerBound: .zero, upperBound: .one)
      assertClose(got.both, both, "\(name) over the backdrop")
      let (fa0, _) = factors(s.w, 0)
      assertClose(got.source, s * fa0, "\(name) over nothing")
      assertClose(got.backdrop, d, "\(name): the backdrop outside the layer")
    }
    for (name, factors) in Self.porterDuff.sorted(by: { $0.key < $1.key }) {
      try check(name, factors, grouped: false)
      try check(name, factors, grouped: true)
    }
  }

  func testCoreImageCompositingNamesAndTheOtherOperators() throws {
    let backdrop = (r: 0.2, g: 0.4, b: 0.8, a: 0.5)
    let d = premultiplied(backdrop)
    let s = premultiplied(Self.source)
    let cases: [(String, RGBA)] = [
      ("CISourceOverCompositing", s + d * (1 - s.w)),
      ("CISourceInCompositing", s * d.w),
      ("CISourceOutCompositing", s * (1 - d.w)),
      ("CISourceAtopCompositing", s * d.w + d * (1 - s.w)),
      ("CIAdditionCompositing", (s + d).clamped(lowerBound: .zero, upperBound: .one)),
      ("CIMultiplyCompositing", s * d),
      ("multiply", s * d),
      ("minimum", pointwiseMin(s, d)),
      ("CIMaximumCompositing", pointwiseMax(s, d)),
    ]
    for (name, expected) in cases {
      assertClose(try render(name, backdrop: backdrop).both, expected, name)
    }
    // A CIFilter of a compositing name works as its name does.
    let filter = try XCTUnwrap(CIFilter(name: "CIMultiplyBlendMode"))
    let named = try render(filter, backdrop: backdrop).both
    let spelled = try render("multiplyBlendMode", backdrop: backdrop).both
    XCTAssertEqual(named, spelled)
  }

  // MARK: W3C blend modes

  static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

  static func clipColor(_ c: SIMD3<Double>) -> SIMD3<Double> {
    let l = lum(c)
    let n = c.min()
    let x = c.max()
    var c = c
    if n < 0 { c = l + (c - l) * l / (l - n) }
    if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
    return c
  }

  static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> {
    clipColor(c + (l - lum(c)))
  }

  static func sat(_ c: SIMD3<Double>) -> Double { c.max() - c.min() }

  static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
    let x = c.max()
    let n = c.min()
    return x > n ? (c - n) * s / (x - n) : .zero
  }

  /// B(Cb, Cs) of each mode (W3C Compositing and Blending Level 1), straight colors.
  static let blendFunctions: [String: (SIMD3<Double>, SIMD3<Double>) -> SIMD3<Double>] = {
    func each(_ f: @escaping (Double, Double) -> Double) -> (SIMD3<Double>, SIMD3<Double>) ->
      SIMD3<Double>
    {
      { b, s in SIMD3(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z)) }
    }
    let screen: (Double, Double) -> Double = { b, s in b + s - b * s }
    let hardLight: (Double, Double) -> Double = { b, s in
      s <= 0.5 ? b * 2 * s : screen(b, 2 * s - 1)
    }
    return [
      "Multiply": each { $0 * $1 },
      "Screen": each(screen),
      "Overlay": each { b, s in hardLight(s, b) },
      "Darken": each { min($0, $1) },
      "Lighten": each { max($0, $1) },
      "ColorDodge": each { b, s in b == 0 ? 0 : s >= 1 ? 1 : min(1, b / (1 - s)) },
      "ColorBurn": each { b, s in b >= 1 ? 1 : s <= 0 ? 0 : 1 - min(1, (1 - b) / s) },
      "HardLight": each(hardLight),
      "SoftLight": each { b, s in
        if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return b + (2 * s - 1) * (d - b)
      },
      "Difference": each { abs($0 - $1) },
      "Exclusion": each { b, s in b + s - 2 * b * s },
      "Hue": { b, s in setLum(setSat(s, sat(b)), lum(b)) },
      "Saturation": { b, s in setLum(setSat(b, sat(s)), lum(b)) },
      "Color": { b, s in setLum(s, lum(b)) },
      "Luminosity": { b, s in setLum(b, lum(s)) },
    ]
  }()

  /// The premultiplied result of blending the source over an opaque
  /// backdrop by `mode`: `(1 − αs) × Cb + αs × B(Cb, Cs)`.
  func blended(_ mode: String, over b: SIMD3<Double>) -> RGBA {
    let s = Self.source
    let cs = SIMD3(s.r, s.g, s.b)
    let mixed = (1 - s.a) * b + s.a * Self.blendFunctions[mode]!(b, cs)
    return RGBA(mixed.x, mixed.y, mixed.z, 1)
  }

  func testEveryBlendModeNameInBothSpellingsAndWithoutBlendEquations() throws {
    let backdrop = (r: 0.2, g: 0.4, b: 0.8, a: 1.0)
    let b = SIMD3(backdrop.r, backdrop.g, backdrop.b)
    XCTAssertEqual(
      Set(Self.blendFunctions.keys.map { "CI\($0)BlendMode" }), Set(CIFilter.blendModeNames))
    for (mode, _) in Self.blendFunctions.sorted(by: { $0.key < $1.key }) {
      let expected = blended(mode, over: b)
      let ca = mode.prefix(1).lowercased() + mode.dropFirst() + "BlendMode"
      for name in ["CI\(mode)BlendMode", ca] {
        for equations in [true, false] {
          let got = try render(name, backdrop: backdrop, equations: equations)
          let how = "\(name) \(equations ? "with" : "without") blend equations"
          assertClose(got.both, expected, how, tolerance: 3.5 / 255)
          // Over nothing, a blend mode leaves the source as it is.
          assertClose(got.source, premultiplied(Self.source), how + " over nothing")
        }
      }
    }
  }

  func testAnUnknownNameWarnsOnceWithTheLayersNameAndDrawsSourceOver() throws {
    var warnings: [String] = []
    let saved = Diagnostics.handler
    Diagnostics.handler = { warnings.append($0) }
    defer { Diagnostics.handler = saved }
    let backdrop = (r: 0.2, g: 0.4, b: 0.8, a: 1.0)
    let plain = try render(nil, backdrop: backdrop)
    let first = try render("plusDarkerish", backdrop: backdrop)
    _ = try render("plusDarkerish", backdrop: backdrop)
    XCTAssertEqual(first.both, plain.both)
    XCTAssertEqual(warnings.count, 1, "\(warnings)")
    XCTAssertTrue(warnings.first?.contains("'plusDarkerish'") ?? false, "\(warnings)")
    XCTAssertTrue(warnings.first?.contains("'top'") ?? false, "\(warnings)")
  }
}
