import Foundation
import Lamina

/// How long drawing a built frame is predicted to take on the slowest
/// renderer Lamina runs on: Mesa's llvmpipe at one thread
/// (`LP_NUM_THREADS=1`), a debug build. Counted from the frame's draw list
/// alone (items, the pixels each material covers, offscreen passes, filter
/// stages and blur radii, path triangles and stroke lengths), before any
/// planning or GL call, so that a frame that would run out of
/// `Limits.frameTimeBudget` is refused at once instead of after it.
///
/// The coefficients are nanoseconds, measured on scenes that each stress
/// one kind of work (docs/limits.md, "The frame time prediction") and
/// rounded up by about half again: the machine that measured them was
/// shared, and the prediction must err high, never refuse a frame that
/// draws in time. The blur's arithmetic mirrors the planner's
/// (`FramePlanner.blurDownsampleFactor`, `downsampledBlur`).
package enum FrameCost {
  /// An item's fixed cost: planning, its vertices and its share of a draw
  /// (a debug build's CPU; 20 µs measured per item of 20,000 small ones).
  static let perItem = 30_000.0
  /// An offscreen pass's fixed cost: its target, its draws and the switch
  /// (170 µs measured per pass of 1,000 small groups).
  static let perPass = 250_000.0
  /// A filter or blur step's fixed cost (a target and one draw).
  static let effectStep = 100_000.0

  /// Per pixel covered, by what fills it (5.5 measured for solid colour,
  /// 6.5 with a rounded shape, 10 for a border ring, 10 for an image, 17
  /// for an image clipped by a rounded rect, 20 for an axial or radial
  /// gradient, 40 for a conic one (its angle per pixel; the stops are a
  /// ramp texture, one sample whatever their number), 8.6 for a
  /// closed-form blurred shadow).
  static let solidPixel = 9.0
  static let shapePixel = 15.0
  static let blurredShapePixel = 20.0
  static let texturePixel = 24.0
  static let maskedPixel = 22.0
  static let gradientPixel = 30.0
  static let angularGradientPixel = 60.0
  /// What a clip evaluated per fragment adds to a pixel.
  static let clipPixel = 16.0
  /// Clearing a target's pixel (and reading the canvas back).
  static let clearPixel = 3.0
  /// Per pixel of a path mesh's bounds (4.1 measured for a filled circle).
  static let pathPixel = 8.0

  /// One tap of a blur or downsample pass, per pixel (12 measured), and
  /// the pass's own cost per pixel (33 measured).
  static let blurTap = 16.0
  static let blurPassPixel = 45.0
  /// A colour-matrix stage or an upsample, per pixel.
  static let effectPixel = 20.0

  /// A stroke: per pixel of its length in target pixels (the long thin
  /// triangles llvmpipe sets up tile by tile: 264 measured for 3-pixel
  /// lines across a 2048² canvas), and per pixel it covers (15 measured).
  static let strokeLengthPixel = 400.0
  static let strokePixel = 20.0
  /// A fill mesh: per triangle, per pixel of the mesh's extent (its
  /// triangles are slabs and antialiasing ribbons as long as the path's
  /// bounds are wide). An allowance, not a measurement of its own: filled
  /// circles took half their prediction with it, and a path complex enough
  /// for it to matter is filled by Cairo before the check instead.
  static let fillTriangleExtentPixel = 2.0

  /// Seconds the item takes to draw: its fixed cost and the pixels it
  /// covers at its material's rate.
  package static func seconds(of item: DrawItem) -> Double {
    let area = Double(item.bounds.area)
    var perPixel: Double
    var extra = 0.0
    switch item.material {
    case .solid:
      if let shape = item.shape {
        perPixel = shape.mode == .blur ? blurredShapePixel : shapePixel
      } else {
        perPixel = solidPixel
      }
    case .image, .group, .shadow, .raster, .filtered, .openGLLayer, .dmabuf:
      perPixel = texturePixel
    case .masked:
      perPixel = maskedPixel
    case .gradient(let paint):
      perPixel = paint.kind == .conic || paint.kind == .focal ? angularGradientPixel : gradientPixel
    case .path(let paint):
      perPixel = pathPixel
      let scale = largestScale(item.matrix)
      switch paint.geometry {
      case .fill(let mesh):
        let extent = Double(max(item.bounds.width, item.bounds.height))
        extra = Double(mesh.triangleEstimate) * extent * fillTriangleExtentPixel
      case .stroke(let mesh, let parameters):
        let length = mesh.length * scale
        let width = Double(parameters.halfWidth) * 2 * scale + 2
        extra = finite(length * (strokeLengthPixel + width * strokePixel))
      }
    }
    if item.clip != nil { perPixel += clipPixel }
    // A blend mode without blend equations reads the backdrop: a copy of
    // what is under the item first.
    if item.hasCompositeBlend {
      perPixel += texturePixel
      extra += perPass
    }
    return finite(perItem + area * perPixel + extra) / 1e9
  }

  /// Seconds `group`'s own pass takes, without the commands drawn into it:
  /// its target cleared, its filters or its shadow's blur, and its drawing
  /// back where it is composited.
  package static func seconds(ofPass group: GroupPass) -> Double {
    let bounds = Double(group.bounds.area)
    var ns = perPass + bounds * clearPixel
    if let shadow = group.shadow {
      let canvas = Double(shadow.canvas.area)
      ns += canvas * clearPixel + blur(area: canvas, sigma: shadow.sigma, upsample: false)
      // The blurred canvas tinted and drawn back.
      ns += canvas * texturePixel
    } else {
      ns += bounds * (group.mask == nil ? texturePixel : maskedPixel)
    }
    if group.backdrop { ns += bounds * texturePixel + effectStep }
    if let filter = group.filter {
      // A blur reads its reach around the rendering too.
      let reach = Double(filter.reach)
      let area =
        (Double(group.bounds.width) + 2 * reach) * (Double(group.bounds.height) + 2 * reach)
      for stage in filter.stages {
        switch stage {
        case .color: ns += effectStep + area * effectPixel
        case .blur(let sigma): ns += blur(area: area, sigma: sigma, upsample: true)
        }
      }
    }
    if group.clip != nil { ns += bounds * clipPixel }
    return finite(ns) / 1e9
  }

  /// Seconds a canvas of `pixels` takes to clear and read back.
  package static func seconds(ofCanvas pixels: Int) -> Double {
    Double(pixels) * clearPixel * 2 / 1e9
  }

  /// Nanoseconds a Gaussian blur of `sigma` target pixels takes over
  /// `area` pixels, as the planner runs it: a box downsample by the power
  /// of two that keeps at least 3 texels a sigma (at most 16), two
  /// separable passes of 2⌈3σ'⌉ + 1 taps at that size, and (for a filter)
  /// an upsample back.
  static func blur(area: Double, sigma: Float, upsample: Bool) -> Double {
    let sigma = Double(max(sigma, 0))
    var factor = 1.0
    while factor * 3 < sigma && factor < 16 { factor *= 2 }
    let small = area / (factor * factor)
    var ns = 0.0
    if factor > 1 {
      ns += effectStep + small * (blurPassPixel + (factor / 2) * (factor / 2) * blurTap)
      if upsample { ns += effectStep + area * effectPixel }
    }
    let residual = factor > 1 ? sigma * sigma - factor * factor / 4 : sigma * sigma
    let passSigma = max(residual, 0).squareRoot() / factor
    if passSigma > 0.3 {
      let taps = 2 * (3 * passSigma).rounded(.up) + 1
      ns += 2 * (effectStep + small * (blurPassPixel + taps * blurTap))
    }
    return finite(ns)
  }

  /// The largest factor by which `matrix` stretches a length of the plane
  /// (its 2 × 2 part; perspective aside), at least 1/1024.
  static func largestScale(_ m: CATransform3D) -> Double {
    let x = (Double(m.m11) * Double(m.m11) + Double(m.m12) * Double(m.m12)).squareRoot()
    let y = (Double(m.m21) * Double(m.m21) + Double(m.m22) * Double(m.m22)).squareRoot()
    return finite(max(x, y, 1.0 / 1024))
  }

  /// `value`, or the largest finite Double for one that overflowed (a cost
  /// past every limit stays past it).
  static func finite(_ value: Double) -> Double {
    value.isNaN ? .greatestFiniteMagnitude : min(value, .greatestFiniteMagnitude)
  }
}
