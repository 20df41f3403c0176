import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// `filters` on a layer's whole rendering, checked against hand-computed colors.
final class FilterTests: XCTestCase {
  func render(_ filter: CIFilter, color: CGColor, background: CGColor = .white) throws -> (
    UInt8, UInt8, UInt8, UInt8
  ) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
    root.position = CGPoint(x: 20, y: 20)
    let layer = CALayer()
    layer.frame = CGRect(x: 5, y: 5, width: 30, height: 30)
    layer.backgroundColor = color
    layer.filters = [filter]
    root.addSublayer(layer)
    let image = try RenderTestSupport.renderer().render(
      layer: root, size: root.bounds.size, background: background)
    return image.pixel(20, 20)
  }

  func filter(_ name: String, _ inputs: [String: Any] = [:]) -> CIFilter {
    let f = CIFilter(name: name)!
    for (k, v) in inputs { f.setValue(v, forKey: k) }
    return f
  }

  func assertColor(
    _ p: (UInt8, UInt8, UInt8, UInt8), _ r: Double, _ g: Double, _ b: Double, line: UInt = #line
  ) {
    XCTAssertEqual(Double(p.0), r * 255, accuracy: 1.5, "red", line: line)
    XCTAssertEqual(Double(p.1), g * 255, accuracy: 1.5, "green", line: line)
    XCTAssertEqual(Double(p.2), b * 255, accuracy: 1.5, "blue", line: line)
  }

  func testColorInvert() throws {
    let p = try render(
      filter("CIColorInvert"), color: CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1))
    assertColor(p, 0.8, 0.6, 0.4)
  }

  func testSaturationZeroGivesRec709Luma() throws {
    let p = try render(
      filter("CIColorControls", ["inputSaturation": 0.0]),
      color: CGColor(red: 1, green: 0, blue: 0, alpha: 1))
    assertColor(p, 0.2126, 0.2126, 0.2126)
  }

  func testBrightnessAndContrast() throws {
    // c·(x + b − 0.5) + 0.5 with x = 0.5, b = 0.1, c = 2 → 0.7.
    let p = try render(
      filter("CIColorControls", ["inputBrightness": 0.1, "inputContrast": 2.0]),
      color: CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1))
    assertColor(p, 0.7, 0.7, 0.7)
  }

  func testSepiaOnWhite() throws {
    let p = try render(filter("CISepiaTone"), color: .white)
    assertColor(p, 1, 1, 0.937)
  }

  func testHueRotationByAFullTurnIsIdentity() throws {
    let p = try render(
      filter("CIHueAdjust", ["inputAngle": 2 * Double.pi]),
      color: CGColor(red: 0.8, green: 0.3, blue: 0.1, alpha: 1))
    assertColor(p, 0.8, 0.3, 0.1)
  }

  func testColorMatrixSwapsChannelsOnStraightColor() throws {
    // Red and blue swapped, alpha halved, on a half-transparent green-blue:
    // straight (0, 0.5, 1, 0.5) → (1, 0.5, 0, 0.25), over black.
    let p = try render(
      filter(
        "CIColorMatrix",
        [
          "inputRVector": CIVector(x: 0, y: 0, z: 1, w: 0),
          "inputBVector": CIVector(x: 1, y: 0, z: 0, w: 0),
          "inputAVector": CIVector(x: 0, y: 0, z: 0, w: 0.5),
        ]), color: CGColor(red: 0, green: 0.5, blue: 1, alpha: 0.5), background: .black)
    assertColor(p, 0.25, 0.125, 0)
  }

  func testBlurSpillsBeyondTheBoundsAndConservesColor() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
    root.position = CGPoint(x: 40, y: 40)
    let layer = CALayer()
    layer.frame = CGRect(x: 25, y: 25, width: 30, height: 30)
    layer.backgroundColor = .black
    layer.filters = [filter("CIGaussianBlur", ["inputRadius": 4.0])]
    root.addSublayer(layer)
    let renderer = try RenderTestSupport.renderer()
    let image = try renderer.render(layer: root, size: root.bounds.size)
    // At the edge, half covered: erf symmetric → alpha 0.5.
    XCTAssertEqual(
      Double(image.pixel(24, 40).a) / 255, 0.5 - 0.5 * erf(0.5 / (4 * 2.0.squareRoot())),
      accuracy: 0.02)
    // Outside the bounds the blur still reaches.
    XCTAssertGreaterThan(image.pixel(20, 40).a, 20)
    XCTAssertEqual(image.pixel(40, 40).a, 255)
    // σ = 4 px is above 3 texels a sigma: blurred at half size.
    XCTAssertEqual(
      renderer.counters.offscreenPasses, 5,
      "the rendering, a downsample, two blur passes, the upsample")
  }

  func testBackgroundFiltersFilterOnlyWhatIsBehindInsideTheBounds() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 80, height: 40)
    root.position = CGPoint(x: 40, y: 20)
    let red = CALayer()
    red.frame = CGRect(x: 0, y: 0, width: 80, height: 40)
    red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    let glass = CALayer()
    glass.frame = CGRect(x: 40, y: 0, width: 40, height: 40)
    glass.backgroundFilters = [filter("CIColorControls", ["inputSaturation": 0.0])]
    root.addSublayer(red)
    root.addSublayer(glass)
    let renderer = try RenderTestSupport.renderer()
    let image = try renderer.render(layer: root, size: root.bounds.size)
    // Outside the glass the red stays; behind it, it turns to its luma.
    XCTAssertEqual(image.pixel(20, 20).r, 255)
    assertColor(image.pixel(60, 20), 0.2126, 0.2126, 0.2126)
    XCTAssertEqual(renderer.counters.offscreenPasses, 2, "the capture and one color pass")
  }

  /// A scene with one blurred, tinted square; `filters` and `animations`
  /// are spliced in as JSON.
  func filterScene(filters: String, animations: String = "[]", time: Double) throws
    -> RenderedImage
  {
    let json = """
      {"lamina": 1, "canvas": {"width": 60, "height": 60, "background": "#ffffff"},
       "root": {"sublayers": [{"frame": [15, 15, 30, 30], "backgroundColor": "#2050c0",
         "filters": \(filters), "animations": \(animations)}]}}
      """
    let loaded = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "f.json")
    var builder = FrameBuilder(size: CGSize(width: 60, height: 60), scale: 1)
    builder.time = time
    let root = PresentationTree(root: loaded.root).update(time: time)
    return try RenderTestSupport.renderer().render(
      builder.build(root: root, background: loaded.canvas.background))
  }

  func testFilterInputsAnimateByKeyPath() throws {
    let filters = """
      [{"name": "CIGaussianBlur", "inputRadius": 0}, {"name": "CIColorMatrix"}]
      """
    let animations = """
      [{"keyPath": "filters.CIGaussianBlur.inputRadius", "fromValue": 0, "toValue": 12,
        "duration": 2, "timingFunction": "linear"},
       {"keyPath": "filters.CIColorMatrix.inputAVector", "fromValue": [0, 0, 0, 1],
        "toValue": [0, 0, 0, 0], "duration": 2, "timingFunction": "linear"}]
      """
    let animated = try filterScene(filters: filters, animations: animations, time: 0.5)
    let still = try filterScene(
      filters: """
        [{"name": "CIGaussianBlur", "inputRadius": 3},
         {"name": "CIColorMatrix", "inputAVector": [0, 0, 0, 0.75]}]
        """, time: 0)
    // Halfway through the first half: radius 3 and alpha 0.75, exactly as
    // the same values set without animation.
    XCTAssertEqual(animated, still)
    let start = try filterScene(filters: filters, animations: animations, time: 0)
    XCTAssertNotEqual(animated, start)
    // At time 0 the square is sharp and opaque: its edge goes from the
    // layer's color to white within a pixel.
    XCTAssertEqual(start.pixel(15, 30).2, 0xc0)
    XCTAssertEqual(start.pixel(14, 30).0, 0xff)
  }

  func testUnknownFilterInputKeyPathIsAnError() {
    XCTAssertThrowsError(
      try filterScene(
        filters: #"[{"name": "CIGaussianBlur"}]"#,
        animations: #"[{"keyPath": "filters.CIGaussianBlur.inputSize", "toValue": 1}]"#,
        time: 0)
    ) { error in
      XCTAssertTrue("\(error)".contains("filters.CIGaussianBlur.inputSize"), "\(error)")
    }
  }

  /// A color matrix with an alpha bias fills the area the filter runs
  /// over, so that area is laid out in points as the layer is: the shape's
  /// box rounded out to whole points, the same at every scale, and not its
  /// bounds grown by an antialiasing reach in pixels (4 points at scale 1,
  /// 2 at scale 2; metamorphic finding
  /// alpha-bias-filter-area-in-pixels-at-scale-2, scale-2 seed 996550).
  func testAlphaBiasFillsTheAreaTheGeometryCoversAtEveryScale() throws {
    // The path's bounding box is x 3.3 to 14.5, y 25.2 to 35.5 (points).
    let path = try CGPath.parseSVG("M 14.5 30.5 L 3.3 25.2 L 9 35.5 Z")
    for scale in [1, 2] as [CGFloat] {
      let root = CALayer()
      root.bounds = CGRect(x: 0, y: 0, width: 40, height: 48)
      root.position = CGPoint(x: 20, y: 24)
      let shape = CAShapeLayer()
      shape.frame = root.bounds
      shape.path = path
      let bias = CIVector(x: 0, y: 0, z: 0, w: 0.2)
      shape.filters = [filter("CIColorMatrix", ["inputBiasVector": bias])]
      root.addSublayer(shape)
      let image = try RenderTestSupport.renderer().render(
        layer: root, size: root.bounds.size, scale: scale)
      var box = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
      for y in 0..<image.height {
        for x in 0..<image.width where image.pixel(x, y).a > 0 {
          box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x + 1), max(box.maxY, y + 1))
        }
      }
      // The geometry's box rounded out to whole points.
      let found = [box.minX, box.minY, box.maxX, box.maxY].map { CGFloat($0) / scale }
      XCTAssertEqual(found, [3, 25, 15, 36], "at scale \(scale)")
    }
  }
}
