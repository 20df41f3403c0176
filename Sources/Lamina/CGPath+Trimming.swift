import Foundation

// Cutting a path by arc length: the part between two fractions of its
// length (`CAShapeLayer.strokeStart`/`strokeEnd`), and dashes. A Bézier
// segment cut at an arc length is split there (de Casteljau), so a piece
// ends exactly on the curve with the curve's own tangent: a wide stroke's
// cap at a cut stands square to the path.

/// A path's segments as cubics (lines and quadratic curves raised), each
/// with its arc-length table.
enum ArcLength {
  /// Samples of a curved segment's arc-length table.
  static let samples = 64

  /// One segment of a path as a cubic Bézier (lines and quadratic curves
  /// raised to cubics), with its arc-length table.
  struct Segment {
    var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint
    var isLine: Bool
    /// Arc length from p0 at parameters 0, 1/n, …, 1 (n = `samples`; 1 for a line).
    var lengths: [CGFloat]
    /// Whether this segment starts a new subpath.
    var startsSubpath: Bool

    var length: CGFloat { lengths.last ?? 0 }

    init(line a: CGPoint, _ b: CGPoint, startsSubpath: Bool) {
      p0 = a
      p1 = a
      p2 = b
      p3 = b
      isLine = true
      lengths = [0, hypot(b.x - a.x, b.y - a.y)]
      self.startsSubpath = startsSubpath
    }

    init(
      cubic p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, startsSubpath: Bool
    ) {
      (self.p0, self.p1, self.p2, self.p3) = (p0, p1, p2, p3)
      isLine = false
      self.startsSubpath = startsSubpath
      var table: [CGFloat] = [0]
      table.reserveCapacity(ArcLength.samples + 1)
      let curve = PathSegment(p0: p0, p1: p1, p2: p2, p3: p3)
      var last = p0
      var sum: CGFloat = 0
      for i in 1...ArcLength.samples {
        let p = curve.point(Double(i) / Double(ArcLength.samples))
        sum += hypot(p.x - last.x, p.y - last.y)
        table.append(sum)
        last = p
      }
      lengths = table
    }

    /// The parameter at arc length `s` from p0 (0…length).
    func parameter(at s: CGFloat) -> CGFloat {
      if isLine { return length > 0 ? min(max(s / length, 0), 1) : 0 }
      guard s > 0 else { return 0 }
      guard s < length else { return 1 }
      // The table's interval holding s, then linear within it.
      var lo = 0
      var hi = lengths.count - 1
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if lengths[mid] < s { lo = mid } else { hi = mid }
      }
      let span = lengths[hi] - lengths[lo]
      let f = span > 0 ? (s - lengths[lo]) / span : 0
      return (CGFloat(lo) + f) / CGFloat(lengths.count - 1)
    }

    /// The piece between parameters t0 < t1, as elements after a move to its start.
    func piece(_ t0: CGFloat, _ t1: CGFloat) -> (start: CGPoint, element: CGPath.Element) {
      if isLine {
        let a = CGPoint(x: p0.x + (p3.x - p0.x) * t0, y: p0.y + (p3.y - p0.y) * t0)
        let b = CGPoint(x: p0.x + (p3.x - p0.x) * t1, y: p0.y + (p3.y - p0.y) * t1)
        return (a, .lineTo(b))
      }
      // Split at t1 and keep the first part, then split that at t0 / t1.
      let (a, b, c, d) = Self.splitFirst(p0, p1, p2, p3, t1)
      let s = t1 > 0 ? t0 / t1 : 0
      let (q0, q1, q2, q3) = Self.splitSecond(a, b, c, d, s)
      return (q0, .curveTo(q3, control1: q1, control2: q2))
    }

    /// The part of a cubic from 0 to t.
    static func splitFirst(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat)
      -> (CGPoint, CGPoint, CGPoint, CGPoint)
    {
      let a = lerp(p0, p1, t)
      let b = lerp(p1, p2, t)
      let c = lerp(p2, p3, t)
      let ab = lerp(a, b, t)
      let bc = lerp(b, c, t)
      return (p0, a, ab, lerp(ab, bc, t))
    }

    /// The part of a cubic from t to 1.
    static func splitSecond(
      _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat
    ) -> (CGPoint, CGPoint, CGPoint, CGPoint) {
      let a = lerp(p0, p1, t)
      let b = lerp(p1, p2, t)
      let c = lerp(p2, p3, t)
      let ab = lerp(a, b, t)
      let bc = lerp(b, c, t)
      return (lerp(ab, bc, t), bc, c, p3)
    }

    static func lerp(_ a: CGPoint, _ b: CGPoint, _ t: CGFloat) -> CGPoint {
      CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
    }
  }

  /// The segments of `path`, subpath by subpath (a closed subpath's closing
  /// line included; an empty move-only subpath has none).
  static func segments(of path: CGPath) -> [Segment] {
    var out: [Segment] = []
    var current = CGPoint.zero
    var start = CGPoint.zero
    var newSubpath = true
    for element in path.elements {
      switch element {
      case .moveTo(let p):
        current = p
        start = p
        newSubpath = true
      case .lineTo(let p):
        out.append(Segment(line: current, p, startsSubpath: newSubpath))
        newSubpath = false
        current = p
      case .quadCurveTo(let p, let c):
        let c1 = Segment.lerp(current, c, 2 / 3)
        let c2 = Segment.lerp(p, c, 2 / 3)
        out.append(Segment(cubic: current, c1, c2, p, startsSubpath: newSubpath))
        newSubpath = false
        current = p
      case .curveTo(let p, let c1, let c2):
        out.append(Segment(cubic: current, c1, c2, p, startsSubpath: newSubpath))
        newSubpath = false
        current = p
      case .closeSubpath:
        if current != start {
          out.append(Segment(line: current, start, startsSubpath: newSubpath))
        }
        current = start
        newSubpath = true
      }
    }
    return out
  }

}

extension CGPath {
  /// The part of the path between `start` and `end`, fractions of its
  /// length (subpaths one after the other, a closed subpath's closing line
  /// included), as open subpaths of lines and cubic curves; empty when the
  /// part has no length. What `CAShapeLayer` strokes for `strokeStart` and
  /// `strokeEnd`.
  public func trimmed(from start: CGFloat, to end: CGFloat) -> CGPath {
    let segments = ArcLength.segments(of: self)
    let total = segments.reduce(0) { $0 + $1.length }
    guard total > 0, start.isFinite, end.isFinite else { return CGMutablePath() }
    return Self.pieces(
      of: segments, [(max(0, min(start, 1)) * total, max(0, min(end, 1)) * total)])
  }

  /// The path cut into dashes, as Core Graphics' `copy(dashingWithPhase:lengths:transform:)`:
  /// `lengths` alternate painted and unpainted lengths (an odd count
  /// repeats), `phase` is how far into the pattern each subpath starts.
  /// Lines and curves are cut exactly; nothing when the lengths are not
  /// positive.
  public func copy(
    dashingWithPhase phase: CGFloat, lengths: [CGFloat], transform: CGAffineTransform = .identity
  ) -> CGPath {
    let pattern = lengths.count % 2 == 1 ? lengths + lengths : lengths
    let period = pattern.reduce(0, +)
    guard !pattern.isEmpty, pattern.allSatisfy({ $0 >= 0 && $0.isFinite }), period > 0,
      phase.isFinite
    else { return CGMutablePath() }
    let segments = ArcLength.segments(of: transform.isIdentity ? self : copy(using: transform))
    let result = CGMutablePath()
    // Each subpath starts the pattern again, `phase` into it.
    var first = 0
    while first < segments.count {
      var last = first + 1
      while last < segments.count && !segments[last].startsSubpath { last += 1 }
      let subpath = Array(segments[first..<last])
      let length = subpath.reduce(0) { $0 + $1.length }
      var intervals: [(CGFloat, CGFloat)] = []
      var offset = phase.truncatingRemainder(dividingBy: period)
      if offset < 0 { offset += period }
      var s = -offset
      var index = 0
      // Dashes are bounded: a pattern far finer than the path stops at a million.
      while s < length && intervals.count < 1_000_000 {
        let dash = pattern[index % pattern.count]
        if index % 2 == 0 {
          let a = max(s, 0)
          let b = min(s + dash, length)
          if b > a { intervals.append((a, b)) }
        }
        s += dash
        index += 1
      }
      result.addPath(Self.pieces(of: subpath, intervals))
      first = last
    }
    return result
  }

  /// The parts of `segments` between the arc lengths of each interval.
  static func pieces(of segments: [ArcLength.Segment], _ intervals: [(CGFloat, CGFloat)])
    -> CGMutablePath
  {
    let result = CGMutablePath()
    for (from, to) in intervals where to > from {
      var walked: CGFloat = 0
      var open = false
      for segment in segments {
        let s0 = walked
        let s1 = walked + segment.length
        walked = s1
        if segment.startsSubpath { open = false }
        guard s1 > from, s0 < to, segment.length > 0 else { continue }
        let t0 = segment.parameter(at: from - s0)
        let t1 = segment.parameter(at: to - s0)
        guard t1 > t0 else { continue }
        let (start, element) = segment.piece(t0, t1)
        if !open {
          result.move(to: start)
          open = true
        }
        switch element {
        case .curveTo(let p, let c1, let c2): result.addCurve(to: p, control1: c1, control2: c2)
        case .lineTo(let p): result.addLine(to: p)
        default: break
        }
      }
    }
    return result
  }
}
