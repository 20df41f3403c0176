import Foundation
import Lamina
import LaminaFrame

/// Consecutive items drawn with one draw call.
package struct Batch {
  /// The program the batch draws with.
  package var program: ProgramKey
  /// Sampled on texture unit 0 (nil: the program samples nothing).
  package var texture: TextureSource?
  /// Sampled on unit 1 (`s_mask`): a group's mask, or any second texture
  /// a program reads.
  package var mask: TextureSource?
  /// How the textures are sampled.
  package var sampler: SamplerKey?
  /// How the batch combines with what is behind it.
  package var blend: BlendMode
  /// Whether the batch uses the effect vertex format.
  package var usesEffectVertices: Bool
  /// The gradient whose uniforms and ramp (on unit 0) the batch sets.
  package var paint: GradientPaint?
  /// The batch's indices in its vertex format's index list.
  package var firstIndex: Int
  package var indexCount: Int
  /// Items drawn, and the first one's layer name.
  package var items: Int
  package var firstLayerName: String?
  /// Why the batch began instead of its first item joining the one before.
  package var breakReason: BatchBreak = .pass
  /// Whether every item is an exact rect (`VertexBuilder.exactCorners`):
  /// then edge coverage is 1 wherever the batch draws.
  package var exactRects = false
  /// The pixels of its items' bounds, summed (what llvmpipe's linear
  /// rasterizer would save on, against the draws it splits the batch into).
  package var area = 0
  /// Whether every item shows its image texel for texel
  /// (`VertexBuilder.copiesTexels`).
  package var copiesTexels = false
  /// Path items, drawn from their mesh instead of the pass's vertices
  /// (`PathBatch`; the program is then `.path`).
  package var path: PathBatch? = nil
}
