import CEGL
import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// What the GL backend did, counted. Counts are stable where timings are not,
/// so tests assert on them.
public struct RenderCounters: Equatable, Sendable {
  /// Draw calls (`glDrawElements`, and the full-target triangles of filter passes).
  public var drawCalls = 0
  /// Textures uploaded from images and gradient ramps (`glTexImage2D` with pixels).
  public var textureUploads = 0
  /// Of those, gradients' color ramps (one per distinct set of stops).
  public var rampUploads = 0
  /// Offscreen passes: group opacity, masks, filters, shadows, copies of
  /// backdrops, rasterizations, `CAOpenGLLayer` draws.
  public var offscreenPasses = 0
  /// Program switches.
  public var programBinds = 0
  /// Texture binds that changed the bound texture (any unit).
  public var textureBinds = 0
  /// Vertices sent.
  public var vertices = 0
  /// Rasterized subtrees drawn (not found in the cache).
  public var rasterizations = 0
  /// Every step of the frame plan that ran: passes into the canvas and
  /// offscreen, copies, filter passes.
  public var passes = 0
  /// Calls that changed cached GL state (binds, viewport, scissor, blending,
  /// clear color, pixel storage), beyond the program and texture binds.
  public var stateChanges = 0
  /// Vertex and index buffers filled.
  public var bufferUploads = 0
  /// Path meshes (shape layers' fills and strokes) uploaded to the GPU.
  public var geometryUploads = 0

  public init() {}
}

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

  /// Texture units the renderer uses: 0 for an item's image, 1 for a mask
  /// or a copy of the backdrop.
  static let textureUnits = 2

  // The cache. nil: unknown.
  var program: GLuint?
  var vertexArray: GLuint?
  var arrayBuffer: GLuint?
  /// The element buffer recorded in each vertex array (it is vertex array state).
  var elementBuffers: [GLuint: GLuint] = [:]
  var activeUnit: Int?
  var textures = [GLuint?](repeating: nil, count: GLDevice.textureUnits)
  var samplers = [GLuint?](repeating: nil, count: GLDevice.textureUnits)
  var drawFramebuffer: GLuint?
  var readFramebuffer: GLuint?
  var renderbuffer: GLuint?
  var viewport: PixelRect?
  var scissorTest: Bool?
  var scissorBox: PixelRect?
  var blending: Bool?
  var blendEquation: GLenum?
  var blendFunction: (source: GLenum, destination: GLenum)?
  var clearColor: SIMD4<Float>?
  var packAlignment: GLint?
  var packRowLength: GLint?
  var unpackAlignment: GLint?
  /// The depth test of path items (`GLDevice+Paths.swift`).
  var depthTest: Bool?
  /// The path program variants compiled on this context, shared by its
  /// renderers.
  lazy var pathPrograms = PathPrograms(device: self)
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
  func invalidate() {
    program = nil
    vertexArray = nil
    arrayBuffer = nil
    elementBuffers = [:]
    activeUnit = nil
    textures = [GLuint?](repeating: nil, count: Self.textureUnits)
    samplers = [GLuint?](repeating: nil, count: Self.textureUnits)
    drawFramebuffer = nil
    readFramebuffer = nil
    renderbuffer = nil
    viewport = nil
    scissorTest = nil
    scissorBox = nil
    blending = nil
    blendEquation = nil
    blendFunction = nil
    clearColor = nil
    packAlignment = nil
    packRowLength = nil
    unpackAlignment = nil
    depthTest = nil
  }

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

  package func useProgram(_ id: GLuint) {
    guard id != program else { return }
    timed(\.state) { glUseProgram(id) }
    program = id
    counters.programBinds += 1
  }

  /// Makes the call that binds `id` unless the cache says it is bound.
  private func bind(_ id: GLuint, _ cached: inout GLuint?, _ call: (GLuint) -> Void) {
    guard id != cached else { return }
    timed(\.state) { call(id) }
    cached = id
    counters.stateChanges += 1
  }

  package func bindVertexArray(_ id: GLuint) { bind(id, &vertexArray, glBindVertexArray) }

  func bindArrayBuffer(_ id: GLuint) {
    bind(id, &arrayBuffer) { glBindBuffer(GLenum(GL_ARRAY_BUFFER), $0) }
  }

  /// Binds `id` as the element buffer of the bound vertex array.
  func bindElementBuffer(_ id: GLuint) {
    if let vertexArray, elementBuffers[vertexArray] == id { return }
    timed(\.state) { glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), id) }
    if let vertexArray { elementBuffers[vertexArray] = id }
    counters.stateChanges += 1
  }

  private func activate(unit: Int) {
    guard unit != activeUnit else { return }
    timed(\.state) { glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit))) }
    activeUnit = unit
    counters.stateChanges += 1
  }

  /// Binds texture `id` on `unit` with `sampler` (0: the texture's own parameters).
  package func bindTexture(_ id: GLuint, unit: Int = 0, sampler samplerID: GLuint) {
    if textures[unit] != id {
      activate(unit: unit)
      timed(\.state) { glBindTexture(GLenum(GL_TEXTURE_2D), id) }
      textures[unit] = id
      counters.textureBinds += 1
    }
    if samplers[unit] != samplerID {
      timed(\.state) { glBindSampler(GLuint(unit), samplerID) }
      samplers[unit] = samplerID
      counters.stateChanges += 1
    }
  }

  /// Binds texture `id` for work on it (uploads, mipmaps) on the active unit.
  func bindTextureForEditing(_ id: GLuint) {
    let unit = activeUnit ?? 0
    activate(unit: unit)
    guard textures[unit] != id else { return }
    timed(\.state) { glBindTexture(GLenum(GL_TEXTURE_2D), id) }
    textures[unit] = id
    counters.textureBinds += 1
  }

  /// Binds `id` for drawing and reading.
  package func bindFramebuffer(_ id: GLuint) {
    guard id != drawFramebuffer || id != readFramebuffer else { return }
    timed(\.state) { glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id) }
    drawFramebuffer = id
    readFramebuffer = id
    counters.stateChanges += 1
  }

  func bindDrawFramebuffer(_ id: GLuint) {
    bind(id, &drawFramebuffer) { glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), $0) }
  }

  func bindReadFramebuffer(_ id: GLuint) {
    bind(id, &readFramebuffer) { glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), $0) }
  }

  func bindRenderbuffer(_ id: GLuint) {
    bind(id, &renderbuffer) { glBindRenderbuffer(GLenum(GL_RENDERBUFFER), $0) }
  }

  package func setViewport(_ rect: PixelRect) {
    guard rect != viewport else { return }
    timed(\.state) {
      glViewport(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
    }
    viewport = rect
    counters.stateChanges += 1
  }

  /// Scissors to `rect` (target pixels), or lifts the scissor (nil).
  package func setScissor(_ rect: PixelRect?) {
    let on = rect != nil
    if on != scissorTest {
      timed(\.state) {
        if on { glEnable(GLenum(GL_SCISSOR_TEST)) } else { glDisable(GLenum(GL_SCISSOR_TEST)) }
      }
      scissorTest = on
      counters.stateChanges += 1
    }
    if let rect, rect != scissorBox {
      timed(\.state) {
        glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
      }
      scissorBox = rect
      counters.stateChanges += 1
    }
  }

  /// Premultiplied blending: source-over `src + dst × (1 − src.a)`, additive
  /// `src + dst`, or an advanced equation; or none (`on` false).
  package func setBlending(_ on: Bool, mode: BlendMode = .sourceOver) {
    if on != blending {
      timed(\.state) { if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) } }
      blending = on
      counters.stateChanges += 1
    }
    guard on else { return }
    var equation = GLenum(GL_FUNC_ADD)
    var function = (GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    switch mode {
    case .sourceOver: break
    case .additive: function.1 = GLenum(GL_ONE)
    case .composite(let name):
      if let advanced = Self.advancedEquations[name] { equation = GLenum(advanced) }
    case .porterDuff(let op):
      let f = Self.porterDuffFactors(op)
      (equation, function) = (f.equation, (f.source, f.destination))
    }
    if equation != blendEquation {
      timed(\.state) { glBlendEquation(equation) }
      blendEquation = equation
      counters.stateChanges += 1
    }
    // Advanced equations (and min and max) ignore the function: it stays as it is.
    if equation == GLenum(GL_FUNC_ADD),
      blendFunction.map({ $0.source != function.0 || $0.destination != function.1 }) ?? true
    {
      timed(\.state) { glBlendFunc(function.0, function.1) }
      blendFunction = (function.0, function.1)
      counters.stateChanges += 1
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

  /// The blend equation and factors of a Porter–Duff operator on
  /// premultiplied colors: `src × Fa + dst × Fb`, Fa and Fb as Porter and
  /// Duff tabulate them (GL_MIN and GL_MAX for `minimum` and `maximum`).
  static func porterDuffFactors(_ op: PorterDuff) -> (
    equation: GLenum, source: GLenum, destination: GLenum
  ) {
    let zero = GLenum(GL_ZERO)
    let one = GLenum(GL_ONE)
    let sa = GLenum(GL_SRC_ALPHA)
    let da = GLenum(GL_DST_ALPHA)
    let oneMinusSA = GLenum(GL_ONE_MINUS_SRC_ALPHA)
    let oneMinusDA = GLenum(GL_ONE_MINUS_DST_ALPHA)
    let add = GLenum(GL_FUNC_ADD)
    switch op {
    case .clear: return (add, zero, zero)
    case .copy: return (add, one, zero)
    case .sourceOver: return (add, one, oneMinusSA)
    case .sourceIn: return (add, da, zero)
    case .sourceOut: return (add, oneMinusDA, zero)
    case .sourceAtop: return (add, da, oneMinusSA)
    case .destOver: return (add, oneMinusDA, one)
    case .destIn: return (add, zero, sa)
    case .destOut: return (add, zero, oneMinusSA)
    case .destAtop: return (add, oneMinusDA, sa)
    case .xor: return (add, oneMinusDA, oneMinusSA)
    case .plusL: return (add, one, one)
    case .multiply: return (add, GLenum(GL_DST_COLOR), zero)
    case .minimum: return (GLenum(GL_MIN), one, one)
    case .maximum: return (GLenum(GL_MAX), one, one)
    }
  }

  /// Makes the next draw see what earlier draws wrote (advanced blending
  /// reads the destination; without the coherent extension a barrier is due
  /// between overlapping draws).
  func blendBarrier() {
    Self.blendBarrierProc.value?()
  }

  private struct Proc<T>: @unchecked Sendable { let value: T? }
  private static let blendBarrierProc = Proc(
    value: eglProc("glBlendBarrierKHR", as: PFNGLBLENDBARRIERKHRPROC.self))

  /// Clears the bound draw framebuffer (within the scissor, when set).
  func clear(_ color: SIMD4<Float>) {
    if color != clearColor {
      timed(\.state) { glClearColor(color.x, color.y, color.z, color.w) }
      clearColor = color
      counters.stateChanges += 1
    }
    timed(\.draws) { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
  }

  // MARK: Drawing

  func drawTriangles(indexCount: Int, firstIndex: Int) {
    timed(\.draws) {
      glDrawElements(
        GLenum(GL_TRIANGLES), GLsizei(indexCount), GLenum(GL_UNSIGNED_INT),
        UnsafeRawPointer(bitPattern: firstIndex * MemoryLayout<UInt32>.size))
    }
    counters.drawCalls += 1
  }

  /// One triangle over the whole viewport (`fullscreen.vert`).
  package func drawFullTarget() {
    timed(\.draws) { glDrawArrays(GLenum(GL_TRIANGLES), 0, 3) }
    counters.drawCalls += 1
  }

  /// Waits until the GPU has finished every command.
  package func finish() { glFinish() }

  // MARK: Uniforms (of the program in use)

  func setUniform(_ location: GLint, _ x: Float) { timed(\.state) { glUniform1f(location, x) } }
  func setUniform(_ location: GLint, _ x: Float, _ y: Float) {
    timed(\.state) { glUniform2f(location, x, y) }
  }
  package func setUniform(_ location: GLint, _ v: SIMD4<Float>) {
    timed(\.state) { glUniform4f(location, v.x, v.y, v.z, v.w) }
  }
  func setUniform(_ location: GLint, int x: Int) {
    timed(\.state) { glUniform1i(location, GLint(clamping: x)) }
  }
  func setUniform(_ location: GLint, int x: Int, _ y: Int) {
    timed(\.state) { glUniform2i(location, GLint(clamping: x), GLint(clamping: y)) }
  }
  /// A 3×3 matrix given by columns.
  package func setUniform(_ location: GLint, matrix3 columns: [Float]) {
    timed(\.state) { glUniformMatrix3fv(location, 1, GLboolean(GL_FALSE), columns) }
  }
  /// A 4×4 matrix given by rows (GL transposes it into its columns).
  func setUniform(_ location: GLint, matrix4Rows rows: [Float]) {
    timed(\.state) { glUniformMatrix4fv(location, 1, GLboolean(GL_TRUE), rows) }
  }
  func setUniform(_ location: GLint, vec4Array values: [SIMD4<Float>]) {
    values.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      base.withMemoryRebound(to: Float.self, capacity: buffer.count * 4) { floats in
        timed(\.state) { glUniform4fv(location, GLsizei(buffer.count), floats) }
      }
    }
  }
  func setUniform(_ location: GLint, floatArray values: [Float]) {
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
        throw RendererError.glError(code: Int(error), during: label())
      }
    #endif
  }

  /// Opens a KHR_debug group named `name` (shown by apitrace, RenderDoc).
  func pushDebugGroup(_ name: String) { GLDebug.pushGroup(name) }

  func popDebugGroup() { GLDebug.popGroup() }
}
