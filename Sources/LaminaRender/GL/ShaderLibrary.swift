import CGLES3
import Foundation

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
struct GLProgram {
  let id: GLuint
  let viewport: GLint
  /// `u_canvasOrigin` (the target's corner in canvas pixels), or -1.
  let canvasOrigin: GLint

  /// Compiles and links `vertex` with `fragment` (file names in `Shaders/`),
  /// the fragment shader specialized by `defines` (`NAME` or `NAME VALUE`,
  /// inserted after its `#version` line).
  init(vertex: String, fragment: String, defines: [String] = []) throws {
    var source = try ShaderLibrary.source(fragment)
    if !defines.isEmpty, let end = source.firstIndex(of: "\n") {
      source.insert(
        contentsOf: "\n" + defines.map { "#define " + $0 }.joined(separator: "\n"), at: end)
    }
    let name = defines.isEmpty ? fragment : fragment + " [" + defines.joined(separator: ", ") + "]"
    try self.init(vertex: vertex, fragmentSource: source, name: name)
  }

  /// Compiles and links `vertex` (a file name) with a fragment shader's
  /// source (a variant of a file, named `name` in errors).
  init(vertex: String, fragmentSource: String, name fragment: String) throws {
    let vs = try Self.compile(vertex, GLenum(GL_VERTEX_SHADER))
    defer { glDeleteShader(vs) }
    let fs = try Self.compile(source: fragmentSource, name: fragment, GLenum(GL_FRAGMENT_SHADER))
    defer { glDeleteShader(fs) }
    let program = glCreateProgram()
    glAttachShader(program, vs)
    glAttachShader(program, fs)
    glLinkProgram(program)
    var ok: GLint = 0
    glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
    guard ok != 0 else {
      let log = Self.log(program, glGetProgramiv, glGetProgramInfoLog)
      glDeleteProgram(program)
      throw RendererError.shaderCompilation(name: "\(vertex) + \(fragment)", log: log)
    }
    id = program
    viewport = glGetUniformLocation(program, "u_viewport")
    canvasOrigin = glGetUniformLocation(program, "u_canvasOrigin")
    glUseProgram(program)
    let image = glGetUniformLocation(program, "s_image")
    if image >= 0 { glUniform1i(image, 0) }
    let mask = glGetUniformLocation(program, "s_mask")
    if mask >= 0 { glUniform1i(mask, 1) }
    glUseProgram(0)
  }

  /// The location of a uniform (for the few set per pass).
  func uniform(_ name: String) -> GLint { glGetUniformLocation(id, name) }

  static func compile(_ name: String, _ kind: GLenum) throws -> GLuint {
    try compile(source: ShaderLibrary.source(name), name: name, kind)
  }

  static func compile(source: String, name: String, _ kind: GLenum) throws -> GLuint {
    let shader = glCreateShader(kind)
    source.withCString { text in
      var pointer: UnsafePointer<GLchar>? = text
      glShaderSource(shader, 1, &pointer, nil)
    }
    glCompileShader(shader)
    var ok: GLint = 0
    glGetShaderiv(shader, GLenum(GL_COMPILE_STATUS), &ok)
    guard ok != 0 else {
      let log = Self.log(shader, glGetShaderiv, glGetShaderInfoLog)
      glDeleteShader(shader)
      throw RendererError.shaderCompilation(name: name, log: log)
    }
    return shader
  }

  static func log(
    _ object: GLuint,
    _ getiv: (GLuint, GLenum, UnsafeMutablePointer<GLint>?) -> Void,
    _ getLog: (GLuint, GLsizei, UnsafeMutablePointer<GLsizei>?, UnsafeMutablePointer<GLchar>?) ->
      Void
  ) -> String {
    var length: GLint = 0
    getiv(object, GLenum(GL_INFO_LOG_LENGTH), &length)
    guard length > 0 else { return "(no log)" }
    var buffer = [GLchar](repeating: 0, count: Int(length))
    getLog(object, length, nil, &buffer)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// The programs a frame uses, compiled once per context.
struct ProgramSet {
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
  /// equations (nil where the GPU lacks KHR_blend_equation_advanced).
  let solidBlend: GLProgram?, imageBlend: GLProgram?
  /// Blend modes computed in a shader from a copy of the backdrop, where
  /// the equations are missing (or turned off).
  let blendFallback: GLProgram
  /// Shows the retained canvas in a window buffer (`lamina show`).
  let present: GLProgram

  /// The blend-mode variant of `program` (nil when there is none).
  func blendVariant(of program: GLProgram) -> GLProgram? {
    if program.id == solid.id { return solidBlend }
    if program.id == image.id { return imageBlend }
    return nil
  }

  init() throws {
    solid = try GLProgram(vertex: "quad.vert.glsl", fragment: "solid.frag.glsl")
    image = try GLProgram(vertex: "quad.vert.glsl", fragment: "image.frag.glsl")
    gradient = GradientProgram()
    downsample = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "downsample.frag.glsl")
    upsample = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "upsample.frag.glsl")
    blur = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "blur.frag.glsl")
    shadow = try GLProgram(vertex: "quad.vert.glsl", fragment: "shadow.frag.glsl")
    colorMatrix = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "colormatrix.frag.glsl")
    blendFallback = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "blend.frag.glsl")
    present = try GLProgram(vertex: "fullscreen.vert.glsl", fragment: "present.frag.glsl")
    let advanced = glExtensionList().contains("GL_KHR_blend_equation_advanced")
    solidBlend =
      advanced
      ? try GLProgram(
        vertex: "quad.vert.glsl", fragment: "solid.frag.glsl", defines: ["BLEND_ADVANCED"])
      : nil
    imageBlend =
      advanced
      ? try GLProgram(
        vertex: "quad.vert.glsl", fragment: "image.frag.glsl", defines: ["BLEND_ADVANCED"])
      : nil
  }
}

/// Compiles shaders on the current context, for tests and diagnostics.
public enum ShaderProgramCheck {
  public enum Kind { case vertex, fragment }

  /// Compiles and links two embedded shaders, then deletes the program.
  public static func compile(vertex: String, fragment: String) throws {
    let program = try GLProgram(vertex: vertex, fragment: fragment)
    glDeleteProgram(program.id)
  }

  /// Compiles one shader from source (named `<source>` in errors).
  public static func compile(source: String, kind: Kind) throws {
    let shader = try GLProgram.compile(
      source: source, name: "<source>",
      GLenum(kind == .vertex ? GL_VERTEX_SHADER : GL_FRAGMENT_SHADER))
    glDeleteShader(shader)
  }
}
