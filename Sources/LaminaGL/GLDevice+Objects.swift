import CEGL
import CGLES3
import Foundation
import Lamina
import LaminaFrame
import LaminaPlan

/// Creating, filling, copying and deleting GL objects. Deleting an object
/// that is bound unbinds it in GL; the cache follows.
extension GLDevice {
  /// Runs `body` (which deletes objects) with the device's own context
  /// current: objects are deleted from the context that made them, even
  /// when another renderer's context is current, as when that renderer is
  /// mid-frame and this one's cache lets go of something. The context that
  /// was current (or none) is current again after. Nothing runs when the context is
  /// gone or current on another thread: an object left undeleted is freed
  /// with its context, while a name deleted in the wrong context would
  /// delete another renderer's object.
  func onOwnContext(_ body: () -> Void) {
    guard let context else { return }
    let previous = eglGetCurrentContext()
    if previous == context.context {
      body()
      return
    }
    let display = eglGetCurrentDisplay()
    let draw = eglGetCurrentSurface(EGLint(EGL_DRAW))
    let read = eglGetCurrentSurface(EGLint(EGL_READ))
    guard context.makeCurrent() else { return }
    body()
    if let previous, let display {
      eglMakeCurrent(display, draw, read, previous)
    } else {
      // None was current, so none is after: a frame that lost its context
      // (made not current under it) must still find it not current at its
      // end, not silently current again halfway through.
      eglMakeCurrent(context.display, nil, nil, nil)
    }
  }

  // MARK: Textures

  /// A target's texture of `width`×`height`, without pixels: RGBA8 with
  /// immutable storage, or BGRA (`GL_EXT_texture_format_BGRA8888`, whose
  /// unsized format has mutable storage only) where `texelOrder` says so
  /// and the target is not multisampled.
  package func makeTexture(width: Int, height: Int, multisampled: Bool) -> GLuint {
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    bindTextureForEditing(texture)
    if texelOrder == .bgra && !multisampled {
      glTexImage2D(
        GLenum(GL_TEXTURE_2D), 0, Self.bgra, GLsizei(width), GLsizei(height), 0,
        GLenum(Self.bgra), GLenum(GL_UNSIGNED_BYTE), nil)
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0)
      bgraTextures.insert(texture)
    } else {
      glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
    }
    return texture
  }

  /// A texture holding `pixels` (premultiplied, in `order`, rows 4-byte
  /// aligned), in `texelOrder`; mipmapped when asked.
  package func uploadTexture(
    _ pixels: [UInt8], order: TexelOrder, width: Int, height: Int, mipmaps: Bool
  ) throws -> GLuint {
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    bindTextureForEditing(texture)
    setUnpackAlignment(4)
    let bgra = texelOrder == .bgra
    let texels = order == texelOrder ? pixels : TexelOrder.swapped(pixels)
    timed(\.uploads) {
      texels.withUnsafeBytes { raw in
        glTexImage2D(
          GLenum(GL_TEXTURE_2D), 0, bgra ? Self.bgra : GL_RGBA8, GLsizei(width), GLsizei(height), 0,
          GLenum(bgra ? Self.bgra : GL_RGBA), GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
      }
      if mipmaps { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
    }
    if bgra {
      // One level unless mipmapped: llvmpipe's linear rasterizer samples
      // only textures without further levels.
      if !mipmaps { glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 0) }
      bgraTextures.insert(texture)
    }
    counters.textureUploads += 1
    try check("texture upload")
    return texture
  }

  package func updateTexture(
    _ texture: GLuint, _ pixels: [UInt8], order: TexelOrder, x: Int, y: Int, width: Int,
    height: Int
  ) throws {
    bindTextureForEditing(texture)
    setUnpackAlignment(4)
    let into: TexelOrder = bgraTextures.contains(texture) ? .bgra : .rgba
    let texels = order == into ? pixels : TexelOrder.swapped(pixels)
    timed(\.uploads) {
      texels.withUnsafeBytes { raw in
        glTexSubImage2D(
          GLenum(GL_TEXTURE_2D), 0, GLint(x), GLint(y), GLsizei(width), GLsizei(height),
          GLenum(into == .bgra ? Self.bgra : GL_RGBA), GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
      }
    }
    counters.textureUploads += 1
    try check("texture update")
  }

  /// Whether ramps are 32-bit floats (filterable with OES_texture_float_linear),
  /// else half floats (filterable in GLES 3.0): both finer than 8 bits.
  package var rampBytesPerTexel: Int { supports("GL_OES_texture_float_linear") ? 16 : 8 }

  /// A `width`×1 float RGBA texture holding `texels` (RGBA floats): a
  /// gradient's color ramp (see `rampBytesPerTexel`).
  package func uploadRampTexture(_ texels: [Float], width: Int) throws -> GLuint {
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    bindTextureForEditing(texture)
    setUnpackAlignment(4)
    timed(\.uploads) {
      texels.withUnsafeBytes { raw in
        glTexImage2D(
          GLenum(GL_TEXTURE_2D), 0, rampBytesPerTexel == 16 ? GL_RGBA32F : GL_RGBA16F,
          GLsizei(width), 1, 0, GLenum(GL_RGBA),
          GLenum(GL_FLOAT), raw.baseAddress)
      }
    }
    counters.textureUploads += 1
    counters.rampUploads += 1
    try check("gradient ramp upload")
    return texture
  }

  /// Builds the mipmaps of `texture` from its level 0.
  package func generateMipmaps(_ texture: GLuint) {
    bindTextureForEditing(texture)
    // A BGRA texture uploaded without mipmaps was limited to its level 0.
    if bgraTextures.contains(texture) {
      glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAX_LEVEL), 1000)
    }
    timed(\.uploads) { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
  }

  /// A texture whose storage is an EGL image (a dma-buf), through
  /// `glEGLImageTargetTexture2DOES` (`attach`).
  package func makeTexture(
    eglImage: EGLImageKHR, attach: PFNGLEGLIMAGETARGETTEXTURE2DOESPROC
  ) -> GLuint {
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    bindTextureForEditing(texture)
    attach(GLenum(GL_TEXTURE_2D), eglImage)
    return texture
  }

  package func deleteTexture(_ id: GLuint) {
    guard id != 0 else { return }
    bgraTextures.remove(id)
    onOwnContext {
      var texture = id
      glDeleteTextures(1, &texture)
      state.deleted(texture: id)
    }
  }

  // MARK: Samplers

  /// A sampler with the given filters, clamped at the edges.
  package func makeSampler(_ key: SamplerKey) -> GLuint {
    let minFilter: Int32
    switch key.minification {
    case .nearest: minFilter = GL_NEAREST
    case .trilinear: minFilter = GL_LINEAR_MIPMAP_LINEAR
    default: minFilter = GL_LINEAR
    }
    let magFilter = key.magnification == .nearest ? GL_NEAREST : GL_LINEAR
    var sampler: GLuint = 0
    glGenSamplers(1, &sampler)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MIN_FILTER), minFilter)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MAG_FILTER), magFilter)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    return sampler
  }

  package func deleteSampler(_ id: GLuint) {
    guard id != 0 else { return }
    onOwnContext {
      var sampler = id
      glDeleteSamplers(1, &sampler)
      state.deleted(sampler: id)
    }
  }

  // MARK: Framebuffers

  /// A framebuffer drawing into `texture`; left bound.
  package func makeFramebuffer(texture: GLuint, width: Int, height: Int) throws -> GLuint {
    var framebuffer: GLuint = 0
    glGenFramebuffers(1, &framebuffer)
    bindFramebuffer(framebuffer)
    glFramebufferTexture2D(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
    try checkComplete(framebuffer, width, height)
    return framebuffer
  }

  /// A framebuffer drawing into a new multisampled renderbuffer; left bound.
  package func makeMultisampledFramebuffer(width: Int, height: Int, samples: Int) throws -> (
    framebuffer: GLuint, renderbuffer: GLuint
  ) {
    var renderbuffer: GLuint = 0
    glGenRenderbuffers(1, &renderbuffer)
    bindRenderbuffer(renderbuffer)
    glRenderbufferStorageMultisample(
      GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_RGBA8), GLsizei(width),
      GLsizei(height))
    var framebuffer: GLuint = 0
    glGenFramebuffers(1, &framebuffer)
    bindFramebuffer(framebuffer)
    glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
    do {
      try checkComplete(framebuffer, width, height)
    } catch {
      deleteFramebuffer(framebuffer)
      deleteRenderbuffer(renderbuffer)
      throw error
    }
    return (framebuffer, renderbuffer)
  }

  private func checkComplete(_ framebuffer: GLuint, _ width: Int, _ height: Int) throws {
    let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      throw RendererError.incompleteFramebuffer(status: Int(status), width: width, height: height)
    }
  }

  package func deleteFramebuffer(_ id: GLuint) {
    guard id != 0 else { return }
    onOwnContext {
      var framebuffer = id
      glDeleteFramebuffers(1, &framebuffer)
      state.deleted(framebuffer: id)
    }
  }

  package func deleteRenderbuffer(_ id: GLuint) {
    guard id != 0 else { return }
    onOwnContext {
      var buffer = id
      glDeleteRenderbuffers(1, &buffer)
      state.deleted(renderbuffer: id)
    }
  }

  /// Copies `source` (pixels of the read framebuffer `from`) to `destination`
  /// of the draw framebuffer `to`, same size, nearest. Blits obey the
  /// scissor: it is lifted.
  package func blit(from: GLuint, _ source: PixelRect, to: GLuint, _ destination: PixelRect) {
    bindReadFramebuffer(from)
    bindDrawFramebuffer(to)
    setScissor(nil)
    timed(\.draws) {
      glBlitFramebuffer(
        GLint(source.x), GLint(source.y), GLint(source.maxX), GLint(source.maxY),
        GLint(destination.x), GLint(destination.y), GLint(destination.maxX),
        GLint(destination.maxY), GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    }
  }

  // MARK: Pixels

  /// `GL_BGRA_EXT`, which `GL_EXT_read_format_bgra` lets `readPixels` write.
  static let bgra: Int32 = 0x80E1

  /// Reads `rect` of framebuffer `framebuffer` into `buffer`, as RGBA or (with
  /// `GL_EXT_read_format_bgra`) BGRA bytes, rows `rowLength` pixels apart
  /// (0: tightly packed).
  package func readPixels(
    _ rect: PixelRect, of framebuffer: GLuint, bgra: Bool = false, rowLength: Int = 0,
    into buffer: UnsafeMutableRawPointer
  ) {
    bindReadFramebuffer(framebuffer)
    state.setPack(rowLength: rowLength, &counters, issue)
    glReadPixels(
      GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height),
      GLenum(bgra ? Self.bgra : GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer)
  }

  private func setUnpackAlignment(_ value: Int) { state.setUnpackAlignment(value, &counters, issue) }

  // MARK: Buffers and vertex arrays

  /// One attribute of a vertex format: `count` components of `type` at
  /// `offset` bytes into each vertex.

  /// A vertex array reading `attributes` from a new vertex buffer of
  /// `stride`-byte vertices, with a new element buffer.
  package func makeVertexArray(stride: Int, attributes: [VertexAttribute]) -> (
    array: GLuint, vertices: GLuint, indices: GLuint
  ) {
    var array: GLuint = 0
    glGenVertexArrays(1, &array)
    bindVertexArray(array)
    var buffers = [GLuint](repeating: 0, count: 2)
    glGenBuffers(2, &buffers)
    bindArrayBuffer(buffers[0])
    bindElementBuffer(buffers[1])
    for a in attributes {
      glEnableVertexAttribArray(a.index)
      glVertexAttribPointer(
        a.index, a.count, a.type.glType, GLboolean(a.normalized ? GL_TRUE : GL_FALSE),
        GLsizei(stride), UnsafeRawPointer(bitPattern: a.offset))
    }
    return (array, buffers[0], buffers[1])
  }

  /// A vertex array with no attributes (full-target passes).
  package func makeEmptyVertexArray() -> GLuint {
    var array: GLuint = 0
    glGenVertexArrays(1, &array)
    return array
  }

  /// Fills the vertex buffer `vertices` and the element buffer of vertex
  /// array `array` (whose element buffer is `indices`).
  package func upload<V>(_ data: [V], indices: [UInt32], array: GLuint, vertices: GLuint, elements: GLuint)
  {
    bindVertexArray(array)
    bindArrayBuffer(vertices)
    bindElementBuffer(elements)
    timed(\.uploads) {
      data.withUnsafeBytes { raw in
        glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
      indices.withUnsafeBytes { raw in
        glBufferData(
          GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
    }
    counters.bufferUploads += 2
  }

  package func deleteVertexArray(_ id: GLuint, buffers: [GLuint]) {
    guard id != 0 else { return }
    onOwnContext {
      var array = id
      glDeleteVertexArrays(1, &array)
      if !buffers.isEmpty { glDeleteBuffers(GLsizei(buffers.count), buffers) }
      state.deleted(vertexArray: id, buffers: buffers)
    }
  }

  // MARK: Programs

  /// Compiles and links a program; `name` names it in errors. Sampler
  /// uniforms `s_image` (or `s_ramp`) and `s_mask` are given units 0 and 1.
  func makeProgram(vertex: String, fragment: String, name: String) throws -> GLuint {
    let vs = try compileShader(source: vertex, name: name, GLenum(GL_VERTEX_SHADER))
    defer { glDeleteShader(vs) }
    let fs = try compileShader(source: fragment, name: name, GLenum(GL_FRAGMENT_SHADER))
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
      throw RendererError.shaderCompilation(name: name, log: log)
    }
    // The program stays in use: the cache knows it.
    useProgram(program)
    for (sampler, unit) in [("s_image", 0), ("s_ramp", 0), ("s_mask", 1)] {
      let location = uniformLocation(program, sampler)
      if location >= 0 { glUniform1i(location, GLint(unit)) }
    }
    return program
  }

  /// Compiles one shader stage.
  func compileShader(source: String, name: String, _ kind: GLenum) throws -> GLuint {
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

  func deleteShader(_ id: GLuint) { glDeleteShader(id) }

  package func deleteProgram(_ id: GLuint) {
    guard id != 0 else { return }
    onOwnContext {
      glDeleteProgram(id)
      // A deleted program stays installed until another is used, and its name
      // may come back for a new one: the cache must not match it.
      if program == id { program = nil }
    }
  }

  package func uniformLocation(_ program: GLuint, _ name: String) -> GLint {
    glGetUniformLocation(program, name)
  }

  private static func log(
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
