import Foundation
import Lamina
import LaminaFrame

/// The effect shader (`effect.frag`, `masked.frag`) specialized per
/// combination of what an item needs (`EffectVariant`), compiled the first
/// time it is met. On llvmpipe a branch whose condition differs across a
/// block of pixels runs both ways, so one shader with every feature behind
/// `if`s would make every rounded corner pay for shadows and clips;
/// variants pay only for their own work.
final class EffectPrograms {
  private let device: any GPUDevice
  /// Whether the GPU has KHR_blend_equation_advanced (else no blend variants).
  private let advanced: Bool
  private var programs: [EffectVariant: GPUProgram] = [:]

  init(device: any GPUDevice, advanced: Bool) {
    self.device = device
    self.advanced = advanced
  }

  func program(_ wanted: EffectVariant) throws -> GPUProgram {
    var variant = wanted
    if !advanced { variant.blend = false }
    if let program = programs[variant] { return program }
    var defines: [String] = []
    if variant.clip { defines.append("CLIP") }
    if variant.blend { defines.append("BLEND_ADVANCED") }
    let program: GPUProgram
    if variant.masked {
      let modes: [CALayerMaskMode: Int] = [
        .alpha: 0, .alphaInverted: 1, .luminance: 2, .luminanceInverted: 3,
      ]
      defines.append("MASK_MODE \(modes[variant.maskMode] ?? 0)")
      program = try GPUProgram(
        vertex: "effect.vert.glsl", fragment: "masked.frag.glsl", defines: defines, device: device)
    } else {
      defines.append("SHAPE_MODE \(variant.shapeMode)")
      if let kind = variant.gradient {
        defines += ["GRADIENT", GradientProgram.define(kind)]
        if variant.gradientCorners { defines.append("GRADIENT_AT_CORNERS") }
      } else if variant.textured {
        defines.append("TEXTURED")
      }
      program = try GPUProgram(
        vertex: "effect.vert.glsl", fragment: "effect.frag.glsl", defines: defines, device: device)
    }
    programs[variant] = program
    return program
  }
}
