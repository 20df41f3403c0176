import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// A masked layer whose overlap with its mask is a small part of it (a
/// full-canvas layer under a dot of a mask) renders the overlap alone,
/// with the same pixels.
final class MaskOverlapTests: XCTestCase {
  /// Over a dark background, a layer of `size` points (a translucent fill
  /// and a bordered square in it) whose mask is a circle of 24 points at
  /// the same place of the canvas, whatever the layer's size.
  func scene(size: CGFloat, inverted: Bool = false) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 200, height: 160)
    root.position = CGPoint(x: 100, y: 80)
    root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
    let content = CALayer()
    content.frame = CGRect(x: 110 - size / 2, y: 70 - size / 2, width: size, height: size)
    content.backgroundColor = CGColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 0.8)
    let square = CALayer()
    square.frame = CGRect(x: size / 2 - 8, y: size / 2 - 6, width: 14, height: 14)
    square.backgroundColor = CGColor(red: 0.2, green: 0.8, blue: 0.9, alpha: 1)
    square.borderWidth = 1.5
    square.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    content.addSublayer(square)
    let mask = CAShapeLayer()
    mask.frame = content.bounds
    mask.path = CGPath(
      ellipseIn: CGRect(x: size / 2 - 12, y: size / 2 - 12, width: 24, height: 24), transform: nil)
    mask.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
    content.mask = mask
    if inverted { content.maskMode = .alphaInverted }
    root.addSublayer(content)
    return root
  }

  func frame(_ root: CALayer) -> DrawList {
    Renderer.commit(root)
    var builder = FrameBuilder(size: root.bounds.size, scale: 2)
    return builder.build(root: PresentationTree(root: root).update(time: 0), background: nil)
  }

  /// The masked group of `frame`.
  func maskedGroup(_ frame: DrawList) -> GroupPass? {
    for case .group(let group) in frame.commands where group.mask != nil { return group }
    return nil
  }

  func testALargeLayerUnderASmallMaskRendersTheOverlapWithTheSamePixels() throws {
    let large = scene(size: 400)
    let small = scene(size: 40)
    let group = try XCTUnwrap(maskedGroup(frame(large)))
    // The circle (48 pixels at scale 2) and its antialiasing, not the
    // layer's 400 points (800 pixels, clipped to the 400 × 320 canvas).
    XCTAssertLessThanOrEqual(group.bounds.width, 60)
    XCTAssertLessThanOrEqual(group.bounds.height, 60)
    XCTAssertGreaterThanOrEqual(group.bounds.width, 48)
    // A layer of 40 points covers more than a quarter of its overlap: whole.
    let whole = try XCTUnwrap(maskedGroup(frame(small)))
    XCTAssertGreaterThan(whole.bounds.width, 80)
    for pathMasks in [true, false] {
      let renderer = try Renderer()
      renderer.pathMasks = pathMasks
      let a = try renderer.render(frame(large))
      let other = try Renderer()
      other.pathMasks = pathMasks
      let b = try other.render(frame(small))
      // The offscreen mask's composite samples two targets whose origins
      // differ between the two (the overlap's, the small layer's): a level
      // at some pixels (known-failures.txt, the group-extent class).
      let comparison = ImageComparison(actual: a.straightPixels, expected: b.straightPixels, threshold: 1)
      XCTAssertEqual(comparison.pixelsOff, 0, "path masks \(pathMasks): \(comparison.summary)")
      let bare = scene(size: 400)
      bare.sublayers?[0].isHidden = true
      let background = ImageComparison(
        actual: a.straightPixels, expected: try Renderer().render(frame(bare)).straightPixels,
        threshold: 2)
      XCTAssertGreaterThan(background.pixelsOff, 1000)
    }
  }

  /// An inverted mask lets through everything outside it: the whole layer.
  func testAnInvertedMaskKeepsTheWholeLayer() throws {
    let group = try XCTUnwrap(maskedGroup(frame(scene(size: 400, inverted: true))))
    XCTAssertGreaterThanOrEqual(group.bounds.width, 400)
  }
}
