import Foundation
import Lamina
import LaminaFrame

/// What a draw pass's batches draw from.
package struct PassGeometry {
  package var vertices: [Vertex] = []
  package var indices: [UInt32] = []
  /// Items with effects use the larger vertex format and its own buffers.
  package var effectVertices: [EffectVertex] = []
  package var effectIndices: [UInt32] = []
}
