import Foundation
import Lamina

/// A gradient's colors over the pixels of a bitmap, as `gradient.glsl`
/// computes them on the GPU: the pixel's center carried into the
/// gradient's space, its place t along the gradient, the ramp's texel
/// there (nearest, or filtered between the two nearest), times the
/// paint's alpha, dithered by the same noise over the canvas's pixels, then
/// rounded to 8 bits. For runs of paths drawn on the CPU whose paint is a
/// gradient (a Lottie gradient fill or stroke, a `CAGradientLayer` masked
/// by a shape): docs/rendering.md, "Paths on the CPU".
public final class GradientShader {
  public enum Kind: Equatable, Sendable {
    /// t = a·x + b·y + c (`parameters` a, b, c).
    case axial
    /// t = |(p − center) / radii| (`parameters` cx, cy, 1/rx, 1/ry).
    case radial
    /// As radial, from the focal point `focal` (in radii from the center).
    case focal(SIMD2<Float>)
    /// t = fract(angle(p − center) / 2π − a0) (`parameters` cx, cy, a0).
    case conic
  }

  /// A gradient's ramp (premultiplied RGBA floats, a texel each four) in
  /// 8-bit levels (0...255), a component an array: made once for the
  /// stops, shared by the shaders that paint them.
  public final class Ramp: @unchecked Sendable {
    let red: [Float], green: [Float], blue: [Float], alpha: [Float]

    public init(_ texels: [Float]) {
      var components: [[Float]] = [[], [], [], []]
      for k in 0..<4 { components[k].reserveCapacity(texels.count / 4) }
      for i in stride(from: 0, to: texels.count - 3, by: 4) {
        let c = SIMD4(texels[i], texels[i + 1], texels[i + 2], texels[i + 3])
        // A texel that is not a number paints nothing.
        let valid = !(c.x.isNaN || c.y.isNaN || c.z.isNaN || c.w.isNaN)
        for k in 0..<4 { components[k].append(valid ? c[k] * 255 : 0) }
      }
      if components[0].isEmpty { components = [[0], [0], [0], [0]] }
      (red, green, blue, alpha) = (components[0], components[1], components[2], components[3])
    }
  }

  let kind: Kind
  let parameters: SIMD4<Float>
  let ramp: Ramp
  /// The paint's alpha, which multiplies the ramp's colors.
  let opacity: Float
  /// u = t · scale + offset on the ramp (0...1 its width).
  let rampScale: Float, rampOffset: Float
  let nearest: Bool
  /// The bitmap's pixel (x, y, its corner) to the gradient's point.
  let toGradient: CGAffineTransform
  /// The bitmap's corner in canvas pixels, where the noise is anchored.
  let noiseOrigin: SIMD2<Float>
  /// The colors of a span, a word a pixel (`shade`'s output), and the
  /// places along the gradient of its pixels; room for whole groups of 8.
  private var row: UnsafeMutablePointer<UInt32>
  private var places: UnsafeMutablePointer<Float>
  /// The ramp's color at each pixel of the span, a component a buffer
  /// (0...255, before the alpha and the noise).
  private var colors: UnsafeMutablePointer<Float>
  private var capacity = 0

  public init(
    kind: Kind, parameters: SIMD4<Float>, ramp: Ramp, rampScale: Float, rampOffset: Float,
    nearest: Bool, alpha: Float, toGradient: CGAffineTransform, noiseOrigin: SIMD2<Float>
  ) {
    self.kind = kind
    self.parameters = parameters
    self.ramp = ramp
    opacity = alpha.isNaN ? 0 : min(max(alpha, 0), 1)
    self.rampScale = rampScale
    self.rampOffset = rampOffset
    self.nearest = nearest
    self.toGradient = toGradient
    self.noiseOrigin = noiseOrigin
    row = UnsafeMutablePointer.allocate(capacity: 8)
    places = UnsafeMutablePointer.allocate(capacity: 8)
    places.initialize(repeating: 0, count: 8)
    colors = UnsafeMutablePointer.allocate(capacity: 4 * 8)
    colors.initialize(repeating: 0, count: 4 * 8)
    capacity = 8
  }

  deinit {
    row.deallocate()
    places.deallocate()
    colors.deallocate()
  }

  /// The premultiplied ARGB words (Cairo's: alpha in the top byte) of `n`
  /// pixels from (`x`, `y`), into a buffer valid until the next call.
  /// Eight pixels a step.
  func shade(x: Int, y: Int, count n: Int) -> UnsafeMutablePointer<UInt32> {
    if n > capacity {
      row.deallocate()
      places.deallocate()
      colors.deallocate()
      capacity = (max(n, 2 * capacity) + 7) / 8 * 8
      row = UnsafeMutablePointer.allocate(capacity: capacity)
      places = UnsafeMutablePointer.allocate(capacity: capacity)
      places.initialize(repeating: 0, count: capacity)
      colors = UnsafeMutablePointer.allocate(capacity: 4 * capacity)
      colors.initialize(repeating: 0, count: 4 * capacity)
    }
    placeAlong(x: x, y: y, count: n)
    lookUp(count: n)
    let opacity = SIMD8<Float>(repeating: opacity)
    let lanes = SIMD8<Float>(0, 1, 2, 3, 4, 5, 6, 7)
    let noiseY = noiseOrigin.y + Float(y) + 0.5
    let full = SIMD8<Float>(repeating: 255)
    let (reds, greens, blues, alphas) = (
      colors, colors + capacity, colors + 2 * capacity, colors + 3 * capacity
    )
    func load(_ p: UnsafeMutablePointer<Float>, _ i: Int) -> SIMD8<Float> {
      UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<Float>.self)
    }
    var i = 0
    while i < n {
      // The lanes past n are computed and not used.
      var (r, g, b, a) = (load(reds, i), load(greens, i), load(blues, i), load(alphas, i))
      // Triangular noise of ±1 level, kept premultiplied-valid.
      let nx = lanes + (noiseOrigin.x + Float(x + i) + 0.5)
      let ny = SIMD8<Float>(repeating: noiseY)
      let dither = noise(nx, ny) + noise(ny + 17, nx + 17) - 1
      (r, g, b, a) = (r * opacity, g * opacity, b * opacity, clamp(a * opacity, full))
      r = clamp(r + dither, a)
      g = clamp(g + dither, a)
      b = clamp(b + dither, a)
      let word = integers(a) &<< 24 | integers(r) &<< 16 | integers(g) &<< 8 | integers(b)
      UnsafeMutableRawPointer(row + i).storeBytes(of: word, as: SIMD8<UInt32>.self)
      i += 8
    }
    return row
  }

  /// The ramp's texel (or the two, filtered) under each of the `n` places
  /// (u = t · scale + offset, clamped to the ramp's ends; a place that is
  /// not a number takes the first), into `colors`, rounded up to whole
  /// groups of 8 (the places past n are the last span's or 0).
  private func lookUp(count n: Int) {
    let (red, green, blue, alpha) = (ramp.red, ramp.green, ramp.blue, ramp.alpha)
    let texels = red.count
    let last = Float(texels - 1)
    let scale = rampScale * Float(texels)
    let offset = rampOffset * Float(texels)
    let end = (n + 7) / 8 * 8
    let (reds, greens, blues, alphas) = (
      colors, colors + capacity, colors + 2 * capacity, colors + 3 * capacity
    )
    red.withUnsafeBufferPointer { red in
      green.withUnsafeBufferPointer { green in
        blue.withUnsafeBufferPointer { blue in
          alpha.withUnsafeBufferPointer { alpha in
            for i in 0..<end {
              let s = places[i] * scale + offset
              if nearest {
                // Not above 0 (NaN included) takes the first texel.
                let c = s > 0 ? min(s, last) : 0
                let k = Int(c)
                (reds[i], greens[i], blues[i], alphas[i]) = (red[k], green[k], blue[k], alpha[k])
              } else {
                let v = s - 0.5
                let c = v > 0 ? min(v, last) : 0
                let k = Int(c)
                let f = c - Float(k)
                let j = min(k + 1, texels - 1)
                reds[i] = red[k] + (red[j] - red[k]) * f
                greens[i] = green[k] + (green[j] - green[k]) * f
                blues[i] = blue[k] + (blue[j] - blue[k]) * f
                alphas[i] = alpha[k] + (alpha[j] - alpha[k]) * f
              }
            }
          }
        }
      }
    }
  }

  /// Places along a conic gradient this close below 1 are on its seam,
  /// and take its start (gradient.glsl's CONIC_SEAM).
  static let conicSeam: Float = 0.99999

  /// The places t along the gradient of the `n` pixels from (`x`, `y`),
  /// into `places`: the first pixel's center carried into the gradient's
  /// space, and the step to the next.
  private func placeAlong(x: Int, y: Int, count n: Int) {
    let t = toGradient
    let cx = Double(x) + 0.5
    let cy = Double(y) + 0.5
    let qx = Float(Double(t.a) * cx + Double(t.c) * cy + Double(t.tx))
    let qy = Float(Double(t.b) * cx + Double(t.d) * cy + Double(t.ty))
    let dx = Float(t.a)
    let dy = Float(t.b)
    let p = parameters
    switch kind {
    case .axial:
      // Linear along the row.
      let start = qx * p.x + qy * p.y + p.z
      let step = dx * p.x + dy * p.y
      for i in 0..<n { places[i] = start + Float(i) * step }
    case .radial:
      for i in 0..<n {
        let ux = (qx + Float(i) * dx - p.x) * p.z
        let uy = (qy + Float(i) * dy - p.y) * p.w
        places[i] = (ux * ux + uy * uy).squareRoot()
      }
    case .focal(let f):
      // p = f + (q − f)·t with |q| = 1: the positive root of
      // (1 − |f|²) t² − 2 (f·d) t − |d|² = 0, d = p − f.
      let k = 1 - (f.x * f.x + f.y * f.y)
      for i in 0..<n {
        let ux = (qx + Float(i) * dx - p.x) * p.z - f.x
        let uy = (qy + Float(i) * dy - p.y) * p.w - f.y
        let fd = f.x * ux + f.y * uy
        places[i] = (fd + max(fd * fd + (ux * ux + uy * uy) * k, 0).squareRoot()) / k
      }
    case .conic:
      // y grows downward: an increasing angle turns clockwise on screen.
      for i in 0..<n {
        let angle = Float(atan2(Double(qy + Float(i) * dy - p.y), Double(qx + Float(i) * dx - p.x)))
        let t = fract(angle / (2 * Float.pi) - p.z)
        // On the seam: the start, whichever side rounding put it (gradient.glsl).
        places[i] = t > Self.conicSeam ? 0 : t
      }
    }
  }

}

/// gradient.glsl's interleaved gradient noise at canvas pixels (x, y).
@inline(__always)
private func noise(_ x: SIMD8<Float>, _ y: SIMD8<Float>) -> SIMD8<Float> {
  fract(52.9829189 * fract(x * 0.06711056 + y * 0.00583715))
}

/// 1.5 · 2²³: added to a float of magnitude below 2²², it leaves the
/// nearest integer in the low bits of the sum's significand (without a
/// call, and without a conversion that could trap).
private var magic: SIMD8<Float> {
  @inline(__always) get { SIMD8(repeating: 12_582_912) }
}

/// `v` within 0...upper, lane by lane; NaN gives 0.
@inline(__always)
private func clamp(_ v: SIMD8<Float>, _ upper: SIMD8<Float>) -> SIMD8<Float> {
  let c = v.replacing(with: 0, where: .!(v .> 0))
  return c.replacing(with: upper, where: c .> upper)
}

/// Each lane (0...2²²) rounded to the nearest integer.
@inline(__always)
private func integers(_ v: SIMD8<Float>) -> SIMD8<UInt32> {
  unsafeBitCast(v + magic, to: SIMD8<UInt32>.self) & 0x3f_ffff
}

/// The largest integer not above each lane (|v| below 2²²).
@inline(__always)
private func floor(_ v: SIMD8<Float>) -> SIMD8<Float> {
  let r = (v + magic) - magic
  return r.replacing(with: r - 1, where: r .> v)
}

/// `v` − ⌊v⌋, as GLSL's fract (for |v| below 2²²).
@inline(__always)
private func fract(_ v: SIMD8<Float>) -> SIMD8<Float> { v - floor(v) }

/// `v` − ⌊v⌋ for one value: within 0..<1 (|v| below 2²²; else 0).
@inline(__always)
private func fract(_ v: Float) -> Float {
  guard abs(v) < 4_194_304 else { return 0 }
  let r = (v + 12_582_912) - 12_582_912
  return v - (r > v ? r - 1 : r)
}
