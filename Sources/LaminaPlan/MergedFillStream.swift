import Foundation
import LaminaFrame

/// The vertices of path fills of several meshes, drawn by one draw
/// (`PathBatch`): each mesh's vertices in the items' order, each carrying
/// its item's matrix and color (the instance attributes 8…11 of
/// `path_vertex.glsl`, read per vertex here) and, in a draw with clipped
/// items, its item's clip (`CLIP_VERTEX`: attributes 5…7, 12 and 13). Built
/// and uploaded for each draw: a copy of 128 bytes a vertex (208 with
/// clips), far below what a draw costs on llvmpipe.
final class MergedFillStream {
  struct Vertex {
    var vertex: FillVertex
    var matrix0, matrix1, matrix2, color: SIMD4<Float>
  }

  struct ClippedVertex {
    var base: Vertex
    /// The columns of the item's plane-to-clip homography, the clip's
    /// rect and its radii.
    var clip0, clip1, clip2, clipRect, clipRadii: SIMD4<Float>
  }

  private typealias Arrays = (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle)

  private let device: any GPUDevice
  private var plainArrays: Arrays?
  private var clippedArrays: Arrays?
  private var plain: [Vertex] = []
  private var clipped: [ClippedVertex] = []
  private var indices: [UInt32] = []

  /// The clip of an item without one, in a draw of clipped items: a rect
  /// no pixel leaves.
  private static let noClip = (
    SIMD4<Float>(1, 0, 0, 0), SIMD4<Float>(0, 1, 0, 0), SIMD4<Float>(0, 0, 1, 0),
    SIMD4<Float>(-1e7, -1e7, 1e7, 1e7), SIMD4<Float>(0, 0, 0, 0)
  )

  init(device: any GPUDevice) {
    self.device = device
  }

  /// Uploads the fills of `paints`, one item each with its instance (and
  /// its clip, when `clips` is not empty), for one draw: the vertex array
  /// to bind, and the draw's index count.
  func upload(
    _ paints: ArraySlice<PathPaint>, _ instances: ArraySlice<PathInstance>,
    clips: ArraySlice<ClipEffect?>?
  ) -> (array: GPUHandle, indexCount: Int) {
    indices.removeAll(keepingCapacity: true)
    plain.removeAll(keepingCapacity: true)
    clipped.removeAll(keepingCapacity: true)
    // Sized once, then filled mesh by mesh.
    var vertexCount = 0
    var indexCount = 0
    for paint in paints {
      guard case .fill(let mesh) = paint.geometry else { continue }
      vertexCount += mesh.vertices.count
      indexCount += mesh.indices.count
    }
    indices.reserveCapacity(indexCount)
    if clips == nil { plain.reserveCapacity(vertexCount) } else { clipped.reserveCapacity(vertexCount) }
    var clipIndex = clips?.startIndex ?? 0
    for (paint, instance) in zip(paints, instances) {
      guard case .fill(let mesh) = paint.geometry else { continue }
      let base = UInt32(clips == nil ? plain.count : clipped.count)
      if let clips {
        let clip = Self.clipColumns(clips[clipIndex])
        clipIndex += 1
        clipped.append(
          contentsOf: mesh.vertices.lazy.map {
            ClippedVertex(
              base: Self.vertex($0, instance), clip0: clip.0, clip1: clip.1, clip2: clip.2,
              clipRect: clip.3, clipRadii: clip.4)
          })
      } else {
        plain.append(contentsOf: mesh.vertices.lazy.map { Self.vertex($0, instance) })
      }
      indices.append(contentsOf: mesh.indices.lazy.map { base &+ $0 })
    }
    if clips == nil {
      let arrays = plainArrays ?? makeArrays(clipped: false)
      plainArrays = arrays
      device.upload(
        plain, indices: indices, array: arrays.array, vertices: arrays.vertices,
        elements: arrays.indices)
      return (arrays.array, indices.count)
    }
    let arrays = clippedArrays ?? makeArrays(clipped: true)
    clippedArrays = arrays
    device.upload(
      clipped, indices: indices, array: arrays.array, vertices: arrays.vertices,
      elements: arrays.indices)
    return (arrays.array, indices.count)
  }

  @inline(__always)
  private static func vertex(_ vertex: FillVertex, _ instance: PathInstance) -> Vertex {
    Vertex(
      vertex: vertex, matrix0: instance.matrix0, matrix1: instance.matrix1,
      matrix2: instance.matrix2, color: instance.color)
  }

  /// A clip as the vertex attributes carry it.
  private static func clipColumns(_ clip: ClipEffect?) -> (
    SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>
  ) {
    guard let clip else { return noClip }
    // [x y 1] × H: H's rows are the columns GL's matrix × vector takes.
    let h = clip.itemToClip.m
    let r = clip.shape.rect
    return (
      SIMD4(Float(h.0), Float(h.1), Float(h.2), 0), SIMD4(Float(h.3), Float(h.4), Float(h.5), 0),
      SIMD4(Float(h.6), Float(h.7), Float(h.8), 0),
      SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY)), clip.shape.radii
    )
  }

  private func makeArrays(clipped: Bool) -> Arrays {
    func float<V>(_ index: GPUHandle, _ count: Int32, _ field: PartialKeyPath<V>) -> VertexAttribute {
      VertexAttribute(
        index: index, count: count, type: .float, normalized: false,
        offset: MemoryLayout<V>.offset(of: field) ?? 0)
    }
    typealias V = Vertex
    typealias C = ClippedVertex
    guard clipped else {
      return device.makeVertexArray(
        stride: MemoryLayout<V>.stride,
        attributes: [
          float(0, 2, \V.vertex.position), float(1, 2, \V.vertex.extrude),
          float(2, 4, \V.vertex.own), float(3, 4, \V.vertex.prev), float(4, 4, \V.vertex.next),
          float(8, 4, \V.matrix0), float(9, 4, \V.matrix1), float(10, 4, \V.matrix2),
          float(11, 4, \V.color),
        ])
    }
    return device.makeVertexArray(
      stride: MemoryLayout<C>.stride,
      attributes: [
        float(0, 2, \C.base.vertex.position), float(1, 2, \C.base.vertex.extrude),
        float(2, 4, \C.base.vertex.own), float(3, 4, \C.base.vertex.prev),
        float(4, 4, \C.base.vertex.next), float(8, 4, \C.base.matrix0),
        float(9, 4, \C.base.matrix1), float(10, 4, \C.base.matrix2), float(11, 4, \C.base.color),
        float(5, 3, \C.clip0), float(6, 3, \C.clip1), float(7, 3, \C.clip2),
        float(12, 4, \C.clipRect), float(13, 4, \C.clipRadii),
      ])
  }

  deinit {
    for arrays in [plainArrays, clippedArrays].compactMap({ $0 }) {
      device.deleteVertexArray(arrays.array, buffers: [arrays.vertices, arrays.indices])
    }
  }
}
