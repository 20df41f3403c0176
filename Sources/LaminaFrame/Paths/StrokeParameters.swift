import Foundation
import Lamina
import LaminaDraw

/// The parts of a stroke that its fragments evaluate, set per draw: line
/// width, caps, the trim and the dash pattern in arc lengths. Animating
/// any of them changes uniforms only.
package struct StrokeParameters: Hashable {
  package enum Cap: Int32 {
    case butt = 0, round = 1, square = 2
  }

  /// The most dashes (on-intervals of one period) the shader takes.
  static let maxDashes = 4

  package var halfWidth: Float
  package var cap: Cap
  /// `strokeStart` and `strokeEnd` as arc lengths.
  package var trim: SIMD2<Float>
  /// The on-intervals of one period of the dash pattern (empty: no dashes).
  package var dashes: [SIMD2<Float>]
  package var dashPeriod: Float
  /// `lineDashPhase`, in 0..<dashPeriod.
  package var dashPhase: Float
  /// The fraction of a dash pattern too fine to draw (periods under a
  /// hundredth of a point) that is on: the stroke is drawn solid, this
  /// much transparent, as a box filter sees it.
  package var coverageScale: Float = 1

  /// The parameters of `style` for a path of length `length`; nil when the
  /// dash pattern has more dashes than the shader takes.
  init?(_ style: ShapeStyle, length: Double) {
    halfWidth = Float(style.lineWidth / 2)
    switch style.lineCap {
    case .round: cap = .round
    case .square: cap = .square
    default: cap = .butt
    }
    func fraction(_ v: CGFloat, _ fallback: Double) -> Double {
      v.isFinite ? min(max(Double(v), 0), 1) : fallback
    }
    trim = SIMD2(
      Float(fraction(style.strokeStart, 0) * length), Float(fraction(style.strokeEnd, 1) * length))
    dashes = []
    dashPeriod = 0
    dashPhase = 0
    guard var pattern = style.lineDashPattern?.map(Double.init), !pattern.isEmpty,
      pattern.allSatisfy({ $0.isFinite && $0 >= 0 })
    else { return }
    // An odd count repeats, as in Core Graphics and Cairo.
    if pattern.count % 2 == 1 { pattern += pattern }
    let period = pattern.reduce(0, +)
    guard period > 0, period.isFinite else { return }
    let on = stride(from: 0, to: pattern.count, by: 2).map { pattern[$0] }.reduce(0, +)
    guard period >= 0.01 else {
      coverageScale = Float(on / period)
      return
    }
    guard pattern.count / 2 <= Self.maxDashes else { return nil }
    var offset = 0.0
    for i in stride(from: 0, to: pattern.count, by: 2) {
      dashes.append(SIMD2(Float(offset), Float(offset + pattern[i])))
      offset += pattern[i] + pattern[i + 1]
    }
    dashPeriod = Float(period)
    let phase = Double(style.lineDashPhase)
    let wrapped = phase.isFinite ? phase.truncatingRemainder(dividingBy: period) : 0
    dashPhase = Float(wrapped < 0 ? wrapped + period : wrapped)
    if dashPhase >= dashPeriod { dashPhase = 0 }
  }

  /// The visible parts of a subpath running from `start` to `end` (arc
  /// lengths), as the fragment shader decides them: the trim's window,
  /// cut into dashes that start at the window's start. For tests and
  /// diagnostics; the GPU evaluates the same per fragment.
  func visibleIntervals(start: Double, end: Double) -> [ClosedRange<Double>] {
    let lo = max(start, Double(trim.x))
    let hi = min(end, Double(trim.y))
    guard hi >= lo else { return [] }
    guard !dashes.isEmpty else { return [lo...hi] }
    var result: [ClosedRange<Double>] = []
    let period = Double(dashPeriod)
    var base = lo - Double(dashPhase)
    while base <= hi {
      for dash in dashes {
        let a = max(base + Double(dash.x), lo)
        let b = min(base + Double(dash.y), hi)
        if b >= a { result.append(a...b) }
      }
      base += period
    }
    return result
  }
}
