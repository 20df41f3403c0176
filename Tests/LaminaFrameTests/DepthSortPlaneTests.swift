import Foundation
import Lamina
import XCTest

@testable import LaminaFrame

/// Which sublayers of a `CATransformLayer` are planes of its depth sort.
final class DepthSortTests: XCTestCase {
  /// A turned layer crossed by another turned the other way: the two
  /// planes cut each other (more pieces than planes). An empty replicator
  /// (or an empty layer) in the second one's place draws nothing, is no
  /// plane, and leaves the first one whole: one plane, one piece, no cut.
  func testLayersThatDrawNothingSplitNoPlane() {
    func frame(crossedBy crossing: CALayer) -> DrawList {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
      root.position = CGPoint(x: 50, y: 50)
      var perspective = CATransform3DIdentity
      perspective.m34 = -1.0 / 400
      let context = CATransformLayer()
      context.frame = root.bounds
      context.sublayerTransform = perspective
      let card = CALayer()
      card.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
      card.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
      card.transform = CATransform3DMakeRotation(0.6, 0, 1, 0)
      crossing.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
      crossing.transform = CATransform3DMakeRotation(-0.6, 0, 1, 0)
      context.addSublayer(card)
      context.addSublayer(crossing)
      root.addSublayer(context)
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      return builder.build(root: root, background: nil)
    }
    let drawing = CALayer()
    drawing.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let cut = frame(crossedBy: drawing)
    XCTAssertEqual(cut.stats.sortedPlanes, 2)
    XCTAssertGreaterThan(cut.stats.sortedPieces, 2, "two drawing planes cut each other")
    for empty in [CAReplicatorLayer(), CALayer()] {
      let whole = frame(crossedBy: empty)
      XCTAssertEqual(whole.stats.sortedPlanes, 1, "\(type(of: empty))")
      XCTAssertEqual(whole.stats.sortedPieces, 1, "\(type(of: empty))")
      XCTAssertEqual(whole.allItems.count, 1)
      XCTAssertTrue(whole.allItems.allSatisfy { $0.clipPlanes.isEmpty }, "not cut")
    }
  }
}
