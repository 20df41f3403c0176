import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaPlan
@testable import LaminaRender

/// Frames drawn from the kept canvas prefix give the bytes of frames drawn
/// whole (`FramePlanner+Prefix.swift`).
final class CanvasPrefixRenderTests: XCTestCase {
  func testFramesFromThePrefixAreTheFramesDrawnWhole() throws {
    let json = """
      { "lamina": 1, "canvas": { "width": 90, "height": 60, "background": "#204060" },
        "root": { "sublayers": [
          { "class": "CAGradientLayer", "frame": [-3.5, 2, 97, 50], "type": "radial",
            "colors": ["#ff8000c0", "#0040ff80"] },
          { "frame": [10.25, 8, 30, 30], "backgroundColor": "#ffffff80", "cornerRadius": 6,
            "transform.rotation.z": 0.3 },
          { "class": "CAShapeLayer", "frame": [40, 10, 40, 40], "fillColor": "#30c05080",
            "path": "M 2 2 L 38 5 L 20 36 Z",
            "animations": [ { "keyPath": "position.x", "fromValue": 50, "toValue": 70, "duration": 1 } ] }
        ] } }
      """
    let scene = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "prefix.json")
    var copies = 0
    func frames(prefix: Bool) throws -> [RenderedImage] {
      let renderer = try Renderer()
      renderer.canvasPrefix = prefix
      renderer.planObserver = { plan in
        for case .copy(let copy) in plan.steps where copy.label.hasPrefix("canvas prefix") {
          copies += 1
        }
      }
      var builder = FrameBuilder(
        size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
        scale: scene.canvas.scale, caches: renderer.caches)
      let tree = PresentationTree(root: scene.root)
      var images: [RenderedImage] = []
      for i in 0..<4 {
        let t = Double(i) / 4
        builder.time = t
        images.append(
          try renderer.render(
            builder.build(root: tree.update(time: t), background: scene.canvas.background)))
      }
      return images
    }
    let kept = try frames(prefix: true)
    // Frames 2, 3 and 4 copy the gradient and the rounded square.
    XCTAssertEqual(copies, 3)
    let whole = try frames(prefix: false)
    XCTAssertEqual(copies, 3, "none with the prefix off")
    for (i, (a, b)) in zip(kept, whole).enumerated() {
      XCTAssertEqual(a.premultipliedPixels, b.premultipliedPixels, "frame \(i)")
    }
  }
}
