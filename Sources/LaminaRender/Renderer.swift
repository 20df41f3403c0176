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
  private let programs: ProgramSet
  private let textures: TextureCache
  private var vertexBuffer: GLuint = 0
  private var indexBuffer: GLuint = 0
  private var vertexArray: GLuint = 0
  private var pool: [RenderTarget] = []
  private var groupTargets: [Int: RenderTarget] = [:]
  private var canvasTarget: RenderTarget?

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
    context: GPUContext? = nil, antialiasing: Antialiasing = .automatic, maxTileSize tile: Int = 4096
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
    case .multisample(let n) where n <= 1 || maxSamples <= 1, .combined(let n) where n <= 1 || maxSamples <= 1:
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
    let stride = GLsizei(MemoryLayout<Vertex>.stride)
    func attribute(_ index: GLuint, _ count: GLint, _ type: Int32, normalized: Bool, _ field: PartialKeyPath<Vertex>) {
      glEnableVertexAttribArray(index)
      glVertexAttribPointer(
        index, count, GLenum(type), GLboolean(normalized ? GL_TRUE : GL_FALSE), stride,
        UnsafeRawPointer(bitPattern: MemoryLayout<Vertex>.offset(of: field)!))
    }
    attribute(0, 3, GL_FLOAT, normalized: false, \Vertex.x)
    attribute(1, 2, GL_FLOAT, normalized: false, \Vertex.u)
    attribute(2, 4, GL_UNSIGNED_BYTE, normalized: true, \Vertex.color)
    attribute(3, 4, GL_FLOAT, normalized: false, \Vertex.edges)
    attribute(4, 4, GL_FLOAT, normalized: false, \Vertex.texClamp)
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
        var buffer = [UInt8](repeating: 0, count: target.width * target.height * 4)
        buffer.withUnsafeMutableBytes { target.read(into: $0.baseAddress!, device: self.device) }
        for row in 0..<tile.height {
          let source = row * target.width * 4
          let destination = ((tile.y + row) * frame.width + tile.x) * 4
          pixels.replaceSubrange(destination..<destination + tile.width * 4, with: buffer[source..<source + tile.width * 4])
        }
      }
    }
    return RenderedImage(width: frame.width, height: frame.height, premultipliedPixels: pixels)
  }

  /// Draws `frame` without reading it back (what the benchmark times), tile
  /// by tile; `tileDone` sees each finished tile's target.
  public func draw(_ frame: Frame) throws {
    try checkSize(frame)
    try draw(frame) { _, _ in }
  }

  /// Waits until the GPU has finished every command.
  public func finish() { glFinish() }

  private func checkSize(_ frame: Frame) throws {
    guard frame.width > 0, frame.height > 0 else {
      throw RendererError.canvasTooLarge(width: frame.width, height: frame.height, limit: "it is empty")
    }
    guard frame.width * frame.height <= Self.maxCanvasPixels else {
      throw RendererError.canvasTooLarge(
        width: frame.width, height: frame.height,
        limit: "more than \(Self.maxCanvasPixels) pixels")
    }
  }

  private func draw(_ frame: Frame, tileDone: (RenderTarget, PixelRect) throws -> Void) throws {
    context.makeCurrent()
    // Another renderer on the same context may have bound its own state.
    glBindVertexArray(vertexArray)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), vertexBuffer)
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), indexBuffer)
    device.invalidate()
    device.counters = RenderCounters()
    let start = DispatchTime.now().uptimeNanoseconds
    defer { lastEncodeMilliseconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
    let tileWidth = min(frame.width, maxTileSize), tileHeight = min(frame.height, maxTileSize)
    if canvasTarget?.width != tileWidth || canvasTarget?.height != tileHeight {
      canvasTarget = nil
      canvasTarget = try RenderTarget(width: tileWidth, height: tileHeight, samples: samples)
    }
    guard let target = canvasTarget else { return }
    var y = 0
    while y < frame.height {
      var x = 0
      while x < frame.width {
        let tile = PixelRect(
          x: x, y: y, width: min(tileWidth, frame.width - x), height: min(tileHeight, frame.height - y))
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
    textures.endFrame(device: device)
    try device.check("frame")
  }

  // MARK: Offscreen groups

  /// Renders every group in `commands` (inner groups first) into a texture
  /// covering its bounds within `region`.
  private func prepareGroups(_ commands: [DrawCommand], region: PixelRect) throws {
    for case .group(let group) in commands {
      let area = group.bounds.intersection(region)
      // Pieces of one group split by depth sorting share its rendering.
      guard !area.isEmpty, groupTargets[group.id] == nil else { continue }
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
      device.counters.offscreenPasses += 1
    }
  }

  /// Opens a KHR_debug group for a pass when GL debugging was asked for.
  private func debugGroup(_ name: @autoclosure () -> String) {
    if context.debugOutput { GLDebug.pushGroup(name()) }
  }

  private func debugGroupEnd() {
    if context.debugOutput { GLDebug.popGroup() }
  }

  private func acquireTarget(width: Int, height: Int) throws -> RenderTarget {
    if let i = pool.firstIndex(where: { $0.width == width && $0.height == height }) {
      return pool.remove(at: i)
    }
    return try RenderTarget(width: width, height: height, samples: samples)
  }

  private func releaseGroupTargets() {
    pool.append(contentsOf: groupTargets.values)
    groupTargets.removeAll()
    // Keep the pool small: targets are cheap to make and expensive to hold.
    if pool.count > 8 { pool.removeFirst(pool.count - 8) }
  }

  // MARK: Drawing a list

  private struct Batch {
    var blend: BlendMode
    var program: GLProgram
    var texture: GLuint
    var sampler: GLuint
    var firstIndex: Int
    var indexCount: Int
    /// The gradient whose uniforms the batch sets, for gradient items.
    var paint: GradientPaint?
  }

  /// Draws `commands` into the bound target, which shows `region` of the
  /// canvas (in canvas pixels) at its origin.
  private func drawCommands(
    _ commands: [DrawCommand], region: PixelRect, targetSize: (Int, Int)
  ) throws {
    var vertices: [Vertex] = []
    var indices: [UInt32] = []
    var batches: [Batch] = []
    vertices.reserveCapacity(commands.count * 4)
    indices.reserveCapacity(commands.count * 6)
    for command in commands where command.bounds.intersects(region) {
      let item: DrawItem
      switch command {
      case .item(let drawItem): item = drawItem
      case .group(let group):
        guard groupTargets[group.id] != nil else { continue }
        item = compositeItem(group, region: region)
      }
      let (program, texture, sampler) = try resources(for: item.material)
      var paint: GradientPaint?
      if case .gradient(let gradient) = item.material { paint = gradient }
      if var last = batches.last, last.program.id == program.id, last.texture == texture,
        last.sampler == sampler, last.blend == item.blend, last.paint == paint
      {
        last.indexCount += appendItem(item, &vertices, &indices)
        batches[batches.count - 1] = last
      } else {
        let first = indices.count
        let count = appendItem(item, &vertices, &indices)
        batches.append(
          Batch(
            blend: item.blend, program: program, texture: texture, sampler: sampler,
            firstIndex: first, indexCount: count, paint: paint))
      }
    }
    guard !batches.isEmpty else { return }
    vertices.withUnsafeBytes { raw in
      glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
    }
    indices.withUnsafeBytes { raw in
      glBufferData(GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
    }
    device.counters.vertices += vertices.count
    // Canvas pixels → clip space of this target: the region's origin lands on
    // the target's origin; target row 0 holds the region's top row.
    let (w, h) = (Float(targetSize.0), Float(targetSize.1))
    let viewport = (2 / w, 2 / h, -2 * Float(region.x) / w - 1, -2 * Float(region.y) / h - 1)
    var lastProgram: GLuint = 0
    for batch in batches {
      device.setBlending(true, mode: batch.blend)
      device.useProgram(batch.program.id)
      if batch.program.id != lastProgram {
        glUniform4f(batch.program.viewport, viewport.0, viewport.1, viewport.2, viewport.3)
        lastProgram = batch.program.id
      }
      if batch.texture != 0 { device.bindTexture(batch.texture, sampler: batch.sampler) }
      if let paint = batch.paint { try programs.gradient.set(paint) }
      device.drawTriangles(indexCount: batch.indexCount, firstIndex: batch.firstIndex)
    }
  }

  private func resources(for material: Material) throws -> (GLProgram, GLuint, GLuint) {
    switch material {
    case .solid:
      return (programs.solid, 0, 0)
    case .gradient(let paint):
      return (try programs.gradient.program(paint), 0, 0)
    case .image(let image, let key):
      let texture = try textures.texture(for: image, sampler: key, device: device)
      return (programs.image, texture, textures.sampler(key))
    case .group(let id):
      let texture = groupTargets[id]?.texture ?? 0
      let nearest = SamplerKey(minification: .nearest, magnification: .nearest)
      return (programs.image, texture, textures.sampler(nearest))
    }
  }

  /// The quad that puts a rendered group back in its parent, pixel for pixel.
  private func compositeItem(_ group: GroupPass, region: PixelRect) -> DrawItem {
    let area = group.bounds.intersection(region)
    let rect = CGRect(x: area.x, y: area.y, width: area.width, height: area.height)
    return DrawItem(
      material: .group(group.id), clippedPolygon: nil, rect: rect, uv: (0, 0, 1, 1), matrix: CATransform3DIdentity,
      color: SIMD4(repeating: group.opacity), bounds: area, layerName: nil, antialiased: false,
      clipPlanes: group.clipPlanes)
  }

  /// Appends the item's polygon as a triangle fan; returns the index count.
  /// With edge antialiasing the polygon first grows by a pixel on screen,
  /// and every vertex carries its distances to the rect's four edges.
  private func appendItem(_ item: DrawItem, _ vertices: inout [Vertex], _ indices: inout [UInt32]) -> Int {
    let m = item.matrix
    let r = item.rect
    let c = item.color
    func byte(_ v: Float) -> UInt32 { UInt32(max(0, min(255, (v * 255).rounded()))) }
    let color = byte(c.x) | byte(c.y) << 8 | byte(c.z) << 16 | byte(c.w) << 24
    let clamp = SIMD4(
      min(item.uv.u0, item.uv.u1), min(item.uv.v0, item.uv.v1),
      max(item.uv.u0, item.uv.u1), max(item.uv.v0, item.uv.v1))
    let du = r.width != 0 ? CGFloat(item.uv.u1 - item.uv.u0) / r.width : 0
    let dv = r.height != 0 ? CGFloat(item.uv.v1 - item.uv.v0) / r.height : 0
    let antialias = item.antialiased && antialiasing.usesEdgeCoverage

    func vertex(_ x: CGFloat, _ y: CGFloat, _ lines: EdgeLines?) -> Vertex {
      let q = m.apply(x, y)
      return Vertex(
        x: Float(q.x), y: Float(q.y), w: Float(q.w),
        u: item.uv.u0 + Float((x - r.minX) * du), v: item.uv.v0 + Float((y - r.minY) * dv),
        color: color,
        edges: lines?.distances(x: q.x / q.w, y: q.y / q.w) ?? SIMD4(repeating: Self.farFromEdges),
        texClamp: clamp)
    }

    let base = UInt32(vertices.count)
    if item.clippedPolygon == nil {
      // The common case: the whole rect, grown by the antialiasing margin.
      var g = r
      var lines: EdgeLines?
      if antialias, let edgeLines = EdgeLines(r, m), let margin = EdgeGeometry.margins(r, m) {
        let grown = r.insetBy(dx: -margin.x, dy: -margin.y)
        if EdgeGeometry.inFront(grown, m) {
          g = grown
          lines = edgeLines
        }
      }
      if item.clipPlanes.isEmpty {
        vertices.append(vertex(g.minX, g.minY, lines))
        vertices.append(vertex(g.maxX, g.minY, lines))
        vertices.append(vertex(g.maxX, g.maxY, lines))
        vertices.append(vertex(g.minX, g.maxY, lines))
        indices.append(base); indices.append(base + 1); indices.append(base + 2)
        indices.append(base); indices.append(base + 2); indices.append(base + 3)
        return 6
      }
      // A piece of a plane split by depth sorting: the (grown) rect cut by
      // its half-planes, keeping the layer's edge coverage.
      var piece = [
        SIMD2(Double(g.minX), Double(g.minY)), SIMD2(Double(g.maxX), Double(g.minY)),
        SIMD2(Double(g.maxX), Double(g.maxY)), SIMD2(Double(g.minX), Double(g.maxY)),
      ]
      for h in item.clipPlanes where piece.count >= 3 { piece = DepthSorter.clip(piece, h) }
      guard piece.count >= 3 else { return 0 }
      for p in piece { vertices.append(vertex(CGFloat(p.x), CGFloat(p.y), lines)) }
      return appendFan(base: base, count: piece.count, &indices)
    }
    // Part of the rect lies behind the eye: its projected edges are not the
    // rect's, so the visible polygon is drawn as it is, without edge coverage.
    var polygon = item.polygon.map { SIMD2(Double($0.x), Double($0.y)) }
    for h in item.clipPlanes where polygon.count >= 3 { polygon = DepthSorter.clip(polygon, h) }
    guard polygon.count >= 3 else { return 0 }
    for p in polygon { vertices.append(vertex(CGFloat(p.x), CGFloat(p.y), nil)) }
    return appendFan(base: base, count: polygon.count, &indices)
  }

  /// Indices of a triangle fan over `count` vertices from `base`.
  private func appendFan(base: UInt32, count: Int, _ indices: inout [UInt32]) -> Int {
    for i in 1..<UInt32(count - 1) {
      indices.append(base)
      indices.append(base + i)
      indices.append(base + i + 1)
    }
    return (count - 2) * 3
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
    let cx = (p0.0 + p1.0 + p2.0 + p3.0) / 4, cy = (p0.1 + p1.1 + p2.1 + p3.1) / 4
    guard setLine(0, p0, p1, cx, cy), setLine(1, p1, p2, cx, cy), setLine(2, p2, p3, cx, cy),
      setLine(3, p3, p0, cx, cy)
    else { return nil }
  }

  /// Line `i` through two projected corners, its inside toward (cx, cy).
  private mutating func setLine(
    _ i: Int, _ p: (Double, Double), _ q: (Double, Double), _ cx: Double, _ cy: Double
  ) -> Bool {
    var a = p.1 - q.1, b = q.0 - p.0
    let length = (a * a + b * b).squareRoot()
    guard length > 1e-9 else { return false }
    a /= length
    b /= length
    var offset = -(a * p.0 + b * p.1)
    if a * cx + b * cy + offset < 0 { a = -a; b = -b; offset = -offset }
    nx[i] = a; ny[i] = b; c[i] = offset
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
