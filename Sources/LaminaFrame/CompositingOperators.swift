import Foundation
import Lamina

/// A compositing formula of Porter and Duff's (and a few others that GL's
/// fixed blend functions compute), on premultiplied colors:
/// `result = src × Fa + dst × Fb`. Core Animation's names.
package enum PorterDuff: String, CaseIterable, Hashable, Sendable {
  /// Fa 0, Fb 0: nothing is left.
  case clear
  /// Fa 1, Fb 0: the source replaces what is behind.
  case copy
  /// Fa 1, Fb 1 − αs: the default.
  case sourceOver
  /// Fa αd, Fb 0: the source where the backdrop is.
  case sourceIn
  /// Fa 1 − αd, Fb 0: the source where the backdrop is not.
  case sourceOut
  /// Fa αd, Fb 1 − αs: the source over the backdrop, only where the backdrop is.
  case sourceAtop
  /// Fa 1 − αd, Fb 1: the backdrop over the source.
  case destOver
  /// Fa 0, Fb αs: the backdrop where the source is.
  case destIn
  /// Fa 0, Fb 1 − αs: the backdrop where the source is not (inverted mattes).
  case destOut
  /// Fa 1 − αd, Fb αs: the backdrop over the source, only where the source is.
  case destAtop
  /// Fa 1 − αd, Fb 1 − αs: each where the other is not.
  case xor
  /// Fa 1, Fb 1: the sum, clamped (plus-lighter).
  case plusL
  /// `src × dst`, every channel.
  case multiply
  /// `min(src, dst)`, every channel.
  case minimum
  /// `max(src, dst)`, every channel.
  case maximum
}

extension BlendMode {
  /// The blend a `compositingFilter` name asks for: a W3C blend mode by its
  /// Core Image or Core Animation name (`CIMultiplyBlendMode`,
  /// `multiplyBlendMode`), a Porter–Duff operator (`xor`, `sourceIn`,
  /// `CISourceAtopCompositing`, …); nil for a name Lamina does not know.
  init?(compositingFilter name: String) {
    guard let mode = CIFilter.compositingMode(named: name) else { return nil }
    if mode == "sourceOver" {
      self = .sourceOver
    } else if let op = PorterDuff(rawValue: mode) {
      self = .porterDuff(op)
    } else if Self.compositeModeNames.contains(mode) {
      self = .composite(mode)
    } else {
      return nil
    }
  }

  /// The W3C blend modes by their Core Image names: exactly the fifteen of
  /// the scene format. The GL stage maps each to its advanced blend
  /// equation (or to a shader fallback where the driver lacks them).
  package static let compositeModeNames: Set<String> = [
    "CIMultiplyBlendMode", "CIScreenBlendMode", "CIOverlayBlendMode", "CIDarkenBlendMode",
    "CILightenBlendMode", "CIColorDodgeBlendMode", "CIColorBurnBlendMode",
    "CIHardLightBlendMode", "CISoftLightBlendMode", "CIDifferenceBlendMode",
    "CIExclusionBlendMode", "CIHueBlendMode", "CISaturationBlendMode", "CIColorBlendMode",
    "CILuminosityBlendMode",
  ]

  /// Whether the result depends on what is behind (anything but
  /// source-over and additive): such a blend inside an opacity group needs
  /// the group's own pass, and path batching keeps it apart.
  package var readsBackdrop: Bool {
    switch self {
    case .sourceOver, .additive: return false
    case .composite, .porterDuff: return true
    }
  }
}
