import CGLES3
import Foundation

/// What the GL backend did, counted. Counts are stable where timings are not,
/// so tests assert on them.
public struct RenderCounters: Equatable, Sendable {
  /// `glDrawElements` calls.
  public var drawCalls = 0
  /// Textures uploaded from images (`glTexImage2D` with pixels).
  public var textureUploads = 0
  /// Offscreen passes (group opacity and the like).
  public var offscreenPasses = 0
  /// Program switches.
  public var programBinds = 0
  /// Texture binds that changed the bound texture.
  public var textureBinds = 0
  /// Vertices sent.
  public var vertices = 0
  /// Rasterized subtrees drawn (not found in the cache).
  public var rasterizations = 0

  public init() {}
}

/// The one place that calls GL for drawing: it caches bound state so that
/// redundant binds cost nothing, and counts what it does.
final class GLDevice {
  var counters = RenderCounters()
  private var program: GLuint = 0
  private var texture: GLuint = 0
  private var sampler: GLuint = 0
  private(set) var framebuffer: GLuint = .max
  private var viewport = (0, 0, 0, 0)
  private var blending = false
  private var blendMode = BlendMode.sourceOver

  /// Resets the cached state (after anyone else touched GL).
  func invalidate() {
    program = 0
    texture = 0
    sampler = 0
    framebuffer = .max
    viewport = (0, 0, 0, 0)
    blending = false
    glDisable(GLenum(GL_BLEND))
    glBlendEquation(GLenum(GL_FUNC_ADD))
    glBlendFunc(GLenum(GL_ONE), GLenum(GL_ONE_MINUS_SRC_ALPHA))
    blendMode = .sourceOver
  }

  func useProgram(_ id: GLuint) {
    guard id != program else { return }
    glUseProgram(id)
    program = id
    counters.programBinds += 1
  }

  func bindTexture(_ id: GLuint, sampler samplerID: GLuint) {
    if id != texture {
      glActiveTexture(GLenum(GL_TEXTURE0))
      glBindTexture(GLenum(GL_TEXTURE_2D), id)
      texture = id
      counters.textureBinds += 1
    }
    if samplerID != sampler {
      glBindSampler(0, samplerID)
      sampler = samplerID
    }
  }

  /// Forgets a texture binding (the texture is being deleted or reused).
  func forgetTexture(_ id: GLuint) {
    if texture == id { texture = 0 }
  }

  func bindFramebuffer(_ id: GLuint) {
    guard id != framebuffer else { return }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), id)
    framebuffer = id
  }

  /// Forgets the framebuffer binding (someone bound read/draw targets directly).
  func invalidateFramebuffer() { framebuffer = .max }

  func setViewport(_ x: Int, _ y: Int, _ width: Int, _ height: Int) {
    guard viewport != (x, y, width, height) else { return }
    glViewport(GLint(x), GLint(y), GLsizei(width), GLsizei(height))
    viewport = (x, y, width, height)
  }

  /// Premultiplied blending: source-over `src + dst × (1 − src.a)`, or
  /// additive `src + dst`.
  func setBlending(_ on: Bool, mode: BlendMode = .sourceOver) {
    if on != blending {
      if on { glEnable(GLenum(GL_BLEND)) } else { glDisable(GLenum(GL_BLEND)) }
      blending = on
    }
    if on && mode != blendMode {
      if case .composite(let name) = mode, let equation = Self.advancedEquations[name] {
        glBlendEquation(GLenum(equation))
      } else {
        if case .composite = blendMode { glBlendEquation(GLenum(GL_FUNC_ADD)) }
        glBlendFunc(GLenum(GL_ONE), GLenum(mode == .additive ? GL_ONE : GL_ONE_MINUS_SRC_ALPHA))
      }
      blendMode = mode
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
  func blendBarrier() {
    Self.blendBarrierProc.value?()
  }

  private struct Proc<T>: @unchecked Sendable { let value: T? }
  private static let blendBarrierProc = Proc(
    value: eglProc("glBlendBarrierKHR", as: PFNGLBLENDBARRIERKHRPROC.self))

  func clear(_ color: SIMD4<Float>) {
    glClearColor(color.x, color.y, color.z, color.w)
    glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
  }

  func drawTriangles(indexCount: Int, firstIndex: Int) {
    glDrawElements(
      GLenum(GL_TRIANGLES), GLsizei(indexCount), GLenum(GL_UNSIGNED_INT),
      UnsafeRawPointer(bitPattern: firstIndex * MemoryLayout<UInt32>.size))
    counters.drawCalls += 1
  }

  /// In debug builds, turns a pending GL error into a thrown one.
  func check(_ label: String) throws {
    #if DEBUG
      let error = glGetError()
      if error != GLenum(GL_NO_ERROR) {
        throw RendererError.glError(code: Int(error), during: label)
      }
    #endif
  }
}

/// Why the renderer failed.
public enum RendererError: Error, CustomStringConvertible, Equatable {
  /// A shader did not compile or link; `log` is the driver's message.
  case shaderCompilation(name: String, log: String)
  /// A shader file is missing from the embedded set.
  case missingShader(name: String)
  /// A framebuffer could not be completed.
  case incompleteFramebuffer(status: Int, width: Int, height: Int)
  /// The canvas is larger than this renderer can hold in memory.
  case canvasTooLarge(width: Int, height: Int, limit: String)
  /// An image is larger than the GPU's texture limit.
  case imageTooLarge(width: Int, height: Int, maxTextureSize: Int)
  /// GL reported an error.
  case glError(code: Int, during: String)
  /// A dma-buf frame cannot be shown on this driver; `reason` says why.
  case dmabufUnsupported(reason: String)
  /// The GL context was lost (a GPU reset, `GL_OUT_OF_MEMORY`,
  /// `EGL_CONTEXT_LOST`): nothing it drew can be trusted; make a new one.
  case contextLost(reason: String)

  public var description: String {
    switch self {
    case .shaderCompilation(let name, let log): return "shader \(name) failed to compile: \(log)"
    case .missingShader(let name): return "shader \(name) is not embedded in the binary"
    case .incompleteFramebuffer(let status, let width, let height):
      return String(
        format: "framebuffer of %dx%d pixels is incomplete (0x%04x)", width, height, status)
    case .canvasTooLarge(let width, let height, let limit):
      return "canvas of \(width)x\(height) pixels is too large: \(limit)"
    case .imageTooLarge(let width, let height, let maxTextureSize):
      return
        "image of \(width)x\(height) pixels exceeds the GPU's max texture size \(maxTextureSize)"
    case .dmabufUnsupported(let reason): return "cannot show a dma-buf frame: \(reason)"
    case .contextLost(let reason): return "the GL context was lost (\(reason))"
    case .glError(let code, let label):
      return String(format: "GL error 0x%04x during %@", code, label)
    }
  }
}
