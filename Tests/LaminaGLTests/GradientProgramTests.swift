import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Gradient uniforms go only to the program in use: setting them while
/// another program is bound (an effect program once took a gradient's
/// uniforms at the wrong locations) is an error, not stale pixels.
final class GradientProgramTests: XCTestCase {
  func testUniformsOnlyGoToTheProgramInUse() throws {
    let device = try GPUContext.shared().device
    let programs = GradientProgram(device: device, advanced: false)
    let axial = try programs.program(kind: .axial, blend: false)
    let radial = try programs.program(kind: .radial, blend: false)
    let layer = CAGradientLayer()
    layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
    layer.colors = [CGColor.white, CGColor.black]
    let paint = try XCTUnwrap(GradientPaint(layer))
    device.useProgram(radial.id)
    XCTAssertThrowsError(
      try GradientProgram.set(paint, on: axial, ramp: 0, sampler: 0, device: device)
    ) { error in
      guard case RendererError.deviceStateMismatch = error else {
        return XCTFail("unexpected \(error)")
      }
    }
    device.useProgram(axial.id)
    XCTAssertNoThrow(
      try GradientProgram.set(paint, on: axial, ramp: 0, sampler: 0, device: device))
    try device.check("gradient uniforms")
    device.useProgram(0)
  }
}
