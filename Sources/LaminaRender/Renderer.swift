import CGLES3
import Foundation
import Lamina

/// Draws frames with OpenGL ES into offscreen targets and reads them back.
///
/// ```swift
/// let renderer = try Renderer()
/// let image = try renderer.render(layer: root, size: CGSize(width: 320, height: 240), scale: 2)
/// try image.writePNG(to: URL(fileURLWithPath: "out.png"))
/// ```
public final class Renderer {
  public let context: GPUContext
  /// How edges are antialiased.
  public let antialiasing: Antialiasing
  /// Multisamples per pixel of the targets (1 unless multisampling).
  public let samples: Int
  /// Largest texture side the GPU accepts.
  public let maxTextureSize: Int
  /// Largest tile rendered in one go; larger canvases render in tiles.
  public let maxTileSize: Int
  /// What the last frame cost, counted.
  public var counters: RenderCounters { device.counters }
  /// CPU time the last frame spent turning the draw list into vertices and
  /// GL calls (the GPU may still be working when it ends), in milliseconds.
  public private(set) var lastEncodeMilliseconds = 0.0

  let device = GLDevice()
  let programs: ProgramSet
  let textures: TextureCache
  private var vertexBuffer: GLuint = 0
  private var indexBuffer: GLuint = 0
  private var vertexArray: GLuint = 0
  var vertexArrayForPlainItems: GLuint { vertexArray }
  /// The effect vertex format's own array and buffers (`Renderer+Effects.swift`).
  var effectVertexArray: GLuint = 0
  var effectVertexBuffer: GLuint = 0
  var effectIndexBuffer: GLuint = 0
  /// An array with no attributes, for full-target passes.
  var emptyVertexArray: GLuint = 0
  var pool: [RenderTarget] = []
  var groupTargets: [Int: RenderTarget] = [:]
  /// Texture coordinates of the blurred canvas's far corner, per shadow group.
  var shadowExtents: [Int: (Float, Float)] = [:]
  /// Framebuffers of `CAOpenGLLayer`s.
  let glLayerTargets = GLLayerTargets()
  /// Textures of dma-buf frames.
  lazy var dmabufImport = DMABufImport(display: context.display)
  /// What each backdrop group captured, in canvas pixels, this tile.
  var backdropCanvas: [Int: PixelRect] = [:]
  /// Rasterized subtrees (`shouldRasterize`), kept across frames.
  let rasterCache = RasterCache()
  /// Masks and the layers they mask, rendered offscreen, by the signature
  /// of their draw lists: a mask that moves over unchanged content renders
  /// only itself again.
  let maskCache = RasterCache(maxEntries: 32, maxPixels: 8 << 20)
  /// Groups whose targets belong to `maskCache` this frame (not pooled).
  var cachedGroupIDs: Set<Int> = []
  /// Effect shader variants, compiled as items need them.
  let effectPrograms = EffectPrograms()
  var canvasTarget: RenderTarget?
  var blendEquationsWanted = true
  /// Whether the canvas is being drawn scissored (a damaged rect): passes
  /// that copy between targets lift the scissor while they do.
  var scissored = false
  /// Ids of the groups made for blended items without the blend equations
  /// (negative, so that they never meet the frame builder's).
  var fallbackGroupID = 0

  /// Whether blend modes (`compositingFilter`) use the GPU's advanced blend
  /// equations (KHR_blend_equation_advanced). Where the GPU lacks them, or
  /// when this is set to false, each blended layer is drawn by a shader
  /// from its offscreen rendering and a copy of what is behind it: the same
  /// formulas, one copy and one pass the size of the layer more.
  public var usesBlendEquations: Bool {
    get { blendEquationsWanted && programs.solidBlend != nil }
    set { blendEquationsWanted = newValue }
  }

  /// The largest image this renderer writes, in pixels (1 GiB of RGBA).
  public static let maxCanvasPixels = 1 << 28

  /// A renderer on `context` (the process's shared context by default).
  /// - Parameters:
  ///   - antialiasing: `.automatic` computes edge coverage in the shaders
  ///     everywhere and adds 4× multisampled targets on hardware GPUs; on a
  ///     software rasterizer multisampling would cost over three times the
  ///     fill, so it is left out there.
  ///   - maxTileSize: the largest tile side (canvases above it render in tiles).
  public init(
    context: GPUContext? = nil, antialiasing: Antialiasing = .automatic,
    maxTileSize tile: Int = 4096
  ) throws {
    let context = try context ?? GPUContext.shared()
    context.makeCurrent()
    self.context = context
    var value: GLint = 0
    glGetIntegerv(GLenum(GL_MAX_SAMPLES), &value)
    let maxSamples = max(1, Int(value))
    var mode = antialiasing
    if mode == .automatic {
      mode = context.info.isSoftwareRenderer || maxSamples < 4 ? .edges : .combined(4)
    }
    switch mode {
    case .multisample(let n) where n <= 1 || maxSamples <= 1,
      .combined(let n) where n <= 1 || maxSamples <= 1:
      mode = .edges
    case .multisample(let n): mode = .multisample(min(n, maxSamples))
    case .combined(let n): mode = .combined(min(n, maxSamples))
    default: break
    }
    self.antialiasing = mode
    switch mode {
    case .multisample(let n), .combined(let n): samples = n
    default: samples = 1
    }
    glGetIntegerv(GLenum(GL_MAX_TEXTURE_SIZE), &value)
    maxTextureSize = Int(value)
    glGetIntegerv(GLenum(GL_MAX_RENDERBUFFER_SIZE), &value)
    maxTileSize = max(16, min(Int(value), maxTextureSize, tile))
    programs = try ProgramSet()
    textures = TextureCache(maxTextureSize: maxTextureSize)
    glGenVertexArrays(1, &vertexArray)
    glBindVertexArray(vertexArray)
    glGenBuffers(1, &vertexBuffer)
    glGenBuffers(1, &indexBuffer)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
    Self.vertexAttribute(0, 3, GL_FLOAT, normalized: false, \Vertex.x)
    Self.vertexAttribute(1, 2, GL_FLOAT, normalized: false, \Vertex.u)
    Self.vertexAttribute(2, 4, GL_UNSIGNED_BYTE, normalized: true, \Vertex.color)
    Self.vertexAttribute(3, 4, GL_FLOAT, normalized: false, \Vertex.edges)
    Self.vertexAttribute(4, 4, GL_FLOAT, normalized: false, \Vertex.texClamp)
    setUpEffectVertexArray()
    glBindVertexArray(vertexArray)
    device.invalidate()
    try device.check("renderer setup")
  }

  deinit {
    context.makeCurrent()
    pool.removeAll()
    groupTargets.removeAll()
    canvasTarget = nil
    glDeleteBuffers(1, &vertexBuffer)
    glDeleteBuffers(1, &indexBuffer)
    glDeleteVertexArrays(1, &vertexArray)
    tearDownEffectVertexArray()
  }

  /// Renders `layer` on a canvas of `size` points at `scale` and reads it back.
  public func render(
    layer: CALayer, size: CGSize, scale: CGFloat = 1, background: CGColor? = nil
  ) throws -> RenderedImage {
    layer.layoutIfNeeded()
    var builder = FrameBuilder(size: size, scale: scale)
    let frame = builder.build(root: layer, background: background)
    return try render(frame)
  }

  /// Draws `frame` and reads back its pixels (tile by tile when the canvas is
  /// larger than one target).
  public func render(_ frame: Frame) throws -> RenderedImage {
    try checkSize(frame)
    var pixels = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
    try draw(frame) { target, tile in
      if tile.width == frame.width {
        pixels.withUnsafeMutableBytes { raw in
          target.read(into: raw.baseAddress! + tile.y * frame.width * 4, device: self.device)
        }
      } else {
        let corner = PixelRect(x: 0, y: 0, width: tile.width, height: tile.height)
        self.read(corner, of: target, into: &pixels, at: tile, canvasWidth: frame.width)
      }
    }
    return RenderedImage(width: frame.width, height: frame.height, premultipliedPixels: pixels)
  }

  /// Draws only `damage` of `frame` over `previous`, the image of the frame
  /// the damage was computed from, and returns the new image: pixel for
  /// pixel the image `render(frame)` gives, for the cost of the damaged
  /// area. Each damaged rect is cleared and drawn scissored on the canvas
  /// target with the whole canvas's mapping (so every fragment sees the
  /// same values as in a full redraw) and only it is read back. A frame
  /// whose size differs from `previous`, or that `partialRects` says is
  /// better drawn whole, is drawn whole.
  public func render(
    _ frame: Frame, updating previous: RenderedImage, damage: Damage
  ) throws -> RenderedImage {
    try checkSize(frame)
    guard previous.width == frame.width, previous.height == frame.height,
      let rects = partialRects(frame, damage: damage)
    else { return try render(frame) }
    if rects.isEmpty { return previous }
    var pixels = previous.premultipliedPixels
    try draw(frame, damage: rects) { target, rect in
      self.read(rect, of: target, into: &pixels, at: rect, canvasWidth: frame.width)
    }
    return RenderedImage(width: frame.width, height: frame.height, premultipliedPixels: pixels)
  }

  /// Reads `rect` of `target` and writes it into the canvas `pixels` at
  /// `destination` (same size).
  private func read(
    _ rect: PixelRect, of target: RenderTarget, into pixels: inout [UInt8],
    at destination: PixelRect, canvasWidth: Int
  ) {
    var buffer = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
    buffer.withUnsafeMutableBytes { target.read(rect, into: $0.baseAddress!, device: device) }
    let rowBytes = rect.width * 4
    for row in 0..<rect.height {
      let to = ((destination.y + row) * canvasWidth + destination.x) * 4
      pixels.replaceSubrange(
        to..<to + rowBytes, with: buffer[row * rowBytes..<(row + 1) * rowBytes])
    }
  }

  /// The rects to redraw `frame` by, from its `damage` (empty: nothing
  /// changed), or nil when it is better drawn whole: background filters
  /// read what is behind them across the layer, a canvas larger than a
  /// tile has no single target to keep, and rects covering half the canvas
  /// or more would draw parts of it twice where one pass costs less.
  func partialRects(_ frame: Frame, damage: Damage) -> [PixelRect]? {
    guard frame.width <= maxTileSize, frame.height <= maxTileSize,
      !Self.hasBackdrop(frame.commands)
    else { return nil }
    let rects = damage.rects.filter { !$0.isEmpty }
    return rects.reduce(0, { $0 + $1.area }) * 2 >= frame.width * frame.height ? nil : rects
  }

  static func hasBackdrop(_ commands: [DrawCommand]) -> Bool {
    commands.contains {
      guard case .group(let g) = $0 else { return false }
      return g.backdrop || hasBackdrop(g.commands)
        || (g.mask.map { hasBackdrop($0.commands) } ?? false)
    }
  }

  /// Draws `frame` without reading it back (what the benchmark times), tile
  /// by tile; `tileDone` sees each finished tile's target.
  public func draw(_ frame: Frame) throws {
    try checkSize(frame)
    try draw(frame) { _, _ in }
  }

  /// Waits until the GPU has finished every command.
  public func finish() { glFinish() }

  func checkSize(_ frame: Frame) throws {
    guard frame.width > 0, frame.height > 0 else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height, limit: "it is empty")
    }
    guard frame.width * frame.height <= Self.maxCanvasPixels else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height,
        limit: "more than \(Self.maxCanvasPixels) pixels")
    }
    try FrameLimits.check(frame)
  }

  private func draw(_ frame: Frame, tileDone: (RenderTarget, PixelRect) throws -> Void) throws {
    try draw(frame, damage: nil, tileDone: tileDone)
  }

  /// Draws `frame` tile by tile, or (on a one-tile canvas) only the `damage`
  /// rects, scissored.
  func draw(
    _ frame: Frame, damage: [PixelRect]?, tileDone: (RenderTarget, PixelRect) throws -> Void
  ) throws {
    context.makeCurrent()
    // Another renderer on the same context may have bound its own state.
    restoreDrawingState()
    device.counters = RenderCounters()
    let start = DispatchTime.now().uptimeNanoseconds
    defer { lastEncodeMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
    let tileWidth = min(frame.width, maxTileSize)
    let tileHeight = min(frame.height, maxTileSize)
    if canvasTarget?.width != tileWidth || canvasTarget?.height != tileHeight {
      canvasTarget = nil
      canvasTarget = try RenderTarget(width: tileWidth, height: tileHeight, samples: samples)
    }
    guard let target = canvasTarget else { return }
    if let damage {
      let canvas = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
      for rect in damage {
        let touching = frame.commands.filter { $0.bounds.intersects(rect) }
        try prepareGroups(touching, region: canvas)
        debugGroup("damaged \(rect)")
        defer { debugGroupEnd() }
        device.bindFramebuffer(target.drawFramebuffer)
        device.setViewport(0, 0, tileWidth, tileHeight)
        // Target rows run as canvas rows, so the rect is its own scissor.
        glScissor(GLint(rect.x), GLint(rect.y), GLsizei(rect.width), GLsizei(rect.height))
        glEnable(GLenum(GL_SCISSOR_TEST))
        scissored = true
        defer {
          glDisable(GLenum(GL_SCISSOR_TEST))
          scissored = false
        }
        device.clear(frame.background)
        try drawCommands(touching, region: canvas, targetSize: (tileWidth, tileHeight))
        // Only the rect: the rest of the texture may be retained (a display).
        target.resolve(device: device, rect: rect)
        try tileDone(target, rect)
        releaseGroupTargets()
      }
      try endFrame()
      return
    }
    var y = 0
    while y < frame.height {
      var x = 0
      while x < frame.width {
        let tile = PixelRect(
          x: x, y: y, width: min(tileWidth, frame.width - x),
          height: min(tileHeight, frame.height - y))
        try prepareGroups(frame.commands, region: tile)
        debugGroup("canvas tile \(tile)")
        defer { debugGroupEnd() }
        device.bindFramebuffer(target.drawFramebuffer)
        device.setViewport(0, 0, tileWidth, tileHeight)
        device.clear(frame.background)
        try drawCommands(frame.commands, region: tile, targetSize: (tileWidth, tileHeight))
        target.resolve(device: device)
        try tileDone(target, tile)
        releaseGroupTargets()
        x += tileWidth
      }
      y += tileHeight
    }
    try endFrame()
  }

  /// Lets caches age and checks for GL errors once per frame.
  private func endFrame() throws {
    textures.endFrame(device: device)
    rasterCache.endFrame()
    pool.append(contentsOf: maskCache.endFrame())
    if pool.count > 8 { pool.removeFirst(pool.count - 8) }
    try device.check("frame")
  }

  // MARK: Offscreen groups

  /// Renders every group in `commands` (inner groups first) into a texture
  /// covering its bounds within `region`.
  func prepareGroups(_ commands: [DrawCommand], region: PixelRect) throws {
    for command in commands {
      switch command {
      case .group(let group) where group.backdrop: continue  // captured while drawing
      case .group(let group): try prepare(group, region: region)
      case .item(let item):
        if case .raster(let pass) = item.material { try prepareRaster(pass) }
        if case .glLayer(let pass) = item.material { try prepareGLLayer(pass) }
      }
    }
  }

  /// Renders one group (its inner groups and mask first) into a texture
  /// covering its bounds within `region`; a shadow group is blurred too.
  func prepare(_ group: GroupPass, region: PixelRect, isMask: Bool = false) throws {
    // Pieces of one group split by depth sorting share its rendering.
    if groupTargets[group.id] != nil { return }
    if group.shadow != nil {
      try prepareShadow(group)
      return
    }
    if group.filter != nil {
      try prepareFiltered(group, region: region)
      return
    }
    let area = group.bounds.intersection(region)
    guard !area.isEmpty else { return }
    if let mask = group.mask { try prepare(mask, region: area, isMask: true) }
    var key: Int?
    if isMask || group.mask != nil {
      var hasher = Hasher()
      RasterSignature.combine(area, &hasher)
      RasterSignature.combine(group.commands, groupBase: 0, into: &hasher)
      key = hasher.finalize()
      if let key, let cached = maskCache.target(key) {
        groupTargets[group.id] = cached
        cachedGroupIDs.insert(group.id)
        return
      }
    }
    try prepareGroups(group.commands, region: area)
    let target = try acquireTarget(width: area.width, height: area.height)
    debugGroup("group \(group.id) \(area): \(group.reason)")
    defer { debugGroupEnd() }
    device.bindFramebuffer(target.drawFramebuffer)
    device.setViewport(0, 0, area.width, area.height)
    device.clear(.zero)
    try drawCommands(group.commands, region: area, targetSize: (target.width, target.height))
    target.resolve(device: device)
    groupTargets[group.id] = target
    if let key {
      maskCache.insert(key, target)
      cachedGroupIDs.insert(group.id)
    }
    device.counters.offscreenPasses += 1
  }

  /// Binds this renderer's vertex arrays and buffers and forgets the cached
  /// state (another renderer, or a `CAOpenGLLayer`, may have changed it).
  func restoreDrawingState() {
    glBindVertexArray(vertexArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
    glUseProgram(0)
    glDisable(GLenum(GL_SCISSOR_TEST))
    glDisable(GLenum(GL_DEPTH_TEST))
    glDisable(GLenum(GL_STENCIL_TEST))
    glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
    device.invalidate()
  }

  /// Opens a KHR_debug group for a pass when GL debugging was asked for.
  func debugGroup(_ name: @autoclosure () -> String) {
    if context.debugOutput { GLDebug.pushGroup(name()) }
  }

  func debugGroupEnd() {
    if context.debugOutput { GLDebug.popGroup() }
  }

  func acquireTarget(width: Int, height: Int) throws -> RenderTarget {
    if let i = pool.firstIndex(where: { $0.width == width && $0.height == height }) {
      return pool.remove(at: i)
    }
    return try RenderTarget(width: width, height: height, samples: samples)
  }

  private func releaseGroupTargets() {
    for (id, target) in groupTargets where !cachedGroupIDs.contains(id) { pool.append(target) }
    groupTargets.removeAll()
    cachedGroupIDs.removeAll()
    shadowExtents.removeAll()
    backdropCanvas.removeAll()
    // Keep the pool small: targets are cheap to make and expensive to hold.
    if pool.count > 8 { pool.removeFirst(pool.count - 8) }
  }

  // MARK: Drawing a list

  private struct Batch {
    var blend: BlendMode
    var program: GLProgram
    var texture: GLuint
    var sampler: GLuint
    var mask: GLuint
    var effect: Bool
    var firstIndex: Int
    var indexCount: Int
    /// The gradient whose uniforms the batch sets, for gradient items.
    var paint: GradientPaint?
  }

  /// Draws `commands` into the bound target, which shows `region` of the
  /// canvas (in canvas pixels) at its origin.
  func drawCommands(
    _ commands: [DrawCommand], region: PixelRect, targetSize: (Int, Int)
  ) throws {
    // A backdrop reads what was drawn before it: draw up to it, capture and
    // filter, then go on. So does a blend mode without the blend equations.
    let fallback = !usesBlendEquations
    if let split = commands.firstIndex(where: {
      if case .group(let g) = $0, g.backdrop { return true }
      return fallback && $0.blendModeName != nil
    }) {
      guard case .group(let group) = commands[split], group.backdrop else {
        try drawCommands(Array(commands[..<split]), region: region, targetSize: targetSize)
        try drawBlendFallback(commands[split], region: region, targetSize: targetSize)
        try drawCommands(Array(commands[(split + 1)...]), region: region, targetSize: targetSize)
        return
      }
      try drawCommands(Array(commands[..<split]), region: region, targetSize: targetSize)
      if group.bounds.intersects(region) {
        let framebuffer = device.framebuffer
        try prepareBackdrop(group, region: region)
        device.bindFramebuffer(framebuffer)
        device.setViewport(0, 0, targetSize.0, targetSize.1)
        try drawBatches(of: [.group(group)], region: region, targetSize: targetSize)
      }
      try drawCommands(Array(commands[(split + 1)...]), region: region, targetSize: targetSize)
      return
    }
    try drawBatches(of: commands, region: region, targetSize: targetSize)
  }

  private func drawBatches(
    of commands: [DrawCommand], region: PixelRect, targetSize: (Int, Int)
  ) throws {
    var vertices: [Vertex] = []
    var indices: [UInt32] = []
    var effectVertices: [EffectVertex] = []
    var effectIndices: [UInt32] = []
    var batches: [Batch] = []
    vertices.reserveCapacity(commands.count * 4)
    indices.reserveCapacity(commands.count * 6)
    for command in commands where command.bounds.intersects(region) {
      var item: DrawItem
      switch command {
      case .item(let drawItem): item = drawItem
      case .group(let group):
        guard groupTargets[group.id] != nil else { continue }
        item = compositeItem(group, region: region)
      }
      var (program, texture, sampler, mask) = try resources(for: item.material)
      var paint: GradientPaint?
      if case .gradient(let gradient) = item.material { paint = gradient }
      if case .composite = item.blend {
        // Blend modes need a program that declares them; without one, source-over.
        if let variant = programs.blendVariant(of: program), !item.hasEffects {
          program = variant
        } else {
          item.blend = .sourceOver
        }
      }
      var composite = false
      if case .composite = item.blend { composite = true }
      let effect = item.hasEffects || mask != 0
      if effect { program = try effectPrograms.program(EffectPrograms.variant(for: item)) }
      let first = effect ? effectIndices.count : indices.count
      let count =
        effect
        ? appendEffectItem(item, &effectVertices, &effectIndices)
        : appendItem(item, &vertices, &indices)
      if var last = batches.last, last.program.id == program.id, last.texture == texture,
        last.sampler == sampler, last.mask == mask, last.effect == effect,
        last.blend == item.blend, last.paint == paint, !composite,
        last.firstIndex + last.indexCount == first
      {
        last.indexCount += count
        batches[batches.count - 1] = last
      } else {
        batches.append(
          Batch(
            blend: item.blend, program: program, texture: texture, sampler: sampler, mask: mask,
            effect: effect, firstIndex: first, indexCount: count, paint: paint))
      }
    }
    guard !batches.isEmpty else { return }
    if !effectVertices.isEmpty {
      glBindVertexArray(effectVertexArray)
      glBindBuffer(GLenum(GL_ARRAY_BUFFER), effectVertexBuffer)
      effectVertices.withUnsafeBytes { raw in
        glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
      effectIndices.withUnsafeBytes { raw in
        glBufferData(
          GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
    }
    glBindVertexArray(vertexArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    if !vertices.isEmpty {
      vertices.withUnsafeBytes { raw in
        glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
      indices.withUnsafeBytes { raw in
        glBufferData(
          GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
      }
    }
    var boundEffect = false
    device.counters.vertices += vertices.count + effectVertices.count
    // Canvas pixels → clip space of this target: the region's origin lands on
    // the target's origin; target row 0 holds the region's top row.
    let (w, h) = (Float(targetSize.0), Float(targetSize.1))
    let viewport = (2 / w, 2 / h, -2 * Float(region.x) / w - 1, -2 * Float(region.y) / h - 1)
    var viewportSet: Set<GLuint> = []
    for batch in batches {
      device.setBlending(true, mode: batch.blend)
      if case .composite = batch.blend { device.blendBarrier() }
      if batch.effect != boundEffect {
        glBindVertexArray(batch.effect ? effectVertexArray : vertexArray)
        boundEffect = batch.effect
      }
      device.useProgram(batch.program.id)
      if viewportSet.insert(batch.program.id).inserted {
        glUniform4f(batch.program.viewport, viewport.0, viewport.1, viewport.2, viewport.3)
        if batch.program.canvasOrigin >= 0 {
          glUniform2f(batch.program.canvasOrigin, Float(region.x), Float(region.y))
        }
      }
      if batch.texture != 0 { device.bindTexture(batch.texture, sampler: batch.sampler) }
      if let paint = batch.paint { try programs.gradient.set(paint) }
      if batch.mask != 0 { device.bindMask(batch.mask, sampler: batch.sampler) }
      device.drawTriangles(indexCount: batch.indexCount, firstIndex: batch.firstIndex)
    }
    if boundEffect { glBindVertexArray(vertexArray) }
  }

  private func resources(for material: Material) throws -> (GLProgram, GLuint, GLuint, GLuint) {
    let nearest = SamplerKey(minification: .nearest, magnification: .nearest)
    switch material {
    case .solid:
      return (programs.solid, 0, 0, 0)
    case .gradient(let paint):
      return (try programs.gradient.program(paint), 0, 0, 0)
    case .image(let image, let key):
      let texture = try textures.texture(for: image, sampler: key, device: device)
      return (programs.image, texture, textures.sampler(key), 0)
    case .group(let id):
      let texture = groupTargets[id]?.texture ?? 0
      return (programs.image, texture, textures.sampler(nearest), 0)
    case .masked(let id, let mask):
      let texture = groupTargets[id]?.texture ?? 0
      let maskTexture = groupTargets[mask]?.texture ?? 0
      // The program is the masked effect variant (see drawCommands).
      return (programs.image, texture, textures.sampler(nearest), maskTexture)
    case .raster(let pass):
      let texture = rasterCache.texture(pass.key)
      let linear = SamplerKey(minification: .linear, magnification: .linear)
      return (programs.image, texture, textures.sampler(linear), 0)
    case .filtered(let id):
      let texture = groupTargets[id]?.texture ?? 0
      return (programs.image, texture, textures.sampler(nearest), 0)
    case .glLayer(let pass):
      let linear = SamplerKey(minification: .linear, magnification: .linear)
      return (programs.image, glLayerTexture(pass), textures.sampler(linear), 0)
    case .dmabuf(let frame):
      let linear = SamplerKey(minification: .linear, magnification: .linear)
      return (
        programs.image, try dmabufImport.texture(for: frame, context: context),
        textures.sampler(linear), 0
      )
    case .shadow(let id):
      let texture = groupTargets[id]?.texture ?? 0
      let linear = SamplerKey(minification: .linear, magnification: .linear)
      return (programs.shadow, texture, textures.sampler(linear), 0)
    }
  }

  /// The quad that puts a rendered group back in its parent, pixel for pixel
  /// (through its mask and clip), or a blurred shadow at its offset.
  private func compositeItem(_ group: GroupPass, region: PixelRect) -> DrawItem {
    if let shadow = group.shadow {
      let c = shadow.canvas
      let rect = CGRect(
        x: CGFloat(c.x) + CGFloat(shadow.offset.dx), y: CGFloat(c.y) + CGFloat(shadow.offset.dy),
        width: CGFloat(c.width), height: CGFloat(c.height))
      let extent = shadowExtents[group.id] ?? (1, 1)
      return DrawItem(
        material: .shadow(group.id), clippedPolygon: nil, rect: rect,
        uv: (0, 0, extent.0, extent.1),
        matrix: CATransform3DIdentity, color: shadow.color * group.opacity, bounds: group.bounds,
        layerName: nil,
        antialiased: false)
    }
    if group.filter != nil {
      // The filtered target covers the group's whole bounds (a backdrop's:
      // what was captured).
      let b = backdropCanvas[group.id] ?? group.bounds
      var item = DrawItem(
        material: .filtered(group.id), clippedPolygon: nil,
        rect: CGRect(x: b.x, y: b.y, width: b.width, height: b.height), uv: (0, 0, 1, 1),
        matrix: CATransform3DIdentity, color: SIMD4(repeating: group.opacity),
        bounds: b.intersection(region), layerName: nil, antialiased: false,
        clipPlanes: group.clipPlanes)
      item.clip = group.clip
      item.blend = group.blend
      return item
    }
    let area = group.bounds.intersection(region)
    let rect = CGRect(x: area.x, y: area.y, width: area.width, height: area.height)
    let material: Material = group.mask.map { .masked(group.id, mask: $0.id) } ?? .group(group.id)
    var item = DrawItem(
      material: material, clippedPolygon: nil, rect: rect, uv: (0, 0, 1, 1),
      matrix: CATransform3DIdentity,
      color: SIMD4(repeating: group.opacity), bounds: area, layerName: nil, antialiased: false,
      clipPlanes: group.clipPlanes)
    item.clip = group.clip
    item.blend = group.blend
    return item
  }

  /// Appends the item's polygon as a triangle fan; returns the index count.
  private func appendItem(_ item: DrawItem, _ vertices: inout [Vertex], _ indices: inout [UInt32])
    -> Int
  {
    let base = UInt32(vertices.count)
    let n = forEachVertex(item) { _, _, vertex in vertices.append(vertex) }
    return Self.appendFan(base: base, count: n, &indices)
  }

  static func appendFan(base: UInt32, count n: Int, _ indices: inout [UInt32]) -> Int {
    guard n >= 3 else { return 0 }
    for i in 1..<UInt32(n - 1) {
      indices.append(base)
      indices.append(base + i)
      indices.append(base + i + 1)
    }
    return (n - 2) * 3
  }

  /// Calls `body` with each vertex of the item's polygon (its position in
  /// the item's plane, and the vertex); returns their number. With edge
  /// antialiasing the polygon first grows by a pixel on screen on the sides
  /// of `edgeMask`, and every vertex carries its distances to the rect's
  /// four edges (far from those not in the mask). Shape items grow the same
  /// but take their coverage from the shape alone.
  func forEachVertex(_ item: DrawItem, _ body: (CGFloat, CGFloat, Vertex) -> Void) -> Int {
    let m = item.matrix
    let r = item.rect
    let c = item.color
    func byte(_ v: Float) -> UInt32 { UInt32(clamping: Int(clamping: v * 255, to: 0...255, rounding: .toNearestOrAwayFromZero)) }
    let color = byte(c.x) | byte(c.y) << 8 | byte(c.z) << 16 | byte(c.w) << 24
    let clamp = SIMD4(
      min(item.uv.u0, item.uv.u1), min(item.uv.v0, item.uv.v1),
      max(item.uv.u0, item.uv.u1), max(item.uv.v0, item.uv.v1))
    let du = r.width != 0 ? CGFloat(item.uv.u1 - item.uv.u0) / r.width : 0
    let dv = r.height != 0 ? CGFloat(item.uv.v1 - item.uv.v0) / r.height : 0
    let isShape = item.shape != nil
    let antialias = item.antialiased && (antialiasing.usesEdgeCoverage || isShape)
    let mask = item.edgeMask
    // Distances of edges without coverage are raised to "far".
    let floor = SIMD4<Float>(
      mask & 1 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 2 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 4 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges,
      mask & 8 != 0 && !isShape ? -Self.farFromEdges : Self.farFromEdges)

    func vertex(_ x: CGFloat, _ y: CGFloat, _ lines: EdgeLines?) -> Vertex {
      let q = m.apply(x, y)
      let edges = lines.map { pointwiseMax($0.distances(x: q.x / q.w, y: q.y / q.w), floor) }
      return Vertex(
        x: Float(q.x), y: Float(q.y), w: Float(q.w),
        u: item.uv.u0 + Float((x - r.minX) * du), v: item.uv.v0 + Float((y - r.minY) * dv),
        color: color,
        edges: edges ?? SIMD4(repeating: Self.farFromEdges),
        texClamp: clamp)
    }

    if item.clippedPolygon == nil {
      // The common case: the whole rect, grown by the antialiasing margin.
      var g = r
      var lines: EdgeLines?
      if antialias, mask != 0, let edgeLines = EdgeLines(r, m),
        let margin = EdgeGeometry.margins(r, m)
      {
        let grown = CGRect(
          x: r.minX - (mask & 8 != 0 ? margin.x : 0), y: r.minY - (mask & 1 != 0 ? margin.y : 0),
          width: r.width + (mask & 8 != 0 ? margin.x : 0) + (mask & 2 != 0 ? margin.x : 0),
          height: r.height + (mask & 1 != 0 ? margin.y : 0) + (mask & 4 != 0 ? margin.y : 0))
        if EdgeGeometry.inFront(grown, m) {
          g = grown
          lines = edgeLines
        }
      }
      if item.clipPlanes.isEmpty {
        body(g.minX, g.minY, vertex(g.minX, g.minY, lines))
        body(g.maxX, g.minY, vertex(g.maxX, g.minY, lines))
        body(g.maxX, g.maxY, vertex(g.maxX, g.maxY, lines))
        body(g.minX, g.maxY, vertex(g.minX, g.maxY, lines))
        return 4
      }
      // A piece of a plane split by depth sorting: the (grown) rect cut by
      // its half-planes, keeping the layer's edge coverage.
      var piece = [
        SIMD2(Double(g.minX), Double(g.minY)), SIMD2(Double(g.maxX), Double(g.minY)),
        SIMD2(Double(g.maxX), Double(g.maxY)), SIMD2(Double(g.minX), Double(g.maxY)),
      ]
      for h in item.clipPlanes where piece.count >= 3 { piece = DepthSorter.clip(piece, h) }
      guard piece.count >= 3 else { return 0 }
      for p in piece { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), lines)) }
      return piece.count
    }
    // Part of the rect lies behind the eye: its projected edges are not the
    // rect's, so the visible polygon is drawn as it is, without edge coverage.
    var polygon = item.polygon.map { SIMD2(Double($0.x), Double($0.y)) }
    for h in item.clipPlanes where polygon.count >= 3 { polygon = DepthSorter.clip(polygon, h) }
    guard polygon.count >= 3 else { return 0 }
    for p in polygon { body(CGFloat(p.x), CGFloat(p.y), vertex(CGFloat(p.x), CGFloat(p.y), nil)) }
    return polygon.count
  }

  /// Edge distances that mean "no edge nearby": coverage is 1 everywhere.
  static let farFromEdges: Float = 1e6
}

/// The four edges of a layer's rect projected on the target, as lines in
/// pixel space oriented so that the inside is positive.
struct EdgeLines {
  /// Per line: unit normal (nx, ny) and offset c, distance = nx·x + ny·y + c.
  private var nx = SIMD4<Double>(), ny = SIMD4<Double>(), c = SIMD4<Double>()

  /// Nil when a corner lies behind the eye or an edge projects to a point.
  init?(_ rect: CGRect, _ m: CATransform3D) {
    func project(_ x: CGFloat, _ y: CGFloat) -> (Double, Double)? {
      let q = m.apply(x, y)
      guard q.w > EdgeGeometry.nearW else { return nil }
      return (Double(q.x / q.w), Double(q.y / q.w))
    }
    guard let p0 = project(rect.minX, rect.minY), let p1 = project(rect.maxX, rect.minY),
      let p2 = project(rect.maxX, rect.maxY), let p3 = project(rect.minX, rect.maxY)
    else { return nil }
    let cx = (p0.0 + p1.0 + p2.0 + p3.0) / 4
    let cy = (p0.1 + p1.1 + p2.1 + p3.1) / 4
    guard setLine(0, p0, p1, cx, cy), setLine(1, p1, p2, cx, cy), setLine(2, p2, p3, cx, cy),
      setLine(3, p3, p0, cx, cy)
    else { return nil }
  }

  /// Line `i` through two projected corners, its inside toward (cx, cy).
  private mutating func setLine(
    _ i: Int, _ p: (Double, Double), _ q: (Double, Double), _ cx: Double, _ cy: Double
  ) -> Bool {
    var a = p.1 - q.1
    var b = q.0 - p.0
    let length = (a * a + b * b).squareRoot()
    guard length > 1e-9 else { return false }
    a /= length
    b /= length
    var offset = -(a * p.0 + b * p.1)
    if a * cx + b * cy + offset < 0 {
      a = -a
      b = -b
      offset = -offset
    }
    nx[i] = a
    ny[i] = b
    c[i] = offset
    return true
  }

  func distances(x: CGFloat, y: CGFloat) -> SIMD4<Float> {
    SIMD4<Float>(nx * Double(x) + ny * Double(y) + c)
  }
}

/// How a renderer antialiases the edges of layers.
public enum Antialiasing: Equatable, Sendable {
  /// Multisampling on hardware GPUs, edge coverage on software rasterizers.
  case automatic
  /// Multisampled targets with this many samples per pixel, resolved before read-back.
  case multisample(Int)
  /// Coverage computed in the fragment shaders from the distance to each edge.
  case edges
  /// Edge coverage for layer edges and multisampled targets for everything
  /// else (the hardware default: both cost next to nothing on a GPU).
  case combined(Int)

  /// Whether layer edges get their coverage computed in the shaders.
  public var usesEdgeCoverage: Bool {
    switch self {
    case .edges, .combined: return true
    default: return false
    }
  }
}

/// The vertex format of every draw: homogeneous target pixels, texture
/// coordinates, premultiplied color, distances to the four edges, and the
/// texture-coordinate clamp (56 bytes).
struct Vertex {
  var x: Float, y: Float, w: Float
  var u: Float, v: Float
  var color: UInt32
  var edges: SIMD4<Float>
  var texClamp: SIMD4<Float>
}
