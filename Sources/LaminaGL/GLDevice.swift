import CEGL
import CGLES3
import Foundation
import Lamina
import LaminaFrame
import LaminaPlan

/// The one owner of a GL context's state: every `gl*` call of the renderer,
/// the display's present pass and the shm read-back goes through it. It
/// caches what is bound (program, vertex array, buffers, the texture and
/// sampler of each unit, the draw and read framebuffers, viewport, scissor,
/// blending, clear color, pixel storage), so redundant calls cost nothing,
/// and counts what it did.
///
/// A cached value of nil means "unknown": the next request issues the call.
/// Code that changes GL state on its own (a `CAOpenGLLayer`'s drawing, or an
/// application between frames) is followed by `reset()`. With `checksState`
/// on (debug builds, `LAMINA_GL_CHECK=1`), `verify(_:)` compares the cache
/// with `glGet*` after every pass and throws on a difference.
package final class GLDevice {
  package var counters = RenderCounters()
  /// Whether the time inside GL calls is measured into `callTimes`
  /// (`GLDevice+Timing.swift`; off unless a benchmark asks).
  package var timesCalls = false
  package var callTimes = GLCallTimes()
  /// Whether `verify(_:)` compares the cache with GL (see `checksStateByDefault`).
  var checksState = GLDevice.checksStateByDefault
  /// The context whose state this is (deletions make it current first).
  weak var context: GPUContext?

  /// The cache of bound and set state, shared with the recording device
  /// (`DeviceState`); nil values are unknown.
  package var state = DeviceState()
  var arrayBuffer: GLuint? { state.arrayBuffer }
  var renderbuffer: GLuint? { state.renderbuffer }
  var packAlignment: Int? { state.packAlignment }
  var packRowLength: Int? { state.packRowLength }
  var unpackAlignment: Int? { state.unpackAlignment }
  package var program: GLuint? {
    get { state.program }
    set { state.program = newValue }
  }
  var vertexArray: GLuint? {
    get { state.vertexArray }
    set { state.vertexArray = newValue }
  }
  var activeUnit: Int? {
    get { state.activeUnit }
    set { state.activeUnit = newValue }
  }
  var textures: [GLuint?] {
    get { state.textures }
    set { state.textures = newValue }
  }
  var samplers: [GLuint?] {
    get { state.samplers }
    set { state.samplers = newValue }
  }
  var drawFramebuffer: GLuint? {
    get { state.drawFramebuffer }
    set { state.drawFramebuffer = newValue }
  }
  var readFramebuffer: GLuint? {
    get { state.readFramebuffer }
    set { state.readFramebuffer = newValue }
  }
  var viewport: PixelRect? {
    get { state.viewport }
    set { state.viewport = newValue }
  }
  var scissorTest: Bool? {
    get { state.scissorTest }
    set { state.scissorTest = newValue }
  }
  var scissorBox: PixelRect? {
    get { state.scissorBox }
    set { state.scissorBox = newValue }
  }
  var blending: Bool? {
    get { state.blending }
    set { state.blending = newValue }
  }
  var clearColor: SIMD4<Float>? {
    get { state.clearColor }
    set { state.clearColor = newValue }
  }
  var depthTest: Bool? {
    get { state.depthTest }
    set { state.depthTest = newValue }
  }
  /// The path program variants compiled on this context, shared by its
  /// renderers.
  package lazy var pathPrograms = PathPrograms(device: self)
  /// Textures of dma-buf frames (made on first use).
  var dmabufImport: DMABufImport?
  /// The order of the texels of the textures made from pixels and of
  /// single-sampled targets: BGRA on llvmpipe (its linear rasterizer draws
  /// axis-aligned quads of simple programs, 3-4 times faster, into BGRA
  /// targets from BGRA textures only), else RGBA; set by the context, or
  /// by `LAMINA_TEXELS=rgba|bgra`.
  package internal(set) var texelOrder = TexelOrder.rgba
  /// The textures made in BGRA (`texelOrder`), for uploads into them.
  var bgraTextures: Set<GLuint> = []
  /// Extensions, asked once.
  private lazy var extensionSet: Set<String> = GLQuery.extensions()

  init() {}

  /// The check mode's default: on in debug builds, off in release ones;
  /// `LAMINA_GL_CHECK=1` or `=0` overrides it.
  static var checksStateByDefault: Bool {
    switch ProcessInfo.processInfo.environment["LAMINA_GL_CHECK"] {
    case "1": return true
    case "0": return false
    default:
      #if DEBUG
        return true
      #else
        return false
      #endif
    }
  }

  /// Forgets every cached value: the next request of each issues its call.
  func invalidate() { state = DeviceState() }

  /// Takes the context back after code that may have changed any state (a
  /// `CAOpenGLLayer`'s drawing, an application's own GL between frames):
  /// puts the state the renderer relies on without caching it (no depth,
  /// stencil or culling, every color channel written, tightly packed pixel
  /// rows) and forgets the cache.
  package func reset() {
    for capability in [
      GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_POLYGON_OFFSET_FILL,
      GL_SAMPLE_ALPHA_TO_COVERAGE, GL_SAMPLE_COVERAGE, GL_RASTERIZER_DISCARD,
    ] {
      glDisable(GLenum(capability))
    }
    glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
    for parameter in [
      GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS, GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT,
      GL_UNPACK_SKIP_IMAGES, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
    ] {
      glPixelStorei(GLenum(parameter), 0)
    }
    invalidate()
  }

  // MARK: Bindings

  package func useProgram(_ id: GLuint) { state.useProgram(id, &counters, issue) }

  package func bindVertexArray(_ id: GLuint) { state.bindVertexArray(id, &counters, issue) }

  func bindArrayBuffer(_ id: GLuint) { state.bindArrayBuffer(id, &counters, issue) }

  /// Binds `id` as the element buffer of the bound vertex array.
  func bindElementBuffer(_ id: GLuint) { state.bindElementBuffer(id, &counters, issue) }

  /// Binds texture `id` on `unit` with `sampler` (0: the texture's own parameters).
  package func bindTexture(_ id: GLuint, unit: Int = 0, sampler samplerID: GLuint) {
    state.bindTexture(id, unit: unit, sampler: samplerID, &counters, issue)
  }

  /// Binds texture `id` for work on it (uploads, mipmaps) on the active unit.
  func bindTextureForEditing(_ id: GLuint) { state.bindTextureForEditing(id, &counters, issue) }

  /// Binds `id` for drawing and reading.
  package func bindFramebuffer(_ id: GLuint) { state.bindFramebuffer(id, &counters, issue) }

  func bindDrawFramebuffer(_ id: GLuint) { state.bindDrawFramebuffer(id, &counters, issue) }

  func bindReadFramebuffer(_ id: GLuint) { state.bindReadFramebuffer(id, &counters, issue) }

  func bindRenderbuffer(_ id: GLuint) { state.bindRenderbuffer(id, &counters, issue) }

  package func setViewport(_ rect: PixelRect) { state.setViewport(rect, &counters, issue) }

  /// Scissors to `rect` (target pixels), or lifts the scissor (nil).
  package func setScissor(_ rect: PixelRect?) { state.setScissor(rect, &counters, issue) }

  /// Premultiplied blending in `mode` (`DeviceState.blend`), or none.
  package func setBlending(_ on: Bool, mode: BlendMode = .sourceOver) {
    state.setBlending(on, mode: mode, &counters, issue)
  }

  /// Makes the GL call of a state change the cache decided on.
  func issue(_ call: StateCall) {
    timed(\.state) {
      switch call {
      case .useProgram(let id): glUseProgram(id)
      case .bindVertexArray(let id): glBindVertexArray(id)
      case .activeTexture(let unit): glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
      case .bindTexture(let id): glBindTexture(GLenum(GL_TEXTURE_2D), id)
      case .bindSampler(let unit, let id): glBindSampler(GLuint(unit), id)
      case .bindFramebuffer(let id): glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
      case .bindDrawFramebuffer(let id): glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), id)
      case .bindReadFramebuffer(let id): glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), id)
      case .viewport(let r):
        glViewport(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height))
      case .scissorTest(let on):
        if on { glEnable(GLenum(GL_SCISSOR_TEST)) } else { glDisable(GLenum(GL_SCISSOR_TEST)) }
      case .scissor(let r): glScissor(GLint(r.x), GLint(r.y), GLsizei(r.width), GLsizei(r.height))
      case .blending(let on):
        if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
      case .blendEquation(let equation): glBlendEquation(Self.glEquation(equation))
      case .blendFunction(let source, let destination):
        glBlendFunc(Self.glFactor(source), Self.glFactor(destination))
      case .clearColor(let c): glClearColor(c.x, c.y, c.z, c.w)
      case .depthTest(let on):
        if on {
          glEnable(GLenum(GL_DEPTH_TEST))
          glDepthFunc(GLenum(GL_GREATER))
          glDepthMask(GLboolean(GL_TRUE))
        } else {
          glDisable(GLenum(GL_DEPTH_TEST))
        }
      case .bindArrayBuffer(let id): glBindBuffer(GLenum(GL_ARRAY_BUFFER), id)
      case .bindElementBuffer(let id): glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), id)
      case .bindRenderbuffer(let id): glBindRenderbuffer(GLenum(GL_RENDERBUFFER), id)
      case .packAlignment(let n): glPixelStorei(GLenum(GL_PACK_ALIGNMENT), GLint(clamping: n))
      case .packRowLength(let n): glPixelStorei(GLenum(GL_PACK_ROW_LENGTH), GLint(clamping: n))
      case .unpackAlignment(let n):
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), GLint(clamping: n))
      }
    }
  }

  static func glEquation(_ equation: BlendEquation) -> GLenum {
    switch equation {
    case .add: return GLenum(GL_FUNC_ADD)
    case .min: return GLenum(GL_MIN)
    case .max: return GLenum(GL_MAX)
    case .advanced(let name): return GLenum(advancedEquations[name] ?? GL_FUNC_ADD)
    }
  }

  static func glFactor(_ factor: BlendFactor) -> GLenum {
    switch factor {
    case .zero: return GLenum(GL_ZERO)
    case .one: return GLenum(GL_ONE)
    case .sourceAlpha: return GLenum(GL_SRC_ALPHA)
    case .destinationAlpha: return GLenum(GL_DST_ALPHA)
    case .oneMinusSourceAlpha: return GLenum(GL_ONE_MINUS_SRC_ALPHA)
    case .oneMinusDestinationAlpha: return GLenum(GL_ONE_MINUS_DST_ALPHA)
    case .destinationColor: return GLenum(GL_DST_COLOR)
    }
  }

  /// The KHR_blend_equation_advanced equation of each blend mode name: the
  /// W3C formulas, exactly the fifteen of the scene format.
  static let advancedEquations: [String: Int32] = [
    "CIMultiplyBlendMode": GL_MULTIPLY_KHR, "CIScreenBlendMode": GL_SCREEN_KHR,
    "CIOverlayBlendMode": GL_OVERLAY_KHR, "CIDarkenBlendMode": GL_DARKEN_KHR,
    "CILightenBlendMode": GL_LIGHTEN_KHR, "CIColorDodgeBlendMode": GL_COLORDODGE_KHR,
    "CIColorBurnBlendMode": GL_COLORBURN_KHR, "CIHardLightBlendMode": GL_HARDLIGHT_KHR,
    "CISoftLightBlendMode": GL_SOFTLIGHT_KHR, "CIDifferenceBlendMode": GL_DIFFERENCE_KHR,
    "CIExclusionBlendMode": GL_EXCLUSION_KHR, "CIHueBlendMode": GL_HSL_HUE_KHR,
    "CISaturationBlendMode": GL_HSL_SATURATION_KHR, "CIColorBlendMode": GL_HSL_COLOR_KHR,
    "CILuminosityBlendMode": GL_HSL_LUMINOSITY_KHR,
  ]

  /// Makes the next draw see what earlier draws wrote (advanced blending
  /// reads the destination; without the coherent extension a barrier is due
  /// between overlapping draws).
  package func blendBarrier() {
    Self.blendBarrierProc.value?()
  }

  private struct Proc<T>: @unchecked Sendable { let value: T? }
  private static let blendBarrierProc = Proc(
    value: eglProc("glBlendBarrierKHR", as: PFNGLBLENDBARRIERKHRPROC.self))

  /// Clears the bound target's color (within the scissor) to `color`,
  /// rounded to 8 bits first: llvmpipe clears a whole target by filling
  /// it with the color rounded, but a scissored part by drawing a quad,
  /// whose color its linear rasterizer (BGRA targets) truncates instead, so
  /// a damaged rect would get another byte than the whole frame
  /// (metamorphic partial-redraw seeds 16, 17, 52: 1/255).
  package func clear(_ color: SIMD4<Float>) {
    let unit = color.clamped(lowerBound: SIMD4(repeating: 0), upperBound: SIMD4(repeating: 1))
    let color = (unit * Float(255)).rounded(.toNearestOrAwayFromZero) / Float(255)
    state.setClearColor(color, &counters, issue)
    timed(\.draws) { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
  }

  // MARK: Drawing

  package func drawTriangles(indexCount: Int, firstIndex: Int) {
    let draw = {
      glDrawElements(
        GLenum(GL_TRIANGLES), GLsizei(indexCount), GLenum(GL_UNSIGNED_INT),
        UnsafeRawPointer(bitPattern: firstIndex * MemoryLayout<UInt32>.size))
    }
    counters.drawCalls += 1
    if DrawProfile.isOn { return DrawProfile.measure(program, draw) }
    timed(\.draws, draw)
  }

  /// One triangle over the whole viewport (`fullscreen.vert`).
  package func drawFullTarget() {
    let draw = { glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    counters.drawCalls += 1
    if DrawProfile.isOn { return DrawProfile.measure(program, draw) }
    timed(\.draws, draw)
  }

  /// Waits until the GPU has finished every command.
  package func finish() { glFinish() }

  // MARK: Uniforms (of the program in use)

  package func setUniform(_ location: GLint, _ x: Float) { timed(\.state) { glUniform1f(location, x) } }
  package func setUniform(_ location: GLint, _ x: Float, _ y: Float) {
    timed(\.state) { glUniform2f(location, x, y) }
  }
  package func setUniform(_ location: GLint, _ v: SIMD4<Float>) {
    timed(\.state) { glUniform4f(location, v.x, v.y, v.z, v.w) }
  }
  package func setUniform(_ location: GLint, int x: Int) {
    timed(\.state) { glUniform1i(location, GLint(clamping: x)) }
  }
  package func setUniform(_ location: GLint, int x: Int, _ y: Int) {
    timed(\.state) { glUniform2i(location, GLint(clamping: x), GLint(clamping: y)) }
  }
  /// A 3×3 matrix given by columns.
  package func setUniform(_ location: GLint, matrix3 columns: [Float]) {
    timed(\.state) { glUniformMatrix3fv(location, 1, GLboolean(GL_FALSE), columns) }
  }
  /// A 4×4 matrix given by rows (GL transposes it into its columns).
  package func setUniform(_ location: GLint, matrix4Rows rows: [Float]) {
    timed(\.state) { glUniformMatrix4fv(location, 1, GLboolean(GL_TRUE), rows) }
  }
  package func setUniform(_ location: GLint, vec4Array values: [SIMD4<Float>]) {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      base.withMemoryRebound(to: Float.self, capacity: buffer.count * 4) { floats in
        timed(\.state) { glUniform4fv(location, GLsizei(buffer.count), floats) }
      }
    }
  }
  package func setUniform(_ location: GLint, floatArray values: [Float]) {
    timed(\.state) { glUniform1fv(location, GLsizei(values.count), values) }
  }

  // MARK: Queries

  /// Whether the context offers extension `name`.
  package func supports(_ name: String) -> Bool { extensionSet.contains(name) }

  /// In debug builds, turns a pending GL error into a thrown one.
  package func check(_ label: @autoclosure () -> String) throws {
    #if DEBUG
      let error = glGetError()
      if error != GLenum(GL_NO_ERROR) {
        throw RendererError.deviceError(code: Int(error), during: label())
      }
    #endif
  }

  /// Opens a KHR_debug group named `name` (shown by apitrace, RenderDoc).
  package func pushDebugGroup(_ name: String) { GLDebug.pushGroup(name) }

  package func popDebugGroup() { GLDebug.popGroup() }
}
