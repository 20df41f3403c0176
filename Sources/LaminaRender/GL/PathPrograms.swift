import CGLES3
import Foundation

/// The path shaders (`path_fill.*`, `path_stroke.*`) specialized per what a
/// draw needs, compiled the first time it is met: the ribbon or the
/// interior of a fill, or one kind of a stroke's pieces with its cap and
/// number of dashes, a clip, depth-sorting cuts, and the blend equations'
/// layout. llvmpipe runs every side of a branch, so each variant carries
/// only its own work; a constant dash count unrolls the dash loops.
final class PathPrograms {
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
    var planes = false
    var advanced = false
  }

  /// A linked path program and the uniforms a draw sets.
  struct Program {
    let id: GLuint
    let viewport: GLint
    let clipMatrix, clipRect, clipRadii: GLint
    let planes, planeCount: GLint
  }

  private var programs: [Variant: Program] = [:]

  func program(_ variant: Variant) throws -> Program {
    if let program = programs[variant] { return program }
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
    if variant.planes { defines.append("PLANES") }
    if variant.advanced { defines.append("BLEND_ADVANCED") }
    let vertex = stroke ? "path_stroke.vert.glsl" : "path_fill.vert.glsl"
    let fragment = stroke ? "path_stroke.frag.glsl" : "path_fill.frag.glsl"
    let id = try Self.link(vertex: vertex, fragment: fragment, defines: defines)
    let location = { (name: String) -> GLint in glGetUniformLocation(id, name) }
    let program = Program(
      id: id, viewport: location("u_viewport"), clipMatrix: location("u_clipMatrix"),
      clipRect: location("u_clipRect"), clipRadii: location("u_clipRadii"),
      planes: location("u_planes"), planeCount: location("u_planeCount"))
    programs[variant] = program
    return program
  }

  /// Compiles both stages with `defines` after their `#version` line and links them.
  private static func link(vertex: String, fragment: String, defines: [String]) throws -> GLuint {
    func specialized(_ name: String) throws -> String {
      var source = try ShaderLibrary.source(name)
      if !defines.isEmpty, let end = source.firstIndex(of: "\n") {
        source.insert(
          contentsOf: "\n" + defines.map { "#define " + $0 }.joined(separator: "\n"), at: end)
      }
      return source
    }
    let label = defines.isEmpty ? "" : " [" + defines.joined(separator: ", ") + "]"
    let vs = try GLProgram.compile(
      source: specialized(vertex), name: vertex + label, GLenum(GL_VERTEX_SHADER))
    defer { glDeleteShader(vs) }
    let fs = try GLProgram.compile(
      source: specialized(fragment), name: fragment + label, GLenum(GL_FRAGMENT_SHADER))
    defer { glDeleteShader(fs) }
    let program = glCreateProgram()
    glAttachShader(program, vs)
    glAttachShader(program, fs)
    glLinkProgram(program)
    var ok: GLint = 0
    glGetProgramiv(program, GLenum(GL_LINK_STATUS), &ok)
    guard ok != 0 else {
      let log = GLProgram.log(program, glGetProgramiv, glGetProgramInfoLog)
      glDeleteProgram(program)
      throw RendererError.shaderCompilation(name: "\(vertex) + \(fragment)\(label)", log: log)
    }
    return program
  }

  deinit {
    for program in programs.values { glDeleteProgram(program.id) }
  }
}

/// What one path item of an instanced draw gives its vertices (112 bytes,
/// instance attributes 8…14 of the path shaders, `path_vertex.glsl`).
struct PathInstance {
  /// Columns of the plane-to-target homography; `matrix0.w` is the item's
  /// depth, `matrix2.w` its dash phase.
  var matrix0: SIMD4<Float>
  var matrix1: SIMD4<Float>
  var matrix2: SIMD4<Float>
  /// Premultiplied, opacity included.
  var color: SIMD4<Float>
  /// Trim start and end (arc lengths), half line width, dash period.
  var stroke: SIMD4<Float>
  /// Up to four dashes of one period: start and end.
  var dashes0: SIMD4<Float>
  var dashes1: SIMD4<Float>
}

/// Path meshes on the GPU: a vertex array, vertex buffer and index buffer
/// per mesh, uploaded the first time the mesh is drawn and kept while it
/// is drawn (meshes come from `PathGeometryCache`, one per path and style,
/// so an animated trim or dash uploads nothing), and one buffer of the
/// instances of the draw at hand, which every mesh's vertex array reads.
final class PathBuffers {
  private struct Entry {
    let mesh: PathMesh
    var vertexArray: GLuint = 0
    var vertexBuffer: GLuint = 0
    var indexBuffer: GLuint = 0
    var lastUsedFrame: Int
  }

  /// Frames an unused mesh's buffers are kept.
  static let retainFrames = 120

  private var entries: [ObjectIdentifier: Entry] = [:]
  private var frame = 0
  private var instanceBuffer: GLuint = 0

  /// Sets the instances of the next draws.
  func setInstances(_ instances: [PathInstance]) {
    if instanceBuffer == 0 { glGenBuffers(1, &instanceBuffer) }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
    instances.withUnsafeBytes { raw in
      glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STREAM_DRAW))
    }
  }

  /// The vertex array of `mesh` (its index buffer bound in it, its
  /// instance attributes reading the instance buffer), uploaded now when
  /// it is not on the GPU yet.
  func vertexArray(for mesh: PathMesh, counters: inout RenderCounters) -> GLuint {
    let key = ObjectIdentifier(mesh)
    if var entry = entries[key] {
      entry.lastUsedFrame = frame
      entries[key] = entry
      return entry.vertexArray
    }
    if instanceBuffer == 0 { glGenBuffers(1, &instanceBuffer) }
    var entry = Entry(mesh: mesh, lastUsedFrame: frame)
    glGenVertexArrays(1, &entry.vertexArray)
    glBindVertexArray(entry.vertexArray)
    glGenBuffers(1, &entry.vertexBuffer)
    glGenBuffers(1, &entry.indexBuffer)
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), entry.vertexBuffer)
    mesh.withVertexBytes { raw in
      glBufferData(GLenum(GL_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STATIC_DRAW))
    }
    glBindBuffer(GLenum(GL_ELEMENT_ARRAY_BUFFER), entry.indexBuffer)
    mesh.indices.withUnsafeBytes { raw in
      glBufferData(
        GLenum(GL_ELEMENT_ARRAY_BUFFER), raw.count, raw.baseAddress, GLenum(GL_STATIC_DRAW))
    }
    if mesh is FillMesh {
      Renderer.vertexAttribute(0, 2, GL_FLOAT, normalized: false, \FillVertex.position)
      Renderer.vertexAttribute(1, 2, GL_FLOAT, normalized: false, \FillVertex.extrude)
      Renderer.vertexAttribute(2, 4, GL_FLOAT, normalized: false, \FillVertex.own)
      Renderer.vertexAttribute(3, 4, GL_FLOAT, normalized: false, \FillVertex.prev)
      Renderer.vertexAttribute(4, 4, GL_FLOAT, normalized: false, \FillVertex.next)
    } else {
      Renderer.vertexAttribute(0, 2, GL_FLOAT, normalized: false, \StrokeVertex.base)
      Renderer.vertexAttribute(1, 2, GL_FLOAT, normalized: false, \StrokeVertex.tangent)
      Renderer.vertexAttribute(2, 4, GL_FLOAT, normalized: false, \StrokeVertex.tangents)
      Renderer.vertexAttribute(3, 2, GL_FLOAT, normalized: false, \StrokeVertex.corner)
      Renderer.vertexAttribute(4, 2, GL_FLOAT, normalized: false, \StrokeVertex.range)
      Renderer.vertexAttribute(5, 2, GL_FLOAT, normalized: false, \StrokeVertex.subpath)
      Renderer.vertexAttribute(6, 2, GL_FLOAT, normalized: false, \StrokeVertex.kind)
    }
    glBindBuffer(GLenum(GL_ARRAY_BUFFER), instanceBuffer)
    let fields: [PartialKeyPath<PathInstance>] = [
      \.matrix0, \.matrix1, \.matrix2, \.color, \.stroke, \.dashes0, \.dashes1,
    ]
    for (i, field) in fields.enumerated() {
      Renderer.vertexAttribute(GLuint(8 + i), 4, GL_FLOAT, normalized: false, field)
      glVertexAttribDivisor(GLuint(8 + i), 1)
    }
    counters.geometryUploads += 1
    entries[key] = entry
    return entry.vertexArray
  }

  /// Called once per frame drawn: frees the buffers of meshes not drawn
  /// for `retainFrames` frames.
  func endFrame() {
    frame += 1
    guard frame % 30 == 0 else { return }
    for (key, entry) in entries where frame - entry.lastUsedFrame > Self.retainFrames {
      delete(entry)
      entries[key] = nil
    }
  }

  var count: Int { entries.count }

  private func delete(_ entry: Entry) {
    var e = entry
    glDeleteBuffers(1, &e.vertexBuffer)
    glDeleteBuffers(1, &e.indexBuffer)
    glDeleteVertexArrays(1, &e.vertexArray)
  }

  deinit {
    for entry in entries.values { delete(entry) }
    if instanceBuffer != 0 { glDeleteBuffers(1, &instanceBuffer) }
  }
}
