import Foundation
import Lamina

/// A `CAGradientLayer`'s gradient as the GPU draws it: the kind, the start
/// and end points in points from the bounds' origin, and the stops with
/// straight (un-premultiplied) colors.
package struct GradientPaint: Hashable {
  package enum Kind: Int32 {
    case axial = 0
    case radial = 1
    case conic = 2
    /// Radial with a focal point (`CAGradientLayer.focalPointOffset`).
    case focal = 3
  }

  package var kind: Kind
  /// What the shader of `kind` needs to place a pixel on the gradient (see
  /// Shaders/gradient.glsl), from the start and end points in points.
  package var parameters: SIMD4<Float>
  /// For `.focal`, the focal point in radii from the center (else zero).
  package var focal: SIMD2<Float> = .zero
  /// Whether the color is taken at each pixel's top-left corner
  /// (`CAGradientLayer.samplesAtPixelCorners`) rather than its center.
  package var atPixelCorners = false
  /// Straight RGBA colors, one per stop.
  package var colors: [SIMD4<Float>]
  /// Increasing locations, one per stop.
  package var locations: [Float]

  /// The gradient of `layer`; nil when it has no colors.
  package init?(_ layer: CAGradientLayer) {
    let cgColors = layer.cgColors
    guard !cgColors.isEmpty else { return nil }
    let colors = cgColors.map {
      SIMD4(Float($0.red), Float($0.green), Float($0.blue), Float($0.alpha))
    }
    var locations: [Float]
    if let given = layer.locationValues, given.count == colors.count {
      // Core Animation takes locations as given; a decreasing one acts as a
      // hard stop at the previous location.
      locations = []
      for value in given { locations.append(max(Float(value), locations.last ?? -.infinity)) }
    } else {
      let n = colors.count
      locations = (0..<n).map { n == 1 ? 0 : Float($0) / Float(n - 1) }
    }
    let size = layer.bounds.size
    let s = layer.startPoint
    let e = layer.endPoint
    kind = layer.type == .radial ? .radial : layer.type == .conic ? .conic : .axial
    let start = CGPoint(x: s.x * size.width, y: s.y * size.height)
    parameters = Self.parameters(
      kind, start: start, end: CGPoint(x: e.x * size.width, y: e.y * size.height))
    let f = layer.focalPointOffset
    if kind == .radial, f != .zero, parameters.z < 1e6 {
      // The focal point in radii from the center, kept just inside the
      // ellipse (where the cone would turn inside out).
      var focal = SIMD2(
        Float(Double(f.x * size.width)) * parameters.z, Float(Double(f.y * size.height)) * parameters.w)
      let length = (focal * focal).sum().squareRoot()
      if length > 0.99 { focal *= 0.99 / length }
      if length > 0 {
        kind = .focal
        self.focal = focal
      }
    }
    self.colors = colors
    self.locations = locations
    atPixelCorners = layer.samplesAtPixelCorners
  }

  /// Per kind, the spec's definition reduced to a few numbers per gradient
  /// (points measured from the bounds' origin):
  /// - axial: t = a·x + b·y + c, the projection on start→end over its length²;
  /// - radial: center and reciprocal radii, |end − start| per axis (one radius
  ///   of zero takes the other; both zero puts everything past the end);
  /// - conic: center and the end point's angle in turns (y down: clockwise).
  static func parameters(_ kind: Kind, start: CGPoint, end: CGPoint) -> SIMD4<Float> {
    let dx = Double(end.x - start.x)
    let dy = Double(end.y - start.y)
    switch kind {
    case .axial:
      let length2 = dx * dx + dy * dy
      guard length2 > 0 else { return .zero }
      let a = dx / length2
      let b = dy / length2
      return SIMD4(Float(a), Float(b), Float(-(a * Double(start.x) + b * Double(start.y))), 0)
    case .radial, .focal:
      var rx = abs(dx)
      var ry = abs(dy)
      if rx <= 0 { rx = ry }
      if ry <= 0 { ry = rx }
      let inverse = rx > 0 ? SIMD2(Float(1 / rx), Float(1 / ry)) : SIMD2<Float>(repeating: 1e6)
      return SIMD4(Float(start.x), Float(start.y), inverse.x, inverse.y)
    case .conic:
      let turns = atan2(dy, dx) / (2 * Double.pi)
      return SIMD4(Float(start.x), Float(start.y), Float(turns), 0)
    }
  }

  /// Texels of a gradient's ramp: enough that linear filtering between them
  /// is within half an 8-bit step of the exact color anywhere in a segment.
  package static let rampWidth = 1024

  /// The span of t that the ramp covers: 0...1 and every location (a
  /// location outside 0...1 still shapes the colors out there, as when the
  /// shader walked the stops).
  package var span: (lower: Float, upper: Float) {
    let first = locations.first ?? 0
    let last = locations.last ?? 1
    let lower = first.isFinite ? min(0, first) : 0
    let upper = last.isFinite ? max(1, last) : 1
    return (lower, upper > lower ? upper : lower + 1)
  }

  /// The color at `t`: before the first stop its color, after the last its
  /// color, between two stops the mix of their straight colors; at equal
  /// locations the later stop wins (a hard edge).
  func straightColor(at t: Float, from index: inout Int) -> SIMD4<Float> {
    let n = locations.count
    guard n > 1, t >= locations[0] else { return colors[0] }
    // `index` only grows while t grows: a ramp is built in one walk.
    while index + 1 < n && locations[index + 1] <= t { index += 1 }
    if index + 1 >= n { return colors[n - 1] }
    let a = locations[index]
    let b = locations[index + 1]
    let f = min(max((t - a) / (b - a), 0), 1)
    return colors[index] + (colors[index + 1] - colors[index]) * f
  }

  /// The premultiplied RGBA floats of the ramp: texel i holds the color at
  /// t = lower + i / (width − 1) · (upper − lower), so texel centers land on
  /// the span's ends.
  package func rampTexels(width: Int = GradientPaint.rampWidth) -> [Float] {
    let (lower, upper) = span
    var texels: [Float] = []
    texels.reserveCapacity(width * 4)
    var index = 0
    for i in 0..<width {
      let t = lower + (upper - lower) * Float(i) / Float(width - 1)
      let c = straightColor(at: t, from: &index)
      let a = min(max(c.w, 0), 1)
      texels += [min(max(c.x, 0), 1) * a, min(max(c.y, 0), 1) * a, min(max(c.z, 0), 1) * a, a]
    }
    return texels
  }

  /// Whether the ramp may be sampled without filtering: where no segment
  /// between two stops changes a premultiplied component by more than an
  /// 8-bit step from one texel to the next, the nearest texel is within
  /// half a step of the exact color, as linear filtering is (a hard stop's
  /// edge moves by at most half a texel either way). On llvmpipe a nearest
  /// sample costs about two thirds of a filtered one; a steep segment (a
  /// full change over less than a quarter of the span) keeps the filter.
  package var rampSamplesNearest: Bool {
    let (lower, upper) = span
    let width = upper - lower
    for i in locations.indices.dropFirst() {
      let d = locations[i] - locations[i - 1]
      guard d > 0 else { continue }
      let a = colors[i - 1]
      let b = colors[i]
      // Premultiplied, a component moves by at most its straight change
      // plus the alpha's.
      let straight = max(abs(b.x - a.x), max(abs(b.y - a.y), abs(b.z - a.z)))
      let change = straight + abs(b.w - a.w)
      let perTexel = change * width / (d * Float(Self.rampWidth - 1))
      if perTexel > 1 / 255 { return false }
    }
    return true
  }

  /// What the ramp texture is cached by: the stops, not the geometry.
  package var stops: GradientStops { GradientStops(colors: colors, locations: locations) }
}

/// A gradient's stops, the key of its ramp texture.
package struct GradientStops: Hashable {
  var colors: [SIMD4<Float>]
  var locations: [Float]
}

extension FrameBuilder {
  /// The gradient of a `CAGradientLayer`, drawn over its bounds above the
  /// background. Texture coordinates carry points from the bounds' origin.
  func gradientItem(_ layer: CAGradientLayer, toTarget: CATransform3D) -> DrawItem? {
    let bounds = layer.bounds
    guard bounds.width > 0, bounds.height > 0, let paint = GradientPaint(layer) else { return nil }
    return makeItem(
      .gradient(paint), rect: bounds, uv: (0, 0, Float(bounds.width), Float(bounds.height)),
      toTarget: toTarget, color: SIMD4(repeating: 1), name: layer.name)
  }
}
