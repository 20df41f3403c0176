import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
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
