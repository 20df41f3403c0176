import CGLES3
import Foundation

/// An offscreen target: a multisampled renderbuffer to draw into (when the
/// GPU has samples to give) and a texture it resolves into, which can be
/// read back or sampled by a later pass.
package final class RenderTarget {
  package let width: Int, height: Int, samples: Int
  private(set) var drawFramebuffer: GLuint = 0
  package private(set) var resolveFramebuffer: GLuint = 0
  private(set) var texture: GLuint = 0
  private var renderbuffer: GLuint = 0
  /// The depth attachment, made the first time a path is drawn here
  /// (`RenderTarget+Depth.swift`), and the next depth level to hand out.
  var depthBuffer: GLuint = 0
  var nextDepthLevel = 1

  package init(width: Int, height: Int, samples: Int) throws {
    self.width = width
    self.height = height
    self.samples = samples
    glGenTextures(1, &texture)
    glBindTexture(GLenum(GL_TEXTURE_2D), texture)
    glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
    glGenFramebuffers(1, &resolveFramebuffer)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), resolveFramebuffer)
    glFramebufferTexture2D(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
    try Self.checkComplete(width, height)
    if samples > 1 {
      glGenRenderbuffers(1, &renderbuffer)
      glBindRenderbuffer(GLenum(GL_RENDERBUFFER), renderbuffer)
      glRenderbufferStorageMultisample(
        GLenum(GL_RENDERBUFFER), GLsizei(samples), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height)
      )
      glGenFramebuffers(1, &drawFramebuffer)
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), drawFramebuffer)
      glFramebufferRenderbuffer(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), renderbuffer)
      try Self.checkComplete(width, height)
    } else {
      drawFramebuffer = resolveFramebuffer
    }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
    Self.register(self)
  }

  private static func checkComplete(_ width: Int, _ height: Int) throws {
    let status = glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER))
    guard status == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
      throw RendererError.incompleteFramebuffer(status: Int(status), width: width, height: height)
    }
  }

  /// Copies the multisampled drawing into the texture (averaging the
  /// samples): all of it, or only `rect`.
  func resolve(device: GLDevice, rect: PixelRect? = nil) {
    guard drawFramebuffer != resolveFramebuffer else { return }
    let r = rect ?? PixelRect(x: 0, y: 0, width: width, height: height)
    let (x0, y0) = (GLint(r.x), GLint(r.y))
    let (x1, y1) = (GLint(r.x + r.width), GLint(r.y + r.height))
    glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), drawFramebuffer)
    glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), resolveFramebuffer)
    glBlitFramebuffer(
      x0, y0, x1, y1, x0, y0, x1, y1, GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    device.invalidateFramebuffer()
  }

  /// Reads the resolved pixels (premultiplied RGBA, rows in target order).
  func read(into buffer: UnsafeMutableRawPointer, device: GLDevice) {
    device.bindFramebuffer(resolveFramebuffer)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
    glReadPixels(
      0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), buffer)
  }

  /// Reads the resolved pixels of `rect` (target pixels) into a tightly
  /// packed buffer.
  func read(_ rect: PixelRect, into buffer: UnsafeMutableRawPointer, device: GLDevice) {
    device.bindFramebuffer(resolveFramebuffer)
    glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 4)
    glReadPixels(
      GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height), GLenum(GL_RGBA),
      GLenum(GL_UNSIGNED_BYTE), buffer)
  }

  deinit {
    Self.unregister(self)
    if depthBuffer != 0 { glDeleteRenderbuffers(1, &depthBuffer) }
    glDeleteFramebuffers(1, &resolveFramebuffer)
    if drawFramebuffer != resolveFramebuffer {
      glDeleteFramebuffers(1, &drawFramebuffer)
      glDeleteRenderbuffers(1, &renderbuffer)
    }
    glDeleteTextures(1, &texture)
  }
}
