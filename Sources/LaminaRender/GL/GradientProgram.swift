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

  private var variants: [Key: Variant] = [:]

  private static func file(_ kind: GradientPaint.Kind) -> String {
    switch kind {
    case .axial: return "gradient_axial.frag.glsl"
    case .radial: return "gradient_radial.frag.glsl"
    case .conic: return "gradient_conic.frag.glsl"
    }
  }

  private func variant(_ paint: GradientPaint) throws -> Variant {
    let key = Key(kind: paint.kind, stops: min(paint.colors.count, GradientPaint.maxStops))
    if let variant = variants[key] { return variant }
    let name = Self.file(key.kind)
    var source = try ShaderLibrary.source(name)
    // The define goes right after the #version line, which must come first.
    let firstLine = source.firstIndex(of: "\n") ?? source.endIndex
    source.insert(contentsOf: "\n#define STOP_COUNT \(key.stops)", at: firstLine)
    let program = try GLProgram(
      vertex: "quad.vert.glsl", fragmentSource: source, name: "\(name) (\(key.stops) stops)")
    let location = { (uniform: String) -> GLint in glGetUniformLocation(program.id, uniform) }
    let variant = Variant(
      program: program, parameters: location("u_params"), count: location("u_count"),
      colors: location("u_colors"), locations: location("u_locations"))
    variants[key] = variant
    return variant
  }

  /// The program that draws `paint`.
  func program(_ paint: GradientPaint) throws -> GLProgram { try variant(paint).program }

  /// Sets `paint`'s uniforms on its program (which must be in use).
  func set(_ paint: GradientPaint) throws {
    let v = try variant(paint)
    let p = paint.parameters
    glUniform4f(v.parameters, p.x, p.y, p.z, p.w)
    let n = min(paint.colors.count, GradientPaint.maxStops)
    glUniform1i(v.count, GLint(n))
    paint.colors.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: Float.self, capacity: n * 4) {
        glUniform4fv(v.colors, GLsizei(n), $0)
      }
    }
    glUniform1fv(v.locations, GLsizei(n), paint.locations)
  }
}
