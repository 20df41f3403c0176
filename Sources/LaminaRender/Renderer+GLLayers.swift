import CGLES3
import Foundation
import Lamina

/// Framebuffers of `CAOpenGLLayer`s, kept across frames by layer.
final class GLLayerTargets {
  struct Entry {
    var target: RenderTarget
    var generation: Int
    var time: Double
    /// The layer the framebuffer belongs to (an identifier can be reused
    /// once its layer is gone).
    weak var owner: CALayer?
  }
  var targets: [ObjectIdentifier: Entry] = [:]
}

extension Renderer {
  /// Draws a `CAOpenGLLayer` into its framebuffer when it needs it (new,
  /// resized, `setNeedsDisplay()`, or every frame while asynchronous), on
  /// this renderer's context, then puts the renderer's GL state back.
  func prepareGLLayer(_ pass: GLLayerPass) throws {
    var existing = glLayerTargets.targets[pass.key]
    if existing?.owner !== pass.model { existing = nil }
    var target = existing?.target
    if target?.width != pass.width || target?.height != pass.height {
      target = try RenderTarget(width: pass.width, height: pass.height, samples: 1)
    }
    guard let target else { return }
    let stale =
      existing == nil || existing!.target !== target || existing!.generation != pass.generation
      || (pass.layer.isAsynchronous && existing!.time != pass.time)
    if stale && pass.layer.canDraw(atLayerTime: pass.time) {
      debugGroup("CAOpenGLLayer \(pass.layer.name ?? "")")
      defer { debugGroupEnd() }
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.drawFramebuffer)
      glViewport(0, 0, GLsizei(pass.width), GLsizei(pass.height))
      glDisable(GLenum(GL_BLEND))
      glClearColor(0, 0, 0, 0)
      glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
      pass.layer.draw(atLayerTime: pass.time)
      // The layer may have changed any state: take ours back.
      restoreDrawingState()
      device.counters.offscreenPasses += 1
    }
    glLayerTargets.targets[pass.key] = .init(
      target: target, generation: pass.generation, time: pass.time, owner: pass.model)
  }

  /// The texture of a `CAOpenGLLayer`'s framebuffer (0 before it exists).
  func glLayerTexture(_ pass: GLLayerPass) -> GLuint {
    glLayerTargets.targets[pass.key]?.target.texture ?? 0
  }
}
