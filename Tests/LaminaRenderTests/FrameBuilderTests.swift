import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// DrawList building without a GPU: matrices, order, culling, opacity groups.
final class FrameBuilderTests: XCTestCase {
  func build(_ root: CALayer, scale: CGFloat = 1) -> DrawList {
    var builder = FrameBuilder(size: root.bounds.size, scale: scale)
    return builder.build(root: root, background: .white)
  }

  func project(_ item: DrawItem, _ x: CGFloat, _ y: CGFloat) -> CGPoint {
    let p = item.matrix.apply(x, y)
    return CGPoint(x: p.x / p.w, y: p.y / p.w)
  }

  func testMatrixOfRotatedLayerAboutItsAnchor() {
    let r = root(200, 100)
    let l = layer(CGRect(x: 0, y: 0, width: 40, height: 20))
    l.position = CGPoint(x: 100, y: 50)
    l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
    r.addSublayer(l)
    let item = build(r, scale: 2).allItems[0]
    // Bounds corner (0,0) is (-20,-10) from the anchor; a quarter turn
    // clockwise (y down) takes it to (10,-20); at (100,50), scale 2.
    let p = project(item, 0, 0)
    XCTAssertEqual(p.x, 220, accuracy: 1e-9)
    XCTAssertEqual(p.y, 60, accuracy: 1e-9)
    let q = project(item, 40, 20)
    XCTAssertEqual(q.x, 180, accuracy: 1e-9)
    XCTAssertEqual(q.y, 140, accuracy: 1e-9)
  }

  func testPerspectiveFromParentSublayerTransform() {
    let r = root(200, 200)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    r.sublayerTransform = perspective
    let page = layer(CGRect(x: 0, y: 0, width: 100, height: 100))
    page.anchorPoint = CGPoint(x: 0, y: 0.5)
    page.position = CGPoint(x: 100, y: 100)
    page.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
    r.addSublayer(page)
    let item = build(r).allItems[0]
    // The far edge: x' = 100·cos60 = 50, z = −100·sin60 = −86.60 relative to
    // the root's anchor (100,100); w = 1 + 86.60/500.
    let w = 1 + 100 * sin(CGFloat.pi / 3) / 500
    let far = project(item, 100, 0)
    XCTAssertEqual(far.x, 100 + 50 / w, accuracy: 1e-9)
    XCTAssertEqual(far.y, 100 - 50 / w, accuracy: 1e-9)
    let hinge = project(item, 0, 100)
    XCTAssertEqual(hinge.x, 100, accuracy: 1e-9)
    XCTAssertEqual(hinge.y, 150, accuracy: 1e-9)
  }

  func testFlatteningDropsDepthBetweenLevels() {
    // Two opposite rotations about y cancel for a CATransformLayer parent but
    // not for a flattening CALayer parent (the child stays squashed).
    for flattening in [true, false] {
      let r = root(200, 200)
      let outer: CALayer = flattening ? CALayer() : CATransformLayer()
      outer.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
      outer.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
      let inner = layer(CGRect(x: 20, y: 20, width: 60, height: 60))
      inner.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
      outer.addSublayer(inner)
      r.addSublayer(outer)
      let item = build(r).allItems.last!
      let left = project(item, 0, 30)
      let right = project(item, 60, 30)
      let width = right.x - left.x
      if flattening {
        XCTAssertEqual(width, 60 * cos(.pi / 4) * cos(.pi / 4), accuracy: 1e-9)
      } else {
        XCTAssertEqual(width, 60, accuracy: 1e-9)
      }
    }
  }

  func testZPositionOrderIsStable() {
    let r = root(100, 100)
    let names = ["a", "b", "c", "d"]
    let z: [CGFloat] = [1, 0, 1, -1]
    for (name, z) in zip(names, z) {
      let l = layer(CGRect(x: 0, y: 0, width: 10, height: 10), name: name)
      l.zPosition = z
      r.addSublayer(l)
    }
    XCTAssertEqual(build(r).allItems.map { $0.layerName ?? "" }, ["d", "b", "a", "c"])
  }

  func testHiddenTransparentAndOffCanvasLayersEmitNothing() {
    let r = root(100, 100)
    let hidden = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
    hidden.isHidden = true
    hidden.addSublayer(layer(CGRect(x: 0, y: 0, width: 5, height: 5)))
    let transparent = layer(CGRect(x: 0, y: 0, width: 10, height: 10))
    transparent.opacity = 0
    let offCanvas = layer(CGRect(x: 200, y: 0, width: 10, height: 10))
    let clear = layer(CGRect(x: 0, y: 0, width: 10, height: 10), nil)
    [hidden, transparent, offCanvas, clear].forEach(r.addSublayer)
    XCTAssertEqual(build(r).allItems.count, 0)
  }

  func testGroupOpacityNeedsAPassOnlyWhenOverlapping() {
    let r = root(200, 100)
    let disjoint = layer(CGRect(x: 0, y: 0, width: 100, height: 50), nil)
    disjoint.opacity = 0.5
    disjoint.addSublayer(layer(CGRect(x: 0, y: 0, width: 40, height: 40)))
    disjoint.addSublayer(layer(CGRect(x: 50, y: 0, width: 40, height: 40)))
    r.addSublayer(disjoint)
    var frame = build(r)
    XCTAssertEqual(frame.allGroups.count, 0)
    XCTAssertEqual(frame.allItems.map(\.color.w), [0.5, 0.5])

    let overlapping = layer(CGRect(x: 100, y: 0, width: 100, height: 50), .white)
    overlapping.opacity = 0.5
    overlapping.addSublayer(layer(CGRect(x: 10, y: 10, width: 20, height: 20)))
    r.addSublayer(overlapping)
    frame = build(r)
    XCTAssertEqual(frame.allGroups.count, 1)
    XCTAssertEqual(frame.allGroups.first?.opacity, 0.5)
    // The layer's pixels and the one-pixel reach of edge antialiasing, on the canvas.
    XCTAssertEqual(frame.allGroups.first?.bounds, PixelRect(x: 99, y: 0, width: 101, height: 51))
  }

  func testLayerBehindTheEyeIsClipped() {
    let r = root(200, 200)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 100
    r.sublayerTransform = perspective
    let l = layer(CGRect(x: 50, y: 50, width: 100, height: 100))
    // Brought 150 points toward the viewer: half of it beyond the eye at z = 100.
    l.transform = CATransform3DMakeRotation(.pi / 2 - 0.2, 1, 0, 0)
    l.zPosition = 60
    r.addSublayer(l)
    let items = build(r).allItems
    XCTAssertEqual(items.count, 1)
    for p in items[0].polygon {
      XCTAssertGreaterThan(items[0].matrix.apply(p.x, p.y).w, 0)
    }
    XCTAssertGreaterThan(items[0].polygon.count, 3 - 1)
  }

  func testBackFacingSingleSidedLayerIsCulled() {
    let r = root(100, 100)
    let l = layer(CGRect(x: 10, y: 10, width: 50, height: 50))
    l.isDoubleSided = false
    l.transform = CATransform3DMakeRotation(.pi * 0.9, 0, 1, 0)
    r.addSublayer(l)
    XCTAssertEqual(build(r).allItems.count, 0)
    l.isDoubleSided = true
    XCTAssertEqual(build(r).allItems.count, 1)
  }

  func testAnchorPointZMovesTheTurningAxisInsideATransformLayer() {
    // A 100-point card turned half a turn about y around an axis 50 points
    // in front of its plane (anchorPointZ = 50, zPosition = 50): its plane
    // goes from z = 0 to z = 100, seen through m34 = −1/500 at
    // 1/(1 − 100/500) = 1.25 times its size.
    let r = root(400, 300)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 500
    r.sublayerTransform = perspective
    let context = CATransformLayer()
    context.frame = r.bounds
    let card = layer(CGRect(x: 150, y: 100, width: 100, height: 100))
    card.anchorPointZ = 50
    card.zPosition = 50  // the anchor stays where the layer was
    card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
    context.addSublayer(card)
    r.addSublayer(context)
    let item = build(r).allItems[0]
    let left = project(item, 0, 50)
    let right = project(item, 100, 50)
    XCTAssertEqual(abs(right.x - left.x), 100 * 1.25, accuracy: 1e-6)
  }
}

/// `instanceDelay`: each instance shows its animated sublayers as they were
/// one more delay ago.
final class ReplicatorDelayTests: XCTestCase {
  func testInstancesLagBehindEachOther() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
    root.position = CGPoint(x: 100, y: 50)
    let replicator = CAReplicatorLayer()
    replicator.frame = root.bounds
    replicator.instanceCount = 3
    replicator.instanceDelay = 0.5
    replicator.instanceTransform = CATransform3DMakeTranslation(0, 20, 0)
    let dot = CALayer()
    dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    dot.anchorPoint = .zero
    dot.backgroundColor = .black
    let move = CABasicAnimation(keyPath: "position.x")
    move.fromValue = 0.0
    move.toValue = 100.0
    move.duration = 2
    move.timingFunction = CAMediaTimingFunction(name: .linear)
    move.fillMode = .both
    move.isRemovedOnCompletion = false
    dot.add(move, forKey: "move")
    replicator.addSublayer(dot)
    root.addSublayer(replicator)
    let presented = PresentationTree(root: root).update(time: 1)
    var builder = FrameBuilder(size: root.bounds.size, scale: 1)
    builder.time = 1
    let items = builder.build(root: presented, background: nil).allItems
    XCTAssertEqual(items.count, 3)
    let xs = items.map { item -> CGFloat in
      let p = item.matrix.apply(0, 0)
      return p.x / p.w
    }
    // At 1 s: instance 0 at 50, instance 1 as at 0.5 s (25), instance 2 as at 0 s.
    XCTAssertEqual(xs[0], 50, accuracy: 1e-6)
    XCTAssertEqual(xs[1], 25, accuracy: 1e-6)
    XCTAssertEqual(xs[2], 0, accuracy: 1e-6)
  }
}
