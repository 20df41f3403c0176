import Foundation
import LaminaFrame

/// The path shaders (`path_fill.*`, `path_stroke.*`) specialized per what a
/// draw needs, compiled the first time it is met on a context and shared by
/// every renderer of it (llvmpipe takes tens of milliseconds per variant): the ribbon or the
/// interior of a fill, or one kind of a stroke's pieces with its cap and
/// number of dashes, a clip, depth-sorting cuts, and the blend equations'
/// layout. llvmpipe runs every side of a branch, so each variant carries
/// only its own work; a constant dash count unrolls the dash loops.
package final class PathPrograms {
  enum Role: Hashable {
    /// A fill's parts (`FillMesh.Group`).
    case fill(FillMesh.Group)
    /// A stroke's pieces of one group (`StrokeMesh.Group`).
    case stroke(StrokeMesh.Group)
  }

  struct Variant: Hashable {
    var role: Role
    /// Dashes of one period (strokes; 0 for none).
    var dashes = 0
    /// 0 butt, 1 round, 2 square (strokes).
    var cap: Int32 = 0
    /// Segments a trim or dash cuts (the others skip that work).
    var cut = false
    var clip = false
    /// The clip from each vertex (fills of several items) instead of uniforms.
    var clipPerVertex = false
    var planes = false
    var advanced = false
    /// Paints a group's rendering from a texture (`TEXTURE_PAINT`: a masked
    /// group's composite drawn as its mask's path).
    var texturePaint = false
    /// Paints a gradient computed per pixel, of this kind (`GRADIENT_PAINT`:
    /// a masked gradient's composite drawn as its mask's path).
    var gradient: GradientPaint.Kind? = nil
    /// The gradient's color taken at pixel corners (`GRADIENT_AT_CORNERS`).
    var gradientCorners = false
    /// Every item of the draw is affine: the depth comes from the vertices
    /// (`AFFINE_DEPTH`, path_vertex.glsl), tested before shading.
    var affineDepth = false
  }

  /// A linked path program and the uniforms a draw sets.
  struct Program {
    let id: GPUHandle
    let viewport: Int32
    let clipMatrix, clipRect, clipRadii: Int32
    let planes, planeCount: Int32
    let paint, paintRect: Int32
    /// `GRADIENT_PAINT`'s (gradient.glsl's and the plane-to-gradient map).
    let gradientMatrix, gradientParams, gradientFocal, gradientRamp, sampleShift, canvasOrigin: Int32
  }

  /// Weak: the device holds its path programs (`GPUDevice.pathPrograms`).
  private weak var device: (any GPUDevice)?
  private var programs: [Variant: Program] = [:]

  package init(device: any GPUDevice) {
    self.device = device
  }

  func program(_ variant: Variant) throws -> Program {
    if let program = programs[variant] { return program }
    guard let device else { throw RendererError.contextLost(reason: "the GL device is gone") }
    var defines: [String] = []
    var stroke = false
    switch variant.role {
    case .fill(.smoothRibbon): break
    case .fill(.cornerRibbon): defines.append("CORNERS")
    case .fill(.interior): defines.append("INTERIOR")
    case .stroke(let group):
      stroke = true
      let piece: Int
      switch group {
      case .segments: piece = 0
      case .cornerSegments: piece = 1
      case .roundJoins: piece = 2
      case .bevelJoins: piece = 3
      case .dots: piece = 4
      }
      defines += ["PIECE \(piece)", "CAP \(variant.cap)", "DASH_COUNT \(variant.dashes)"]
      if variant.cut { defines.append("CUT") }
    }
    if variant.clip { defines.append("CLIP") }
    if variant.clip && variant.clipPerVertex { defines.append("CLIP_VERTEX") }
    if variant.planes { defines.append("PLANES") }
    if variant.advanced { defines.append("BLEND_ADVANCED") }
    if variant.texturePaint { defines.append("TEXTURE_PAINT") }
    if variant.affineDepth { defines.append("AFFINE_DEPTH") }
    if let kind = variant.gradient {
      defines += ["GRADIENT_PAINT", GradientProgram.define(kind)]
      if variant.gradientCorners { defines.append("GRADIENT_AT_CORNERS") }
    }
    let vertex = stroke ? "path_stroke.vert.glsl" : "path_fill.vert.glsl"
    let fragment = stroke ? "path_stroke.frag.glsl" : "path_fill.frag.glsl"
    // Both stages see the defines, after their `#version` line.
    let id = try device.makeProgram(
      ProgramSource(
        vertex: vertex, fragment: fragment, fragmentDefines: defines, vertexDefines: defines))
    let location = { (name: String) -> Int32 in device.uniformLocation(id, name) }
    let program = Program(
      id: id, viewport: location("u_viewport"), clipMatrix: location("u_clipMatrix"),
      clipRect: location("u_clipRect"), clipRadii: location("u_clipRadii"),
      planes: location("u_planes"), planeCount: location("u_planeCount"),
      paint: location("u_paint"), paintRect: location("u_paintRect"),
      gradientMatrix: location("u_gradientMatrix"), gradientParams: location("u_params"),
      gradientFocal: location("u_focal"), gradientRamp: location("u_ramp"),
      sampleShift: location("u_sampleShift"), canvasOrigin: location("u_canvasOrigin"))
    programs[variant] = program
    return program
  }

  deinit {
    // (With the device gone, so is its context and every program of it.)
    for program in programs.values { device?.deleteProgram(program.id) }
  }
}

/// Path meshes on the GPU: a vertex array, vertex buffer and index buffer
/// per mesh, uploaded the first time the mesh is drawn and kept while it
/// is drawn (meshes come from `PathGeometryCache`, one per path and style,
/// so an animated trim or dash uploads nothing), within a byte budget
/// (least recently drawn first out), and one buffer of the instances of
/// the draw at hand, which every mesh's vertex array reads.
final class PathBuffers {
  private struct Entry {
    let mesh: PathMesh
    var array: GPUHandle
    var vertices: GPUHandle
    var indices: GPUHandle
    var lastUsedFrame: Int
  }

  /// Frames an unused mesh's buffers are kept.
  static let retainFrames = 120
  /// Bytes of meshes kept on the GPU at most (a share of the renderer's
  /// `RenderCaches` budget).
  let byteBudget: Int

  private let device: any GPUDevice
  /// By mesh serial (the entry holds its mesh as well).
  private var entries: [UInt64: Entry] = [:]
  private var frame = 0
  private var bytes = 0
  let instanceBuffer: GPUHandle

  init(device: any GPUDevice, byteBudget: Int) {
    self.device = device
    self.byteBudget = byteBudget
    instanceBuffer = device.makeBuffer()
  }

  /// The vertex array of `mesh` (its index buffer bound in it, its
  /// instance attributes reading the instance buffer), uploaded now when
  /// it is not on the GPU yet.
  func vertexArray(for mesh: PathMesh) -> GPUHandle {
    let key = mesh.serial
    if entries[key] != nil {
      entries[key]?.lastUsedFrame = frame
      return entries[key]?.array ?? 0
    }
    typealias A = VertexAttribute
    func offset<V>(_ field: PartialKeyPath<V>) -> Int { MemoryLayout<V>.offset(of: field) ?? 0 }
    func float(_ index: GPUHandle, _ count: Int32, _ at: Int) -> A {
      A(index: index, count: count, type: .float, normalized: false, offset: at)
    }
    let stride: Int
    let attributes: [A]
    if mesh is FillMesh {
      stride = MemoryLayout<FillVertex>.stride
      attributes = [
        float(0, 2, offset(\FillVertex.position)), float(1, 2, offset(\FillVertex.extrude)),
        float(2, 4, offset(\FillVertex.own)), float(3, 4, offset(\FillVertex.prev)),
        float(4, 4, offset(\FillVertex.next)),
      ]
    } else {
      stride = MemoryLayout<StrokeVertex>.stride
      attributes = [
        float(0, 2, offset(\StrokeVertex.base)), float(1, 2, offset(\StrokeVertex.tangent)),
        float(2, 4, offset(\StrokeVertex.tangents)), float(3, 2, offset(\StrokeVertex.corner)),
        float(4, 2, offset(\StrokeVertex.range)), float(5, 2, offset(\StrokeVertex.subpath)),
        float(6, 2, offset(\StrokeVertex.kind)), float(7, 2, offset(\StrokeVertex.capAngles)),
      ]
    }
    let fields: [PartialKeyPath<PathInstance>] = [
      \.matrix0, \.matrix1, \.matrix2, \.color, \.stroke, \.dashes0, \.dashes1,
    ]
    let instanceAttributes = fields.enumerated().map { i, field in
      float(GPUHandle(8 + i), 4, offset(field))
    }
    let made = mesh.withVertexBytes { raw in
      device.makeInstancedVertexArray(
        vertexBytes: raw, indices: mesh.indices, stride: stride, attributes: attributes,
        instanceBuffer: instanceBuffer, instanceStride: MemoryLayout<PathInstance>.stride,
        instanceAttributes: instanceAttributes)
    }
    device.counters.geometryUploads += 1
    entries[key] = Entry(
      mesh: mesh, array: made.array, vertices: made.vertices, indices: made.indices,
      lastUsedFrame: frame)
    bytes += mesh.byteCount
    if bytes > byteBudget { evict { $0.lastUsedFrame < frame } }
    return made.array
  }

  /// The stream that fills of several meshes are drawn from, made on first use.
  private(set) lazy var mergedFills = MergedFillStream(device: device)
  /// The stream that strokes of several meshes are drawn from, made on first use.
  private(set) lazy var mergedStrokes = MergedStrokeStream(device: device)

  /// Sets the instances of the next draws.
  func setInstances(_ instances: [PathInstance]) {
    device.uploadStream(instances, to: instanceBuffer)
  }

  /// Called once per frame drawn: frees the buffers of meshes not drawn
  /// for `retainFrames` frames.
  func endFrame() {
    frame += 1
    guard frame % 30 == 0 else { return }
    evict { frame - $0.lastUsedFrame > Self.retainFrames }
  }

  /// Meshes on the GPU, and their bytes.
  var count: Int { entries.count }
  var byteCount: Int { bytes }

  private func evict(_ stale: (Entry) -> Bool) {
    for (key, entry) in entries where stale(entry) {
      device.deleteVertexArray(entry.array, buffers: [entry.vertices, entry.indices])
      bytes -= entry.mesh.byteCount
      entries[key] = nil
    }
  }

  deinit {
    for entry in entries.values {
      device.deleteVertexArray(entry.array, buffers: [entry.vertices, entry.indices])
    }
    device.deleteBuffer(instanceBuffer)
  }
}
