import Foundation
import Lamina
import LaminaFrame

/// What the effect shader (`effect.frag`, `masked.frag`) is specialized by.
package struct EffectVariant: Hashable {
  /// 0 none, 1 fill, 2 ring, 3 blurred in closed form, 4 blurred and integrated.
  package var shapeMode: Int
  /// Samples a texture (else a solid color).
  package var textured: Bool
  /// Draws a gradient of this kind from its ramp (instead of the texture).
  package var gradient: GradientPaint.Kind? = nil
  /// The gradient's color taken at pixel corners (`GRADIENT_AT_CORNERS`).
  package var gradientCorners = false
  /// Cuts by a rounded rect in another plane (`masksToBounds`).
  package var clip: Bool
  /// Multiplies by a mask's alpha (`masked.frag`).
  package var masked: Bool
  /// What of the mask multiplies, when `masked`: its alpha (the default),
  /// luminance, or one minus either.
  package var maskMode = CALayerMaskMode.alpha
  /// Declares the advanced blend equations (a compositingFilter).
  package var blend = false
}
