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

    for contour in contours {
      let (points, smooth, arriving, leaving, fromCurve) = distinctPoints(contour)
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
      let closed = contour.isClosed
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
        let before = corners[i] != nil ? f(tangents[(i - 1 + segmentCount) % segmentCount]) : .zero
        let after = corners[j] != nil ? f(tangents[(i + 1) % segmentCount]) : .zero
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

  /// The contour's points with repeats dropped (a segment of zero length
  /// has no direction; the corner is taken between its neighbours), and
  /// a closed contour's last point dropped when it is its first; with
  /// each point's smooth flag and the curves' exact directions arriving
  /// at it and leaving it (zero where a line's chord gives them).
  static func distinctPoints(_ contour: FlatContour) -> (
    [SIMD2<Double>], [Bool], arriving: [SIMD2<Double>], leaving: [SIMD2<Double>],
    fromCurve: [Bool]
  ) {
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
    if contour.isClosed, points.count > 1, points.last == points.first {
      points.removeLast()
      smooth.removeLast()
      let tIn = arriving.removeLast()
      leaving.removeLast()
      if tIn != .zero { arriving[0] = tIn }
      fromCurve[0] = fromCurve.removeLast()
    }
    return (points, smooth, arriving, leaving, fromCurve)
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
