import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// The check mode: after every pass the cache is compared with what GL
/// reports, so that a call made behind the device (the cause of state
/// leaking between passes, frames and renderers) fails where it happens
/// instead of as wrong pixels later.
extension GLDevice {
  /// Throws `RendererError.deviceStateMismatch` when a known cached value
  /// differs from GL's, or `.deviceError` when GL has an error pending; does
  /// nothing unless `checksState`.
  package func verify(_ label: @autoclosure () -> String) throws {
    guard checksState else { return }
    let error = glGetError()
    if error != GLenum(GL_NO_ERROR) {
      throw RendererError.deviceError(code: Int(error), during: label())
    }
    let differences = stateDifferences()
    if !differences.isEmpty {
      throw RendererError.deviceStateMismatch(during: label(), differences: differences)
    }
  }

  /// Each cached value that GL disagrees with, and the fixed state the
  /// renderer relies on when it is not as `reset()` put it.
  func stateDifferences() -> [String] {
    var out: [String] = []
    func integer(_ name: Int32) -> Int {
      var value: GLint = 0
      glGetIntegerv(GLenum(name), &value)
      return Int(value)
    }
    func compare(_ what: String, _ cached: Int?, _ name: Int32) {
      guard let cached else { return }
      let actual = integer(name)
      if actual != cached { out.append("\(what): cached \(cached), GL has \(actual)") }
    }
    func compare(_ what: String, _ cached: Bool?, capability: Int32) {
      guard let cached else { return }
      let actual = glIsEnabled(GLenum(capability)) != 0
      if actual != cached { out.append("\(what): cached \(cached), GL has \(actual)") }
    }
    compare("program", program.map(Int.init), GL_CURRENT_PROGRAM)
    compare("vertex array", vertexArray.map(Int.init), GL_VERTEX_ARRAY_BINDING)
    compare("array buffer", arrayBuffer.map(Int.init), GL_ARRAY_BUFFER_BINDING)
    if let vertexArray, integer(GL_VERTEX_ARRAY_BINDING) == Int(vertexArray) {
      compare(
        "element buffer of vertex array \(vertexArray)", state.elementBuffers[vertexArray].map(Int.init),
        GL_ELEMENT_ARRAY_BUFFER_BINDING)
    }
    compare("draw framebuffer", drawFramebuffer.map(Int.init), GL_DRAW_FRAMEBUFFER_BINDING)
    compare("read framebuffer", readFramebuffer.map(Int.init), GL_READ_FRAMEBUFFER_BINDING)
    compare("renderbuffer", renderbuffer.map(Int.init), GL_RENDERBUFFER_BINDING)
    let active = integer(GL_ACTIVE_TEXTURE) - Int(GL_TEXTURE0)
    if let activeUnit, active != activeUnit {
      out.append("active texture unit: cached \(activeUnit), GL has \(active)")
    }
    // Each unit's bindings: looked at through the active unit, put back after.
    for unit in 0..<DeviceState.textureUnits where textures[unit] != nil || samplers[unit] != nil {
      glActiveTexture(GLenum(GL_TEXTURE0 + Int32(unit)))
      compare("texture on unit \(unit)", textures[unit].map(Int.init), GL_TEXTURE_BINDING_2D)
      compare("sampler on unit \(unit)", samplers[unit].map(Int.init), GL_SAMPLER_BINDING)
    }
    glActiveTexture(GLenum(GL_TEXTURE0 + Int32(active)))
    func compare(_ what: String, _ cached: PixelRect?, rect name: Int32) {
      guard let cached else { return }
      var v = [GLint](repeating: 0, count: 4)
      glGetIntegerv(GLenum(name), &v)
      let actual = PixelRect(x: Int(v[0]), y: Int(v[1]), width: Int(v[2]), height: Int(v[3]))
      if actual != cached { out.append("\(what): cached \(cached), GL has \(actual)") }
    }
    compare("viewport", viewport, rect: GL_VIEWPORT)
    compare("scissor test", scissorTest, capability: GL_SCISSOR_TEST)
    compare("scissor box", scissorBox, rect: GL_SCISSOR_BOX)
    compare("blending", blending, capability: GL_BLEND)
    let blendEquation = state.blendEquation.map { Int(Self.glEquation($0)) }
    compare("blend equation (rgb)", blendEquation, GL_BLEND_EQUATION_RGB)
    compare("blend equation (alpha)", blendEquation, GL_BLEND_EQUATION_ALPHA)
    if let (source, destination) = state.blendFunction {
      let (s, d) = (Int(Self.glFactor(source)), Int(Self.glFactor(destination)))
      compare("blend source", s, GL_BLEND_SRC_RGB)
      compare("blend destination", d, GL_BLEND_DST_RGB)
      compare("blend source (alpha)", s, GL_BLEND_SRC_ALPHA)
      compare("blend destination (alpha)", d, GL_BLEND_DST_ALPHA)
    }
    if let clearColor {
      var c = [GLfloat](repeating: 0, count: 4)
      glGetFloatv(GLenum(GL_COLOR_CLEAR_VALUE), &c)
      let actual = SIMD4(c[0], c[1], c[2], c[3])
      if actual != clearColor { out.append("clear color: cached \(clearColor), GL has \(actual)") }
    }
    compare("pack alignment", packAlignment, GL_PACK_ALIGNMENT)
    compare("pack row length", packRowLength, GL_PACK_ROW_LENGTH)
    compare("unpack alignment", unpackAlignment, GL_UNPACK_ALIGNMENT)
    for (name, capability) in [
      ("depth test", GL_DEPTH_TEST), ("stencil test", GL_STENCIL_TEST),
      ("face culling", GL_CULL_FACE),
      ("rasterizer discard", GL_RASTERIZER_DISCARD),
    ] {
      compare(name, false, capability: capability)
    }
    var mask = [GLboolean](repeating: 0, count: 4)
    glGetBooleanv(GLenum(GL_COLOR_WRITEMASK), &mask)
    if mask.contains(where: { $0 == 0 }) { out.append("color write mask: not every channel") }
    return out
  }
}
