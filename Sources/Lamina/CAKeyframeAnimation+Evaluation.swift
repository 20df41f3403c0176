import Foundation

/// One piece of a keyframe animation's `path`, as a cubic Bézier (lines and
/// quadratic curves raised to cubics).
struct PathSegment {
  var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint
  /// Made by a `closeSubpath` (the line back to the subpath's start).
  var closes = false

  static func line(_ a: CGPoint, _ b: CGPoint) -> PathSegment {
    PathSegment(
      p0: a, p1: CGPoint(x: a.x + (b.x - a.x) / 3, y: a.y + (b.y - a.y) / 3),
      p2: CGPoint(x: a.x + 2 * (b.x - a.x) / 3, y: a.y + 2 * (b.y - a.y) / 3), p3: b)
  }

  /// The segments of `path`: every element after the first `moveTo` is one
  /// keyframe interval (a later `moveTo` jumps along a straight segment;
  /// `closeSubpath` returns to the subpath's start).
  static func segments(of path: CGPath) -> [PathSegment] {
    var out: [PathSegment] = []
    var current: CGPoint?
    var start = CGPoint.zero
    for e in path.elements {
      switch e {
      case .moveTo(let p):
        if let c = current { out.append(.line(c, p)) }
        current = p
        start = p
      case .lineTo(let p):
        out.append(.line(current ?? .zero, p))
        current = p
      case .quadCurveTo(let p, let c):
        let a = current ?? .zero
        out.append(
          PathSegment(
            p0: a, p1: CGPoint(x: a.x + 2 * (c.x - a.x) / 3, y: a.y + 2 * (c.y - a.y) / 3),
            p2: CGPoint(x: p.x + 2 * (c.x - p.x) / 3, y: p.y + 2 * (c.y - p.y) / 3), p3: p))
        current = p
      case .curveTo(let p, let c1, let c2):
        out.append(PathSegment(p0: current ?? .zero, p1: c1, p2: c2, p3: p))
        current = p
      case .closeSubpath:
        if let c = current, c != start {
          var line = PathSegment.line(c, start)
          line.closes = true
          out.append(line)
        }
        current = start
      }
    }
    return out
  }

  func point(_ u: Double) -> CGPoint {
    let u = CGFloat(u)
    let v = 1 - u
    let a = v * v * v
    let b = 3 * v * v * u
    let c = 3 * v * u * u
    let d = u * u * u
    return CGPoint(
      x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
  }

  func tangent(_ u: Double) -> CGPoint {
    let u = CGFloat(u)
    let v = 1 - u
    let a = 3 * v * v
    let b = 6 * v * u
    let c = 3 * u * u
    let t = CGPoint(
      x: a * (p1.x - p0.x) + b * (p2.x - p1.x) + c * (p3.x - p2.x),
      y: a * (p1.y - p0.y) + b * (p2.y - p1.y) + c * (p3.y - p2.y))
    // A degenerate end (control point on the end point): the chord instead.
    return t.x == 0 && t.y == 0 ? CGPoint(x: p3.x - p0.x, y: p3.y - p0.y) : t
  }
}

/// Keyframe timing and interpolation.
enum Keyframes {
  /// Samples per segment of the arc-length tables of paced modes.
  static let samples = 32

  /// Key times (one per keyframe, or per segment boundary of a path) and,
  /// for paced modes, each segment's arc-length table.
  static func timing(
    _ k: CAKeyframeAnimation, values: [LayerValue], pathSegments: [PathSegment]
  ) -> ([Double], [[Double]]) {
    let count = pathSegments.isEmpty ? values.count : pathSegments.count + 1
    guard count > 0 else { return ([], []) }
    let mode = k.calculationMode
    let evenly = (0..<count).map { count == 1 ? 0 : Double($0) / Double(count - 1) }
    switch mode {
    case .paced, .cubicPaced:
      var lengths: [Double] = []
      var tables: [[Double]] = []
      for i in 0..<(count - 1) {
        let f: (Double) -> [Double]?
        if !pathSegments.isEmpty {
          let s = pathSegments[i]
          f = { u in
            let p = s.point(u)
            return [Double(p.x), Double(p.y)]
          }
        } else if mode == .paced {
          guard let a = values[i].components, let b = values[i + 1].components,
            LayerValue.compatible(values[i], values[i + 1])
          else {
            let d = LayerValue.distance(values[i], values[i + 1]) ?? 1
            lengths.append(d)
            tables.append([])
            continue
          }
          f = { u in zip(a, b).map { $0 + ($1 - $0) * u } }
        } else {
          f = { u in cubicComponents(values, segment: i, u: u, k) }
        }
        var table: [Double] = [0]
        var previous = f(0)
        var total = 0.0
        for j in 1...samples {
          let p = f(Double(j) / Double(samples))
          if let p, let q = previous {
            total += zip(p, q).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
          }
          table.append(total)
          previous = p
        }
        lengths.append(total)
        tables.append(table)
      }
      let total = lengths.reduce(0, +)
      guard total > 0 else { return (evenly, []) }
      var times: [Double] = [0]
      var sum = 0.0
      for l in lengths {
        sum += l
        times.append(sum / total)
      }
      return (times, tables)
    case .discrete:
      // n values take n + 1 key times (the last closes the last value's span).
      if let kt = k.keyTimes, kt.count == count + 1 || kt.count == count {
        return (kt.map { $0.doubleValue }, [])
      }
      return ((0...count).map { Double($0) / Double(count) }, [])
    default:
      if let kt = k.keyTimes, kt.count == count { return (kt.map { $0.doubleValue }, []) }
      // Key times for the vertices of a path whose closing segments have
      // none (N vertices, `closeSubpath()`, N key times): the vertices are
      // timed by them and each closing segment takes no time, as in Core
      // Animation (past the last key time the layer stays on the last
      // vertex, see `pathPoint`).
      let closing = pathSegments.reduce(0) { $0 + ($1.closes ? 1 : 0) }
      if closing > 0, let kt = k.keyTimes?.map(\.doubleValue), kt.count == count - closing {
        var times = [kt[0]]
        var next = 1
        for segment in pathSegments {
          if segment.closes {
            times.append(times[times.count - 1])
          } else {
            times.append(kt[next])
            next += 1
          }
        }
        return (times, [])
      }
      return (evenly, [])
    }
  }

  /// The segment holding `p` and the fraction through it, the segment's
  /// own timing function applied (except in paced modes, which ignore them).
  static func segment(
    _ c: CompiledAnimation, _ k: CAKeyframeAnimation, _ p: Double, segments: Int
  ) -> (Int, Double) {
    let kt = c.keyTimes
    guard segments > 0, kt.count >= 2 else { return (0, 0) }
    let i = segmentIndex(kt, p, segments: segments, ascending: c.keyTimesAscend)
    let t0 = kt[i]
    let t1 = kt[min(i + 1, kt.count - 1)]
    var u = t1 > t0 ? (p - t0) / (t1 - t0) : (p >= t1 ? 1 : 0)
    u = max(0, min(1, u))
    if k.calculationMode == .paced || k.calculationMode == .cubicPaced {
      if i < c.pacedTables.count { u = unitArcLength(c.pacedTables[i], u) }
    } else if let fns = k.timingFunctions, i < fns.count {
      u = fns[i].evaluate(at: u)
    }
    return (i, u)
  }

  /// The segment of `keyTimes` that fraction `p` falls in: the last `i`
  /// below `segments` (and below the last key time) with `keyTimes[i] <= p`
  /// and every key time before it too, 0 before the second key time. Found
  /// by bisection when the key times ascend (sampled Lottie values have a
  /// key time a frame), else by a scan.
  static func segmentIndex(_ keyTimes: [Double], _ p: Double, segments: Int, ascending: Bool)
    -> Int
  {
    let last = min(segments - 1, keyTimes.count - 2)
    guard last > 0 else { return 0 }
    guard ascending, last > 8 else {
      var i = 0
      while i < last && p >= keyTimes[i + 1] { i += 1 }
      return i
    }
    // Invariant: keyTimes[lo] <= p or lo == 0; hi is past every candidate.
    var lo = 0
    var hi = last + 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if p >= keyTimes[mid] { lo = mid } else { hi = mid }
    }
    return lo
  }

  /// The curve parameter at which the fraction `s` of a segment's length is reached.
  static func unitArcLength(_ table: [Double], _ s: Double) -> Double {
    guard let total = table.last, total > 0, table.count > 1 else { return s }
    let target = s * total
    var j = 1
    while j < table.count - 1 && table[j] < target { j += 1 }
    let a = table[j - 1]
    let b = table[j]
    let f = b > a ? (target - a) / (b - a) : 0
    return (Double(j - 1) + f) / Double(table.count - 1)
  }

  /// The value of a values-based keyframe animation at fraction `p`.
  static func value(_ c: CompiledAnimation, _ k: CAKeyframeAnimation, _ p: Double)
    -> LayerValue?
  {
    let values = c.values
    guard !values.isEmpty else { return nil }
    if values.count == 1 { return values[0] }
    if k.calculationMode == .discrete {
      let kt = c.keyTimes
      var i = 0
      while i < values.count - 1 && i + 1 < kt.count && p >= kt[i + 1] { i += 1 }
      return values[i]
    }
    let (i, u) = segment(c, k, p, segments: values.count - 1)
    let cubic = k.calculationMode == .cubic || k.calculationMode == .cubicPaced
    let times = k.calculationMode == .cubic ? c.keyTimes : nil
    if cubic, let comps = cubicComponents(values, segment: i, u: u, k, times: times) {
      return values[i].with(components: comps)
    }
    return LayerValue.interpolate(values[i], values[i + 1], u)
  }

  /// A cubic (Kochanek–Bartels; Catmull-Rom with the default tension,
  /// continuity and bias of 0) through the values, in segment `i` at `u`;
  /// nil when the values are not vectors of one shape. The end tangents
  /// repeat the end points.
  static func cubicComponents(
    _ values: [LayerValue], segment i: Int, u: Double, _ k: CAKeyframeAnimation,
    times: [Double]? = nil
  ) -> [Double]? {
    let n = values.count
    func comps(_ j: Int) -> [Double]? { values[max(0, min(n - 1, j))].components }
    guard let p0 = comps(i - 1), let p1 = comps(i), let p2 = comps(i + 1), let p3 = comps(i + 2),
      p0.count == p1.count, p1.count == p2.count, p2.count == p3.count,
      LayerValue.compatible(values[i], values[min(n - 1, i + 1)])
    else { return nil }
    func tcb(_ list: [NSNumber]?, _ j: Int) -> Double {
      guard let list, j >= 0, j < list.count else { return 0 }
      return list[j].doubleValue
    }
    let t1 = tcb(k.tensionValues, i)
    let c1 = tcb(k.continuityValues, i)
    let b1 = tcb(k.biasValues, i)
    let t2 = tcb(k.tensionValues, i + 1)
    let c2 = tcb(k.continuityValues, i + 1)
    let b2 = tcb(k.biasValues, i + 1)
    let u2 = u * u
    let u3 = u2 * u
    let h00 = 2 * u3 - 3 * u2 + 1
    let h10 = u3 - 2 * u2 + u
    let h01 = -2 * u3 + 3 * u2
    let h11 = u3 - u2
    // Uneven key times: each tangent scaled by its segment's share of the
    // two segments around its key (Kochanek and Bartels' adjustment), so
    // the speed does not jump at keys.
    var s1 = 1.0
    var s2 = 1.0
    if let times, times.count == n, i + 1 < n {
      let here = times[i + 1] - times[i]
      let before = i > 0 ? times[i] - times[i - 1] : here
      let after = i + 2 < n ? times[i + 2] - times[i + 1] : here
      if before + here > 0 { s1 = 2 * here / (before + here) }
      if here + after > 0 { s2 = 2 * here / (here + after) }
    }
    var out = p1
    for j in p1.indices {
      // Outgoing tangent at p1, incoming tangent at p2.
      let d1 =
        (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[j] - p0[j])
        + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[j] - p1[j])
      let d2 =
        (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[j] - p1[j])
        + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[j] - p2[j])
      out[j] = h00 * p1[j] + h10 * d1 * s1 + h01 * p2[j] + h11 * d2 * s2
    }
    return out
  }

  /// The point and tangent along a keyframe animation's path at fraction `p`.
  static func pathPoint(_ c: CompiledAnimation, _ k: CAKeyframeAnimation, _ p: Double)
    -> (CGPoint, CGPoint)
  {
    let segments = c.pathSegments
    if k.calculationMode == .discrete {
      let kt = c.keyTimes
      var i = 0
      while i < segments.count && i + 1 < kt.count && p >= kt[i + 1] { i += 1 }
      if i >= segments.count {
        return (segments[segments.count - 1].p3, segments[segments.count - 1].tangent(1))
      }
      return (segments[i].p0, segments[i].tangent(0))
    }
    let (i, u) = segment(c, k, p, segments: segments.count)
    // A closing segment given no time of its own (the key times stop at
    // the last vertex): past the last key time the layer stays on that
    // vertex, as in Core Animation, and never runs back to the start.
    let kt = c.keyTimes
    if segments[i].closes, i + 1 < kt.count, kt[i + 1] <= kt[i] {
      return (segments[i].p0, segments[i].tangent(0))
    }
    return (segments[i].point(u), segments[i].tangent(u))
  }
}
