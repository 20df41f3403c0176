import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// The GLSL sources of `Shaders/`, embedded at build time by the
/// EmbedShaders plugin (so the binary needs no files beside it).
public enum ShaderLibrary {
  /// File name → source, for every `Shaders/*.glsl`.
  public static var sources: [String: String] { EmbeddedShaders.sources }

  /// The vertex shader that a fragment shader is linked with.
  public static func vertexShader(forFragment name: String) -> String {
    switch name {
    case "effect.frag.glsl", "masked.frag.glsl": return "effect.vert.glsl"
    case "blur.frag.glsl", "downsample.frag.glsl": return "fullscreen.vert.glsl"
    case "path_fill.frag.glsl": return "path_fill.vert.glsl"
    case "path_stroke.frag.glsl": return "path_stroke.vert.glsl"
    default: return "quad.vert.glsl"
    }
  }

  /// The source of `name` with its `#include "file.glsl"` lines replaced by
  /// those files (one level deep: included files include nothing).
  public static func source(_ name: String) throws -> String {
    guard let text = EmbeddedShaders.sources[name] else {
      throw RendererError.missingShader(name: name)
    }
    guard text.contains("#include") else { return text }
    var lines: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("#include") {
        let parts = trimmed.split(separator: "\"")
        guard parts.count >= 2, let included = EmbeddedShaders.sources[String(parts[1])] else {
          throw RendererError.missingShader(name: parts.count >= 2 ? String(parts[1]) : trimmed)
        }
        lines.append(included)
      } else {
        lines.append(String(line))
      }
    }
    return lines.joined(separator: "\n")
  }
}

/// Compiles shaders on the shared context, for tests and diagnostics.
public enum ShaderProgramCheck {
  public enum Kind { case vertex, fragment }

  /// Compiles and links two embedded shaders, then deletes the program.
  public static func compile(vertex: String, fragment: String) throws {
    let device = try GPUContext.shared().device
    _ = try GPUProgram(vertex: vertex, fragment: fragment, device: device)
  }

  /// Compiles one shader from source (named `<source>` in errors).
  public static func compile(source: String, kind: Kind) throws {
    let device = try GPUContext.shared().device
    let shader = try device.compileShader(
      source: source, name: "<source>",
      GLenum(kind == .vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
    device.deleteShader(shader)
  }
}
