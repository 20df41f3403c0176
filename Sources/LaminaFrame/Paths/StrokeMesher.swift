import Foundation
import Lamina

/// Builds the stroke mesh of a path: a quad along each segment, a wedge
/// over the gap that a round or bevel corner leaves on its outer side, and
/// a quad around each subpath of zero length (a dot with round or square
/// caps). Every vertex carries arc lengths, so the fragment shader decides
/// what `strokeStart`, `strokeEnd`, `lineDashPattern` and `lineDashPhase`
/// leave visible and where caps go; the vertex shader sizes the pieces
/// from the line width and collapses those the trim hides. The mesh
/// depends on the path, the join and the miter limit only.
///
/// Two segments that meet at a miter (within the limit), inside a curve
/// (where the exact stroke is the curve's offset) or nearly straight on
/// are cut along the bisector of their corner: the two quads then tile
/// the stroke there with no gap and no overlap, and the miter needs no
/// piece of its own. Segments next to a corner take, near it, the union
/// of their band with their neighbour's (the pixels of the inner corner).
/// Where pieces still overlap (caps, a path crossing itself), the renderer
/// draws each pixel of a stroke once (a translucent stroke is one layer
/// of paint, as Core Graphics strokes the union).
enum StrokeMesher {
  /// Corners turning less than this (radians) are cut along the bisector
  /// whatever the join: the joins differ there by a few thousandths of
  /// the line width.
  static let straightTurn = 5.0 * Double.pi / 180

  /// Segments, vertex flags (`StrokeVertex.kind.y`).
  static let closedFlag: Float = 1
  static let cutStartFlag: Float = 2
  static let cutEndFlag: Float = 4
  /// A segment whose start or end is a corner: its fragments take the
  /// union with the neighbour's band there.
  static let cornerFlag: Float = 8
  /// A segment at the start of a subpath that goes on from the previous
  /// subpath's end (the same point, the same direction), or at the end of
  /// one that goes on into the next: where the trim shows both sides, the
  /// two are one outline there, cut along their bisector with no caps
  /// (a trimmed stroke running from one subpath into the next).
  static let linkStartFlag: Float = 16
  static let linkEndFlag: Float = 32

  static func mesh(
    _ contours: [FlatContour], join: CAShapeLayerLineJoin, miterLimit: Double
  ) -> StrokeMesh {
    var vertices: [StrokeVertex] = []
    var groups = [[UInt32]](repeating: [], count: StrokeMesh.Group.allCases.count)
    var subpaths: [(start: Double, end: Double, closed: Bool)] = []
    var s = 0.0
    var miterFactor = 1.0
    var box = (
      minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity
    )
    func f(_ v: SIMD2<Double>) -> SIMD2<Float> { SIMD2(Float(v.x), Float(v.y)) }
    func appendQuad(_ group: StrokeMesh.Group, _ base: UInt32) {
      groups[group.rawValue] += [base, base + 1, base + 2, base, base + 2, base + 3]
    }

    let distinct = contours.map(distinctPoints)
    let links = links(distinct)
    for (index, contour) in contours.enumerated() {
      let (points, smooth, arriving, leaving, fromCurve, closed) = distinct[index]
      guard let first = points.first else { continue }
      for p in points {
        box = (min(box.minX, p.x), min(box.minY, p.y), max(box.maxX, p.x), max(box.maxY, p.y))
      }
      let start = s
      if points.count == 1 {
        subpaths.append((s, s, false))
        guard contour.hasSegments else { continue }
        let base = UInt32(vertices.count)
        for corner in [SIMD2<Float>(-1, -1), SIMD2(-1, 1), SIMD2(1, 1), SIMD2(1, -1)] {
          vertices.append(
            StrokeVertex(
              base: f(first), tangent: SIMD2(1, 0), tangents: .zero, corner: corner,
              range: SIMD2(Float(s), Float(s)), subpath: SIMD2(Float(s), Float(s)),
              kind: SIMD2(StrokePiece.dot.rawValue, 0), capAngles: .zero))
        }
        appendQuad(.dots, base)
        continue
      }
      let n = points.count
      let segmentCount = closed ? n : n - 1
      var starts: [Double] = []
      var tangents: [SIMD2<Double>] = []
      for i in 0..<segmentCount {
        let d = points[(i + 1) % n] - points[i]
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        starts.append(s)
        tangents.append(d / length)
        s += length
      }
      let end = s
      subpaths.append((start, end, closed))
      let sub = SIMD2(Float(start), Float(end))
      let closedFlag: Float = closed ? Self.closedFlag : 0

      /// How the corner at point `i` is drawn: nil at the ends of an open
      /// subpath (caps), `.cut` along the bisector, or a wedge.
      enum Corner { case cut, wedge(StrokePiece) }
      func corner(_ i: Int) -> Corner? {
        guard closed || (i > 0 && i < n - 1) else { return nil }
        let a = tangents[(i - 1 + segmentCount) % segmentCount]
        let b = tangents[i % segmentCount]
        let turn = abs(atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y))
        if smooth[i] || turn < straightTurn { return .cut }
        switch join {
        case .round: return .wedge(.roundJoin)
        case .bevel: return .wedge(.bevelJoin)
        default:
          // Core Graphics' (and PostScript's) limit: miter length over line width.
          let factor = 1 / cos(turn / 2)
          guard factor.isFinite, factor <= miterLimit else { return .wedge(.bevelJoin) }
          miterFactor = max(miterFactor, factor)
          return .cut
        }
      }
      let corners = (0..<n).map(corner)
      // Real corners (a wedge, or a miter cut at a turn): their segments
      // take the union with the neighbour's band near them.
      let cornerTurns = (0..<n).map { i -> Bool in
        guard let c = corners[i] else { return false }
        if case .wedge = c { return true }
        let a = tangents[(i - 1 + segmentCount) % segmentCount]
        let b = tangents[i % segmentCount]
        return !smooth[i]
          && abs(atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)) >= straightTurn
      }

      for i in 0..<segmentCount {
        let j = (i + 1) % n
        // The wedge at the corner where this segment starts comes first.
        if i > 0 || closed, case .wedge(let piece) = corners[i]! {
          let incoming = tangents[(i - 1 + segmentCount) % segmentCount]
          let outgoing = tangents[i]
          let position = i == 0 ? end : starts[i]
          let base = UInt32(vertices.count)
          for code in 0..<6 {
            vertices.append(
              StrokeVertex(
                base: f(points[i]), tangent: f(incoming),
                tangents: SIMD4(
                  Float(incoming.x), Float(incoming.y), Float(outgoing.x), Float(outgoing.y)),
                corner: SIMD2(Float(code), 0), range: SIMD2(Float(position), Float(position)),
                subpath: sub, kind: SIMD2(piece.rawValue, closedFlag), capAngles: .zero))
          }
          let group: StrokeMesh.Group = piece == .roundJoin ? .roundJoins : .bevelJoins
          for k in UInt32(1)...4 { groups[group.rawValue] += [base, base + k, base + k + 1] }
        }
        var flags = closedFlag
        if case .cut = corners[i] { flags += Self.cutStartFlag }
        if case .cut = corners[j] { flags += Self.cutEndFlag }
        let atCorner = cornerTurns[i] || cornerTurns[j]
        if atCorner { flags += Self.cornerFlag }
        var before = corners[i] != nil ? f(tangents[(i - 1 + segmentCount) % segmentCount]) : .zero
        var after = corners[j] != nil ? f(tangents[(i + 1) % segmentCount]) : .zero
        // A subpath going on from the previous one's end, or into the
        // next one's start: cut along the bisector with it there, its cap
        // dropped where the trim shows both sides.
        if i == 0, index > 0, let link = links[index - 1] {
          flags += Self.linkStartFlag + (closed ? 0 : Self.cutStartFlag)
          if !closed { before = f(link.incoming) }
        }
        if i == segmentCount - 1, let link = links[index] {
          flags += Self.linkEndFlag + (closed ? 0 : Self.cutEndFlag)
          if !closed { after = f(link.outgoing) }
        }
        let range = SIMD2(Float(starts[i]), Float(i + 1 < segmentCount ? starts[i + 1] : end))
        // The path's direction at the segment's ends, as angles from its
        // chord: a cut inside the segment is capped square to the direction
        // interpolated between them. Between two chords of curves it is
        // their bisector (the seam the pieces meet on, so a cut just before
        // and just after it agree); at a curve's own end, the curve's exact
        // direction there; along a line, the line's.
        func capAngle(at k: Int, start: Bool) -> Double {
          guard fromCurve[j] else { return 0 }
          var phi = 0.0
          let neighbourIsChord = start ? fromCurve[i] : fromCurve[(j + 1) % n]
          if smooth[k], corners[k] != nil, neighbourIsChord {
            let other = tangents[start ? (i - 1 + segmentCount) % segmentCount : (i + 1) % segmentCount]
            phi = (start ? -1 : 1) * angle(from: start ? other : tangents[i], to: start ? tangents[i] : other) / 2
          } else {
            let d = start ? leaving[k] : arriving[k]
            if d != .zero { phi = angle(from: tangents[i], to: d) }
          }
          return phi.isFinite && abs(phi) <= maxCapTilt ? phi : 0
        }
        let capAngles = SIMD2(Float(capAngle(at: i, start: true)), Float(capAngle(at: j, start: false)))
        let base = UInt32(vertices.count)
        for (point, corner) in [
          (points[i], SIMD2<Float>(-1, -1)), (points[i], SIMD2(-1, 1)), (points[j], SIMD2(1, 1)),
          (points[j], SIMD2(1, -1)),
        ] {
          vertices.append(
            StrokeVertex(
              base: f(point), tangent: f(tangents[i]),
              tangents: SIMD4(before.x, before.y, after.x, after.y), corner: corner, range: range,
              subpath: sub, kind: SIMD2(StrokePiece.segment.rawValue, flags),
              capAngles: capAngles))
        }
        appendQuad(atCorner ? .cornerSegments : .segments, base)
      }
    }
    let bounds =
      box.minX <= box.maxX
      ? CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
      : .null
    var indices: [UInt32] = []
    var ranges: [Range<Int>] = []
    for group in groups {
      ranges.append(indices.count..<indices.count + group.count)
      indices += group
    }
    return StrokeMesh(
      vertices: vertices, indices: indices, groups: ranges, length: s, pointBounds: bounds,
      miterFactor: miterFactor, subpaths: subpaths)
  }

  /// The distinct points of a contour (`distinctPoints`).
  typealias Distinct = (
    points: [SIMD2<Double>], smooth: [Bool], arriving: [SIMD2<Double>],
    leaving: [SIMD2<Double>], fromCurve: [Bool], closed: Bool
  )

  /// Whether directions `a` and `b` (unit) turn by less than `straightTurn`.
  static func continues(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
    a != .zero && b != .zero && abs(angle(from: a, to: b)) < straightTurn
  }

  /// Whether two points are one: equal, or apart by rounding only (an
  /// arc from 0 to 2π ends at cos 2π, sin 2π, off its start by 1e-16 of
  /// its radius).
  static func meets(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
    let d = a - b
    let scale = max(1, abs(a.x), abs(a.y), abs(b.x), abs(b.y))
    return (d.x * d.x + d.y * d.y).squareRoot() <= 1e-9 * scale
  }

  static func unit(_ v: SIMD2<Double>) -> SIMD2<Double> {
    let n = (v.x * v.x + v.y * v.y).squareRoot()
    return n > 0 && n.isFinite ? v / n : .zero
  }

  /// For each contour, whether the next one goes on from its end: it
  /// starts at the point where this one ends, in the direction this one
  /// arrives there (within `straightTurn`), both having segments; with the
  /// chords that meet there (the last of this one, `incoming`, and the
  /// first of the next, `outgoing`), whose bisector both cut along. A
  /// closed contour ends at its first point, cut there along the bisector
  /// of its closing corner: it links only to a next contour whose first
  /// chord is its own first chord (and a closed next one only to a contour
  /// whose last chord is its own last chord), so that the two cuts are one
  /// line (two copies of one closed curve, as `trim-across-subpaths.json`).
  static func links(_ distinct: [Distinct]) -> [(incoming: SIMD2<Double>, outgoing: SIMD2<Double>)?]
  {
    func chords(_ d: Distinct) -> (first: SIMD2<Double>, last: SIMD2<Double>)? {
      let p = d.points
      guard p.count > 1 else { return nil }
      let last = d.closed ? p[0] - p[p.count - 1] : p[p.count - 1] - p[p.count - 2]
      return (unit(p[1] - p[0]), unit(last))
    }
    func same(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
      a.x * b.x + a.y * b.y > 0.99995
    }
    /// Whether a closed contour's closing corner is cut (smooth, or
    /// turning less than `straightTurn`): as `mesh` decides it for any join.
    func closingCut(_ d: Distinct, _ c: (first: SIMD2<Double>, last: SIMD2<Double>)) -> Bool {
      d.smooth[0] || continues(c.last, c.first)
    }
    var result: [(incoming: SIMD2<Double>, outgoing: SIMD2<Double>)?] = Array(
      repeating: nil, count: distinct.count)
    for k in 0..<max(distinct.count - 1, 0) {
      let (a, b) = (distinct[k], distinct[k + 1])
      guard let ca = chords(a), let cb = chords(b) else { continue }
      let end = a.closed ? a.points[0] : a.points[a.points.count - 1]
      guard meets(end, b.points[0]) else { continue }
      // The directions where they meet: the curves' exact ones, or the chords'.
      let arriving = a.closed ? a.arriving[0] : a.arriving[a.points.count - 1]
      let exit = arriving != .zero ? arriving : ca.last
      let entry = b.leaving[0] != .zero ? b.leaving[0] : cb.first
      guard continues(exit, entry) else { continue }
      if a.closed, !(closingCut(a, ca) && same(ca.first, cb.first)) { continue }
      if b.closed, !(closingCut(b, cb) && same(cb.last, ca.last)) { continue }
      result[k] = (ca.last, cb.first)
    }
    return result
  }

  /// The contour's points with repeats dropped (a segment of zero length
  /// has no direction; the corner is taken between its neighbours), and
  /// a closed contour's last point dropped when it is its first; with
  /// each point's smooth flag and the curves' exact directions arriving
  /// at it and leaving it (zero where a line's chord gives them).
  ///
  /// An open contour whose end is its start, arriving there in the
  /// direction it leaves (within `straightTurn`), is stroked as closed
  /// there, cut along the bisector (how iOS code builds a full circle:
  /// `addArc` from 0 to 2π without `closeSubpath`): Core Graphics strokes
  /// a subpath as one outline, and its two butt caps there meet with no
  /// seam, as the cut does. Round caps there lie inside the stroke; a
  /// square cap's corners would reach past a curve by a hundredth of the
  /// line width, which the closed stroke leaves out.
  static func distinctPoints(_ contour: FlatContour) -> Distinct {
    var fromCurve: [Bool] = []
    var points: [SIMD2<Double>] = []
    var smooth: [Bool] = []
    var arriving: [SIMD2<Double>] = []
    var leaving: [SIMD2<Double>] = []
    for (i, (p, isSmooth)) in zip(contour.points, contour.smooth).enumerated() {
      let tIn = i < contour.tangentIn.count ? contour.tangentIn[i] : .zero
      let tOut = i < contour.tangentOut.count ? contour.tangentOut[i] : .zero
      let curve = i < contour.fromCurve.count && contour.fromCurve[i]
      if let last = points.last, last == p {
        // Keep the sharper flag: a corner stays a corner. The direction
        // arriving is the first point's, the one leaving the last's.
        smooth[smooth.count - 1] = smooth[smooth.count - 1] && isSmooth
        if arriving[arriving.count - 1] == .zero { arriving[arriving.count - 1] = tIn }
        if tOut != .zero { leaving[leaving.count - 1] = tOut }
        continue
      }
      points.append(p)
      smooth.append(isSmooth)
      arriving.append(tIn)
      leaving.append(tOut)
      fromCurve.append(curve)
    }
    var closed = contour.isClosed
    if !closed, points.count > 2, let last = points.last, meets(last, points[0]) {
      points[points.count - 1] = points[0]
      let n = points.count
      let exit = arriving[n - 1] != .zero ? arriving[n - 1] : unit(points[n - 1] - points[n - 2])
      let entry = leaving[0] != .zero ? leaving[0] : unit(points[1] - points[0])
      if continues(exit, entry) {
        closed = true
        smooth[0] = true
      }
    }
    // (A closing segment shorter than rounding has no direction: it goes too.)
    if closed, points.count > 1, let last = points.last, meets(last, points[0]) {
      points.removeLast()
      smooth.removeLast()
      let tIn = arriving.removeLast()
      leaving.removeLast()
      if tIn != .zero { arriving[0] = tIn }
      fromCurve[0] = fromCurve.removeLast()
    }
    return (points, smooth, arriving, leaving, fromCurve, closed)
  }

  /// The angle (radians) from unit direction `t` to `d`, positive toward
  /// `t`'s left normal (the across axis of a segment's frame).
  static func angle(from t: SIMD2<Double>, to d: SIMD2<Double>) -> Double {
    atan2(t.x * d.y - t.y * d.x, t.x * d.x + t.y * d.y)
  }

  /// Caps at a cut tilt by at most this from the chord (radians); a curve
  /// turning more over one chord (a cusp) is capped along the chord.
  static let maxCapTilt = Double.pi / 3
}
