import Foundation
import Lamina
import XCTest

import LaminaDraw
@testable import LaminaFrame
@testable import LaminaPlan

/// The bitmaps of runs of paths drawn on the CPU, kept from one frame to
/// the next (`PathRunCache`).
final class PathRunCacheTests: XCTestCase {
  private func key(_ x: Int, background: SIMD4<Float>? = nil) -> PathRunKey {
    PathRunKey(parts: [], bounds: SIMD4(x, 0, 4, 4), background: background)
  }

  private func image() -> CGImage {
    CGImage(width: 1, height: 1, premultipliedRGBA: [0, 0, 0, 0])!
  }

  /// A run drawn again with the same key takes the kept bitmap (the same
  /// image, nothing made); a key that differs only in its background is
  /// another run. At the frame's end the bitmaps it did not use go, and
  /// their images are named for their textures to go too.
  func testKeptRunsAreFoundAndUnusedOnesDropped() throws {
    let cache = PathRunCache()
    let first = try XCTUnwrap(cache.image(key(0)) { _ in image() })
    let other = try XCTUnwrap(cache.image(key(1)) { _ in image() })
    XCTAssertEqual(cache.drawn, 2)
    XCTAssertTrue(
      cache.image(key(0)) { _ in
        XCTFail("made again"); return nil
      } === first)
    let overWhite = try XCTUnwrap(
      cache.image(key(0, background: SIMD4(1, 1, 1, 1))) { _ in image() })
    XCTAssertFalse(overWhite === first)
    XCTAssertEqual(cache.drawn, 3)
    XCTAssertEqual(cache.endFrame(), [], "every bitmap was used this frame")
    XCTAssertTrue(cache.image(key(1)) { _ in nil } === other)
    XCTAssertEqual(Set(cache.endFrame()), [first.identifier, overWhite.identifier])
    XCTAssertEqual(cache.count, 1)
  }

  /// Keys of the same place and part count that differ in a part (a
  /// color, a map) are other runs; the same parts again are the same run.
  func testRunsDifferingInAPartAreOtherRuns() throws {
    let layer = CAShapeLayer()
    layer.path = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: nil)
    layer.fillColor = .black
    let style = try XCTUnwrap(ShapeStyle(layer))
    let mesh = FillMesh(vertices: [], indices: [], groups: [], bounds: .zero)
    func key(_ red: Float, _ tx: CGFloat) -> PathRunKey {
      let part = PathRunKey.Part(
        paint: PathPaint(geometry: .fill(mesh), style: style),
        style: PathRunKey.Style(style, stroke: false), color: SIMD4(red, 0, 0, 1),
        transform: CGAffineTransform(translationX: tx, y: 0), clip: nil)
      return PathRunKey(
        parts: [.part(part), .part(part)], bounds: SIMD4(0, 0, 4, 4), background: nil)
    }
    let cache = PathRunCache()
    let first = try XCTUnwrap(cache.image(key(1, 0)) { _ in image() })
    let red = try XCTUnwrap(cache.image(key(0.5, 0)) { _ in image() })
    let moved = try XCTUnwrap(cache.image(key(1, 1)) { _ in image() })
    XCTAssertFalse(red === first)
    XCTAssertFalse(moved === first)
    XCTAssertTrue(cache.image(key(1, 0)) { _ in nil } === first)
    XCTAssertTrue(cache.image(key(1, 1)) { _ in nil } === moved)
    XCTAssertEqual(cache.drawn, 3)
  }

  /// Plans made and never run (no frame end) hold at most `maxEntries`
  /// bitmaps: past it the least recently used half goes, named at the next
  /// frame's end.
  func testPlansNeverRunHoldAtMostTheLimit() throws {
    let cache = PathRunCache()
    let kept = try XCTUnwrap(cache.image(key(-1)) { _ in image() })
    for x in 0..<PathRunCache.maxEntries + 10 {
      _ = cache.image(key(x)) { _ in image() }
      if x % 100 == 0 { _ = cache.image(key(-1)) { _ in nil } }  // kept recently used
    }
    XCTAssertLessThanOrEqual(cache.count, PathRunCache.maxEntries)
    XCTAssertGreaterThan(cache.count, PathRunCache.maxEntries / 2)
    XCTAssertTrue(cache.image(key(-1)) { _ in nil } === kept)
    let dropped = cache.endFrame()
    XCTAssertEqual(dropped.count, PathRunCache.maxEntries + 11 - cache.count)
    XCTAssertFalse(dropped.contains(kept.identifier))
  }

  /// Runs of `n` parts (part `i` moved by `moves[i]`, its box 10×10 at
  /// 10·i), over a 100×20 bitmap, and their units.
  private let mesh = FillMesh(vertices: [], indices: [], groups: [], bounds: .zero)

  private func run(_ colors: [Float], moves: [CGFloat] = []) throws -> (PathRunKey, PathRunUnits) {
    let layer = CAShapeLayer()
    layer.path = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: nil)
    layer.fillColor = .black
    let style = try XCTUnwrap(ShapeStyle(layer))
    var parts: [PathRunKey.Element] = []
    var boxes: [SIMD4<Int>] = []
    for (i, red) in colors.enumerated() {
      let move = i < moves.count ? moves[i] : 0
      parts.append(
        .part(
          PathRunKey.Part(
            paint: PathPaint(geometry: .fill(mesh), style: style),
            style: PathRunKey.Style(style, stroke: false), color: SIMD4(red, 0, 0, 1),
            transform: CGAffineTransform(translationX: CGFloat(10 * i) + move, y: 0), clip: nil)))
      boxes.append(SIMD4(10 * i + Int(move), 0, 10, 10))
    }
    return (
      PathRunKey(parts: parts, bounds: SIMD4(0, 0, 100, 20), background: nil),
      PathRunUnits(ends: Array(1...colors.count), boxes: boxes)
    )
  }

  /// What differs between two runs over one place, as one box: the old
  /// and new boxes of the parts that differ, paired by place when the
  /// counts agree; past the common beginning and end when they do not.
  func testTheDamageBetweenTwoRunsIsTheBoxOfThePartsThatDiffer() throws {
    let (old, oldUnits) = try run([1, 1, 1, 1, 1])
    let (recolored, u1) = try run([1, 0.5, 1, 1, 1])
    XCTAssertEqual(u1.damage(from: old, oldUnits, to: recolored), SIMD4(10, 0, 10, 10))
    let (moved, u2) = try run([1, 1, 1, 1, 1], moves: [0, 0, 0, 25])
    XCTAssertEqual(
      u2.damage(from: old, oldUnits, to: moved), SIMD4(30, 0, 35, 10), "its old box and its new")
    let (two, u3) = try run([0.5, 1, 1, 1, 0.5])
    XCTAssertEqual(u3.damage(from: old, oldUnits, to: two), SIMD4(0, 0, 50, 10))
    XCTAssertEqual(oldUnits.damage(from: old, oldUnits, to: old), SIMD4(0, 0, 0, 0))
    // One part fewer at the end: only its box; one more in the middle
    // (the parts after it moved along): from it to the end.
    let (shorter, u4) = try run([1, 1, 1, 1])
    XCTAssertEqual(u4.damage(from: old, oldUnits, to: shorter), SIMD4(40, 0, 10, 10))
    let (longer, u5) = try run([1, 1, 0.5, 1, 1, 1])
    XCTAssertEqual(u5.damage(from: old, oldUnits, to: longer), SIMD4(20, 0, 40, 10))
  }

  /// A run not found is made over the pixels of the last frame's run over
  /// the same place, when that is the only holder of its image: the
  /// damage is handed with them, the old image leaves the cache and is
  /// named for its texture to go. Held elsewhere (a plan not yet run), it
  /// is not taken: the run is made whole, and the old one goes at the
  /// frame's end as an unused one.
  func testARunIsMadeOverTheLastFramesPixels() throws {
    let cache = PathRunCache()
    let (first, firstUnits) = try run([1, 1, 1, 1, 1])
    let pixels = [UInt8](repeating: 7, count: 100 * 20 * 4)
    var identifier: UInt64 = 0
    do {
      let made = try XCTUnwrap(
        cache.image(first, units: firstUnits) { earlier in
          XCTAssertNil(earlier, "nothing before")
          return CGImage(width: 100, height: 20, premultiplied: pixels, order: .bgra)
        })
      identifier = made.identifier
    }
    XCTAssertEqual(cache.endFrame(), [])
    let (second, secondUnits) = try run([1, 1, 0.5, 1, 1])
    let next = try XCTUnwrap(
      cache.image(second, units: secondUnits) { earlier in
        // The part's box, from the bitmap's left edge (Cairo's clip).
        XCTAssertEqual(earlier, SIMD4(0, 0, 30, 10))
        XCTAssertEqual(cache.scratch.takeEarlier(), pixels)
        return CGImage(width: 100, height: 20, premultiplied: pixels, order: .bgra)
      })
    XCTAssertEqual(cache.redrawn, 1)
    XCTAssertEqual(cache.count, 1)
    XCTAssertEqual(cache.endFrame(), [identifier], "the old bitmap's texture goes")
    // Its image held elsewhere: made whole.
    let (third, thirdUnits) = try run([1, 1, 1, 1, 1])
    _ = try XCTUnwrap(
      cache.image(third, units: thirdUnits) { earlier in
        XCTAssertNil(earlier, "the last image is held (next)")
        return CGImage(width: 100, height: 20, premultiplied: pixels, order: .bgra)
      })
    XCTAssertEqual(cache.redrawn, 1)
    XCTAssertEqual(cache.endFrame(), [next.identifier])
  }
}
