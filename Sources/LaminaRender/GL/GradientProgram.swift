import CGLES3
import Foundation

/// The gradient program and its uniforms: each gradient's stops are set per
/// draw (uniform arrays), so consecutive items batch only when they share a
/// gradient.
struct GradientProgram {
  let program: GLProgram
  private let kind: GLint, points: GLint, count: GLint, colors: GLint, locations: GLint

  init() throws {
    let program = try GLProgram(vertex: "quad.vert.glsl", fragment: "gradient.frag.glsl")
    self.program = program
    let location = { (name: String) -> GLint in glGetUniformLocation(program.id, name) }
    kind = location("u_kind")
    points = location("u_points")
    count = location("u_count")
    colors = location("u_colors")
    locations = location("u_locations")
  }

  /// Sets `paint`'s uniforms on the program (which must be in use).
  func set(_ paint: GradientPaint) {
    glUniform1i(kind, GLint(paint.kind.rawValue))
    glUniform4f(points, paint.points.x, paint.points.y, paint.points.z, paint.points.w)
    let n = min(paint.colors.count, GradientPaint.maxStops)
    glUniform1i(count, GLint(n))
    paint.colors.withUnsafeBufferPointer { buffer in
      buffer.baseAddress!.withMemoryRebound(to: Float.self, capacity: n * 4) {
        glUniform4fv(colors, GLsizei(n), $0)
      }
    }
    glUniform1fv(locations, GLsizei(n), paint.locations)
  }
}
