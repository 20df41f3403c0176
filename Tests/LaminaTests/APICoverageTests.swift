import Lamina
import XCTest

/// Members docs/api-coverage.md lists as present that Lamina added for
/// ports: each does what Core Animation's or Core Graphics' does.
final class APICoverageTests: XCTestCase {
  func testAutoresizingAndLayoutManagers() {
    let parent = CALayer()
    parent.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    let stretchy = CALayer()
    stretchy.frame = CGRect(x: 10, y: 10, width: 80, height: 20)
    stretchy.autoresizingMask = [.layerWidthSizable]
    let pinned = CALayer()
    pinned.frame = CGRect(x: 70, y: 70, width: 20, height: 20)
    pinned.autoresizingMask = [.layerMinXMargin, .layerMinYMargin]
    let still = CALayer()
    still.frame = CGRect(x: 0, y: 0, width: 5, height: 5)
    parent.sublayers = [stretchy, pinned, still]
    parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 150)
    XCTAssertEqual(stretchy.frame, CGRect(x: 10, y: 10, width: 180, height: 20))
    XCTAssertEqual(pinned.frame, CGRect(x: 170, y: 120, width: 20, height: 20))
    XCTAssertEqual(still.frame, CGRect(x: 0, y: 0, width: 5, height: 5))

    final class Column: CALayoutManager {
      var invalidated = 0
      func invalidateLayout(of layer: CALayer) { invalidated += 1 }
      func layoutSublayers(of layer: CALayer) {
        var y: CGFloat = 0
        for sublayer in layer.sublayers ?? [] {
          sublayer.frame = CGRect(x: 0, y: y, width: layer.bounds.width, height: 10)
          y += 10
        }
      }
      func preferredSize(of layer: CALayer) -> CGSize {
        CGSize(width: 50, height: CGFloat(layer.sublayers?.count ?? 0) * 10)
      }
    }
    let column = Column()
    let stack = CALayer()
    stack.layoutManager = column
    stack.bounds = CGRect(x: 0, y: 0, width: 50, height: 100)
    stack.addSublayer(CALayer())
    stack.addSublayer(CALayer())
    stack.layoutIfNeeded()
    XCTAssertEqual(stack.sublayers?[1].frame, CGRect(x: 0, y: 10, width: 50, height: 10))
    XCTAssertEqual(stack.preferredFrameSize(), CGSize(width: 50, height: 20))
    XCTAssertGreaterThan(column.invalidated, 0)
  }

  func testOrderInActionRunsWhenALiveLayerIsAdded() {
    CAMediaClock.source = { 10 }
    defer { CAMediaClock.source = nil }
    let parent = CALayer()
    let child = CALayer()
    let fadeIn = CABasicAnimation(keyPath: "opacity")
    fadeIn.fromValue = 0
    fadeIn.toValue = 1
    child.actions = [kCAOnOrderIn: fadeIn]
    CATransaction.flush()
    parent.addSublayer(child)
    XCTAssertEqual((child.animation(forKey: kCAOnOrderIn) as? CABasicAnimation)?.keyPath, "opacity")
    CATransaction.flush()
  }

  func testSpringsByPerceptualDurationAndBounce() {
    let spring = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.3)
    XCTAssertEqual(spring.mass, 1)
    XCTAssertEqual(spring.perceptualDuration, 0.5, accuracy: 1e-9)
    XCTAssertEqual(spring.bounce, 0.3, accuracy: 1e-9)
    XCTAssertEqual(spring.duration, spring.settlingDuration)
    let slow = CASpringAnimation(perceptualDuration: 1, bounce: -0.5)
    XCTAssertEqual(slow.bounce, -0.5, accuracy: 1e-9)
    XCTAssertEqual(CAAnimationRotationMode.rotateAuto, .auto)
    XCTAssertTrue(CAFrameRateRange.default.isEqual(to: .default))
    CATransaction.lock()
    CATransaction.unlock()
  }

  func testColorsImagesAndAffineComponents() throws {
    XCTAssertEqual(
      CGColor(srgbRed: 1, green: 0.5, blue: 0, alpha: 1),
      CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
    var gray: [CGFloat] = [0.25, 1]
    XCTAssertEqual(
      CGColor(colorSpace: CGColorSpaceCreateDeviceGray(), components: &gray),
      CGColor(gray: 0.25, alpha: 1))
    let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    XCTAssertEqual(
      red.converted(to: CGColorSpaceCreateDeviceGray(), intent: .defaultIntent, options: nil)?
        .red ?? 0, 0.2126, accuracy: 1e-9)
    XCTAssertEqual(CGColorSpaceCreateDeviceRGB().numberOfComponents, 3)

    let image = try XCTUnwrap(
      CGImage(width: 2, height: 2, rgba: [1, 1, 1, 255, 2, 2, 2, 255, 3, 3, 3, 255, 4, 4, 4, 255]))
    let corner = try XCTUnwrap(image.cropping(to: CGRect(x: 1, y: 1, width: 5, height: 5)))
    XCTAssertEqual(corner.width, 1)
    XCTAssertEqual(corner.pixels, [4, 4, 4, 255])
    XCTAssertNil(image.cropping(to: CGRect(x: 5, y: 5, width: 1, height: 1)))
    XCTAssertEqual(image.alphaInfo, .last)

    let t = CGAffineTransform(scaleX: 2, y: 3).concatenating(CGAffineTransform(rotationAngle: 0.5))
      .concatenating(CGAffineTransform(translationX: 7, y: -1))
    let parts = t.decomposed()
    XCTAssertEqual(parts.scale.width, 2, accuracy: 1e-9)
    XCTAssertEqual(parts.scale.height, 3, accuracy: 1e-9)
    XCTAssertEqual(parts.rotation, 0.5, accuracy: 1e-9)
    XCTAssertEqual(parts.horizontalShear, 0, accuracy: 1e-9)
    XCTAssertEqual(parts.translation, CGVector(dx: 7, dy: -1))
    let sheared = CGAffineTransformComponents(
      scale: CGSize(width: 1.5, height: 0.5), horizontalShear: 0.3, rotation: -1,
      translation: CGVector(dx: 1, dy: 2))
    let back = CGAffineTransform(sheared).decomposed()
    XCTAssertEqual(back.horizontalShear, 0.3, accuracy: 1e-9)
    XCTAssertEqual(back.rotation, -1, accuracy: 1e-9)
    XCTAssertEqual(back.scale.height, 0.5, accuracy: 1e-9)
  }

  func testHintsAreKeptAndCopied() {
    let layer = CALayer()
    layer.wantsExtendedDynamicRangeContent = true
    layer.preferredDynamicRange = .high
    layer.drawsAsynchronously = true
    layer.contentsFormat = .RGBA16Float
    XCTAssertTrue(layer.shouldArchiveValue(forKey: "bounds"))
    let copy = PresentationTree(root: layer).update(time: 0)
    XCTAssertEqual(copy.preferredDynamicRange, .high)
    XCTAssertTrue(copy.drawsAsynchronously)
    XCTAssertEqual(copy.contentsFormat, .RGBA16Float)
    let scroller = CAScrollLayer()
    scroller.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
    scroller.scroll(to: CGRect(x: 100, y: 0, width: 10, height: 10))
    XCTAssertEqual(scroller.bounds.origin.x, 60)
  }
}
