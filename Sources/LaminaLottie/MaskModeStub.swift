import Lamina

// TEMPORARY STUB — removed at merge. Helper i25b adds the real
// `CALayerMaskMode` and `CALayer.maskMode` to the Lamina module
// (Sources/Lamina/CALayer+MaskMode.swift) and renders them; this file only
// lets LaminaLottie compile before that merge. Delete this whole file when
// i25b's branch is merged: nothing else changes.

/// How a layer's mask masks it (stub; see the note above).
enum CALayerMaskMode { case alpha, alphaInverted, luminance, luminanceInverted }

extension CALayer {
  /// Stub backed by nothing: reads .alpha, ignores writes (removed at merge).
  var maskMode: CALayerMaskMode {
    get { .alpha }
    set {}
  }
}
