import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// CATransition: the layer's old appearance turning into its new one.
final class TransitionTests: XCTestCase {
  func render(
    _ type: CATransitionType, subtype: CATransitionSubtype? = nil,
    fillMode: CAMediaTimingFillMode = .removed, at times: [Double]
  ) throws -> [RenderedImage] {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
    root.position = CGPoint(x: 50, y: 20)
    let page = CALayer()
    page.frame = CGRect(x: 0, y: 0, width: 100, height: 40)
    page.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    root.addSublayer(page)
    let tree = PresentationTree(root: root)
    _ = tree.update(time: 0)  // shown red
    page.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let transition = CATransition()
    transition.type = type
    transition.subtype = subtype
    transition.beginTime = 1
    transition.duration = 1
    transition.timingFunction = CAMediaTimingFunction(name: .linear)
    transition.fillMode = fillMode
    page.add(transition, forKey: kCATransition)
    return try times.map { time in
      var builder = FrameBuilder(size: root.bounds.size, scale: 1)
      let frame = builder.build(root: tree.update(time: time), background: .white)
      return try RenderTestSupport.renderer().render(frame)
    }
  }

  func testPushFromRightHalfway() throws {
    let image = try render(.push, subtype: .fromRight, at: [1.5])[0]
    // The old red page has moved half out to the left, the blue one half in.
    XCTAssertEqual(image.pixel(20, 20).r, 255)
    XCTAssertEqual(image.pixel(20, 20).b, 0)
    XCTAssertEqual(image.pixel(80, 20).b, 255)
    XCTAssertEqual(image.pixel(80, 20).r, 0)
  }

  func testMoveInFromLeftKeepsTheOldPageInPlace() throws {
    let image = try render(.moveIn, subtype: .fromLeft, at: [1.25])[0]
    // The new page covers the first quarter, coming in from the left.
    XCTAssertEqual(image.pixel(10, 20).b, 255)
    XCTAssertEqual(image.pixel(60, 20).r, 255)
  }

  func testRevealUncoversTheNewPage() throws {
    let image = try render(.reveal, subtype: .fromRight, at: [1.75])[0]
    // The old page slid three quarters out to the left, uncovering blue.
    XCTAssertEqual(image.pixel(10, 20).r, 255)
    XCTAssertEqual(image.pixel(60, 20).b, 255)
  }

  func testFadeBeforeDuringAndAfter() throws {
    let images = try render(.fade, at: [0.5, 1.5, 3])
    // Before it begins (no backward fill) the new model shows; halfway,
    // half of each; after it ends (removed on completion), the new one.
    XCTAssertEqual(images[0].pixel(50, 20).b, 255)
    XCTAssertEqual(Int(images[1].pixel(50, 20).r), 128, accuracy: 2)
    XCTAssertEqual(Int(images[1].pixel(50, 20).b), 128, accuracy: 2)
    XCTAssertEqual(images[2].pixel(50, 20).b, 255)
    XCTAssertEqual(images[2].pixel(50, 20).r, 0)
  }

  func testBackwardFillShowsTheOldAppearanceBeforeTheStart() throws {
    let image = try render(.fade, fillMode: .backwards, at: [0.5])[0]
    XCTAssertEqual(image.pixel(50, 20).r, 255)
    XCTAssertEqual(image.pixel(50, 20).b, 0)
  }
}
