import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Frames redrawn only where the damage says, over the previous image,
/// against full redraws of the same frames.
final class PartialRedrawTests: XCTestCase {
  /// A gradient backdrop, a blurred group, a blended layer, and one small
  /// rounded card with a blurred shadow that moves.
  func scene() -> (root: CALayer, card: CALayer) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 240, height: 160)
    root.position = CGPoint(x: 120, y: 80)
    let gradient = CAGradientLayer()
    gradient.frame = root.bounds
    gradient.colors = [
      CGColor(red: 0.1, green: 0.2, blue: 0.5, alpha: 1),
      CGColor(red: 0.9, green: 0.8, blue: 0.6, alpha: 1),
    ]
    gradient.endPoint = CGPoint(x: 1, y: 1)
    root.addSublayer(gradient)
    let blurred = CALayer()
    blurred.frame = CGRect(x: 150, y: 20, width: 60, height: 40)
    blurred.backgroundColor = CGColor(red: 0.8, green: 0.2, blue: 0.2, alpha: 1)
    blurred.filters = [CIFilter(name: "CIGaussianBlur")!]
    blurred.filters.map { ($0[0] as! CIFilter).setValue(3, forKey: "inputRadius") }
    root.addSublayer(blurred)
    let blended = CALayer()
    blended.frame = CGRect(x: 140, y: 90, width: 70, height: 50)
    blended.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
    blended.compositingFilter = "CIMultiplyBlendMode"
    root.addSublayer(blended)
    let card = CALayer()
    card.frame = CGRect(x: 20, y: 30, width: 40, height: 30)
    card.backgroundColor = .white
    card.cornerRadius = 8
    card.shadowOpacity = 0.6
    card.shadowRadius = 4
    card.shadowOffset = CGSize(width: 0, height: 3)
    root.addSublayer(card)
    return (root, card)
  }

  func frame(_ root: CALayer) -> DrawList {
    var builder = FrameBuilder(size: CGSize(width: 240, height: 160), scale: 1)
    return builder.build(root: root, background: .white)
  }

  func testPartialFramesAreIdenticalToFullRedraws() throws {
    try checkPartialFrames(blendEquations: true)
  }

  /// The blend-mode shader copies the backdrop with the scissor lifted.
  func testPartialFramesWithTheBlendShaderAreIdenticalToFullRedraws() throws {
    try checkPartialFrames(blendEquations: false)
  }

  func checkPartialFrames(blendEquations: Bool) throws {
    let renderer = try RenderTestSupport.renderer()
    let saved = renderer.usesBlendEquations
    renderer.usesBlendEquations = blendEquations
    defer { renderer.usesBlendEquations = saved }
    let (root, card) = scene()
    var previousFrame = frame(root)
    var image = try renderer.render(previousFrame)
    // The card moves by fractions of a pixel and across the blended layer.
    for step in 1...6 {
      card.position = CGPoint(x: 40 + 17.3 * Double(step), y: 45 + 9.6 * Double(step))
      let next = frame(root)
      let damage = Damage(from: previousFrame, to: next)
      XCTAssertFalse(damage.isEmpty)
      XCTAssertLessThan(damage.area, 240 * 160 / 4, "step \(step)")
      image = try renderer.render(next, updating: image, damage: damage)
      let full = try renderer.render(next)
      let c = ImageComparison(
        actual: image.premultipliedPixels, expected: full.premultipliedPixels, threshold: 0)
      XCTAssertEqual(c.pixelsOff, 0, "step \(step): max difference \(c.maxChannelDifference)")
      previousFrame = next
    }
  }

  func testTheDamageOfAMovedShadowedCardIsItsOldAndNewReach() throws {
    let (root, card) = scene()
    let before = frame(root)
    card.position.x += 100
    let damage = Damage(from: before, to: frame(root))
    // Card (20…60 × 30…60) and its shadow: blurred by 3σ = 12 points around
    // the card moved 3 points down; each side one more pixel of
    // antialiasing. Old and new are disjoint: two rects.
    XCTAssertEqual(damage.rects.count, 2)
    let old = damage.rects.min { $0.x < $1.x }!
    XCTAssertLessThanOrEqual(old.x, 20 - 12)
    XCTAssertLessThanOrEqual(old.y, 30 - 12 + 3)
    XCTAssertGreaterThanOrEqual(old.x + old.width, 60 + 12)
    XCTAssertGreaterThanOrEqual(old.y + old.height, 60 + 12 + 3)
    XCTAssertLessThanOrEqual(old.width, 40 + 2 * 12 + 4)
  }

  func testAnUnchangedFrameDrawsNothing() throws {
    let renderer = try RenderTestSupport.renderer()
    let (root, _) = scene()
    let f = frame(root)
    let image = try renderer.render(f)
    let again = try renderer.render(
      frame(root), updating: image, damage: Damage(from: f, to: frame(root)))
    XCTAssertEqual(again, image)
  }
}
