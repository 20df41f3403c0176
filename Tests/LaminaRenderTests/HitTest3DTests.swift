import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// Hit testing in 3D agrees with what is drawn: at every sampled point of
/// the two-cube scene, the layer `hitTest` returns is the face whose color
/// the rendering shows there.
final class HitTest3DTests: XCTestCase {
  func testHitTestFindsTheVisibleFaceOfEachCube() throws {
    let url = RenderTestSupport.fixtures.appendingPathComponent("reftests/depth_two_cubes.json")
    let scene = try SceneLoader.load(contentsOf: url)
    let image = try RenderTestSupport.render(url)
    let faces: [String: (UInt8, UInt8, UInt8)] = [
      "front": (0xd0, 0x30, 0x30), "back": (0x30, 0xa0, 0x30), "right": (0x30, 0x50, 0xd0),
      "left": (0xd0, 0xa0, 0x20), "top": (0xa0, 0x40, 0xc0), "bottom": (0x20, 0xa0, 0xa0),
    ]
    var checked = 0
    for y in stride(from: 2, to: image.height, by: 3) {
      for x in stride(from: 2, to: image.width, by: 3) {
        let p = image.pixel(x, y)
        // Only pixels well inside a face (antialiased edges are ambiguous).
        guard
          let face = faces.first(where: {
            abs(Int($0.value.0) - Int(p.r)) < 3
              && abs(Int($0.value.1) - Int(p.g)) < 3 && abs(Int($0.value.2) - Int(p.b)) < 3
          })?.key
        else { continue }
        let point = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
        let hit = scene.root.hitTest(point)
        XCTAssertEqual(hit?.name, face, "at \(point)")
        if hit?.name != face { return }
        checked += 1
      }
    }
    XCTAssertGreaterThan(checked, 300)
    // Outside the cubes, the hit is the stage layer behind them.
    XCTAssertEqual(scene.root.hitTest(CGPoint(x: 5, y: 5))?.name, "stage")
  }

  func testPointBehindTheEyeHitsNothing() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
    root.position = CGPoint(x: 100, y: 100)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1.0 / 100
    root.sublayerTransform = perspective
    let floor = CALayer()
    floor.bounds = CGRect(x: 0, y: 0, width: 100, height: 1000)
    floor.anchorPoint = CGPoint(x: 0.5, y: 1)
    floor.position = CGPoint(x: 100, y: 190)
    // Tilted toward the viewer: its far end passes behind the eye.
    floor.transform = CATransform3DMakeRotation(-1.2, 1, 0, 0)
    floor.name = "floor"
    root.addSublayer(floor)
    // Near its anchor the floor is in front of the eye (and, tilted toward
    // the viewer below the center, it runs down the screen).
    XCTAssertEqual(root.hitTest(CGPoint(x: 100, y: 195))?.name, "floor")
    // A point of the floor 900 points up is 838 points toward the viewer,
    // past the eye at 100: projected, it lands on the screen as a ghost.
    let toRoot = floor.transformToSuperlayer.concatenating(root.transformForSublayers)
    let q = toRoot.apply(50, 100)
    XCTAssertLessThan(q.w, 0)
    let ghost = CGPoint(x: q.x / q.w, y: q.y / q.w)
    let hit = root.hitTest(ghost)
    XCTAssertFalse(hit === floor, "a point behind the eye was hit at \(ghost)")
  }

  func testBackFacingSingleSidedLayerIsNotHit() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    root.position = CGPoint(x: 50, y: 50)
    let card = CALayer()
    card.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
    card.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
    card.name = "card"
    root.addSublayer(card)
    XCTAssertEqual(root.hitTest(CGPoint(x: 50, y: 50))?.name, "card")
    card.isDoubleSided = false
    XCTAssertTrue(root.hitTest(CGPoint(x: 50, y: 50)) === root)
  }
}
