import Foundation
import Lamina
import LaminaFrame

/// Which program a batch draws with.
package enum ProgramKey: Hashable {
  /// A premultiplied color per vertex (`solid.frag`).
  case solid
  /// A texture times the vertex color (`image.frag`).
  case image
  /// The blurred alpha of a shadow group, tinted.
  case shadow
  /// `solid` and `image` declaring the advanced blend equations.
  case solidBlend, imageBlend
  /// A gradient kind (sampling the batch's ramp), declaring the advanced
  /// blend equations when `blend`.
  case gradient(GradientPaint.Kind, blend: Bool, corners: Bool = false)
  /// The effect shader specialized for what the items need.
  case effect(EffectVariant)
  /// The path shaders (`path_fill.*`, `path_stroke.*`), one variant per
  /// kind of piece of the batch's mesh (`GL/PathPrograms.swift`).
  case path
}
