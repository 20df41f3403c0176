import CGLES3
import Foundation
import Lamina

/// The effect vertex format: `Vertex`, plus the item's position in its own
/// plane, its rounded rect and mode, and its position in the clipping
/// layer's plane with the clip's rounded rect (176 bytes a vertex, against
/// 64). Only items with effects pay for it; plain quads keep `Vertex`.
struct EffectVertex {
  var base: Vertex
  var local: SIMD2<Float>
  var shapeRect: SIMD4<Float>
  var shapeRadii: SIMD4<Float>
  var shapeParams: SIMD4<Float>
  var clipPos: SIMD4<Float>
  var clipRect: SIMD4<Float>
  var clipRadii: SIMD4<Float>
}

extension Renderer {
  func setUpEffectVertexArray() {
    glGenVertexArrays(1, &emptyVertexArray)
    glGenVertexArrays(1, &effectVertexArray)
    glBindVertexArray(effectVertexArray)
    glGenBuffers(1, &effectVertexBuffer)
    glGenBuffers(1, &effectIndexBuffer)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), effectVertexBuffer)
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), effectIndexBuffer)
    Self.vertexAttribute(0, 3, GL_FLOAT, normalized: false, \EffectVertex.base.x)
    Self.vertexAttribute(1, 2, GL_FLOAT, normalized: false, \EffectVertex.base.u)
    Self.vertexAttribute(2, 4, GL_UNSIGNED_BYTE, normalized: true, \EffectVertex.base.color)
    Self.vertexAttribute(3, 4, GL_FLOAT, normalized: false, \EffectVertex.base.edges)
    Self.vertexAttribute(4, 4, GL_FLOAT, normalized: false, \EffectVertex.base.texClamp)
    Self.vertexAttribute(5, 2, GL_FLOAT, normalized: false, \EffectVertex.local)
    Self.vertexAttribute(6, 4, GL_FLOAT, normalized: false, \EffectVertex.shapeRect)
    Self.vertexAttribute(7, 4, GL_FLOAT, normalized: false, \EffectVertex.shapeRadii)
    Self.vertexAttribute(8, 4, GL_FLOAT, normalized: false, \EffectVertex.shapeParams)
    Self.vertexAttribute(9, 3, GL_FLOAT, normalized: false, \EffectVertex.clipPos)
    Self.vertexAttribute(10, 4, GL_FLOAT, normalized: false, \EffectVertex.clipRect)
    Self.vertexAttribute(11, 4, GL_FLOAT, normalized: false, \EffectVertex.clipRadii)
  }

  /// Points attribute `index` at `field` of the bound buffer's vertices.
  static func vertexAttribute<V>(
    _ index: GLuint, _ count: GLint, _ type: Int32, normalized: Bool, _ field: PartialKeyPath<V>
  ) {
    glEnableVertexAttribArray(index)
    glVertexAttribPointer(
      index, count, GLenum(type), GLboolean(normalized ? GL_TRUE : GL_FALSE),
      GLsizei(MemoryLayout<V>.stride),
      UnsafeRawPointer(bitPattern: MemoryLayout<V>.offset(of: field)!))
  }

  func tearDownEffectVertexArray() {
    glDeleteBuffers(1, &effectVertexBuffer)
    glDeleteBuffers(1, &effectIndexBuffer)
    glDeleteVertexArrays(1, &effectVertexArray)
    glDeleteVertexArrays(1, &emptyVertexArray)
  }

  /// Appends an effect item (as `appendItem` does a plain one).
  func appendEffectItem(
    _ item: DrawItem, _ vertices: inout [EffectVertex], _ indices: inout [UInt32]
  ) -> Int {
    func rect(_ r: CGRect) -> SIMD4<Float> {
      SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
    }
    let noShape = SIMD4<Float>(-1, 0, 0, 0)
    let shapeRect = item.shape.map { rect($0.shape.rect) } ?? .zero
    let shapeRadii = item.shape?.shape.radii ?? .zero
    let shapeParams = item.shape.map { SIMD4<Float>($0.mode.rawValue, $0.width, 0, 0) } ?? noShape
    let clipRect = item.clip.map { rect($0.shape.rect) } ?? .zero
    let clipRadii = item.clip?.shape.radii ?? SIMD4(-1, -1, -1, -1)
    let toClip = item.clip?.itemToClip
    let base = UInt32(vertices.count)
    let n = forEachVertex(item) { x, y, vertex in
      var clipPos = SIMD4<Float>(0, 0, 1, 0)
      if let toClip {
        let q = toClip.apply(Double(x), Double(y))
        clipPos = SIMD4(Float(q.x), Float(q.y), Float(q.z), 0)
      }
      vertices.append(
        EffectVertex(
          base: vertex, local: SIMD2(Float(x), Float(y)), shapeRect: shapeRect,
          shapeRadii: shapeRadii,
          shapeParams: shapeParams, clipPos: clipPos, clipRect: clipRect, clipRadii: clipRadii))
    }
    return Self.appendFan(base: base, count: n, &indices)
  }

  // MARK: Blurred shadows

  /// Renders a shadow group's commands over its canvas, then blurs the
  /// result: a box downsample by a power of two that keeps the Gaussian at
  /// most 3 texels wide (so at most 19 taps a pass), a horizontal and a
  /// vertical pass, and the composite samples the small texture bilinearly.
  /// The downsample's box (variance f²/12) and the bilinear upsample (f²/6)
  /// already blur, so the passes' sigma is reduced to keep the total exact.
  func prepareShadow(_ group: GroupPass) throws {
    guard let shadow = group.shadow else { return }
    let canvas = shadow.canvas
    guard !canvas.isEmpty else { return }
    let sigma = max(shadow.sigma, 0)
    let factor = Self.blurDownsampleFactor(sigma: sigma)
    let w = (canvas.width + factor - 1) / factor
    let h = (canvas.height + factor - 1) / factor
    let extent = (Float(canvas.width) / Float(w * factor), Float(canvas.height) / Float(h * factor))
    // A layer that did not change between frames casts the same shadow:
    // the blurred texture is kept, keyed by what the layer draws and where.
    var hasher = Hasher()
    hasher.combine(0x5AD0)
    RasterSignature.combine(canvas, &hasher)
    hasher.combine(sigma)
    RasterSignature.combine(group.commands, groupBase: group.id, into: &hasher)
    let key = hasher.finalize()
    if let cached = maskCache.target(key) {
      groupTargets[group.id] = cached
      cachedGroupIDs.insert(group.id)
      shadowExtents[group.id] = extent
      return
    }
    let source = try renderOffscreen(
      group.commands, canvas: canvas, label: "shadow \(group.id): \(group.reason)")
    let linear = textures.sampler(SamplerKey(minification: .linear, magnification: .linear))
    let current = try withPassState {
      try downsampledBlur(source, sigma: sigma, factor: factor, sampler: linear)
    }
    groupTargets[group.id] = current
    shadowExtents[group.id] = extent
    maskCache.insert(key, current)
    cachedGroupIDs.insert(group.id)
  }
}

extension GLDevice {
  /// Binds a group's mask on texture unit 1 (unit 0 keeps the image).
  func bindMask(_ id: GLuint, sampler: GLuint) {
    glActiveTexture(GLenum(GL_TEXTURE1))
    glBindTexture(GLenum(GL_TEXTURE_2D), id)
    glBindSampler(1, sampler)
    glActiveTexture(GLenum(GL_TEXTURE0))
    counters.textureBinds += 1
  }

  /// One triangle over the whole viewport (`fullscreen.vert`).
  func drawFullTarget() {
    glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
    counters.drawCalls += 1
  }
}
