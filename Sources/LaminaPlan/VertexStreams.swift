import Foundation
import LaminaFrame

/// A renderer's vertex arrays and buffers: one per vertex format (`Vertex`,
/// `EffectVertex`), refilled by each draw pass, and an empty one for
/// full-target passes.
package final class VertexStreams {
  private let device: any GPUDevice
  private let plain: (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle)
  private let effect: (array: GPUHandle, vertices: GPUHandle, indices: GPUHandle)
  /// No attributes: `fullscreen.vert` makes its triangle from the vertex id.
  package let empty: GPUHandle

  init(device: any GPUDevice) {
    self.device = device
    typealias A = VertexAttribute
    func offset<V>(_ field: PartialKeyPath<V>) -> Int { MemoryLayout<V>.offset(of: field) ?? 0 }
    let base: [A] = [
      A(index: 0, count: 3, type: .float, normalized: false, offset: offset(\Vertex.x)),
      A(index: 1, count: 2, type: .float, normalized: false, offset: offset(\Vertex.u)),
      A(
        index: 2, count: 4, type: .unsignedByte, normalized: true, offset: offset(\Vertex.color)),
      A(index: 3, count: 4, type: .float, normalized: false, offset: offset(\Vertex.edges)),
      A(index: 4, count: 4, type: .float, normalized: false, offset: offset(\Vertex.texClamp)),
    ]
    plain = device.makeVertexArray(stride: MemoryLayout<Vertex>.stride, attributes: base)
    let inner = offset(\EffectVertex.base)
    let effectAttributes =
      base.map { a -> A in
        var a = a
        a.offset += inner
        return a
      } + [
        A(
          index: 5, count: 2, type: .float, normalized: false, offset: offset(\EffectVertex.local)
        ),
        A(
          index: 6, count: 4, type: .float, normalized: false,
          offset: offset(\EffectVertex.shapeRect)),
        A(
          index: 7, count: 4, type: .float, normalized: false,
          offset: offset(\EffectVertex.shapeRadii)),
        A(
          index: 8, count: 4, type: .float, normalized: false,
          offset: offset(\EffectVertex.shapeParams)),
        A(
          index: 9, count: 3, type: .float, normalized: false,
          offset: offset(\EffectVertex.clipPos)),
        A(
          index: 10, count: 4, type: .float, normalized: false,
          offset: offset(\EffectVertex.clipRect)),
        A(
          index: 11, count: 4, type: .float, normalized: false,
          offset: offset(\EffectVertex.clipRadii)),
      ]
    effect = device.makeVertexArray(
      stride: MemoryLayout<EffectVertex>.stride, attributes: effectAttributes)
    empty = device.makeEmptyVertexArray()
  }

  deinit {
    device.deleteVertexArray(plain.array, buffers: [plain.vertices, plain.indices])
    device.deleteVertexArray(effect.array, buffers: [effect.vertices, effect.indices])
    device.deleteVertexArray(empty, buffers: [])
  }

  /// Fills the buffers with a pass's geometry (only the formats it uses).
  func upload(_ geometry: PassGeometry) {
    if !geometry.effectVertices.isEmpty {
      device.upload(
        geometry.effectVertices, indices: geometry.effectIndices, array: effect.array,
        vertices: effect.vertices, elements: effect.indices)
    }
    if !geometry.vertices.isEmpty {
      device.upload(
        geometry.vertices, indices: geometry.indices, array: plain.array,
        vertices: plain.vertices, elements: plain.indices)
    }
    device.counters.vertices += geometry.vertices.count + geometry.effectVertices.count
  }

  /// Binds the vertex array a batch draws from.
  func bind(effectFormat: Bool) {
    device.bindVertexArray(effectFormat ? effect.array : plain.array)
  }
}
