import CGLES3
import Foundation
import Lamina

extension Renderer {
  /// Renders a filtered group: its commands into a target covering its
  /// bounds, then each filter as passes over that target (a color filter in
  /// one pass, a blur in two separable passes, downsampled when large and
  /// scaled back so that the result is shown pixel for pixel), leaving the
  /// result for `compositeItem`.
  func prepareFiltered(_ group: GroupPass, region: PixelRect) throws {
    guard let chain = group.filter else { return }
    // The whole group is filtered, not just the part in this tile: a blur
    // reads across tile edges.
    let canvas = group.bounds
    guard !canvas.isEmpty, canvas.intersects(region) else { return }
    let source = try renderOffscreen(
      group.commands, canvas: canvas, label: "filters \(group.id): \(group.reason)")
    groupTargets[group.id] = try filter(source, with: chain)
  }

  /// Runs `chain` over `source` (which goes back to the pool): a color
  /// filter in one pass, a blur in two.
  func filter(_ source: RenderTarget, with chain: FilterChain) throws -> RenderTarget {
    let linear = textures.sampler(SamplerKey(minification: .linear, magnification: .linear))
    let nearest = textures.sampler(SamplerKey(minification: .nearest, magnification: .nearest))
    return try withPassState {
      var current = source
      for stage in chain.stages {
        switch stage {
        case .color(let matrix, let bias):
          let program = programs.colorMatrix
          current = try fullTargetPass(
            from: current, width: current.width, height: current.height, program: program,
            sampler: nearest
          ) {
            // The matrix is given by rows: GL transposes it into its columns.
            matrix.withUnsafeBufferPointer {
              glUniformMatrix4fv(program.uniform("u_matrix"), 1, GLboolean(GL_TRUE), $0.baseAddress)
            }
            glUniform4f(program.uniform("u_bias"), bias.x, bias.y, bias.z, bias.w)
          }
        case .blur(let sigma):
          current = try blurFilter(current, sigma: sigma, sampler: linear)
        }
      }
      return current
    }
  }

  /// A Gaussian blur of `sigma` texels that keeps `source`'s size: a large
  /// one runs downsampled as the shadows' does, then scales back up, so an
  /// 8-point blur at 6× costs what a 4-pixel one does.
  func blurFilter(_ source: RenderTarget, sigma: Float, sampler: GLuint) throws -> RenderTarget {
    let factor = Self.blurDownsampleFactor(sigma: sigma)
    guard factor > 1 else { return try blurPasses(from: source, sigma: sigma, sampler: sampler) }
    let (width, height) = (source.width, source.height)
    let blurred = try downsampledBlur(source, sigma: sigma, factor: factor, sampler: sampler)
    return try fullTargetPass(
      from: blurred, width: width, height: height, program: programs.upsample, sampler: sampler
    ) {
      glUniform1f(programs.upsample.uniform("u_factor"), Float(factor))
    }
  }

  /// The factor a blur of `sigma` texels runs downsampled by: the largest
  /// power of two up to 16 that keeps at least 3 texels a sigma.
  static func blurDownsampleFactor(sigma: Float) -> Int {
    var factor = 1
    while Float(factor) * 3 < sigma && factor < 16 { factor *= 2 }
    return factor
  }

  /// `source` box-filtered down by `factor` and blurred at that size, so
  /// that shown bilinearly at full size it is a Gaussian of `sigma` texels:
  /// the downsample (variance f²/12) and the bilinear upsample (f²/6)
  /// already blur, so the passes take what is left. `source` goes back to
  /// the pool; the result is the small target.
  func downsampledBlur(
    _ source: RenderTarget, sigma: Float, factor: Int, sampler: GLuint
  ) throws -> RenderTarget {
    var current = source
    if factor > 1 {
      current = try fullTargetPass(
        from: current, width: (source.width + factor - 1) / factor,
        height: (source.height + factor - 1) / factor, program: programs.downsample,
        sampler: sampler
      ) {
        glUniform1i(programs.downsample.uniform("u_factor"), GLint(factor))
      }
    }
    let f = Float(factor)
    let residual = factor > 1 ? sigma * sigma - f * f / 4 : sigma * sigma
    let passSigma = max(residual, 0).squareRoot() / f
    if passSigma > 0.3 {
      current = try blurPasses(from: current, sigma: passSigma, sampler: sampler)
    }
    return current
  }

  /// Captures what the bound target shows behind a backdrop group (its
  /// bounds and the filter's reach, within `region`), filters it, and
  /// leaves it for `compositeItem`, which draws it through the group's clip.
  func prepareBackdrop(_ group: GroupPass, region: PixelRect) throws {
    guard let chain = group.filter else { return }
    let reach = chain.reach
    let canvas = PixelRect(
      x: group.bounds.x - reach, y: group.bounds.y - reach,
      width: group.bounds.width + 2 * reach, height: group.bounds.height + 2 * reach
    ).intersection(region)
    guard !canvas.isEmpty else { return }
    let copy = try acquireTarget(width: canvas.width, height: canvas.height)
    // Target rows run as canvas rows: the region's origin is the target's.
    let x = GLint(canvas.x - region.x)
    let y = GLint(canvas.y - region.y)
    glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), device.framebuffer)
    glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), copy.resolveFramebuffer)
    glBlitFramebuffer(
      x, y, x + GLint(canvas.width), y + GLint(canvas.height), 0, 0, GLint(canvas.width),
      GLint(canvas.height), GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    device.invalidateFramebuffer()
    device.counters.offscreenPasses += 1
    groupTargets[group.id] = try filter(copy, with: chain)
    backdropCanvas[group.id] = canvas
  }

  // MARK: Offscreen passes shared by shadows and filters

  /// Renders `commands` (their inner groups first) into a new target
  /// covering `canvas` (target pixels).
  func renderOffscreen(_ commands: [DrawCommand], canvas: PixelRect, label: String) throws
    -> RenderTarget
  {
    try prepareGroups(commands, region: canvas)
    let target = try acquireTarget(width: canvas.width, height: canvas.height)
    debugGroup(label)
    defer { debugGroupEnd() }
    device.bindFramebuffer(target.drawFramebuffer)
    device.setViewport(0, 0, canvas.width, canvas.height)
    device.clear(.zero)
    try drawCommands(commands, region: canvas, targetSize: (target.width, target.height))
    target.resolve(device: device)
    device.counters.offscreenPasses += 1
    return target
  }

  /// Runs `body` with the state full-target passes need (no blending, the
  /// attribute-less vertex array), restoring the drawing state after.
  func withPassState<T>(_ body: () throws -> T) rethrows -> T {
    device.setBlending(false)
    glBindVertexArray(emptyVertexArray)
    defer {
      glBindVertexArray(vertexArrayForPlainItems)
      device.setBlending(true)
    }
    return try body()
  }

  /// One pass of `program` over a new `width`×`height` target, reading
  /// `source` (which goes back to the pool); `setUp` sets the uniforms.
  func fullTargetPass(
    from source: RenderTarget, width: Int, height: Int, program: GLProgram, sampler: GLuint,
    setUp: () -> Void
  ) throws -> RenderTarget {
    let next = try acquireTarget(width: width, height: height)
    device.bindFramebuffer(next.drawFramebuffer)
    device.setViewport(0, 0, width, height)
    device.useProgram(program.id)
    setUp()
    device.bindTexture(source.texture, sampler: sampler)
    device.drawFullTarget()
    next.resolve(device: device)
    pool.append(source)
    device.counters.offscreenPasses += 1
    return next
  }

  /// A separable Gaussian of `sigma` texels: a horizontal pass, then a vertical one.
  func blurPasses(from source: RenderTarget, sigma: Float, sampler: GLuint) throws -> RenderTarget {
    var current = source
    for direction in [(Float(1), Float(0)), (Float(0), Float(1))] {
      current = try fullTargetPass(
        from: current, width: current.width, height: current.height, program: programs.blur,
        sampler: sampler
      ) {
        glUniform2f(programs.blur.uniform("u_direction"), direction.0, direction.1)
        glUniform1f(programs.blur.uniform("u_sigma"), sigma)
      }
    }
    return current
  }
}

extension Renderer {
  /// A blended item or group without the blend equations: its rendering
  /// (the group's target, or the item drawn offscreen) and a copy of what
  /// the target shows behind it go through `blend.frag`, which writes the
  /// blended result over the area.
  func drawBlendFallback(
    _ command: DrawCommand, region: PixelRect, targetSize: (Int, Int)
  ) throws {
    guard let name = command.blendModeName,
      let mode = CIFilter.blendModeNames.firstIndex(of: name)
    else { return }
    let framebuffer = device.framebuffer
    // The offscreen rendering and the copy cover the whole area; only the
    // final draw keeps to a damaged rect.
    if scissored { glDisable(GLenum(GL_SCISSOR_TEST)) }
    defer { if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) } }
    var group: GroupPass
    switch command {
    case .group(let g): group = g
    case .item(var item):
      item.blend = .sourceOver
      fallbackGroupID -= 1
      group = GroupPass(
        id: fallbackGroupID, bounds: item.bounds, opacity: 1, commands: [.item(item)],
        reason: "\(name) without blend equations")
      try prepare(group, region: region)
    }
    let area = group.bounds.intersection(region)
    guard !area.isEmpty, let source = groupTargets[group.id] else { return }
    let backdrop = try acquireTarget(width: area.width, height: area.height)
    defer { pool.append(backdrop) }
    let x = GLint(area.x - region.x)
    let y = GLint(area.y - region.y)
    glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), framebuffer)
    glBindFramebuffer(GLenum(GL_DRAW_FRAMEBUFFER), backdrop.resolveFramebuffer)
    glBlitFramebuffer(
      x, y, x + GLint(area.width), y + GLint(area.height), 0, 0, GLint(area.width),
      GLint(area.height), GLbitfield(GL_COLOR_BUFFER_BIT), GLenum(GL_NEAREST))
    device.invalidateFramebuffer()
    device.counters.offscreenPasses += 1
    if scissored { glEnable(GLenum(GL_SCISSOR_TEST)) }
    device.bindFramebuffer(framebuffer)
    device.setViewport(Int(x), Int(y), area.width, area.height)
    let program = programs.blendFallback
    let nearest = textures.sampler(SamplerKey(minification: .nearest, magnification: .nearest))
    withPassState {
      device.useProgram(program.id)
      glUniform2i(program.uniform("u_origin"), x, y)
      glUniform1i(program.uniform("u_mode"), GLint(mode))
      glUniform1f(program.uniform("u_opacity"), group.opacity)
      device.bindTexture(source.texture, sampler: nearest)
      device.bindMask(backdrop.texture, sampler: nearest)
      device.drawFullTarget()
    }
    device.setViewport(0, 0, targetSize.0, targetSize.1)
  }
}
