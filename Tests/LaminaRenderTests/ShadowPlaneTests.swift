import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Shadows under a perspective are cast in the layer's plane (the pixels:
/// `shadow_plane_*` in reftest.list); here, that a turning layer renders its
/// plane shadow once.
final class ShadowPlaneTests: XCTestCase {
  func testATurningLayerRendersItsPlaneShadowOnce() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
    root.position = CGPoint(x: 100, y: 80)
    var perspective = CATransform3DIdentity
    perspective.m34 = -1 / 400
    root.sublayerTransform = perspective
    let card = CALayer()
    card.bounds = CGRect(x: 0, y: 0, width: 100, height: 70)
    card.position = CGPoint(x: 100, y: 80)
    // An image casts its shadow from its rendering (the offscreen path).
    card.contents = CGImage(
      width: 2, height: 2, rgba: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 0, 255])
    card.shadowOpacity = 0.8
    card.shadowRadius = 5
    card.shadowOffset = CGSize(width: 0, height: 12)
    root.addSublayer(card)
    let renderer = try RenderTestSupport.renderer()
    card.transform = CATransform3DMakeRotation(0.4, 1, 0, 0)
    let first = try renderer.render(layer: root, size: root.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.rasterizations, 1, "the plane shadow, rendered")
    card.transform = CATransform3DMakeRotation(0.6, 1, 0, 0)
    let second = try renderer.render(layer: root, size: root.bounds.size, background: .white)
    XCTAssertEqual(renderer.counters.rasterizations, 0, "the same plane shadow, reused")
    XCTAssertNotEqual(first.premultipliedPixels, second.premultipliedPixels)
    // The shadow lies below the card, darker than the white background.
    let below = second.pixel(100, 80 + 40)
    XCTAssertLessThan(below.r, 200)
  }
}
