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
    let first = try XCTUnwrap(cache.image(key(0)) { image() })
    let other = try XCTUnwrap(cache.image(key(1)) { image() })
    XCTAssertEqual(cache.drawn, 2)
    XCTAssertTrue(cache.image(key(0)) { XCTFail("made again"); return nil } === first)
    let overWhite = try XCTUnwrap(cache.image(key(0, background: SIMD4(1, 1, 1, 1))) { image() })
    XCTAssertFalse(overWhite === first)
    XCTAssertEqual(cache.drawn, 3)
    XCTAssertEqual(cache.endFrame(), [], "every bitmap was used this frame")
    XCTAssertTrue(cache.image(key(1)) { nil } === other)
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
      return PathRunKey(parts: [.part(part), .part(part)], bounds: SIMD4(0, 0, 4, 4), background: nil)
    }
    let cache = PathRunCache()
    let first = try XCTUnwrap(cache.image(key(1, 0)) { image() })
    let red = try XCTUnwrap(cache.image(key(0.5, 0)) { image() })
    let moved = try XCTUnwrap(cache.image(key(1, 1)) { image() })
    XCTAssertFalse(red === first)
    XCTAssertFalse(moved === first)
    XCTAssertTrue(cache.image(key(1, 0)) { nil } === first)
    XCTAssertTrue(cache.image(key(1, 1)) { nil } === moved)
    XCTAssertEqual(cache.drawn, 3)
  }

  /// Plans made and never run (no frame end) hold at most `maxEntries`
  /// bitmaps: past it the least recently used half goes, named at the next
  /// frame's end.
  func testPlansNeverRunHoldAtMostTheLimit() throws {
    let cache = PathRunCache()
    let kept = try XCTUnwrap(cache.image(key(-1)) { image() })
    for x in 0..<PathRunCache.maxEntries + 10 {
      _ = cache.image(key(x)) { image() }
      if x % 100 == 0 { _ = cache.image(key(-1)) { nil } }  // kept recently used
    }
    XCTAssertLessThanOrEqual(cache.count, PathRunCache.maxEntries)
    XCTAssertGreaterThan(cache.count, PathRunCache.maxEntries / 2)
    XCTAssertTrue(cache.image(key(-1)) { nil } === kept)
    let dropped = cache.endFrame()
    XCTAssertEqual(dropped.count, PathRunCache.maxEntries + 11 - cache.count)
    XCTAssertFalse(dropped.contains(kept.identifier))
  }
}
