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

/// A linked program and the uniform locations the renderer sets.
package final class GLProgram {
  package let id: GLuint
  let viewport: GLint
  /// `u_canvasOrigin` (the target's corner in canvas pixels), or -1.
  let canvasOrigin: GLint
  private let device: GLDevice
  private var locations: [String: GLint] = [:]

  /// Compiles and links `vertex` with `fragment` (file names in `Shaders/`),
  /// the fragment shader specialized by `defines` (`NAME` or `NAME VALUE`,
  /// inserted after its `#version` line).
  convenience init(vertex: String, fragment: String, defines: [String] = [], device: GLDevice)
    throws
  {
    var source = try ShaderLibrary.source(fragment)
    if !defines.isEmpty, let end = source.firstIndex(of: "\n") {
      source.insert(
        contentsOf: "\n" + defines.map { "#define " + $0 }.joined(separator: "\n"), at: end)
    }
    let name = defines.isEmpty ? fragment : fragment + " [" + defines.joined(separator: ", ") + "]"
    try self.init(vertex: vertex, fragmentSource: source, name: name, device: device)
  }

  /// Compiles and links `vertex` (a file name) with a fragment shader's
  /// source (a variant of a file, named `name` in errors).
  init(vertex: String, fragmentSource: String, name fragment: String, device: GLDevice) throws {
    self.device = device
    id = try device.makeProgram(
      vertex: try ShaderLibrary.source(vertex), fragment: fragmentSource,
      name: "\(vertex) + \(fragment)")
    viewport = device.uniformLocation(id, "u_viewport")
    canvasOrigin = device.uniformLocation(id, "u_canvasOrigin")
  }

  /// The location of a uniform (looked up once).
  package func uniform(_ name: String) -> GLint {
    if let location = locations[name] { return location }
    let location = device.uniformLocation(id, name)
    locations[name] = location
    return location
  }

  deinit { device.deleteProgram(id) }
}

/// The programs a frame uses, compiled once per renderer.
package struct ProgramSet {
  let solid: GLProgram
  let image: GLProgram
  let gradient: GradientProgram
  /// Offscreen passes of blurred shadows.
  let downsample: GLProgram
  /// Scales a downsampled target back to full size (large filter blurs).
  let upsample: GLProgram
  let blur: GLProgram
  let shadow: GLProgram
  /// A color filter over a whole offscreen target.
  let colorMatrix: GLProgram
  /// Variants of `solid` and `image` that declare the advanced blend
  /// equations (nil where the GPU lacks KHR_blend_equation_advanced; the
  /// gradient and effect programs have theirs too).
  package let solidBlend: GLProgram?, imageBlend: GLProgram?
  /// Blend modes computed in a shader from a copy of the backdrop, where
  /// the equations are missing (or turned off).
  let blendFallback: GLProgram
  /// Shows the retained canvas in a window buffer (`lamina show`).
  package let present: GLProgram
  /// Effect shader variants, compiled as items need them.
  let effects: EffectPrograms

  init(device: GLDevice) throws {
    func make(_ vertex: String, _ fragment: String, _ defines: [String] = []) throws -> GLProgram {
      try GLProgram(vertex: vertex, fragment: fragment, defines: defines, device: device)
    }
    solid = try make("quad.vert.glsl", "solid.frag.glsl")
    image = try make("quad.vert.glsl", "image.frag.glsl")
    let advanced = device.supports("GL_KHR_blend_equation_advanced")
    gradient = GradientProgram(device: device, advanced: advanced)
    downsample = try make("fullscreen.vert.glsl", "downsample.frag.glsl")
    upsample = try make("fullscreen.vert.glsl", "upsample.frag.glsl")
    blur = try make("fullscreen.vert.glsl", "blur.frag.glsl")
    shadow = try make("quad.vert.glsl", "shadow.frag.glsl")
    colorMatrix = try make("fullscreen.vert.glsl", "colormatrix.frag.glsl")
    blendFallback = try make("fullscreen.vert.glsl", "blend.frag.glsl")
    present = try make("fullscreen.vert.glsl", "present.frag.glsl")
    effects = EffectPrograms(device: device, advanced: advanced)
    solidBlend = advanced ? try make("quad.vert.glsl", "solid.frag.glsl", ["BLEND_ADVANCED"]) : nil
    imageBlend = advanced ? try make("quad.vert.glsl", "image.frag.glsl", ["BLEND_ADVANCED"]) : nil
  }

  /// The program a batch of the plan names.
  func program(_ key: ProgramKey) throws -> GLProgram {
    switch key {
    case .solid: return solid
    case .image: return image
    case .shadow: return shadow
    case .solidBlend: return solidBlend ?? solid
    case .imageBlend: return imageBlend ?? image
    case .gradient(let kind, let blend): return try gradient.program(kind: kind, blend: blend)
    case .effect(let variant): return try effects.program(variant)
    case .path:
      // Path batches draw with `PathPrograms` (`PlanExecutor+Paths.swift`).
      throw RendererError.missingShader(name: "path_*.glsl in the program set")
    }
  }
}

/// Compiles shaders on the shared context, for tests and diagnostics.
public enum ShaderProgramCheck {
  public enum Kind { case vertex, fragment }

  /// Compiles and links two embedded shaders, then deletes the program.
  public static func compile(vertex: String, fragment: String) throws {
    let device = try GPUContext.shared().device
    _ = try GLProgram(vertex: vertex, fragment: fragment, device: device)
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
