import Foundation
import LaminaFrame

/// The vertices of path strokes of several meshes that share a cap and a
/// dash count and overlap nothing of each other (`PathBatch`): each mesh's
/// vertices carrying its item's instance (the attributes 8…14 of the
/// stroke shaders, read per vertex here), and the indices laid out by
/// kind of piece, each kind's indices of every item together, so that a
/// stroke batch of any meshes takes one draw per kind of piece, as one of
/// a single mesh does. Built and uploaded for each draw (184 bytes a
/// vertex).
final class MergedStrokeStream {
  struct Vertex {
    var vertex: StrokeVertex
    var instance: PathInstance
  }

  private typealias Arrays = (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle)

  private let device: any GPUDevice
  private var arrays: Arrays?
  private var vertices: [Vertex] = []
  private var byGroup: [[UInt32]] = Array(repeating: [], count: StrokeMesh.Group.allCases.count)
  private var indices: [UInt32] = []

  init(device: any GPUDevice) {
    self.device = device
  }

  /// Uploads the strokes of `paints`, one item each with its instance:
  /// the vertex array to bind and each kind of piece's range of indices
  /// (in `StrokeMesh.Group` order).
  func upload(_ paints: [PathPaint], _ instances: [PathInstance]) -> (
    array: GPUHandle, groups: [Range<Int>]
  ) {
    vertices.removeAll(keepingCapacity: true)
    for g in byGroup.indices { byGroup[g].removeAll(keepingCapacity: true) }
    for (paint, instance) in zip(paints, instances) {
      guard case .stroke(let mesh, _) = paint.geometry else { continue }
      let base = UInt32(vertices.count)
      for vertex in mesh.vertices { vertices.append(Vertex(vertex: vertex, instance: instance)) }
      for (g, range) in mesh.groups.enumerated() where g < byGroup.count {
        for i in range { byGroup[g].append(base &+ mesh.indices[i]) }
      }
    }
    indices.removeAll(keepingCapacity: true)
    var groups: [Range<Int>] = []
    for group in byGroup {
      groups.append(indices.count..<indices.count + group.count)
      indices += group
    }
    let made = arrays ?? makeArrays()
    arrays = made
    device.upload(
      vertices, indices: indices, array: made.array, vertices: made.vertices,
      elements: made.indices)
    return (made.array, groups)
  }

  private func makeArrays() -> Arrays {
    typealias V = Vertex
    func float(_ index: GPUHandle, _ count: Int32, _ field: PartialKeyPath<V>) -> VertexAttribute {
      VertexAttribute(
        index: index, count: count, type: .float, normalized: false,
        offset: MemoryLayout<V>.offset(of: field) ?? 0)
    }
    return device.makeVertexArray(
      stride: MemoryLayout<V>.stride,
      attributes: [
        float(0, 2, \V.vertex.base), float(1, 2, \V.vertex.tangent),
        float(2, 4, \V.vertex.tangents), float(3, 2, \V.vertex.corner),
        float(4, 2, \V.vertex.range), float(5, 2, \V.vertex.subpath),
        float(6, 2, \V.vertex.kind), float(7, 2, \V.vertex.capAngles),
        float(8, 4, \V.instance.matrix0), float(9, 4, \V.instance.matrix1),
        float(10, 4, \V.instance.matrix2), float(11, 4, \V.instance.color),
        float(12, 4, \V.instance.stroke), float(13, 4, \V.instance.dashes0),
        float(14, 4, \V.instance.dashes1),
      ])
  }

  deinit {
    if let arrays { device.deleteVertexArray(arrays.array, buffers: [arrays.vertices, arrays.indices]) }
  }
}
