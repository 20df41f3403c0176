import Foundation
import Lamina

// A layer's effects (`ef`) as a typed model: each effect a named kind with
// its values by name (After Effects' `ty` numbers and match names decoded
// once, here), and what each draws as typed values at any frame (a blur
// radius, a colour matrix, a shadow). The builder turns those into filters
// and animations (`LottieLayers.swift`).

/// One value of an effect (`ef[i].ef[j].v`): nil when the document has no
/// value object there, so the default is used.
struct EffectValue {
  var property: Property?

  /// The value at frame `f`, padded with `fallback` (all of it when absent).
  func value(at f: Double, _ fallback: [Double]) -> [Double] {
    guard let property else { return fallback }
    let v = property.value(at: f)
    return v.count >= fallback.count ? v : v + fallback[v.count...]
  }

  func scalar(at f: Double, _ fallback: Double) -> Double { value(at: f, [fallback])[0] }

  /// The property padded with `fallback` (a constant `fallback` when absent).
  func padded(_ fallback: [Double]) -> Property {
    guard let property else { return Property(constant: fallback) }
    return property.map { v in v.count >= fallback.count ? v : v + fallback[v.count...] }
  }
}

/// A layer effect.
struct Effect {
  enum Kind {
    /// Gaussian blur (29): blurriness, dimensions (1 both, 2 horizontal, 3 vertical).
    case gaussianBlur(blurriness: EffectValue, dimensions: EffectValue)
    /// Fast Box Blur (`ADBE Box Blur2`): radius, iterations, dimensions.
    case boxBlur(radius: EffectValue, iterations: EffectValue, dimensions: EffectValue)
    /// Drop shadow (25): colour, opacity (0–255), direction (degrees), distance, softness.
    case dropShadow(
      color: EffectValue, opacity: EffectValue, direction: EffectValue, distance: EffectValue,
      softness: EffectValue)
    /// Fill (21): colour, inverted, opacity (0–1).
    case fill(color: EffectValue, inverted: EffectValue, opacity: EffectValue)
    /// Tint (20): map black to, map white to, amount (%).
    case tint(black: EffectValue, white: EffectValue, amount: EffectValue)
    /// Tritone (23): highlights, midtones, shadows, blend with original (%).
    case tritone(
      highlights: EffectValue, midtones: EffectValue, shadows: EffectValue, blend: EffectValue)
    /// Stroke (22), drawn along the layer's masks over its content.
    case stroke(StrokeEffect)
    /// An expression control (slider, angle, colour, point, checkbox, layer): draws nothing.
    case control
    /// Any other effect (reported by its name).
    case other
  }

  var kind: Kind
  /// `nm`.
  var name: String?
  /// `ty` as the document gives it (-1 when absent).
  var type: Int
  /// The effect's JSON path (`layers[0].ef[2]`).
  var path: String
  /// Its place in the layer's `ef` (its filter is named `effect<index>`).
  var index: Int
  /// The properties of all its values: their frames are where it changes.
  var properties: [Property]
  /// Reports of decoding its values, made when it is built.
  var notes: [LottieUnsupported] = []

  /// The first frame of any of its values.
  var firstFrame: Double { properties.map(\.firstFrame).min() ?? 0 }
}

/// The stroke effect's values.
struct StrokeEffect {
  /// Mask number (from 1) the stroke follows.
  var mask: EffectValue
  var allMasks: EffectValue
  var color: EffectValue
  var brushSize: EffectValue
  var brushHardness: EffectValue
  /// 0–1.
  var opacity: EffectValue
  /// Percent of the path.
  var start: EffectValue
  var end: EffectValue
  var spacing: EffectValue
  /// 1 on the original, 2 on transparent, 3 reveal original.
  var paintStyle: EffectValue
}

/// A drop shadow's layer values at one frame.
struct ShadowValues {
  var color: [Double]
  var opacity: Float
  var offset: CGSize
  var radius: CGFloat
}

/// A `CIColorMatrix` (on straight colour): three colour rows and a bias.
struct ColorMatrix {
  var rows: [[Double]]
  var bias: [Double]

  static let inputKeys = ["inputRVector", "inputGVector", "inputBVector", "inputBiasVector"]

  /// The filter's inputs, by `inputKeys`.
  var inputs: [CIVector] {
    rows.map { CIVector(x: CGFloat($0[0]), y: CGFloat($0[1]), z: CGFloat($0[2]), w: 0) }
      + [CIVector(x: CGFloat(bias[0]), y: CGFloat(bias[1]), z: CGFloat(bias[2]), w: 0)]
  }
}

extension Effect {
  private static let luma = [0.2126, 0.7152, 0.0722]
  private static func rgb(_ v: [Double]) -> [Double] { Array((v + [0, 0, 0]).prefix(3)) }

  /// A blur's standard deviation in points at frame `f` (nil: not a blur).
  func blurSigma(at f: Double) -> Double? {
    switch kind {
    case .gaussianBlur(let blurriness, _):
      // After Effects' blurriness is about twice the standard deviation.
      return blurriness.scalar(at: f, 0) / 2
    case .boxBlur(let radius, let iterations, _):
      // n passes of a box 2r + 1 wide have the variance n·r·(r + 1) / 3 of a Gaussian.
      let r = max(radius.scalar(at: f, 0), 0)
      let n = min(max(iterations.scalar(at: f, 3), 1), 50)
      return (n * r * (r + 1) / 3).squareRoot()
    default: return nil
    }
  }

  /// A blur's dimensions (1 both, 2 horizontal, 3 vertical) at its first frame.
  var blurDimensions: Int {
    switch kind {
    case .gaussianBlur(_, let d): return Int(d.scalar(at: firstFrame, 1))
    case .boxBlur(_, _, let d): return Int(d.scalar(at: firstFrame, 1))
    default: return 1
    }
  }

  /// A drop shadow's values at frame `f` (nil: not a drop shadow).
  func shadow(at f: Double) -> ShadowValues? {
    guard case .dropShadow(let color, let opacity, let direction, let distance, let softness) = kind
    else { return nil }
    let angle = direction.scalar(at: f, 135) * .pi / 180
    let d = min(max(distance.scalar(at: f, 5), -1e6), 1e6)
    return ShadowValues(
      color: color.value(at: f, [0, 0, 0, 1]),
      opacity: Float(min(max(opacity.scalar(at: f, 127.5) / 255, 0), 1)),
      offset: CGSize(width: sin(angle) * d, height: -cos(angle) * d),
      radius: CGFloat(min(max(softness.scalar(at: f, 0) / 2, 0), Double(Limits.maxBlurRadius))))
  }

  /// A colour effect's matrix at frame `f` (nil: not a colour effect).
  func colorMatrix(at f: Double) -> ColorMatrix? {
    let luma = Self.luma
    switch kind {
    case .fill(let color, _, let opacity):
      // The layer's colour mixed towards the fill colour by its opacity (alpha kept).
      let c = Self.rgb(color.value(at: f, [1, 0, 0, 1]))
      let o = min(max(opacity.scalar(at: f, 1), 0), 1)
      return ColorMatrix(
        rows: (0..<3).map { i in (0..<3).map { j in i == j ? 1 - o : 0 } }, bias: c.map { $0 * o })
    case .tint(let blackTo, let whiteTo, let amountValue):
      // Luminance mapped from the black colour to the white one, mixed by the amount.
      let black = Self.rgb(blackTo.value(at: f, [0, 0, 0]))
      let white = Self.rgb(whiteTo.value(at: f, [1, 1, 1]))
      let amount = min(max(amountValue.scalar(at: f, 100) / 100, 0), 1)
      let rows = (0..<3).map { i in
        (0..<3).map { j in (i == j ? 1 - amount : 0) + amount * (white[i] - black[i]) * luma[j] }
      }
      return ColorMatrix(rows: rows, bias: black.map { $0 * amount })
    case .tritone(let highlights, _, let shadows, let blend):
      // Luminance mapped to shadows (0) and highlights (1), mixed with the
      // original by "blend with original" (0–100); a colour matrix is
      // linear in luminance, so the midtones are exact only when halfway.
      let high = Self.rgb(highlights.value(at: f, [1, 1, 1]))
      let shadow = Self.rgb(shadows.value(at: f, [0, 0, 0]))
      let keep = min(max(blend.scalar(at: f, 0) / 100, 0), 1)
      let amount = 1 - keep
      let rows = (0..<3).map { i in
        (0..<3).map { j in (i == j ? keep : 0) + amount * (high[i] - shadow[i]) * luma[j] }
      }
      return ColorMatrix(rows: rows, bias: shadow.map { $0 * amount })
    default: return nil
    }
  }

  /// True when a tritone's midtones are not halfway between its shadows and
  /// highlights (or animate): the matrix draws them as a line.
  var tritoneMidtonesOffLine: Bool {
    guard case .tritone(let highlights, let midtones, let shadows, _) = kind else { return false }
    let f = firstFrame
    let mid = Self.rgb(midtones.value(at: f, [0.5, 0.5, 0.5]))
    let ends = zip(
      Self.rgb(highlights.value(at: f, [1, 1, 1])), Self.rgb(shadows.value(at: f, [0, 0, 0]))
    )
    .map { ($0 + $1) / 2 }
    return zip(mid, ends).contains(where: { abs($0 - $1) > 2.0 / 255 })
      || midtones.property?.isAnimated == true
  }
}

extension Decoder {
  /// The effects of a layer (`ef`), each decoded once; disabled ones (`en`
  /// 0) are left out.
  func effectList(_ list: Node) throws -> [Effect] {
    var out: [Effect] = []
    for (index, e) in try list.array().enumerated() {
      let ty = try e.int("ty", default: -1)
      let name = (try? e.string("nm")) ?? nil
      let matchName = (try? e.string("mn")) ?? nil
      if e.has("en"), (try? e.required("en").number()) == 0 { continue }
      var notes: [LottieUnsupported] = []
      let values: [EffectValue] = try collectingReports(into: &notes) {
        try (e.child("ef")?.array() ?? []).map { v in
          EffectValue(property: v.isObject ? try property(v.child("v"), [0]) : nil)
        }
      }
      func at(_ i: Int) -> EffectValue { i < values.count ? values[i] : EffectValue(property: nil) }
      let isBoxBlur =
        matchName == "ADBE Box Blur2" || matchName == "ADBE Box Blur"
        || (name?.lowercased().contains("box blur") ?? false)
      let kind: Effect.Kind
      switch ty {
      case 29: kind = .gaussianBlur(blurriness: at(0), dimensions: at(1))
      case 22:
        kind = .stroke(
          StrokeEffect(
            mask: at(0), allMasks: at(1), color: at(3), brushSize: at(4), brushHardness: at(5),
            opacity: at(6), start: at(7), end: at(8), spacing: at(9), paintStyle: at(10)))
      case _ where isBoxBlur: kind = .boxBlur(radius: at(0), iterations: at(1), dimensions: at(2))
      case 25:
        kind = .dropShadow(
          color: at(0), opacity: at(1), direction: at(2), distance: at(3), softness: at(4))
      case 21: kind = .fill(color: at(2), inverted: at(3), opacity: at(6))
      case 20: kind = .tint(black: at(0), white: at(1), amount: at(2))
      case 23: kind = .tritone(highlights: at(0), midtones: at(1), shadows: at(2), blend: at(3))
      case _ where matchName.map({ $0.hasPrefix("ADBE ") && $0.hasSuffix(" Control") }) ?? false:
        kind = .control
      default: kind = .other
      }
      out.append(
        Effect(
          kind: kind, name: name, type: ty, path: e.path, index: index,
          properties: values.compactMap(\.property), notes: notes))
    }
    return out
  }
}
