import Foundation
import Lamina
import LaminaTestSupport
import XCTest

@testable import LaminaFrame

/// An item whose edge is the edge of the clip it is under is inside the
/// clip, whatever float rounding the maps between their planes make.
final class ClipEdgeTests: XCTestCase {
  /// A turned layer clipped to its bounds, its contents cut into nine
  /// pieces (`contentsCenter`): every piece lies within the bounds, so none
  /// takes the clip (which would antialias the layer's edge a second time),
  /// directly under the root or in a container whose place puts the
  /// pieces' corners a float rounding outside the bounds.
  func testPiecesOnTheClipsEdgeAreNotClipped() throws {
    let image = try XCTUnwrap(
      CGImage(width: 16, height: 16, rgba: [UInt8](repeating: 200, count: 16 * 16 * 4)))
    for offset in [CGPoint.zero, CGPoint(x: 26.5, y: 9.5)] {
      let root = LaminaTestSupport.root(80, 90)
      let container = CALayer()
      container.frame = CGRect(x: offset.x, y: offset.y, width: 53, height: 19)
      container.isGeometryFlipped = true
      container.transform = CATransform3DMakeScale(0.93, 0.93, 1)
      let layer = CALayer()
      layer.frame = CGRect(x: 10, y: 16, width: 7, height: 23)
      layer.transform = CATransform3DMakeRotation(0.45, 0, 0, 1)
      layer.masksToBounds = true
      layer.contents = image
      layer.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
      container.addSublayer(layer)
      root.addSublayer(container)
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      let items = builder.build(root: root, background: nil).allItems
      XCTAssertGreaterThan(items.count, 1, "pieces")
      XCTAssertTrue(items.allSatisfy { $0.clip == nil }, "at \(offset): a piece took the clip")
    }
  }

  /// A translucent layer's group (two overlapping backgrounds) inside a
  /// turned layer that clips to its bounds, drawing exactly its bounds:
  /// the group lies in the clip and is composited without it (through it,
  /// the clip would antialias the backgrounds' edge a second time); a
  /// sublayer reaching past the bounds makes the group take the clip.
  func testAGroupWithinTheClipIsNotClipped() throws {
    func groups(reachingPast: Bool) -> [GroupPass] {
      let root = LaminaTestSupport.root(80, 70)
      let clipping = CALayer()
      clipping.frame = CGRect(x: 30, y: 20, width: 10, height: 30)
      clipping.masksToBounds = true
      clipping.transform = CATransform3DMakeRotation(3, 0, 0, 1)
      let faded = CALayer()
      faded.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
      faded.opacity = 0.81
      faded.backgroundColor = CGColor(red: 0, green: 0.25, blue: 0.4, alpha: 0.33)
      let inner = CALayer()
      inner.frame = CGRect(x: 0, y: 10, width: reachingPast ? 16 : 6, height: 9)
      inner.backgroundColor = CGColor(red: 0.1, green: 0.5, blue: 0.15, alpha: 1)
      faded.addSublayer(inner)
      clipping.addSublayer(faded)
      root.addSublayer(clipping)
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      return builder.build(root: root, background: nil).commands.compactMap {
        if case .group(let group) = $0 { return group }
        return nil
      }
    }
    let within = groups(reachingPast: false)
    XCTAssertEqual(within.count, 1)
    XCTAssertNil(within.first?.clip, "within the clip: composited without it")
    let past = groups(reachingPast: true)
    XCTAssertEqual(past.count, 1)
    XCTAssertNotNil(past.first?.clip, "past the bounds: clipped")
  }
}
