import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// Blend modes drawn by the shader that stands in where the GPU lacks
/// KHR_blend_equation_advanced, against the equations themselves (which
/// llvmpipe has) and the reference renderer.
final class BlendFallbackTests: XCTestCase {
  func render(_ scene: String, equations: Bool) throws -> RenderedImage {
    let renderer = try RenderTestSupport.renderer()
    let saved = renderer.usesBlendEquations
    renderer.usesBlendEquations = equations
    defer { renderer.usesBlendEquations = saved }
    return try RenderTestSupport.render(RenderTestSupport.fixtures.appendingPathComponent(scene))
  }

  func testAllFifteenModesMatchTheBlendEquations() throws {
    let renderer = try RenderTestSupport.renderer()
    guard renderer.usesBlendEquations else {
      throw XCTSkip("this GPU has no KHR_blend_equation_advanced to compare with")
    }
    let withEquations = try render("reftests/blend_modes_all.json", equations: true)
    let counters = renderer.counters
    let withShader = try render("reftests/blend_modes_all.json", equations: false)
    // One backdrop copy per blended layer (15), and one offscreen rendering
    // per single blended layer (8) that the equations draw directly.
    XCTAssertEqual(renderer.counters.offscreenPasses, counters.offscreenPasses + 15 + 8)
    let c = ImageComparison(
      actual: withShader.premultipliedPixels, expected: withEquations.premultipliedPixels,
      threshold: 2)
    XCTAssertEqual(c.pixelsOff, 0, "max difference \(c.maxChannelDifference)")
    XCTAssertNotEqual(withEquations, try render("reftests/blend_modes_none.json", equations: true))
  }

  func testSeparableModesMatchTheReferenceWithoutEquations() throws {
    let image = try render("reference/scenes/blend_modes_separable.json", equations: false)
    try RenderTestSupport.assertMatches(
      image, golden: "reference/expected/blend_modes_separable.png",
      tolerance: .reference(maxFractionOff: 0.01, minPSNR: 35))
  }
}
