import Foundation
import Lamina
import LaminaLottie
@testable import LaminaRender
import LaminaScene
import LaminaTestSupport
import XCTest

/// The animation as a player shows it (`LottieAnimation+Scenes.swift`):
/// fitted into another size (`lamina bench --size`) and looped over its
/// frames (`lamina show`). The fixture is 200x100 points, frames 10..70 at
/// 30 fps (2 s); a red layer and an animation added here stand for what
/// the importer makes, so these hold whatever the importer draws.
final class LottieSceneTests: XCTestCase {
  func animation() throws -> LottieAnimation {
    try LottieAnimation(
      contentsOf: LottieTestSupport.fixtures.appendingPathComponent("lottie/timing.json"))
  }

  func render(_ scene: Scene, at time: Double = 0) throws -> RenderedImage {
    let tree = PresentationTree(root: scene.root)
    var builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height), scale: 1)
    return try LottieTestSupport.renderer().render(
      builder.build(root: tree.update(time: time), background: nil))
  }

  func testFittedIntoAnotherSizeAspectKeptAndCentred() throws {
    for (width, height, scale, x, y) in [
      (400, 400, 2.0, 0.0, 100.0), (100, 400, 0.5, 0.0, 175.0), (500, 100, 1.0, 150.0, 0.0),
    ] {
      let lottie = try animation()
      let red = CALayer()
      red.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
      red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
      lottie.rootLayer.addSublayer(red)
      let fitted = lottie.makeScene(fittingWidth: width, height: height)
      XCTAssertEqual(fitted.scale, scale)
      XCTAssertEqual(fitted.x, x)
      XCTAssertEqual(fitted.y, y)
      XCTAssertEqual(
        [fitted.scene.canvas.pixelWidth, fitted.scene.canvas.pixelHeight], [width, height])
      let image = try render(fitted.scene)
      let inside = (Int(x + 100 * scale), Int(y + 50 * scale))
      XCTAssertEqual(image.pixel(inside.0, inside.1).r, 255, "\(width)x\(height)")
      XCTAssertEqual(image.pixel(inside.0, inside.1).a, 255, "\(width)x\(height)")
      // Outside the fitted rectangle (above, left): transparent.
      if y > 1 { XCTAssertEqual(image.pixel(width / 2, Int(y) - 2).a, 0, "\(width)x\(height)") }
      if x > 1 { XCTAssertEqual(image.pixel(Int(x) - 2, height / 2).a, 0, "\(width)x\(height)") }
      // Its last row and column are drawn.
      XCTAssertEqual(image.pixel(Int(x + 200 * scale) - 1, Int(y + 100 * scale) - 1).a, 255)
    }
  }

  func testLoopingSceneRepeatsTheFramesInPointToOutPoint() throws {
    let lottie = try animation()
    XCTAssertEqual(lottie.duration, 2)
    let fade = CABasicAnimation(keyPath: "opacity")
    fade.fromValue = 0
    fade.toValue = 1
    fade.duration = lottie.duration
    // The root's own time is the document's (its timeOffset is ip / fr):
    // the fade starts at the in-point, where each loop starts.
    fade.beginTime = lottie.inPoint / lottie.frameRate
    fade.isRemovedOnCompletion = false
    lottie.rootLayer.add(fade, forKey: "fade")
    let scene = lottie.makeLoopingScene()
    let tree = PresentationTree(root: scene.root)
    func opacity(_ t: Double) -> Float { tree.update(time: t).sublayers?.first?.opacity ?? -1 }
    for (time, expected) in [
      (0.5, 0.25), (2.5, 0.25), (4.5, 0.25), (1.5, 0.75), (201.5, 0.75), (2, 0), (4, 0),
    ] as [(Double, Float)] {
      XCTAssertEqual(opacity(time), expected, accuracy: 1e-4, "t=\(time)")
    }
    XCTAssertNil(scene.root.settledTime(), "a loop never settles: show keeps drawing it")
  }
}
