import Foundation
import LaminaFrame

/// The gradient programs (`gradient.frag`): one per kind, and per kind a
/// variant that declares the advanced blend equations (compositingFilter),
/// compiled on first use. llvmpipe evaluates every side of a branch, so a
/// kind's program carries only its own math. The stops are a ramp texture
/// (`TextureCache.ramp`), so one program serves every stop count.
final class GradientProgram {
  private struct Key: Hashable {
    var kind: GradientPaint.Kind
    var blend: Bool
    var corners: Bool
  }

  private let device: any GPUDevice
  /// Whether the GPU has KHR_blend_equation_advanced (else no blend variant).
  private let advanced: Bool
  private var programs: [Key: GPUProgram] = [:]

  init(device: any GPUDevice, advanced: Bool) {
    self.device = device
    self.advanced = advanced
  }

  /// The define that selects `kind` in gradient.glsl.
  static func define(_ kind: GradientPaint.Kind) -> String {
    switch kind {
    case .axial: return "GRADIENT_AXIAL"
    case .radial: return "GRADIENT_RADIAL"
    case .conic: return "GRADIENT_CONIC"
    case .focal: return "GRADIENT_FOCAL"
    }
  }

  /// The program of a kind (declaring the blend equations when `blend`;
  /// taking the color at pixel corners when `corners`, a variant of its
  /// own, since llvmpipe would pay the shift on every gradient's pixels).
  func program(kind: GradientPaint.Kind, blend: Bool, corners: Bool = false) throws -> GPUProgram {
    let key = Key(kind: kind, blend: blend && advanced, corners: corners)
    if let program = programs[key] { return program }
    var defines = [Self.define(kind)]
    if key.blend { defines.append("BLEND_ADVANCED") }
    if corners { defines.append("GRADIENT_AT_CORNERS") }
    let program = try GPUProgram(
      vertex: "quad.vert.glsl", fragment: "gradient.frag.glsl", defines: defines, device: device)
    programs[key] = program
    return program
  }

  /// Sets `paint`'s uniforms on `program`, which must be the one in use
  /// (a gradient program, or an effect program's gradient variant), and
  /// binds its ramp (on unit 0, with `sampler`).
  static func set(
    _ paint: GradientPaint, on program: GPUProgram, ramp: GPUHandle, sampler: GPUHandle,
    device: any GPUDevice
  ) throws {
    guard device.program == program.id else {
      throw RendererError.deviceStateMismatch(
        during: "setting gradient uniforms",
        differences: ["program \(program.id) is not in use (\(device.program ?? 0) is)"])
    }
    let (scale, offset) = rampMapping(paint)
    device.setUniform(program.uniform("u_params"), paint.parameters)
    // Half a pixel left and up in the target (gradient.glsl turns it to the framebuffer's axes).
    if paint.atPixelCorners { device.setUniform(program.uniform("u_sampleShift"), -0.5, -0.5) }
    if paint.kind == .focal { device.setUniform(program.uniform("u_focal"), paint.focal.x, paint.focal.y) }
    device.setUniform(program.uniform("u_ramp"), scale, offset)
    device.bindTexture(ramp, unit: 0, sampler: sampler)
  }

  /// `u_ramp`: where a position t along the gradient lands on its ramp
  /// texture (u = t · scale + offset puts the span's ends on the centers
  /// of the first and last texels).
  static func rampMapping(_ paint: GradientPaint) -> (scale: Float, offset: Float) {
    let (lower, upper) = paint.span
    let n = Float(GradientPaint.rampWidth)
    // u = ((t − lower) / (upper − lower) · (n − 1) + 0.5) / n.
    let scale = (n - 1) / (n * (upper - lower))
    return (scale, 0.5 / n - lower * scale)
  }
}
