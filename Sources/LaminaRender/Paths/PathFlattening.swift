import Foundation
import Lamina

/// One subpath turned into straight segments, with the points where the
/// path is smooth marked (points inside a curve: a stroke bends there
/// without a join of its own).
struct FlatContour: Equatable {
  /// The points, the first one once (a closed contour does not repeat it).
  var points: [SIMD2<Double>]
  /// `smooth[i]`: point `i` lies inside a curve, where the tangent is continuous.
  var smooth: [Bool]
  /// Ended with `closeSubpath`.
  var isClosed: Bool
  /// Had a segment (a line or a curve), even one of zero length: a
  /// zero-length stroke still draws a dot with round or square caps.
  var hasSegments: Bool
}

/// Flattens paths for the GPU path renderer: curves become chords no
/// farther than `tolerance` (in the path's units) from the curve, with a
/// budget of points checked as the work goes, so that a hostile path
/// (huge coordinates, curves with 10^300 control points, millions of
/// elements) is refused instead of exhausting memory.
enum PathFlattening {
  /// Coordinates beyond this (in points) are refused: no canvas is that
  /// large, and Float vertices lose all precision there.
  static let maxCoordinate = 1e9
  /// The most points a flattened path may have.
  static let maxPoints = 500_000
  /// The most chords one curve becomes.
  static let maxChordsPerCurve = 1024

  /// The contours of `path`, or nil when it has a coordinate that is not
  /// finite or beyond `maxCoordinate`, or more than `maxPoints` points.
  static func contours(_ path: CGPath, tolerance: Double) -> [FlatContour]? {
    let tol = max(tolerance, 1e-6)
    var result: [FlatContour] = []
    var current = FlatContour(points: [], smooth: [], isClosed: false, hasSegments: false)
    var last = SIMD2<Double>(0, 0)
    var start = last
    var total = 0

    func point(_ p: CGPoint) -> SIMD2<Double>? {
      let v = SIMD2(Double(p.x), Double(p.y))
      guard v.x.isFinite, v.y.isFinite, abs(v.x) <= maxCoordinate, abs(v.y) <= maxCoordinate
      else { return nil }
      return v
    }
    func finish() {
      if !current.points.isEmpty { result.append(current) }
      current = FlatContour(points: [], smooth: [], isClosed: false, hasSegments: false)
    }
    func ensureStarted() {
      if current.points.isEmpty {
        current.points.append(last)
        current.smooth.append(false)
      }
    }
    func append(_ p: SIMD2<Double>, smooth: Bool) -> Bool {
      total += 1
      guard total <= maxPoints else { return false }
      current.points.append(p)
      current.smooth.append(smooth)
      return true
    }
    /// Chords needed for a curve whose control polygon bends by `deviation`:
    /// the chord error shrinks with the square of their number.
    func chords(_ deviation: Double) -> Int {
      let n = (deviation / (8 * tol)).squareRoot().rounded(.up)
      guard n.isFinite else { return maxChordsPerCurve }
      return Int(min(max(n, 1), Double(maxChordsPerCurve)))
    }

    for element in path.elements {
      switch element {
      case .moveTo(let p):
        guard let q = point(p) else { return nil }
        finish()
        guard append(q, smooth: false) else { return nil }
        last = q
        start = q
      case .lineTo(let p):
        guard let q = point(p) else { return nil }
        ensureStarted()
        current.hasSegments = true
        guard append(q, smooth: false) else { return nil }
        last = q
      case .quadCurveTo(let p, let c):
        guard let q = point(p), let c = point(c) else { return nil }
        ensureStarted()
        current.hasSegments = true
        let d = last - 2 * c + q
        let n = chords(abs(d.x) + abs(d.y))
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          guard append(u * u * last + 2 * u * t * c + t * t * q, smooth: i < n) else { return nil }
        }
        last = q
      case .curveTo(let p, let c1, let c2):
        guard let q = point(p), let c1 = point(c1), let c2 = point(c2) else { return nil }
        ensureStarted()
        current.hasSegments = true
        let d1 = last - 2 * c1 + c2
        let d2 = c1 - 2 * c2 + q
        let n = chords(1.5 * max(abs(d1.x) + abs(d1.y), abs(d2.x) + abs(d2.y)))
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          let p = u * u * u * last + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * q
          guard append(p, smooth: i < n) else { return nil }
        }
        last = q
      case .closeSubpath:
        if !current.points.isEmpty {
          current.isClosed = true
          // The closing segment is implied: a last point on the first goes.
          if current.points.count > 1, current.points.last == current.points.first {
            current.points.removeLast()
            current.smooth.removeLast()
          }
          finish()
        }
        last = start
      }
    }
    finish()
    return result
  }

  /// The tolerance for drawing at `scale` pixels per point: a tenth of a
  /// pixel at the top of the scale's octave, so that a path is flattened
  /// again only when its scale crosses a power of two.
  static func level(forScale scale: CGFloat) -> Int {
    guard scale.isFinite, scale > 0 else { return 0 }
    return Int(min(max(log2(Double(scale)).rounded(.up), -8), 6))
  }

  static func tolerance(level: Int) -> Double { 0.1 / pow(2, Double(level)) }
}
