import Foundation
import Lamina

/// A `CAGradientLayer`'s gradient as the GPU draws it: the kind, the start
/// and end points in points from the bounds' origin, and the stops with
/// straight (un-premultiplied) colors.
public struct GradientPaint: Equatable {
  public enum Kind: Int32 {
    case axial = 0
    case radial = 1
    case conic = 2
  }

  /// The most stops the shader takes; extra stops are resampled (see `init?`).
  public static let maxStops = 16

  public var kind: Kind
  /// What the shader of `kind` needs to place a pixel on the gradient (see
  /// Shaders/gradient.glsl), from the start and end points in points.
  public var parameters: SIMD4<Float>
  /// Straight RGBA colors, one per stop.
  public var colors: [SIMD4<Float>]
  /// Increasing locations, one per stop.
  public var locations: [Float]

  /// The gradient of `layer`; nil when it has no colors.
  public init?(_ layer: CAGradientLayer) {
    let cgColors = layer.cgColors
    guard !cgColors.isEmpty else { return nil }
    var colors = cgColors.map {
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
    if colors.count > Self.maxStops {
      (colors, locations) = Self.resample(colors, locations)
    }
    let size = layer.bounds.size
    let s = layer.startPoint
    let e = layer.endPoint
    kind = layer.type == .radial ? .radial : layer.type == .conic ? .conic : .axial
    parameters = Self.parameters(
      kind, start: CGPoint(x: s.x * size.width, y: s.y * size.height),
      end: CGPoint(x: e.x * size.width, y: e.y * size.height))
    self.colors = colors
    self.locations = locations
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
    case .radial:
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

  /// More stops than the shader takes: the gradient sampled at `maxStops`
  /// evenly spaced locations over the span of the given ones.
  private static func resample(_ colors: [SIMD4<Float>], _ locations: [Float]) -> (
    [SIMD4<Float>], [Float]
  ) {
    let first = locations[0]
    let last = locations[locations.count - 1]
    var outColors: [SIMD4<Float>] = []
    var outLocations: [Float] = []
    for k in 0..<maxStops {
      let t = first + (last - first) * Float(k) / Float(maxStops - 1)
      var i = 1
      while i < locations.count - 1 && locations[i] < t { i += 1 }
      let a = locations[i - 1]
      let b = locations[i]
      let f = b > a ? min(max((t - a) / (b - a), 0), 1) : 1
      outColors.append(colors[i - 1] + (colors[i] - colors[i - 1]) * f)
      outLocations.append(t)
    }
    return (outColors, outLocations)
  }
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
