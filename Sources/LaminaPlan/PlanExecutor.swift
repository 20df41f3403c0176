import Foundation
import Lamina
import LaminaFrame

/// Runs frame plans on the GL device: it holds what the passes need on the
/// GPU (programs, vertex streams, image textures, the offscreen pool, the
/// caches of rasters, masks and shadows, `CAOpenGLLayer` framebuffers) and
/// turns each step into device calls. It decides nothing about the frame:
/// the plan says what to draw where; the executor only finds the objects.
package final class PlanExecutor {
  package let device: any GPUDevice
  let samples: Int
  package let programs: ProgramSet
  /// Whether batches of exact rects draw with the plain programs: where
  /// the targets are BGRA (llvmpipe) and not multisampled, so that the
  /// linear rasterizer takes them (`ProgramSet.program(for:plain:)`).
  let plainPrograms: Bool
  /// The most indices of a plain batch's draw call (170 quads).
  static let rectIndicesPerDraw = 1020
  /// The pixels a plain batch covers per draw call it is split into, at
  /// least, for the split: llvmpipe spends 24-40 µs on a draw, and its
  /// linear rasterizer saves about 3 ns a pixel.
  static let rectPixelsPerDraw = 16384
  /// The pixels of its average rect, at least, for the split: the linear
  /// rasterizer's gain on small rects (glyphs) does not pay for the draws
  /// (text.json at 1080p: 48 draws a frame against 1, within the noise).
  static let rectPixelsPerRect = 4096
  package let textures: TextureCache
  package let streams: VertexStreams
  /// Idle offscreen targets, reused across passes and frames.
  let pool: TargetPool
  /// Rasterized subtrees (`shouldRasterize`), kept across frames.
  let rasterCache: RasterCache
  /// Masks and the layers they mask, and blurred shadows, by the signature
  /// of their draw lists: a mask that moves over unchanged content renders
  /// only itself again.
  let maskCache: RasterCache
  /// Framebuffers of `CAOpenGLLayer`s.
  let openGLLayers = OpenGLLayerTargets()
  /// Path programs and the meshes of shape layers (`PlanExecutor+Paths.swift`).
  let paths: PathResources
  /// An executor whose GPU caches keep within their shares of `caches`'
  /// budget (`RenderCaches`).
  package init(
    device: any GPUDevice, samples: Int, maxTextureSize: Int, pool: TargetPool,
    caches: RenderCaches = RenderCaches()
  ) throws {
    self.device = device
    self.samples = samples
    self.pool = pool
    programs = try ProgramSet(device: device)
    plainPrograms = device.texelOrder == .bgra && samples == 1
    textures = TextureCache(maxTextureSize: maxTextureSize, device: device)
    textures.budgetBytes = caches.textureBytes
    rasterCache = RasterCache(maxEntries: 64, maxBytes: caches.rasterBytes)
    maskCache = RasterCache(maxEntries: 32, maxBytes: caches.maskBytes)
    streams = VertexStreams(device: device)
    paths = PathResources(device: device, byteBudget: caches.pathBufferBytes)
  }

  /// The physical targets of a plan being run, by `TargetID.index`.
  struct Bound {
    var targets: [RenderTarget?]
  }

  /// Runs every step of `plan`; `output` sees the canvas after each finished
  /// tile or damaged rect. Pooled targets go back to the pool after their
  /// last use; with the check mode on, GL's state is compared with the
  /// device's cache after every pass.
  package func run(
    _ plan: FramePlan, canvas: RenderTarget, output: (RenderTarget, OutputStep) throws -> Void
  ) throws {
    var bound = Bound(targets: [RenderTarget?](repeating: nil, count: plan.targets.count))
    bound.targets[FramePlan.canvas.index] = canvas
    device.counters.cpuPathRuns += plan.cpuPathRuns
    device.counters.cpuPathItems += plan.cpuPathItems
    device.counters.cpuPathRunsRedrawn += plan.cpuPathRunsRedrawn
    device.counters.cpuPathRunPixels += plan.cpuPathRunPixels
    for (i, step) in plan.steps.enumerated() {
      switch step {
      case .draw(let pass): try draw(pass, plan, &bound)
      case .copy(let copy):
        canvas.heldRun = nil
        try self.copy(copy, plan, &bound)
      case .effect(let effect):
        canvas.heldRun = nil
        try run(effect, plan, &bound)
      case .openGLLayer(let step):
        canvas.heldRun = nil
        try drawOpenGLLayer(step, plan, &bound)
      case .output(let step):
        canvas.resolve()
        try output(canvas, step)
      }
      if case .output = step {} else { device.counters.passes += 1 }
      try device.verify("pass \(i) of the frame plan (\(Self.label(step)))")
      for id in plan.releases[i] {
        if let target = bound.targets[id.index] { pool.give(target) }
        bound.targets[id.index] = nil
      }
    }
  }

  private static func label(_ step: PlanStep) -> String {
    switch step {
    case .draw(let pass): return "draw: \(pass.label)"
    case .copy(let copy): return "copy: \(copy.label)"
    case .effect(let effect): return "effect \(effect.kind)"
    case .openGLLayer: return "CAOpenGLLayer"
    case .output(let output): return "output \(output.tile)"
    }
  }

  /// The physical target of `id`: from the pool or a cache the first time.
  /// A target read before any step drew it is a planner defect: it throws
  /// rather than show what a reused target held.
  private func target(
    _ id: TargetID, _ plan: FramePlan, _ bound: inout Bound, reading: Bool = false
  ) throws -> RenderTarget {
    if let target = bound.targets[id.index] { return target }
    let planned = plan.targets[id.index]
    if reading && planned.isAllocated {
      throw RendererError.missingTarget("a pass reads \(id) (\(planned.label)) before any drew it")
    }
    func fresh() throws -> RenderTarget {
      try pool.take(
        width: planned.width, height: planned.height, samples: samples, device: device)
    }
    let target: RenderTarget
    switch planned.role {
    case .canvas, .pooled:
      target = try fresh()
    case .cached(let key, let hit):
      if hit {
        guard let cached = maskCache.target(key) else {
          throw RendererError.missingTarget("\(id) (\(planned.label)) is not in the cache")
        }
        target = cached
      } else {
        target = try fresh()
        if let replaced = maskCache.insert(key, target) { pool.give(replaced) }
      }
    case .raster(let key, let hit):
      if hit {
        guard let cached = rasterCache.target(key) else {
          throw RendererError.missingTarget(
            "\(id) (\(planned.label)) is not in the raster cache")
        }
        target = cached
      } else {
        target = try fresh()
        if let replaced = rasterCache.insert(key, target) { pool.give(replaced) }
        device.counters.rasterizations += 1
      }
    case .openGLLayer(let key):
      guard let held = openGLLayers.targets[key]?.target else {
        throw RendererError.missingTarget("\(id) (\(planned.label)) has no framebuffer")
      }
      target = held
    }
    bound.targets[id.index] = target
    return target
  }

  // MARK: Draw passes

  /// A texture and the sampler it is read with.
  private struct Sampled {
    var texture: GPUHandle
    var sampler: GPUHandle
  }

  private func sampled(
    _ source: TextureSource, _ sampler: SamplerKey?, _ plan: FramePlan, _ bound: inout Bound
  ) throws -> Sampled {
    let key = sampler ?? FramePlanner.nearest
    let texture: GPUHandle
    switch source {
    case .image(let index): texture = try textures.texture(for: plan.images[index], sampler: key)
    case .target(let id):
      let target = try target(id, plan, &bound, reading: true)
      target.resolve()
      texture = target.texture
    case .dmabuf(let frame): texture = try device.texture(forDMABuf: frame)
    }
    return Sampled(texture: texture, sampler: textures.sampler(key))
  }

  private func draw(_ pass: DrawPass, _ plan: FramePlan, _ bound: inout Bound) throws {
    // What the batches sample comes first: uploads and resolves happen
    // before the target is bound.
    var inputs: [(texture: Sampled?, mask: Sampled?)] = []
    for batch in pass.batches {
      var texture = try batch.texture.map { try sampled($0, batch.sampler, plan, &bound) }
      if let paint = batch.paint {
        // A gradient samples its ramp on unit 0 (it has no other texture).
        texture = Sampled(
          texture: try textures.ramp(for: paint),
          sampler: textures.sampler(batch.sampler ?? FramePlanner.linear))
      }
      inputs.append((texture, try batch.mask.map { try sampled($0, batch.sampler, plan, &bound) }))
    }
    let target = try target(pass.target, plan, &bound)
    // A depth buffer exactly for the passes that draw paths.
    try target.attachDepth(pass.batches.contains { $0.path != nil })
    if device.debugOutput { device.pushDebugGroup(pass.label) }
    defer { if device.debugOutput { device.popDebugGroup() } }
    let area = pass.viewport ?? target.rect
    device.bindFramebuffer(target.drawFramebuffer)
    device.setViewport(area)
    device.setScissor(pass.scissor ?? pass.viewport)
    if let clear = pass.clear, !pass.uploadReplacesClear { device.clear(clear) }
    // The canvas holds the last frame's run image where the upload's is
    // that image (kept, or drawn again over it): only what differs goes.
    let canvas = pass.target == FramePlan.canvas
    var held: (image: UInt64, rect: PixelRect, at: SIMD2<Int>)?
    var upload = pass.upload
    if let (index, rect, written) = upload, canvas {
      let at = SIMD2(area.x - pass.region.x, area.y - pass.region.y)
      if pass.clear == nil || pass.uploadReplacesClear, let since = pass.uploadSince,
        let last = target.heldRun, last.image == since.image, last.rect == rect, last.at == at
      {
        upload?.written = written.intersection(since.damage)
      }
      if written == rect { held = (plan.images[index].identifier, rect, at) }
    }
    if let (index, rect, written) = upload, !written.isEmpty {
      let image = plan.images[index]
      var pixels = image.premultiplied ?? image.pixels
      let order = image.premultiplied == nil ? .rgba : image.premultipliedOrder
      if written != rect {
        var part: [UInt8] = []
        part.reserveCapacity(written.area * 4)
        for y in written.y..<written.maxY {
          let start = ((y - rect.y) * rect.width + written.x - rect.x) * 4
          part += pixels[start..<start + written.width * 4]
        }
        pixels = part
      }
      try device.updateTexture(
        target.texture, pixels, order: order, x: area.x + written.x - pass.region.x,
        y: area.y + written.y - pass.region.y, width: written.width, height: written.height)
    }
    streams.upload(pass.geometry)
    // Region pixels → clip space: the region's origin lands on the
    // viewport's origin; its row 0 holds the region's top row.
    let (w, h) = (Float(area.width), Float(area.height))
    let region = pass.region
    let viewport = SIMD4(2 / w, 2 / h, -2 * Float(region.x) / w - 1, -2 * Float(region.y) / h - 1)
    var prepared: Set<GPUHandle> = []
    for (batch, input) in zip(pass.batches, inputs) {
      device.counters.batchBreaks[batch.breakReason.rawValue, default: 0] += 1
      device.setBlending(true, mode: batch.blend)
      if let path = batch.path {
        try drawPaths(
          path, blend: batch.blend, into: target, viewport: viewport,
          texture: input.texture.map { ($0.texture, $0.sampler) },
          canvasOrigin: SIMD2(Float(region.x - area.x), Float(region.y - area.y)))
        continue
      }
      device.setDepthTest(false)
      if case .composite = batch.blend { device.blendBarrier() }
      streams.bind(effectFormat: batch.usesEffectVertices)
      let program = try programs.program(for: batch, plain: plainPrograms)
      device.useProgram(program.id)
      if prepared.insert(program.id).inserted {
        device.setUniform(program.viewport, viewport)
        if program.canvasOrigin >= 0 {
          // gl_FragCoord counts from the target's corner, not the viewport's.
          device.setUniform(
            program.canvasOrigin, Float(region.x - area.x), Float(region.y - area.y))
        }
      }
      if let paint = batch.paint, let ramp = input.texture {
        try GradientProgram.set(
          paint, on: program, ramp: ramp.texture, sampler: ramp.sampler, device: device)
      } else if let texture = input.texture {
        device.bindTexture(texture.texture, unit: 0, sampler: texture.sampler)
      }
      if let mask = input.mask { device.bindTexture(mask.texture, unit: 1, sampler: mask.sampler) }
      let pieces = (batch.indexCount + Self.rectIndicesPerDraw - 1) / Self.rectIndicesPerDraw
      if pieces > 1, programs.isPlain(program),
        batch.area >= pieces * Self.rectPixelsPerDraw
          && batch.area >= batch.items * Self.rectPixelsPerRect
      {
        // Mesa's draw module hands llvmpipe's rectangle finder indexed
        // draws in pieces of up to 1,024 indices, and finds no rect in a
        // piece that is not whole quads: pieces of 170 quads, where they
        // cover enough pixels to pay for the draws (else one draw, the
        // plain program in the general rasterizer).
        var first = batch.firstIndex
        let end = batch.firstIndex + batch.indexCount
        while first < end {
          let count = min(Self.rectIndicesPerDraw, end - first)
          device.drawTriangles(indexCount: count, firstIndex: first)
          first += count
        }
      } else {
        device.drawTriangles(indexCount: batch.indexCount, firstIndex: batch.firstIndex)
      }
    }
    device.setDepthTest(false)
    if canvas { target.heldRun = pass.batches.isEmpty ? held : nil }
    target.didDraw(pass.scissor ?? pass.viewport)
    if pass.clear != nil && pass.target != FramePlan.canvas { device.counters.offscreenPasses += 1 }
  }

  // MARK: Copies and full-target passes

  private func copy(_ copy: CopyPass, _ plan: FramePlan, _ bound: inout Bound) throws {
    let source = try target(copy.source, plan, &bound, reading: true)
    let destination = try target(copy.destination, plan, &bound)
    // From the texture: a multisampled blit must keep its rect in place.
    source.resolve()
    device.blit(
      from: source.resolveFramebuffer, copy.rect, to: destination.resolveFramebuffer,
      PixelRect(x: 0, y: 0, width: copy.rect.width, height: copy.rect.height))
    device.counters.offscreenPasses += 1
  }

  private func run(_ effect: EffectPass, _ plan: FramePlan, _ bound: inout Bound) throws {
    var inputs: [RenderTarget] = []
    for id in effect.inputs {
      let input = try target(id, plan, &bound, reading: true)
      input.resolve()
      inputs.append(input)
    }
    let output = try target(effect.output, plan, &bound)
    device.bindFramebuffer(output.drawFramebuffer)
    device.setViewport(effect.viewport)
    device.setScissor(effect.scissor)
    device.setBlending(false)
    device.bindVertexArray(streams.empty)
    let p = programs
    let program: GPUProgram
    switch effect.kind {
    case .colorMatrix(let matrix, let bias):
      program = p.colorMatrix
      device.useProgram(program.id)
      device.setUniform(program.uniform("u_matrix"), matrix4Rows: matrix)
      device.setUniform(program.uniform("u_bias"), bias)
    case .blur(let dx, let dy, let sigma):
      program = p.blur
      device.useProgram(program.id)
      device.setUniform(program.uniform("u_direction"), dx, dy)
      device.setUniform(program.uniform("u_sigma"), sigma)
    case .downsample(let factor):
      program = p.downsample
      device.useProgram(program.id)
      device.setUniform(program.uniform("u_factor"), int: factor)
    case .upsample(let factor):
      program = p.upsample
      device.useProgram(program.id)
      device.setUniform(program.uniform("u_factor"), Float(factor))
    case .blend(let mode, _, let x, let y, let sourceX, let sourceY, let opacity):
      program = p.blendFallback
      device.useProgram(program.id)
      device.setUniform(program.uniform("u_origin"), int: x, y)
      device.setUniform(program.uniform("u_source"), int: sourceX, sourceY)
      device.setUniform(program.uniform("u_mode"), int: mode)
      device.setUniform(program.uniform("u_opacity"), opacity)
    }
    let sampler = textures.sampler(effect.sampler)
    for (unit, input) in inputs.enumerated() {
      device.bindTexture(input.texture, unit: unit, sampler: sampler)
    }
    device.drawFullTarget()
    output.didDraw(effect.scissor ?? effect.viewport)
    // A blend draws into the pass it interrupts; the others make a target.
    if case .blend = effect.kind {} else { device.counters.offscreenPasses += 1 }
  }

  // MARK: Frames

  /// Lets the caches age, keeps what they evict for reuse.
  package func endFrame() {
    textures.endFrame()
    paths.buffers.endFrame()
    pool.give(rasterCache.endFrame())
    pool.give(maskCache.endFrame())
    openGLLayers.dropFreed()
  }
}

extension PlanExecutor: PlanCaches {
  package func holdsCachedPass(_ key: Int) -> Bool { maskCache.contains(key) }
  package func holdsRaster(_ key: Int) -> Bool { rasterCache.contains(key) }
  package func openGLLayerNeedsDrawing(_ pass: GLLayerPass) -> Bool {
    openGLLayers.needsDrawing(pass)
  }
}
