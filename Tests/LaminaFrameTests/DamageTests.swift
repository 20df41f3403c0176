import Foundation
import Lamina
import LaminaScene
@testable import LaminaFrame
import XCTest

/// Damage between frames, computed without a GPU.
final class DamageTests: XCTestCase {
  var root: CALayer!
  var a: CALayer!
  var b: CALayer!

  override func setUp() {
    root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.position = CGPoint(x: 100, y: 50)
    a = CALayer()
    a.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
    a.backgroundColor = .black
    b = CALayer()
    b.frame = CGRect(x: 150, y: 60, width: 30, height: 30)
    b.backgroundColor = .black
    root.addSublayer(a)
    root.addSublayer(b)
  }

  func frame() -> DrawList {
    var builder = FrameBuilder(size: CGSize(width: 200, height: 100), scale: 1)
    return builder.build(root: root, background: .white)
  }

  func testUnchangedFrameHasNoDamage() {
    XCTAssertTrue(Damage(from: frame(), to: frame()).isEmpty)
  }

  func testFirstFrameIsAllDamage() {
    XCTAssertEqual(
      Damage(from: nil, to: frame()).rects, [PixelRect(x: 0, y: 0, width: 200, height: 100)])
  }

  func testMovedLayerDamagesWhereItWasAndWhereItIs() {
    let before = frame()
    a.position.x += 40
    let damage = Damage(from: before, to: frame())
    // Old and new bounds, each with the one-pixel antialiasing reach.
    XCTAssertEqual(damage.rects.count, 2)
    XCTAssertEqual(damage.bounds, PixelRect(x: 9, y: 9, width: 62, height: 22))
    XCTAssertEqual(damage.area, 2 * 22 * 22)
  }

  func testRecoloredLayerDamagesItsBoundsOnly() {
    let before = frame()
    b.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let damage = Damage(from: before, to: frame())
    XCTAssertEqual(damage.rects, [PixelRect(x: 149, y: 59, width: 32, height: 32)])
  }

  func testHiddenLayerDamagesWhereItWas() {
    let before = frame()
    a.isHidden = true
    XCTAssertEqual(
      Damage(from: before, to: frame()).rects, [PixelRect(x: 9, y: 9, width: 22, height: 22)])
  }

  func testManyChangesMergeIntoFewRects() {
    let before = frame()
    for i in 0..<20 {
      let l = CALayer()
      l.frame = CGRect(x: CGFloat(i) * 9, y: CGFloat(i % 3) * 30, width: 5, height: 5)
      l.backgroundColor = .black
      root.addSublayer(l)
    }
    let damage = Damage(from: before, to: frame(), maxRects: 4)
    XCTAssertLessThanOrEqual(damage.rects.count, 4)
    // Every new layer lies inside the damage.
    for l in root.sublayers!.dropFirst(2) {
      let f = l.frame
      XCTAssertTrue(
        damage.rects.contains { r in
          CGFloat(r.x) <= f.minX && CGFloat(r.maxX) >= f.maxX && CGFloat(r.y) <= f.minY
            && CGFloat(r.maxY) >= f.maxY
        }, "\(f) not covered")
    }
  }
}

extension DamageTests {
  func testReorderDamagesTheLayersThatMovedInTheOrder() {
    b.frame = CGRect(x: 20, y: 20, width: 30, height: 30)  // overlapping a
    let before = frame()
    b.zPosition = -1  // now drawn first
    let damage = Damage(from: before, to: frame())
    XCTAssertFalse(damage.isEmpty)
    XCTAssertEqual(damage.rects.count, 1)
  }

  func testLongestIncreasingRun() {
    XCTAssertEqual(Damage.longestIncreasingRun([0, 1, 2, 3]), [0, 1, 2, 3])
    XCTAssertEqual(Damage.longestIncreasingRun([1, 0]).count, 1)
    XCTAssertEqual(Damage.longestIncreasingRun([3, 0, 1, 2]), [1, 2, 3])
  }
}

extension DamageTests {
  /// Every piece of a rounded layer seen nearly edge-on holds, in its
  /// bounds, the corners that its antialiasing margin grows it to (where
  /// the vertex builder draws it): the corner pieces' bounds were a pixel
  /// around the piece alone, and a partial redraw over the frame where the
  /// layer was hidden left two of its pixels out, 51/255 (finding
  /// corner-piece-bounds-under-slanted-projection, partial-redraw seed
  /// 1300769).
  func testPiecesOfASlantedRoundedLayerHoldTheirGrownCorners() throws {
    let json = """
      {"lamina": 1, "canvas": {"width": 65, "height": 102, "scale": 1},
       "root": {"sublayerTransform": [{"perspective": 180}, {"rotate": [-0.4, 0, 1, 0]}],
        "sublayers": [{"class": "CATransformLayer", "frame": [0, 60, 20, 20],
          "transform": [{"translate": [0, 0, -10]}, {"rotate": [1, 0, 0, 1]}],
          "sublayers": [{"bounds": [0, 0, 7, 8], "backgroundColor": "#1fbb6aff", "cornerRadius": 2,
            "transform": [{"translate": [0, 0, -30]}, {"rotate": [-1.56, 0, 1, 0]},
                          {"translate": [0, 0, -26]}]}]}]}}
      """
    let scene = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "slanted.json")
    var builder = FrameBuilder(size: CGSize(width: 65, height: 102), scale: 1)
    let items = builder.build(root: scene.root, background: nil).allItems
    XCTAssertGreaterThan(items.count, 4, "the layer is split at its corners")
    var corners = 0
    for item in items where item.clippedPolygon == nil {
      guard let margin = EdgeGeometry.margins(item.rect, item.matrix) else { continue }
      let grown = item.rect.insetBy(dx: -margin.x, dy: -margin.y)
      for p in EdgeGeometry.corners(grown) {
        let q = item.matrix.apply(p.x, p.y)
        let x = Int((q.x / q.w).rounded(.down))
        let y = Int((q.y / q.w).rounded(.down))
        let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
          .intersection(PixelRect(x: 0, y: 0, width: 65, height: 102))
        guard !pixel.isEmpty else { continue }
        corners += 1
        XCTAssertEqual(
          item.bounds.union(pixel), item.bounds,
          "a grown corner at (\(q.x / q.w), \(q.y / q.w)) outside \(item.bounds)")
      }
    }
    XCTAssertGreaterThan(corners, 0)
  }
}
