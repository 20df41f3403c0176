import Foundation

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
  /// The GPU device reported an error (on GL, `glGetError`'s code).
  case deviceError(code: Int, during: String)
  /// A dma-buf frame cannot be shown on this driver; `reason` says why.
  case dmabufUnsupported(reason: String)
  /// The GL context was lost (a GPU reset, `GL_OUT_OF_MEMORY`,
  /// `EGL_CONTEXT_LOST`): nothing it drew can be trusted; make a new one.
  case contextLost(reason: String)
  /// The check mode found GPU state that differs from the device's cache
  /// (someone called GL behind it); `differences` lists each, as
  /// `what: cached …, GL has …`.
  case deviceStateMismatch(during: String, differences: [String])
  /// The frame needs more offscreen memory at once than the renderer allows.
  case offscreenBudgetExceeded(bytes: Int, limit: Int, targets: Int)
  /// A pass reads a target that no earlier pass made, or a cache entry
  /// that is gone (a defect of the frame plan); the text says which.
  case missingTarget(String)

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
    case .deviceError(let code, let label):
      return String(format: "GL error 0x%04x during %@", code, label)
    case .deviceStateMismatch(let label, let differences):
      return "GL state differs from the device's cache after \(label): "
        + differences.joined(separator: "; ")
    case .offscreenBudgetExceeded(let bytes, let limit, let targets):
      return
        "the frame needs \(Self.size(bytes)) of offscreen targets at once (\(targets) targets),"
        + " more than Renderer.maxOffscreenBytes allows (\(Self.size(limit)))"
    case .missingTarget(let what): return "frame plan defect: \(what)"
    }
  }

  /// `512 KiB`, `2.5 MiB`.
  private static func size(_ bytes: Int) -> String {
    bytes < 1 << 20
      ? String(format: "%.1f KiB", Double(bytes) / 1024)
      : String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
  }
}
