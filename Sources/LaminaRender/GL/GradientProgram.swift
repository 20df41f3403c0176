import CGLES3
import Foundation

/// The gradient programs and their uniforms. One program per kind and stop
/// count, compiled on first use: llvmpipe evaluates every side of a branch,
/// so a kind's program carries only its own math, and a constant stop count
/// unrolls the stop loop (see Shaders/gradient.glsl). Each gradient's stops
/// are set per draw (uniform arrays), so consecutive items batch only when
/// they share a gradient.
final class GradientProgram {
  private struct Variant {
    let program: GLProgram
    let parameters: GLint, count: GLint, colors: GLint, locations: GLint
  }

  private struct Key: Hashable {
    var kind: GradientPaint.Kind
    var stops: Int
  }

  private let device: GLDevice
  private var variants: [Key: Variant] = [:]

  init(device: GLDevice) { self.device = device }

  private static func file(_ kind: GradientPaint.Kind) -> String {
    switch kind {
    case .axial: return "gradient_axial.frag.glsl"
    case .radial: return "gradient_radial.frag.glsl"
    case .conic: return "gradient_conic.frag.glsl"
    }
  }

  private func variant(_ key: Key) throws -> Variant {
    if let variant = variants[key] { return variant }
    let name = Self.file(key.kind)
    var source = try ShaderLibrary.source(name)
    // The define goes right after the #version line, which must come first.
    let firstLine = source.firstIndex(of: "\n") ?? source.endIndex
    source.insert(contentsOf: "\n#define STOP_COUNT \(key.stops)", at: firstLine)
    let program = try GLProgram(
      vertex: "quad.vert.glsl", fragmentSource: source, name: "\(name) (\(key.stops) stops)",
      device: device)
    let variant = Variant(
      program: program, parameters: program.uniform("u_params"), count: program.uniform("u_count"),
      colors: program.uniform("u_colors"), locations: program.uniform("u_locations"))
    variants[key] = variant
    return variant
  }

  /// The program of a kind with `stops` stops.
  func program(kind: GradientPaint.Kind, stops: Int) throws -> GLProgram {
    try variant(Key(kind: kind, stops: stops)).program
  }

  /// Sets `paint`'s uniforms on its program (which must be in use).
  func set(_ paint: GradientPaint) throws {
    let n = min(paint.colors.count, GradientPaint.maxStops)
    let v = try variant(Key(kind: paint.kind, stops: n))
    device.setUniform(v.parameters, paint.parameters)
    device.setUniform(v.count, int: n)
    device.setUniform(v.colors, vec4Array: Array(paint.colors.prefix(n)))
    device.setUniform(v.locations, floatArray: Array(paint.locations.prefix(n)))
  }
}
