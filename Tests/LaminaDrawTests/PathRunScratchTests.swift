import Foundation
import Lamina
import XCTest

@testable import LaminaDraw

/// The memory runs are drawn into, kept from one frame to the next
/// (`PathRunScratch`): a run drawn into recycled memory holds the same
/// bytes as one drawn into new memory, an image something still holds is
/// never written, and what no frame uses goes.
final class PathRunScratchTests: XCTestCase {
  private func part(
    _ svg: String, color: SIMD4<Float> = SIMD4(0, 0, 0, 1), transform: CGAffineTransform = .identity
  ) throws -> PathRunRasterizer.Part {
    let layer = CAShapeLayer()
    layer.path = try CGPath.parseSVG(svg)
    layer.fillColor = .black
    return PathRunRasterizer.Part(
      style: try XCTUnwrap(ShapeStyle(layer)), stroke: false, color: color, transform: transform)
  }

  /// Two overlapping squares, one translucent, and a masked, faded group
  /// (its mask translucent: drawn into a bitmap of its own).
  private func elements(
    shift: CGFloat, mask color: SIMD4<Float> = SIMD4(0, 0, 0, 0.8), maskMode: Int = 0
  ) throws -> [PathRunRasterizer.Element] {
    let t = CGAffineTransform(translationX: shift, y: 0)
    let square = try part(
      "M 2 2 L 10 2 L 10 10 L 2 10 Z", color: SIMD4(0.1, 0.5, 0.9, 1), transform: t)
    let over = try part(
      "M 6 6 L 14.5 6 L 14.5 14.5 L 6 14.5 Z", color: SIMD4(0.5, 0, 0, 0.5), transform: t)
    let mask = try part("M 0 0 L 6 0 L 0 6.5 Z", color: color)
    let group = PathRunRasterizer.Group(
      elements: [.part(square)], mask: [.part(mask)], maskMode: maskMode, opacity: 0.5, clip: nil,
      box: SIMD4(1, 1, 12, 12))
    return [.part(square), .part(over), .group(group)]
  }

  /// A group's mask that is one opaque fill clips the group with its
  /// coverage, a byte a pixel, without a bitmap of its own: the bytes the
  /// same coverage gives as a mask read from a bitmap (an opaque white
  /// fill's luminance is its coverage, as an opaque fill's alpha is).
  func testAMaskOfOneOpaqueFillClipsWithoutABitmap() throws {
    let scratch = PathRunScratch()
    let clipped = PathRunRasterizer.render(
      try elements(shift: 0.3, mask: SIMD4(0, 0, 0, 1)), width: 20, height: 20,
      scratch: scratch)
    XCTAssertEqual(scratch.held.blocks, 1, "the group's content only")
    let viaBitmap = PathRunRasterizer.render(
      try elements(shift: 0.3, mask: SIMD4(1, 1, 1, 1), maskMode: 2), width: 20, height: 20)
    XCTAssertEqual(try bytes(clipped), try bytes(viaBitmap))
    XCTAssertNotEqual(
      try bytes(clipped),
      try bytes(PathRunRasterizer.render(try elements(shift: 0.3), width: 20, height: 20)),
      "a translucent mask masks less")
  }

  private func bytes(_ image: CGImage?) throws -> [UInt8] {
    try XCTUnwrap(XCTUnwrap(image).premultipliedPixels)
  }

  /// Frame after frame, a run is drawn into the pixels of the image the
  /// frame before dropped (once nothing holds it), over a background or
  /// not, larger or smaller than it: the bytes are those of a run drawn
  /// into new memory.
  func testARunDrawnIntoRecycledPixelsHoldsTheSameBytes() throws {
    let scratch = PathRunScratch()
    let sizes = [(20, 20), (20, 20), (12, 16), (24, 20), (20, 20)]
    var last: CGImage?
    for (frame, (w, h)) in sizes.enumerated() {
      let background: SIMD4<Float>? = frame % 2 == 0 ? nil : SIMD4(0.2, 0.2, 0.2, 0.6)
      let e = try elements(shift: CGFloat(frame))
      let fresh = try bytes(
        PathRunRasterizer.render(e, width: w, height: h, background: background))
      let image = PathRunRasterizer.render(
        e, width: w, height: h, background: background, scratch: scratch)
      XCTAssertEqual(try bytes(image), fresh, "frame \(frame)")
      // The cache drops the last frame's image; nothing else holds it.
      scratch.endFrame(recycling: last.map { [$0] } ?? [])
      last = image
    }
    // Frames 2, 3 and 4 took the pixels of frames 0, 1 and 2 (frame 3's
    // 24×20 is larger than frame 1's 20×20 array: it was grown in place
    // only if its capacity allowed, else new memory was used).
    XCTAssertGreaterThanOrEqual(scratch.recycled, 2)
    XCTAssertEqual(scratch.held.images, 1)
  }

  /// An image something still holds (a plan, the caller) is never drawn
  /// into: its bytes stay, and the run gets new memory.
  func testAnImageStillHeldIsNeverWritten() throws {
    let scratch = PathRunScratch()
    let held = try XCTUnwrap(
      PathRunRasterizer.render(try elements(shift: 0), width: 20, height: 20, scratch: scratch))
    let before = try bytes(held)
    scratch.endFrame(recycling: [held])
    let next = PathRunRasterizer.render(
      try elements(shift: 3), width: 20, height: 20, scratch: scratch)
    XCTAssertEqual(try bytes(held), before)
    XCTAssertNotEqual(try bytes(next), before)
    XCTAssertEqual(scratch.recycled, 0)
  }

  /// A group's content and mask are drawn into blocks that serve the next
  /// frame's groups; blocks no frame used are freed at the end of the
  /// frame after.
  func testGroupBlocksServeTheNextFrameAndUnusedOnesGo() throws {
    let scratch = PathRunScratch()
    _ = PathRunRasterizer.render(try elements(shift: 0), width: 20, height: 20, scratch: scratch)
    XCTAssertEqual(scratch.held.blocks, 2, "the group's content and its mask, given back")
    scratch.endFrame(recycling: [])
    XCTAssertEqual(scratch.held.blocks, 2, "used this frame: kept")
    let again = PathRunRasterizer.render(
      try elements(shift: 1), width: 20, height: 20, scratch: scratch)
    XCTAssertEqual(
      try bytes(again),
      try bytes(PathRunRasterizer.render(try elements(shift: 1), width: 20, height: 20)))
    XCTAssertEqual(scratch.held.blocks, 2, "the same two blocks again")
    scratch.endFrame(recycling: [])
    scratch.endFrame(recycling: [])
    XCTAssertEqual(scratch.held.blocks, 0, "a frame without groups frees them")
  }

  /// A run kept in Cairo's byte order (BGRA, as llvmpipe's textures want
  /// it) is the RGBA run with red and blue swapped, over a background or
  /// not, drawn into recycled memory or not; its RGBA and straight pixels
  /// are the RGBA run's.
  func testARunInBGRAIsTheRGBARunWithRedAndBlueSwapped() throws {
    let scratch = PathRunScratch()
    var last: CGImage?
    for (frame, background) in [nil, SIMD4<Float>(0.2, 0.3, 0.4, 0.6), nil].enumerated() {
      let e = try elements(shift: CGFloat(frame))
      let rgba = try XCTUnwrap(
        PathRunRasterizer.render(e, width: 20, height: 20, background: background))
      let bgra = try XCTUnwrap(
        PathRunRasterizer.render(
          e, width: 20, height: 20, background: background, scratch: scratch, order: .bgra))
      XCTAssertEqual(bgra.premultipliedOrder, .bgra)
      XCTAssertEqual(try XCTUnwrap(bgra.premultiplied), TexelOrder.swapped(try bytes(rgba)))
      XCTAssertEqual(try bytes(bgra), try bytes(rgba), "frame \(frame)")
      XCTAssertEqual(bgra.pixels, rgba.pixels, "frame \(frame)")
      XCTAssertEqual(bgra.isOpaque, rgba.isOpaque)
      scratch.endFrame(recycling: last.map { [$0] } ?? [])
      last = bgra
    }
    XCTAssertGreaterThanOrEqual(scratch.recycled, 1)
  }
}
