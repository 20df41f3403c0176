import Foundation
import Lamina

/// How an item's premultiplied color combines with the target.
public enum BlendMode: Hashable, Sendable {
  /// `src + dst × (1 − src.a)`.
  case sourceOver
  /// `src + dst` (emitter particles in `additive` render mode).
  case additive
  /// One of the W3C Compositing and Blending modes a `compositingFilter`
  /// names (`CIMultiplyBlendMode`, …), drawn with the GPU's advanced blend
  /// equations.
  case composite(String)
  /// A Porter–Duff operator (or another compositing formula that GL's
  /// blend functions compute): `xor`, `sourceIn`, `destOut`, ….
  case porterDuff(PorterDuff)
}
