import Foundation
import Lamina
import LaminaFrame

/// A shader over `viewport` of `output`, reading `inputs` (unit 0, then 1)
/// with `sampler`; blending off.
package struct EffectPass {
  package enum Kind: Equatable {
    /// A color filter: rows of a 4×4 matrix and a bias, on straight color.
    case colorMatrix(matrix: [Float], bias: SIMD4<Float>)
    /// One direction of a separable Gaussian of `sigma` texels.
    case blur(dx: Float, dy: Float, sigma: Float)
    /// A box filter shrinking by `factor`.
    case downsample(factor: Int)
    /// Back up by `factor`.
    case upsample(factor: Int)
    /// A blend mode without the blend equations: input 0 is the layer's
    /// rendering, input 1 a copy of what is behind it; `origin` is the
    /// viewport's corner in `output`, `source` its texel in input 0 (the
    /// rendering may have been made over a larger area, for another pass).
    case blend(
      mode: Int, name: String, originX: Int, originY: Int, sourceX: Int, sourceY: Int,
      opacity: Float)
  }
  /// The shader and its parameters.
  package var kind: Kind
  /// Sampled on units 0 and 1.
  package var inputs: [TargetID]
  /// How the inputs are sampled.
  package var sampler: SamplerKey
  /// Drawn into: a new target, or the pass a blend interrupts.
  package var output: TargetID
  /// The output's pixels covered.
  package var viewport: PixelRect
  /// Only for passes into a scissored canvas (a blend mode in a damaged rect).
  package var scissor: PixelRect?
}
