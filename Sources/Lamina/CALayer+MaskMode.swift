import Foundation

/// How a layer's `mask` lets its rendering through (Lamina extension: Core
/// Animation masks by alpha only). Lottie's track mattes need the others:
/// alpha inverted, luma and luma inverted.
///
/// ```swift
/// layer.mask = matte
/// layer.maskMode = .luminance   // white lets through, black hides
/// ```
public enum CALayerMaskMode: String, CaseIterable, Sendable {
  /// The mask's alpha (Core Animation's masks).
  case alpha
  /// One minus the mask's alpha: what the mask covers is hidden.
  case alphaInverted
  /// The Rec. 709 luma of the mask's color, un-premultiplied, times its
  /// alpha (After Effects' luma matte): white opaque lets through, black or
  /// transparent hides.
  case luminance
  /// One minus the luminance value.
  case luminanceInverted

  /// The scene-format names, in declaration order.
  public static let all: [Self] = allCases

  /// Whether what the mask does not cover is let through (an inverted
  /// mode): such a mask that draws nothing hides nothing.
  public var isInverted: Bool { self == .alphaInverted || self == .luminanceInverted }
}

extension CALayer {
  /// The key-value accessor of `maskMode` (appended to CALayer's keys).
}
