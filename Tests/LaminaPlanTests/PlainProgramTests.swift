import Foundation
import Lamina
import LaminaTestSupport
import XCTest

@testable import LaminaFrame
@testable import LaminaPlan

/// Exact rects and texel copies (`VertexBuilder.exactCorners`,
/// `copiesTexels`), and the plain programs that draw their batches where
/// the device's targets are BGRA (llvmpipe's linear rasterizer).
final class PlainProgramTests: XCTestCase {
  private let image = CGImage(
    width: 8, height: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 8 * 4 * 4))!

  private func item(
    _ material: Material, rect: CGRect, matrix: CATransform3D = CATransform3DIdentity,
    color: SIMD4<Float> = SIMD4(1, 1, 1, 1), antialiased: Bool = true
  ) -> DrawItem {
    DrawItem(
      material: material, clippedPolygon: nil, rect: rect, uv: (0, 0, 1, 1), matrix: matrix,
      color: color, bounds: PixelRect(x: 0, y: 0, width: 64, height: 64), layerName: nil,
      antialiased: antialiased)
  }

  /// Whether `item` appends as an exact rect, and as a texel copy, and its
  /// vertices.
  private func append(_ item: DrawItem, region: PixelRect? = nil) -> (Bool, Bool, [Vertex]) {
    var vertices: [Vertex] = []
    var indices: [UInt32] = []
    var exact = true
    var copies = true
    _ = VertexBuilder.appendItem(
      item, edgeCoverage: true, region: region, &vertices, &indices, exact: &exact, copies: &copies)
    return (exact, copies, vertices)
  }

  func testPixelAlignedRectsAreExactAndDrawnWithoutTheMargin() {
    let (exact, _, vertices) = append(item(.solid, rect: CGRect(x: 3, y: 5, width: 10, height: 7)))
    XCTAssertTrue(exact)
    XCTAssertEqual(
      vertices.map { [$0.x, $0.y, $0.w] }, [[3, 5, 1], [13, 5, 1], [13, 12, 1], [3, 12, 1]])
    XCTAssertEqual(vertices[0].edges, SIMD4(repeating: VertexBuilder.farFromEdges))
    // Within 1/1024 of a pixel: put on it.
    let near = CATransform3DMakeTranslation(0.0004, -0.0009, 0)
    let (nearExact, _, moved) = append(
      item(.solid, rect: CGRect(x: 3, y: 5, width: 10, height: 7), matrix: near))
    XCTAssertTrue(nearExact)
    XCTAssertEqual(moved[0].x, 3)
    XCTAssertEqual(moved[0].y, 5)
  }

  func testRectsOffTheGridTurnedOrInPerspectiveAreNot() {
    let rect = CGRect(x: 3, y: 5, width: 10, height: 7)
    XCTAssertFalse(
      append(item(.solid, rect: rect, matrix: CATransform3DMakeTranslation(0.25, 0, 0))).0)
    XCTAssertFalse(
      append(item(.solid, rect: rect, matrix: CATransform3DMakeRotation(0.1, 0, 0, 1))).0)
    var perspective = CATransform3DIdentity
    perspective.m14 = 1 / 500  // w varies with x: a plane turned in perspective
    XCTAssertFalse(append(item(.solid, rect: rect, matrix: perspective)).0)
    // Without antialiasing any axis-aligned affine rect is exact: no pixel
    // is partly covered.
    XCTAssertTrue(
      append(
        item(
          .solid, rect: rect, matrix: CATransform3DMakeTranslation(0.25, 0, 0), antialiased: false)
      ).0)
  }

  func testEdgesOutsideTheRegionNeedNotBeOnPixels() {
    // A background larger than the pass: its fractional edges lie
    // outside, at least half a pixel.
    let rect = CGRect(x: -1.3, y: -0.6, width: 66.2, height: 65.1)
    let region = PixelRect(x: 0, y: 0, width: 64, height: 64)
    XCTAssertTrue(append(item(.solid, rect: rect), region: region).0)
    XCTAssertFalse(append(item(.solid, rect: rect)).0, "no region: every edge counts")
    // An edge 0.3 px outside still touches the region's last pixels.
    let close = CGRect(x: -1.3, y: -0.6, width: 65.6, height: 65.1)
    XCTAssertFalse(append(item(.solid, rect: close), region: region).0)
  }

  func testTexelCopiesAreOneTexelAPixelOnTexelCentersUntinted() {
    let nearest = SamplerKey(minification: .nearest, magnification: .nearest)
    let linear = SamplerKey(minification: .linear, magnification: .linear)
    let oneToOne = CGRect(x: 4, y: 4, width: 8, height: 4)
    XCTAssertTrue(append(item(.image(image, nearest), rect: oneToOne)).1)
    XCTAssertTrue(append(item(.image(image, linear), rect: oneToOne)).1)
    // Scaled, tinted, translucent, or on texel corners: not copies.
    XCTAssertFalse(
      append(item(.image(image, nearest), rect: CGRect(x: 4, y: 4, width: 16, height: 8))).1)
    XCTAssertFalse(append(item(.image(image, nearest), rect: oneToOne, color: SIMD4(1, 0, 0, 1))).1)
    XCTAssertFalse(
      append(item(.image(image, nearest), rect: oneToOne, color: SIMD4(0.5, 0.5, 0.5, 0.5))).1)
    let half = CATransform3DMakeTranslation(0.5, 0, 0)
    let (exact, copies, _) = append(
      item(.image(image, linear), rect: oneToOne, matrix: half, antialiased: false))
    XCTAssertTrue(exact)
    XCTAssertFalse(copies)
    // Without antialiasing, edges between pixels' centers: the centers
    // fall on texel corners (metamorphic seed 193, a nine-slice's center).
    let (offExact, offCopies, _) = append(
      item(
        .image(image, linear), rect: CGRect(x: 4.5, y: 4, width: 8, height: 4), antialiased: false))
    XCTAssertTrue(offExact)
    XCTAssertFalse(offCopies)
    // A solid is never a copy.
    XCTAssertFalse(append(item(.solid, rect: oneToOne)).1)
  }

  /// The fragment shader of each draw of a frame of `root` run on a
  /// recording device of `order`.
  private func drawnPrograms(_ root: CALayer, order: TexelOrder, samples: Int = 1) throws
    -> [String]
  {
    let device = RecordingDevice()
    device.texelOrder = order
    let runner = try FrameRunner(
      device: device, samples: samples, maxTextureSize: 4096, caches: RenderCaches())
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    let frame = builder.build(root: root, background: .clear)
    var options = PlanOptions()
    options.samples = samples
    let plan = runner.plan(frame, tile: 4096, options: options)
    try runner.run(plan, maxOffscreenBytes: 1 << 30, output: { _, _ in })
    var program: GPUHandle = 0
    var drawn: [String] = []
    for command in device.commands {
      switch command {
      case .state(.useProgram(let id)): program = id
      case .draw: drawn.append(device.programSources[program]?.fragment ?? "?")
      default: break
      }
    }
    return drawn
  }

  func testBatchesOfExactRectsDrawPlainWhereTargetsAreBGRA() throws {
    let r = LaminaTestSupport.root(64, 48)
    r.addSublayer(layer(CGRect(x: 2, y: 2, width: 20, height: 10), .black))
    r.addSublayer(layer(CGRect(x: 30, y: 20, width: 20, height: 10), .white))
    XCTAssertEqual(try drawnPrograms(r, order: .bgra), ["solid_plain.frag.glsl"])
    XCTAssertEqual(try drawnPrograms(r, order: .rgba), ["solid.frag.glsl"])
    // Multisampled targets resolve into RGBA: no linear rasterizer there.
    XCTAssertEqual(try drawnPrograms(r, order: .bgra, samples: 4), ["solid.frag.glsl"])
    // One rect off the grid: its batch keeps the edge coverage.
    r.addSublayer(layer(CGRect(x: 10.5, y: 30, width: 20, height: 10), .black))
    XCTAssertEqual(try drawnPrograms(r, order: .bgra), ["solid.frag.glsl"])
  }

  /// Over 170 rects, a batch is drawn in calls of 170 where they cover
  /// 16,384 pixels a call, else in one call (the linear rasterizer finds
  /// no rect in larger calls, but the plain program is still cheaper).
  func testPlainBatchesOfLargeRectsDrawAtMost170ACall() throws {
    let large = LaminaTestSupport.root(2000, 1000)
    for i in 0..<200 {
      large.addSublayer(
        layer(CGRect(x: i % 20 * 100, y: i / 20 * 100, width: 100, height: 100), .black))
    }
    XCTAssertEqual(
      try drawnPrograms(large, order: .bgra), ["solid_plain.frag.glsl", "solid_plain.frag.glsl"],
      "170 and 30 rects")
    XCTAssertEqual(try drawnPrograms(large, order: .rgba), ["solid.frag.glsl"])
    let small = LaminaTestSupport.root(200, 100)
    for i in 0..<200 {
      small.addSublayer(layer(CGRect(x: i % 100 * 2, y: i / 100 * 2, width: 1, height: 1), .black))
    }
    XCTAssertEqual(try drawnPrograms(small, order: .bgra), ["solid_plain.frag.glsl"])
  }
}
