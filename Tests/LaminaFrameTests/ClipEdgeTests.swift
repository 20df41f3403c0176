import Foundation
import Lamina
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
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 80, height: 90)
      root.position = CGPoint(x: 40, y: 45)
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
}
