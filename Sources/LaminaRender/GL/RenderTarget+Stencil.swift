import CGLES3
import Foundation

/// Stencil values for drawing each pixel of a path once. A path item (a
/// fill, or a stroke's two passes) takes a value no earlier item on the
/// target used since the stencil was last cleared, draws where the stencil
/// is not that value and writes it where it draws: overlapping pieces of
/// one item paint a pixel once, and other items are not affected. The 255
/// values of 8 bits are handed out in turn; when they run out, the stencil
/// is cleared, so a value is never met again from an older item.
extension RenderTarget {
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
    if targets[target.drawFramebuffer]?.target === target || targets[target.drawFramebuffer]?.target == nil {
      targets[target.drawFramebuffer] = nil
    }
  }

  /// The target whose draw framebuffer is `framebuffer`.
  static func drawing(into framebuffer: GLuint) -> RenderTarget? {
    targets[framebuffer]?.target
  }

  /// A stencil value no item on this target has used since the stencil
  /// was last cleared. The target's draw framebuffer must be bound. Makes
  /// the stencil attachment on first use; clears the whole stencil (the
  /// scissor lifted) when the values run out.
  func takeStencilValue() throws -> GLint {
    if stencilBuffer == 0 {
      glGenRenderbuffers(1, &stencilBuffer)
      glBindRenderbuffer(GLenum(GL_RENDERBUFFER), stencilBuffer)
      if samples > 1 {
        glRenderbufferStorageMultisample(
          GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_STENCIL_INDEX8), GLsizei(width),
          GLsizei(height))
      } else {
        glRenderbufferStorage(
          GLenum(GL_RENDERBUFFER), GLenum(GL_STENCIL_INDEX8), GLsizei(width), GLsizei(height))
      }
      glFramebufferRenderbuffer(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_STENCIL_ATTACHMENT), GLenum(GL_RENDERBUFFER),
        stencilBuffer)
      let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
      guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
        throw RendererError.incompleteFramebuffer(status: Int(status), width: width, height: height)
      }
      nextStencilValue = 256  // cleared below
    }
    if nextStencilValue > 255 {
      let scissored = glIsEnabled(GLenum(GL_SCISSOR_TEST)) != 0
      if scissored { glDisable(GLenum(GL_SCISSOR_TEST)) }
      glStencilMask(0xFF)
      glClearStencil(0)
      glClear(GLbitfield(GL_STENCIL_BUFFER_BIT))
      if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) }
      nextStencilValue = 1
    }
    defer { nextStencilValue += 1 }
    return GLint(nextStencilValue)
  }
}
