import CGLES3
import Foundation

/// Depth levels for drawing each pixel of a path item once. Path items take
/// increasing levels; their fragments write their item's level and pass
/// only where the depth buffer holds a lower one (test greater): the
/// overlapping pieces of one item paint a pixel once (a translucent stroke
/// is one layer of paint), and a later item draws over an earlier one.
/// Levels go on increasing across passes and frames; when they run out, the
/// depth is cleared, so a level is never met again from an older item.
/// Changing a level is an instance attribute, not a state change: llvmpipe
/// spends about 40 µs on a changed stencil reference, nothing on this.
extension RenderTarget {
  /// The most levels between clears (levels step by 8 of the 24-bit depth,
  /// so that float rounding never merges two).
  static let depthLevels = (1 << 21) - 2

  private final class Weak {
    weak var target: RenderTarget?
    init(_ target: RenderTarget) { self.target = target }
  }

  /// Targets by draw framebuffer (a renderer binds framebuffers by name).
  nonisolated(unsafe) private static var targets: [GLuint: Weak] = [:]

  static func register(_ target: RenderTarget) {
    targets[target.drawFramebuffer] = Weak(target)
  }

  static func unregister(_ target: RenderTarget) {
    if targets[target.drawFramebuffer]?.target == nil { targets[target.drawFramebuffer] = nil }
  }

  /// The target whose draw framebuffer is `framebuffer`.
  static func drawing(into framebuffer: GLuint) -> RenderTarget? {
    targets[framebuffer]?.target
  }

  /// The first of `count` depth levels no item on this target has used
  /// since the depth was last cleared, as the depth value of the first
  /// (each next one is `depthStep` above). The target's draw framebuffer
  /// must be bound. Makes the depth attachment on first use; clears the
  /// whole depth buffer (the scissor lifted) when the levels run out.
  func takeDepthLevels(_ count: Int) throws -> Float {
    if depthBuffer == 0 {
      glGenRenderbuffers(1, &depthBuffer)
      glBindRenderbuffer(GLenum(GL_RENDERBUFFER), depthBuffer)
      if samples > 1 {
        glRenderbufferStorageMultisample(
          GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_DEPTH_COMPONENT24), GLsizei(width),
          GLsizei(height))
      } else {
        glRenderbufferStorage(
          GLenum(GL_RENDERBUFFER), GLenum(GL_DEPTH_COMPONENT24), GLsizei(width), GLsizei(height))
      }
      glFramebufferRenderbuffer(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_DEPTH_ATTACHMENT), GLenum(GL_RENDERBUFFER), depthBuffer)
      let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
      guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
        throw RendererError.incompleteFramebuffer(status: Int(status), width: width, height: height)
      }
      nextDepthLevel = Self.depthLevels + 1  // cleared below
    }
    if nextDepthLevel + count > Self.depthLevels {
      let scissored = glIsEnabled(GLenum(GL_SCISSOR_TEST)) != 0
      if scissored { glDisable(GLenum(GL_SCISSOR_TEST)) }
      glDepthMask(GLboolean(GL_TRUE))
      glClearDepthf(0)
      glClear(GLbitfield(GL_DEPTH_BUFFER_BIT))
      if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) }
      nextDepthLevel = 1
    }
    defer { nextDepthLevel += count }
    return Float(nextDepthLevel) * Self.depthStep
  }

  /// The depth between two levels.
  static let depthStep: Float = 8 / Float(1 << 24)
}
