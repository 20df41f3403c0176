import Foundation

/// The W3C Compositing and Blending modes a `compositingFilter` names
/// (`CIMultiplyBlendMode` …, in `CIFilter.blendModeNames`' order) for
/// premultiplied pixels of a Cairo bitmap on the CPU: what the GPU's
/// advanced blend equations (KHR_blend_equation_advanced) and
/// Shaders/blend.frag.glsl compute, in single precision, rounded to bytes
/// at the end as a render target stores them. A run of paths drawn on the
/// CPU blends a group or a path with one of them into its bitmap when that
/// bitmap holds everything behind it (docs/rendering.md, "Paths on the CPU").
enum BlendModePixels {
  /// The modes, by their index in `CIFilter.blendModeNames`.
  enum Mode: Int {
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, hardLight
    case softLight, difference, exclusion, hue, saturation, color, luminosity
  }

  /// `source` (a premultiplied word, alpha in the top byte, as Cairo keeps
  /// them) at `factor` (0...255: opacity, mask and clip) blended with
  /// `mode` over `backdrop`.
  @inline(__always)
  static func blend(_ backdrop: UInt32, _ source: UInt32, factor: UInt32, mode: Mode) -> UInt32 {
    let f = Float(factor) / (255 * 255)
    let s = channels(source) * f
    let sa = s.w
    guard sa > 0 else { return backdrop }
    // Nothing behind: the source as it is.
    if backdrop == 0 { return word(s) }
    let d = channels(backdrop) * (1 / 255)
    let da = d.w
    let cs = SIMD3(s.x, s.y, s.z) / sa
    let cb = da > 0 ? SIMD3(d.x, d.y, d.z) / da : SIMD3(repeating: 0)
    let mixed = simd_clamp(blend(cb, cs, mode))
    let rgb =
      SIMD3(s.x, s.y, s.z) * (1 - da) + SIMD3(d.x, d.y, d.z) * (1 - sa) + sa * da * mixed
    let a = sa + da - sa * da
    return word(SIMD4(rgb.x, rgb.y, rgb.z, a))
  }

  /// Red, green, blue and alpha of a word, 0...255.
  @inline(__always)
  private static func channels(_ w: UInt32) -> SIMD4<Float> {
    SIMD4(Float(w >> 16 & 255), Float(w >> 8 & 255), Float(w & 255), Float(w >> 24))
  }

  /// Channels in 0...1 as a word, each rounded to the nearest byte.
  @inline(__always)
  private static func word(_ c: SIMD4<Float>) -> UInt32 {
    let v = c.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1)) * 255 + 0.5
    // (Lane by lane: the vector conversion is not specialized.)
    return UInt32(v.w) << 24 | UInt32(v.x) << 16 | UInt32(v.y) << 8 | UInt32(v.z)
  }

  @inline(__always)
  private static func simd_clamp(_ c: SIMD3<Float>) -> SIMD3<Float> {
    c.clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
  }

  /// The mode's color of backdrop `b` and source `s` (unpremultiplied).
  @inline(__always)
  static func blend(_ b: SIMD3<Float>, _ s: SIMD3<Float>, _ mode: Mode) -> SIMD3<Float> {
    switch mode {
    case .multiply: return b * s
    case .screen: return screen(b, s)
    case .overlay: return hardLight(s, b)
    case .darken: return pointwiseMin(b, s)
    case .lighten: return pointwiseMax(b, s)
    case .colorDodge: return SIMD3(dodge(b.x, s.x), dodge(b.y, s.y), dodge(b.z, s.z))
    case .colorBurn: return SIMD3(burn(b.x, s.x), burn(b.y, s.y), burn(b.z, s.z))
    case .hardLight: return hardLight(b, s)
    case .softLight: return SIMD3(softLight(b.x, s.x), softLight(b.y, s.y), softLight(b.z, s.z))
    case .difference: return pointwiseMax(b - s, s - b)
    case .exclusion: return b + s - 2 * b * s
    case .hue: return setLum(setSat(s, sat(b)), lum(b))
    case .saturation: return setLum(setSat(b, sat(s)), lum(b))
    case .color: return setLum(s, lum(b))
    case .luminosity: return setLum(b, lum(s))
    }
  }

  private static func screen(_ b: SIMD3<Float>, _ s: SIMD3<Float>) -> SIMD3<Float> {
    b + s - b * s
  }

  private static func hardLight(_ b: SIMD3<Float>, _ s: SIMD3<Float>) -> SIMD3<Float> {
    let low = b * 2 * s
    let high = screen(b, 2 * s - 1)
    return SIMD3(
      s.x > 0.5 ? high.x : low.x, s.y > 0.5 ? high.y : low.y, s.z > 0.5 ? high.z : low.z)
  }

  private static func dodge(_ b: Float, _ s: Float) -> Float {
    if b <= 0 { return 0 }
    if s >= 1 { return 1 }
    return min(1, b / (1 - s))
  }

  private static func burn(_ b: Float, _ s: Float) -> Float {
    if b >= 1 { return 1 }
    if s <= 0 { return 0 }
    return 1 - min(1, (1 - b) / s)
  }

  private static func softLight(_ b: Float, _ s: Float) -> Float {
    if s <= 0.5 { return b - (1 - 2 * s) * b * (1 - b) }
    let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
    return b + (2 * s - 1) * (d - b)
  }

  private static func lum(_ c: SIMD3<Float>) -> Float { 0.30 * c.x + 0.59 * c.y + 0.11 * c.z }

  private static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
    let l = lum(c)
    let n = c.min()
    let x = c.max()
    var c = c
    if n < 0 { c = l + (c - l) * l / (l - n) }
    if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
    return c
  }

  private static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
    clipColor(c + (l - lum(c)))
  }

  private static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

  private static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
    let x = c.max()
    let n = c.min()
    return x > n ? (c - n) * s / (x - n) : SIMD3(repeating: 0)
  }
}
