import Foundation
import Lamina
import LaminaTestSupport
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
      let root = LaminaTestSupport.root(100, 100)
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

/// Background filters inside a layer's group opacity.
final class BackdropOpacityTests: XCTestCase {
  /// A translucent layer whose one sublayer has background filters is an
  /// isolated group, as with two sublayers: the filters read the group's
  /// own (transparent) backdrop, not the canvas the opacity would have let
  /// them read had it been folded into the sublayer.
  func testALoneLayerWithBackgroundFiltersIsIsolatedByItsParentsOpacity() throws {
    let root = LaminaTestSupport.root(90, 70)
    root.backgroundColor = CGColor(red: 0.5, green: 0.9, blue: 0.3, alpha: 1)
    let faded = CALayer()
    faded.frame = root.bounds
    faded.opacity = 0.5
    let filtered = CALayer()
    filtered.frame = CGRect(x: 10, y: 30, width: 30, height: 10)
    filtered.backgroundFilters = [try XCTUnwrap(CIFilter(name: "CISepiaTone"))]
    faded.addSublayer(filtered)
    root.addSublayer(faded)
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    let commands = builder.build(root: root, background: nil).commands
    let groups = commands.compactMap { command -> GroupPass? in
      if case .group(let group) = command { return group }
      return nil
    }
    XCTAssertEqual(groups.count, 1)
    XCTAssertEqual(groups.first?.opacity, 0.5, "the opacity composites the group")
    XCTAssertFalse(groups.first?.backdrop ?? true, "not the backdrop group itself")
    XCTAssertTrue(
      groups.first?.commands.contains {
        if case .group(let inner) = $0 { return inner.backdrop }
        return false
      } ?? false, "the backdrop group inside it")
  }
}
