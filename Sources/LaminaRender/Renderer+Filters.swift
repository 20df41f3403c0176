import CGLES3
import Foundation

extension Renderer {
  /// Renders a filtered group: its commands into a target covering its
  /// bounds, then each filter as passes over that target (a color filter in
  /// one pass, a blur as a downsample when wide and two separable passes),
  /// leaving the result for `compositeItem`.
  func prepareFiltered(_ group: GroupPass, region: PixelRect) throws {
    guard let chain = group.filter else { return }
    // The whole group is filtered, not just the part in this tile: a blur
    // reads across tile edges.
    let canvas = group.bounds
    guard !canvas.isEmpty, canvas.intersects(region) else { return }
    try prepareGroups(group.commands, region: canvas)
    var current = try acquireTarget(width: canvas.width, height: canvas.height)
    debugGroup("filters \(group.id) \(canvas): \(group.reason)")
    defer { debugGroupEnd() }
    device.bindFramebuffer(current.drawFramebuffer)
    device.setViewport(0, 0, canvas.width, canvas.height)
    device.clear(.zero)
    try drawCommands(group.commands, region: canvas, targetSize: (current.width, current.height))
    current.resolve(device: device)
    device.counters.offscreenPasses += 1

    device.setBlending(false)
    glBindVertexArray(emptyVertexArray)
    defer {
      glBindVertexArray(vertexArrayForPlainItems)
      device.setBlending(true)
    }
    let linear = textures.sampler(SamplerKey(minification: .linear, magnification: .linear))
    let nearest = textures.sampler(SamplerKey(minification: .nearest, magnification: .nearest))
    // Blurs work at full size here: the result is shown pixel for pixel.
    func pass(_ program: GLProgram, setUp: () -> Void) throws {
      let next = try acquireTarget(width: current.width, height: current.height)
      device.bindFramebuffer(next.drawFramebuffer)
      device.setViewport(0, 0, next.width, next.height)
      device.useProgram(program.id)
      setUp()
      device.drawFullTarget()
      next.resolve(device: device)
      pool.append(current)
      current = next
      device.counters.offscreenPasses += 1
    }
    for stage in chain.stages {
      switch stage {
      case .color(let matrix, let bias):
        try pass(programs.colorMatrix) {
          // Rows in, columns out: GL wants the transpose of row-major.
          matrix.withUnsafeBufferPointer {
            glUniformMatrix4fv(programs.colorMatrix.uniform("u_matrix"), 1, GLboolean(GL_TRUE), $0.baseAddress)
          }
          glUniform4f(programs.colorMatrix.uniform("u_bias"), bias.x, bias.y, bias.z, bias.w)
          device.bindTexture(current.texture, sampler: nearest)
        }
      case .blur(let sigma):
        for direction in [(Float(1), Float(0)), (Float(0), Float(1))] {
          try pass(programs.blur) {
            glUniform2f(programs.blur.uniform("u_direction"), direction.0, direction.1)
            glUniform1f(programs.blur.uniform("u_sigma"), sigma)
            device.bindTexture(current.texture, sampler: linear)
          }
        }
      }
    }
    groupTargets[group.id] = current
  }
}
