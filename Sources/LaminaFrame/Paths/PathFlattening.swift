import Foundation
import Lamina

/// One subpath turned into straight segments, with the points where the
/// path is smooth marked (points inside a curve: a stroke bends there
/// without a join of its own).
extension FlatContour {
  /// The region `contours` fill when it is one axis-aligned rectangle of
  /// positive area: one contour whose points, repeated and collinear ones
  /// left out, are its four corners in turn (either direction, from any
  /// corner). Nil otherwise.
  static func rectangle(_ contours: [FlatContour]) -> CGRect? {
    let drawn = contours.filter { $0.points.count > 1 }
    guard drawn.count == 1 else { return nil }
    var corners: [SIMD2<Double>] = []
    for p in drawn[0].points where corners.last != p { corners.append(p) }
    while corners.count > 1, corners.first == corners.last { corners.removeLast() }
    // Drop points in the middle of a straight run (a side split in two).
    var changed = true
    while changed, corners.count > 4 {
      changed = false
      for i in corners.indices {
        let a = corners[(i + corners.count - 1) % corners.count]
        let b = corners[i]
        let c = corners[(i + 1) % corners.count]
        let sameX = a.x == b.x && b.x == c.x
        let sameY = a.y == b.y && b.y == c.y
        let between =
          sameX ? (min(a.y, c.y) < b.y && b.y < max(a.y, c.y))
          : sameY ? (min(a.x, c.x) < b.x && b.x < max(a.x, c.x)) : false
        if between {
          corners.remove(at: i)
          changed = true
          break
        }
      }
    }
    guard corners.count == 4 else { return nil }
    // Sides alternate between horizontal and vertical: then the corners
    // are those of a rectangle.
    func horizontal(_ i: Int) -> Bool? {
      let (a, b) = (corners[i], corners[(i + 1) % 4])
      if a.y == b.y, a.x != b.x { return true }
      if a.x == b.x, a.y != b.y { return false }
      return nil
    }
    guard let first = horizontal(0) else { return nil }
    for i in 1..<4 where horizontal(i) != (i % 2 == 0 ? first : !first) { return nil }
    let xs = corners.map(\.x)
    let ys = corners.map(\.y)
    let rect = CGRect(
      x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    return rect.width > 0 && rect.height > 0 ? rect : nil
  }
}

struct FlatContour: Equatable {
  /// The points, the first one once (a closed contour does not repeat it).
  var points: [SIMD2<Double>]
  /// `smooth[i]`: point `i` lies inside a curve, where the tangent is continuous.
  var smooth: [Bool]
  /// The path's exact direction (unit) arriving at point `i` where a curve
  /// ends there, and leaving it where a curve starts there; zero elsewhere
  /// (a line's direction is its chord's). A stroke cut next to a curve's
  /// end takes its cap square to these, not to the chord.
  var tangentIn: [SIMD2<Double>] = []
  var tangentOut: [SIMD2<Double>] = []
  /// `fromCurve[i]`: the segment arriving at point `i` is a chord of a
  /// curve (a line's direction is the same all along it; a chord's turns).
  var fromCurve: [Bool] = []
  /// Ended with `closeSubpath`.
  var isClosed: Bool
  /// Had a segment (a line or a curve), even one of zero length: a
  /// zero-length stroke still draws a dot with round or square caps.
  var hasSegments: Bool

  /// The smallest radius of curvature at a smooth point, estimated from
  /// its two chords: on a circle of radius R, chords of lengths a and b
  /// meet turning by (a + b) / 2R, so R ≈ (a + b) / 2θ; infinity when no
  /// smooth point bends.
  var tightestBend: Double {
    var tightest = Double.infinity
    let n = points.count
    guard n >= 3, smooth.count == n else { return tightest }
    for i in 0..<n where smooth[i] {
      if !isClosed && (i == 0 || i == n - 1) { continue }
      let a = points[i] - points[(i + n - 1) % n]
      let b = points[(i + 1) % n] - points[i]
      let la = (a * a).sum().squareRoot()
      let lb = (b * b).sum().squareRoot()
      guard la > 0, lb > 0 else { continue }
      let cosine = max(-1, min(1, (a * b).sum() / (la * lb)))
      let turn = acos(cosine)
      guard turn > 1e-9 else { continue }
      tightest = min(tightest, (la + lb) / (2 * turn))
    }
    return tightest
  }
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
        current.tangentIn.append(.zero)
        current.tangentOut.append(.zero)
        current.fromCurve.append(false)
      }
    }
    func append(_ p: SIMD2<Double>, smooth: Bool, curve: Bool = false) -> Bool {
      total += 1
      guard total <= maxPoints else { return false }
      current.points.append(p)
      current.smooth.append(smooth)
      current.tangentIn.append(.zero)
      current.tangentOut.append(.zero)
      current.fromCurve.append(curve)
      return true
    }
    /// Records a curve's exact directions at its ends: leaving the point
    /// it starts from (the last one before its chords) and arriving at
    /// its end (the last one after them).
    func curveEnds(from startIndex: Int, _ out: SIMD2<Double>, _ arriving: SIMD2<Double>) {
      let a = (out.x * out.x + out.y * out.y).squareRoot()
      let b = (arriving.x * arriving.x + arriving.y * arriving.y).squareRoot()
      if a > 0, a.isFinite { current.tangentOut[startIndex] = out / a }
      if b > 0, b.isFinite { current.tangentIn[current.tangentIn.count - 1] = arriving / b }
    }
    /// Chords needed for a curve of degree `degree` whose control points'
    /// largest second difference is `bend` long: a chord of a parameter
    /// step h is at most |B''| h² / 8 from the curve, and |B''| is at most
    /// degree × (degree − 1) times the largest second difference.
    func chords(_ bend: Double, degree: Double) -> Int {
      let n = (degree * (degree - 1) * bend / (8 * tol)).squareRoot().rounded(.up)
      guard n.isFinite else { return maxChordsPerCurve }
      return Int(saturating: min(max(n, 1), Double(maxChordsPerCurve)))
    }
    func length(_ v: SIMD2<Double>) -> Double { (v.x * v.x + v.y * v.y).squareRoot() }
    /// The direction the path last went, to tell a corner from a smooth
    /// join of two curves (or a curve and a line): a path whose tangent
    /// turns by less than a hundredth of a radian there bends smoothly.
    var lastDirection: SIMD2<Double>?
    /// The direction the subpath starts in (its first segment's tangent).
    var firstDirection: SIMD2<Double>?
    func markJunction(_ direction: SIMD2<Double>) {
      let n = length(direction)
      if firstDirection == nil, n > 0 { firstDirection = direction / n }
      guard n > 0, let last = lastDirection, current.points.count > 1 else { return }
      let d = direction / n
      if d.x * last.x + d.y * last.y > 0.99995 { current.smooth[current.smooth.count - 1] = true }
    }
    func setDirection(_ direction: SIMD2<Double>) {
      let n = length(direction)
      lastDirection = n > 0 ? direction / n : nil
    }

    for element in path.elements {
      switch element {
      case .moveTo(let p):
        guard let q = point(p) else { return nil }
        finish()
        guard append(q, smooth: false) else { return nil }
        last = q
        start = q
        lastDirection = nil
        firstDirection = nil
      case .lineTo(let p):
        guard let q = point(p) else { return nil }
        ensureStarted()
        current.hasSegments = true
        markJunction(q - last)
        guard append(q, smooth: false) else { return nil }
        if q != last { setDirection(q - last) }
        last = q
      case .quadCurveTo(let p, let c):
        guard let q = point(p), let c = point(c) else { return nil }
        ensureStarted()
        current.hasSegments = true
        markJunction(c != last ? c - last : q - last)
        let from = current.points.count - 1
        let n = chords(length(last - 2 * c + q), degree: 2)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          guard append(u * u * last + 2 * u * t * c + t * t * q, smooth: i < n, curve: true) else {
            return nil
          }
        }
        curveEnds(from: from, c != last ? c - last : q - last, q != c ? q - c : q - last)
        setDirection(q != c ? q - c : q - last)
        last = q
      case .curveTo(let p, let c1, let c2):
        guard let q = point(p), let c1 = point(c1), let c2 = point(c2) else { return nil }
        ensureStarted()
        current.hasSegments = true
        markJunction(c1 != last ? c1 - last : (c2 != last ? c2 - last : q - last))
        let from = current.points.count - 1
        let n = chords(max(length(last - 2 * c1 + c2), length(c1 - 2 * c2 + q)), degree: 3)
        for i in 1...n {
          let t = Double(i) / Double(n)
          let u = 1 - t
          let p = u * u * u * last + 3 * u * u * t * c1 + 3 * u * t * t * c2 + t * t * t * q
          guard append(p, smooth: i < n, curve: true) else { return nil }
        }
        curveEnds(
          from: from, c1 != last ? c1 - last : (c2 != last ? c2 - last : q - last),
          q != c2 ? q - c2 : (q != c1 ? q - c1 : q - last))
        setDirection(q != c2 ? q - c2 : (q != c1 ? q - c1 : q - last))
        last = q
      case .closeSubpath:
        if !current.points.isEmpty {
          current.isClosed = true
          // Where the closing segment (or the first segment, when there is
          // none) goes on smoothly from the last one, the first point is smooth.
          if let lastDirection, let firstDirection, current.points.count > 2 {
            func same(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
              a.x * b.x + a.y * b.y > 0.99995
            }
            let closing = start - last
            let n = length(closing)
            if n > 0 {
              // A closing segment: smooth at its ends where the path goes on straight.
              if same(closing / n, lastDirection) {
                current.smooth[current.smooth.count - 1] = true
              }
              if same(closing / n, firstDirection) { current.smooth[0] = true }
            } else if same(lastDirection, firstDirection) {
              current.smooth[0] = true  // the last point is the first, dropped below
            }
          }
          // The closing segment is implied: a last point on the first goes.
          if current.points.count > 1, current.points.last == current.points.first {
            current.points.removeLast()
            current.smooth.removeLast()
            let arriving = current.tangentIn.removeLast()
            current.tangentOut.removeLast()
            if arriving != .zero { current.tangentIn[0] = arriving }
            current.fromCurve[0] = current.fromCurve.removeLast()
          }
          finish()
        }
        last = start
      }
    }
    finish()
    return result
  }

  /// The tolerance for drawing at `scale` pixels per point: a quarter of a
  /// pixel at the top of the scale's octave (Skia's default too), so that a
  /// path is flattened again only when its scale crosses a power of two.
  static func level(forScale scale: CGFloat) -> Int {
    guard scale.isFinite, scale > 0 else { return 0 }
    return Int(saturating: min(max(log2(Double(scale)).rounded(.up), -8), 6))
  }

  static func tolerance(level: Int) -> Double { 0.25 / pow(2, Double(level)) }
}
