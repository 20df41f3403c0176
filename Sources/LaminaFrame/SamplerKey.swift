import Foundation
import Lamina

/// How an image is sampled: Core Animation's filters per direction.
package struct SamplerKey: Hashable, Sendable {
  package var minification: CALayerContentsFilter
  package var magnification: CALayerContentsFilter

  package init(minification: CALayerContentsFilter, magnification: CALayerContentsFilter) {
    self.minification = minification
    self.magnification = magnification
  }

  /// The sampler to use for an image drawn at `texelsPerPoint` (texels per
  /// point of its rect, along x and y) through `m` (points to target
  /// pixels): the magnification filter alone where the image is drawn at
  /// one texel a pixel (under an affine map, rotated or not), itself
  /// elsewhere. There the GPU's choice between the two filters is a tie
  /// (its level of detail is 0, give or take a float rounding of its
  /// derivatives that depends on where the target starts), so an image
  /// drawn 1:1 with different filters was sampled one way on the canvas and
  /// the other in a group's target (the metamorphic finding alone seed
  /// 500942: a 16-point image with `magnificationFilter` nearest).
  package func resolved(texelsPerPoint: SIMD2<Double>, through m: CATransform3D) -> SamplerKey {
    guard minification != magnification, m.m14 == 0, m.m24 == 0, m.m44 != 0 else { return self }
    // Target pixels per point (columns: along the rect's x and y).
    let (a, b) = (Double(m.m11 / m.m44), Double(m.m12 / m.m44))
    let (c, d) = (Double(m.m21 / m.m44), Double(m.m22 / m.m44))
    let det = a * d - b * c
    guard det != 0, det.isFinite else { return self }
    // Texels per target pixel: texelsPerPoint times the inverse map, a
    // column for each pixel direction; the level of detail is that of the
    // longer column (the GPU's rho).
    let (su, sv) = (texelsPerPoint.x, texelsPerPoint.y)
    let alongX = SIMD2(su * d / det, sv * -b / det)
    let alongY = SIMD2(su * -c / det, sv * a / det)
    let rho = max(
      (alongX * alongX).sum().squareRoot(), (alongY * alongY).sum().squareRoot())
    guard abs(rho - 1) < Self.oneToOneTolerance else { return self }
    return SamplerKey(minification: magnification, magnification: magnification)
  }

  /// How close to one texel a pixel counts as one (a float rounding of
  /// the map, not a scale anyone draws at).
  static let oneToOneTolerance = 1e-6
}
