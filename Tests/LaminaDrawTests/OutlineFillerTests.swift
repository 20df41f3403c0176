import CCairo
import Foundation
import Lamina
import XCTest

@testable import LaminaDraw

/// Fills of runs of paths drawn by FreeType's rasterizer
/// (`OutlineFiller`, through `PathRunRasterizer`): exact colors where a
/// path covers a pixel, coverage as the area covered, the fill rules,
/// clips, and Cairo where FreeType cannot take a path.
final class OutlineFillerTests: XCTestCase {
  func style(_ svg: String, evenOdd: Bool = false) throws -> ShapeStyle {
    let layer = CAShapeLayer()
    layer.path = try CGPath.parseSVG(svg)
    layer.fillColor = .black
    layer.fillRule = evenOdd ? .evenOdd : .nonZero
    return try XCTUnwrap(ShapeStyle(layer))
  }

  func part(
    _ svg: String, evenOdd: Bool = false, color: SIMD4<Float> = SIMD4(0, 0, 0, 1),
    transform: CGAffineTransform = .identity, clip: PathRunRasterizer.Clip? = nil
  ) throws -> PathRunRasterizer.Part {
    PathRunRasterizer.Part(
      style: try style(svg, evenOdd: evenOdd), stroke: false, color: color, transform: transform,
      clip: clip)
  }

  /// Premultiplied RGBA of each pixel, rows of `image.width`.
  func pixels(_ image: CGImage) -> [[Int]] {
    let bytes = image.premultipliedPixels ?? image.pixels
    return stride(from: 0, to: bytes.count, by: 4).map { i in bytes[i..<i + 4].map(Int.init) }
  }

  func render(_ parts: [PathRunRasterizer.Part], _ width: Int = 20, _ height: Int = 20) throws
    -> [[Int]]
  {
    pixels(try XCTUnwrap(PathRunRasterizer.render(parts, width: width, height: height)))
  }

  /// A square on whole pixels: its pixels hold the color (the GPU's bytes
  /// of it: 0.1 is 26, where Cairo's own rounding writes 25), the others
  /// nothing; a half-transparent one over it blends as the GPU blends.
  func testCoveredPixelsHoldTheGPUsColors() throws {
    let image = try render([
      part("M 2 2 L 10 2 L 10 10 L 2 10 Z", color: SIMD4(0.1, 0.5, 0.9, 1)),
      part("M 6 6 L 14 6 L 14 14 L 6 14 Z", color: SIMD4(0.5, 0, 0, 0.5)),
    ])
    XCTAssertEqual(image[3 * 20 + 3], [26, 128, 230, 255])
    XCTAssertEqual(image[1 * 20 + 1], [0, 0, 0, 0])
    XCTAssertEqual(image[10 * 20 + 10], [128, 0, 0, 128])
    // Over the first: 128 + 26·127/255 = 140.9, 128·127/255 = 63.7, ...
    XCTAssertEqual(image[8 * 20 + 8], [128 + 13, 64, 115, 255])
    let covered = image.filter { $0[3] > 0 }.count
    XCTAssertEqual(covered, 64 + 64 - 16)
  }

  /// A translucent fill over pixels of every kind (columns of 11 colors,
  /// translucent and opaque, and the transparent ones beside them) writes
  /// in each what the blend formula gives, worked out here pixel by pixel:
  /// runs of four pixels at a time and the ones left over alike.
  func testTranslucentRunsBlendEachPixelByTheFormula() throws {
    let colors: [SIMD4<Float>] = (0..<11).map { i in
      let a = Float(i % 4 + 1) / 4
      return SIMD4(Float(i) / 10 * a, Float(10 - i) / 10 * a, 0.5 * a, a)
    }
    var parts = colors.enumerated().map { i, c in
      try! part("M \(i + 1) 0 L \(i + 2) 0 L \(i + 2) 20 L \(i + 1) 20 Z", color: c)
    }
    let below = try render(parts)
    parts.append(try part("M 0 2 L 19 2 L 19 18 L 0 18 Z", color: SIMD4(0.3, 0.1, 0.2, 0.6)))
    let image = try render(parts)
    let source = [77, 26, 51, 153]
    func mul(_ x: Int, _ a: Int) -> Int {
      let t = x * a + 128
      return (t + (t >> 8)) >> 8
    }
    for y in [2, 10, 17] {
      for x in 0..<19 {
        let d = below[y * 20 + x]
        let expected = (0..<4).map { min(source[$0] + mul(d[$0], 255 - 153), 255) }
        XCTAssertEqual(image[y * 20 + x], expected, "(\(x), \(y))")
      }
    }
    XCTAssertEqual(image[1 * 20 + 5], below[1 * 20 + 5], "above the fill")
  }

  /// A translucent fill 1,200 pixels wide whose bottom edge is nearly
  /// level (a cell for every pixel of its rows: more than FreeType's pool
  /// holds in one row) is blended once everywhere: rendered strip by
  /// strip, nothing fails half way to be drawn again.
  func testAWideShallowEdgeIsBlendedOnce() throws {
    let wide = try part(
      "M 0 0 L 1200 0 L 1200 6 L 0 7 Z", color: SIMD4(0.25, 0.125, 0, 0.5))
    let image = try render([wide], 1200, 8)
    for x in [0, 383, 384, 600, 1199] {
      XCTAssertEqual(image[3 * 1200 + x], [64, 32, 0, 128], "x \(x)")
    }
    // Along the shallow edge the coverage falls from 1 to 0 across the
    // width (row 6 covered by 1 − x/1200).
    XCTAssertEqual(Double(image[6 * 1200 + 600][3]), 128 * 0.5, accuracy: 2)
    XCTAssertEqual(image[7 * 1200 + 600][3], 0)
  }

  /// A pixel's coverage is the area of it the path covers: half of a
  /// column, a quarter of a corner pixel.
  func testCoverageIsTheAreaCovered() throws {
    let image = try render([part("M 2.5 2 L 8 2 L 8 7.5 L 2.5 7.5 Z")])
    XCTAssertEqual(Double(image[4 * 20 + 2][3]), 127.5, accuracy: 1)
    XCTAssertEqual(Double(image[7 * 20 + 5][3]), 127.5, accuracy: 1)
    XCTAssertEqual(Double(image[7 * 20 + 2][3]), 63.75, accuracy: 1)
    XCTAssertEqual(image[4 * 20 + 4][3], 255)
    XCTAssertEqual(image[4 * 20 + 8][3], 0)
  }

  /// Two squares, one inside the other, drawn the same way round: the
  /// nonzero rule fills the inner one, even-odd leaves it empty; drawn
  /// the other way round, both leave it empty.
  func testFillRules() throws {
    let same = "M 1 1 L 19 1 L 19 19 L 1 19 Z M 6 6 L 14 6 L 14 14 L 6 14 Z"
    let reversed = "M 1 1 L 19 1 L 19 19 L 1 19 Z M 6 6 L 6 14 L 14 14 L 14 6 Z"
    XCTAssertEqual(try render([part(same)])[10 * 20 + 10][3], 255)
    XCTAssertEqual(try render([part(same, evenOdd: true)])[10 * 20 + 10][3], 0)
    XCTAssertEqual(try render([part(reversed)])[10 * 20 + 10][3], 0)
    XCTAssertEqual(try render([part(same)])[3 * 20 + 3][3], 255)
  }

  /// Subpaths as a fill takes them: an open one is closed, and a line
  /// after a close starts a new one at the closed one's start (as Cairo
  /// and Core Graphics do).
  func testSubpathsCloseAndGoOnFromTheirStart() throws {
    let open = try render([part("M 2 2 L 10 2 L 10 10 L 2 10")])
    XCTAssertEqual(open[5 * 20 + 5][3], 255)
    // The second triangle starts at (2, 2), the first's start.
    let after = try render([part("M 2 2 L 8 2 L 8 8 Z L 2 18 L 8 18 Z")])
    XCTAssertEqual(after[16 * 20 + 4][3], 255)
    let cairo = try XCTUnwrap(CairoBitmap(width: 20, height: 20))
    cairo_new_path_fill(cairo, "M 2 2 L 8 2 L 8 8 Z L 2 18 L 8 18 Z")
    XCTAssertEqual(pixels(try XCTUnwrap(cairo.makeImage()))[16 * 20 + 4][3], 255)
  }

  /// FreeType's fill of curved shapes, against Cairo's: the same pixels
  /// inside and out, edge pixels within 20 255ths (Cairo samples 15 rows a
  /// pixel: along a nearly level edge its coverage is off by up to a
  /// fifteenth, 17 255ths; FreeType's is the area).
  func testCurvesMatchCairoWithinEdgeAntialiasing() throws {
    let shapes = [
      "M 10 2 C 20 2 20 18 10 18 C 0 18 0 2 10 2 Z",
      "M 2 10 Q 10 -6 18 10 Q 10 26 2 10 Z",
      "M 10 1 L 12.5 7 L 19 7.5 L 14 12 L 15.5 19 L 10 15.5 L 4.5 19 L 6 12 L 1 7.5 L 7.5 7 Z",
    ]
    for svg in shapes {
      for evenOdd in [false, true] {
        let t = CGAffineTransform(a: 1.1, b: 0.2, c: -0.15, d: 0.9, tx: 0.3, ty: 0.7)
        let ours = try render([part(svg, evenOdd: evenOdd, transform: t)])
        let cairo = try XCTUnwrap(CairoBitmap(width: 20, height: 20))
        cairo_fill_path(cairo, svg, evenOdd: evenOdd, transform: t)
        let theirs = pixels(try XCTUnwrap(cairo.makeImage()))
        var largest = 0
        for (a, b) in zip(ours, theirs) { largest = max(largest, abs(a[3] - b[3])) }
        XCTAssertLessThanOrEqual(largest, 20, "\(svg) evenOdd \(evenOdd)")
        XCTAssertGreaterThan(ours.filter { $0[3] == 255 }.count, 60)
      }
    }
  }

  /// A clip cuts the fill: its pixels inside the clip's rect (whole
  /// pixels) hold the color, those outside nothing; a rounded corner
  /// leaves its corner pixel empty.
  func testAClipCutsTheFill() throws {
    let clip = PathRunRasterizer.Clip(
      rect: CGRect(x: 4, y: 4, width: 10, height: 10), radii: SIMD4(0, 0, 5, 0),
      transform: .identity)
    let image = try render([part("M 0 0 L 20 0 L 20 20 L 0 20 Z", clip: clip)])
    XCTAssertEqual(image[5 * 20 + 5], [0, 0, 0, 255])
    XCTAssertEqual(image[3 * 20 + 5][3], 0)
    XCTAssertEqual(image[5 * 20 + 14][3], 0)
    XCTAssertEqual(image[13 * 20 + 13][3], 0, "the rounded corner")
    XCTAssertEqual(image[13 * 20 + 4], [0, 0, 0, 255], "a square corner")
  }

  /// A clip that is a rect on the bitmap's axes covers each pixel by the
  /// area of it inside the rect (no mask): a column half inside it half
  /// covered, a corner's quarter a quarter; where the path covers half of
  /// such a pixel too, the two multiply.
  func testARectClipCoversPixelsByTheirAreaInside() throws {
    let clip = PathRunRasterizer.Clip(
      rect: CGRect(x: 4.5, y: 4, width: 9.75, height: 9.5), radii: .zero, transform: .identity)
    let image = try render([part("M 0 0 L 20 0 L 20 20 L 0 20 Z", clip: clip)])
    XCTAssertEqual(image[5 * 20 + 8], [0, 0, 0, 255])
    XCTAssertEqual(Double(image[5 * 20 + 4][3]), 127.5, accuracy: 1)
    XCTAssertEqual(Double(image[5 * 20 + 14][3]), 63.75, accuracy: 1)
    XCTAssertEqual(Double(image[13 * 20 + 14][3]), 31.9, accuracy: 1)
    XCTAssertEqual(image[3 * 20 + 8][3], 0)
    XCTAssertEqual(image[5 * 20 + 3][3], 0)
    XCTAssertEqual(image[5 * 20 + 15][3], 0)
    let half = try render([part("M 0 0 L 14.5 0 L 14.5 20 L 0 20 Z", clip: clip)])
    XCTAssertEqual(Double(half[5 * 20 + 14][3]), 31.9, accuracy: 1)
    // Scaled by its map (2 pixels a point): the rect from 9 to 28.5.
    let scaled = PathRunRasterizer.Clip(
      rect: CGRect(x: 4.5, y: 2, width: 9.75, height: 5),
      radii: .zero, transform: CGAffineTransform(scaleX: 2, y: 2))
    let big = try render([part("M 0 0 L 40 0 L 40 20 L 0 20 Z", clip: scaled)], 40, 20)
    XCTAssertEqual(big[5 * 40 + 9], [0, 0, 0, 255])
    XCTAssertEqual(Double(big[5 * 40 + 28][3]), 127.5, accuracy: 1)
    XCTAssertEqual(big[5 * 40 + 8][3], 0)
  }

  /// Paths and clips a hostile file can make draw what they cover and
  /// never trap: a lone move, a move closed at once, a point that is not a
  /// number, 40,000 points (more than an outline holds: Cairo's), a clip
  /// wholly outside the bitmap, a bitmap one pixel wide.
  func testHostilePathsDrawWhatTheyCoverAndNeverTrap() throws {
    XCTAssertEqual(try render([part("M 5 5")]).filter { $0[3] > 0 }.count, 0)
    XCTAssertEqual(try render([part("M 5 5 Z")]).filter { $0[3] > 0 }.count, 0)
    let notANumber = CGMutablePath()
    notANumber.move(to: CGPoint(x: 1, y: 1))
    notANumber.addLine(to: CGPoint(x: CGFloat.nan, y: 5))
    notANumber.addLine(to: CGPoint(x: 1, y: 9))
    XCTAssertNil(OutlineFiller.Outline(notANumber, transform: .identity))
    let layer = CAShapeLayer()
    layer.path = notANumber
    layer.fillColor = .black
    let style = try XCTUnwrap(ShapeStyle(layer))
    _ = try render([
      PathRunRasterizer.Part(
        style: style, stroke: false, color: SIMD4(0, 0, 0, 1), transform: .identity)
    ])
    // A zigzag of 40,000 points between y 2 and 18, its teeth 1/2000 of a
    // pixel wide: half of each pixel between them is inside.
    let zigzag = CGMutablePath()
    zigzag.move(to: CGPoint(x: 0, y: 2))
    for i in 0..<40_000 {
      zigzag.addLine(to: CGPoint(x: CGFloat(i) / 2000, y: i % 2 == 0 ? 18 : 2))
    }
    zigzag.addLine(to: CGPoint(x: 20, y: 2))
    zigzag.closeSubpath()
    XCTAssertNil(OutlineFiller.Outline(zigzag, transform: .identity))
    layer.path = zigzag
    let many = try XCTUnwrap(ShapeStyle(layer))
    let filled = try render([
      PathRunRasterizer.Part(
        style: many, stroke: false, color: SIMD4(0, 0, 0, 1), transform: .identity)
    ])
    XCTAssertEqual(Double(filled[10 * 20 + 10][3]), 127.5, accuracy: 8, "filled by Cairo")
    XCTAssertEqual(filled[1 * 20 + 10][3], 0)
    let outside = PathRunRasterizer.Clip(
      rect: CGRect(x: 30, y: 30, width: 5, height: 5), radii: SIMD4(2, 2, 2, 2), transform: .identity)
    XCTAssertEqual(
      try render([part("M 0 0 L 20 0 L 20 20 Z", clip: outside)]).filter { $0[3] > 0 }.count, 0)
    XCTAssertEqual(try render([part("M -5 -5 L 5 -5 L 5 25 L -5 25 Z")], 1, 20)[10], [0, 0, 0, 255])
  }

  /// A path beyond the range given to FreeType (a point 3 million pixels
  /// away) is filled by Cairo: the part of it on the bitmap is drawn.
  func testAPathBeyondFreeTypesRangeIsFilledByCairo() throws {
    XCTAssertNil(
      OutlineFiller.Outline(try CGPath.parseSVG("M 2 2 L 3000000 2 L 2 18 Z"), transform: .identity))
    let image = try render([part("M 2 2 L 3000000 2 L 3000000 18 L 2 18 Z")])
    XCTAssertEqual(image[10 * 20 + 10], [0, 0, 0, 255])
    XCTAssertEqual(image[1 * 20 + 10][3], 0)
  }

  /// A group drawn whole through a rounded clip FreeType cannot take (its
  /// corners a million pixels away: beyond FreeType's range) is clipped
  /// by Cairo's coverage, not dropped; and a group through a small rounded
  /// clip holds its pixels inside the clip only.
  func testAGroupsClipBeyondFreeTypesRangeIsCairos() throws {
    let fill = try part("M 0 0 L 20 0 L 20 20 L 0 20 Z", color: SIMD4(0.2, 0.4, 0.6, 1))
    func group(_ clip: PathRunRasterizer.Clip) -> PathRunRasterizer.Element {
      .group(
        PathRunRasterizer.Group(
          elements: [.part(fill)], mask: nil, maskMode: 0, opacity: 1, clip: clip,
          box: SIMD4(0, 0, 20, 20)))
    }
    let huge = PathRunRasterizer.Clip(
      rect: CGRect(x: -1, y: -1, width: 2, height: 2), radii: SIMD4(repeating: 0.5),
      transform: CGAffineTransform(scaleX: 1e6, y: 1e6))
    let image = pixels(try XCTUnwrap(PathRunRasterizer.render([group(huge)], width: 20, height: 20)))
    XCTAssertEqual(image[10 * 20 + 10], [51, 102, 153, 255], "inside the huge clip")
    XCTAssertEqual(image[0], [51, 102, 153, 255])
    let small = PathRunRasterizer.Clip(
      rect: CGRect(x: 5, y: 5, width: 10, height: 10), radii: SIMD4(repeating: 3),
      transform: .identity)
    let clipped = pixels(try XCTUnwrap(PathRunRasterizer.render([group(small)], width: 20, height: 20)))
    XCTAssertEqual(clipped[10 * 20 + 10], [51, 102, 153, 255])
    XCTAssertEqual(clipped[2 * 20 + 2], [0, 0, 0, 0], "outside the clip")
    // The corner pixel (5, 5): the arc of radius 3 about (8, 8) leaves it
    // only its corner nearest the center (a few percent).
    XCTAssertLessThan(clipped[5 * 20 + 5][3], 16, "the rounded corner")
    XCTAssertGreaterThan(clipped[5 * 20 + 5][3], 0, "the rounded corner")
  }
}

/// Cairo's own fill of `svg` into `bitmap`, in opaque black.
private func cairo_fill_path(
  _ bitmap: CairoBitmap, _ svg: String, evenOdd: Bool = false,
  transform t: CGAffineTransform = .identity
) {
  let layer = CAShapeLayer()
  layer.path = try? CGPath.parseSVG(svg)
  layer.fillColor = .black
  layer.fillRule = evenOdd ? .evenOdd : .nonZero
  guard let style = ShapeStyle(layer) else { return }
  var matrix = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
  cairo_set_matrix(bitmap.context, &matrix)
  cairo_set_source_rgba(bitmap.context, 0, 0, 0, 1)
  ShapeRasterizer.fill(style, bitmap.context)
}

private func cairo_new_path_fill(_ bitmap: CairoBitmap, _ svg: String) {
  cairo_fill_path(bitmap, svg)
}
