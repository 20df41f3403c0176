import Foundation
import Lamina

/// Builds the stroke mesh of a path: for each segment a quad along it,
/// for each corner a fan over the gap the two segments leave on the outer
/// side (round, miter or bevel, as `lineJoin` and `miterLimit` decide; a
/// corner inside a curve is always round, as the curve's exact offset
/// is), and a dot for each subpath of zero length. Every vertex carries
/// arc lengths, so the fragment shader decides what `strokeStart`,
/// `strokeEnd`, `lineDashPattern` and `lineDashPhase` leave visible and
/// where caps go; the vertex shader sizes the pieces from the line width
/// and collapses those the trim hides. The mesh depends on the path, the
/// join and the miter limit only.
///
/// Pieces overlap (a segment and the next on the inner side of a corner,
/// a curve crossing itself): the renderer draws each pixel of a stroke
/// once through the stencil, so that a translucent stroke is one layer of
/// paint, as Core Graphics strokes the union.
enum StrokeMesher {
  static func mesh(
    _ contours: [FlatContour], join: CAShapeLayerLineJoin, miterLimit: Double
  ) -> StrokeMesh {
    var vertices: [StrokeVertex] = []
    var indices: [UInt32] = []
    // The segments' cores (where they are fully covered) draw before
    // everything else, so that no partly covered fragment of another piece
    // takes a pixel a core covers.
    var coreIndices: [UInt32] = []
    var subpaths: [(start: Double, end: Double, closed: Bool)] = []
    var s = 0.0
    var miterFactor = 1.0
    var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
    func f(_ v: SIMD2<Double>) -> SIMD2<Float> { SIMD2(Float(v.x), Float(v.y)) }

    for contour in contours {
      let (points, smooth) = distinctPoints(contour)
      guard let first = points.first else { continue }
      for p in points {
        box = (min(box.minX, p.x), min(box.minY, p.y), max(box.maxX, p.x), max(box.maxY, p.y))
      }
      let start = s
      let closed = contour.isClosed && points.count >= 2
      let flag: Float = closed ? 1 : 0
      if points.count == 1 {
        subpaths.append((s, s, false))
        guard contour.hasSegments else { continue }
        let base = UInt32(vertices.count)
        for corner in [SIMD2<Float>(-1, -1), SIMD2(-1, 1), SIMD2(1, 1), SIMD2(1, -1)] {
          vertices.append(
            StrokeVertex(
              base: f(first), tangent: SIMD2(1, 0), tangents: .zero, corner: corner,
              range: SIMD2(Float(s), Float(s)), subpath: SIMD2(Float(s), Float(s)),
              kind: SIMD2(StrokePiece.dot.rawValue, 0)))
        }
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
        continue
      }
      let n = points.count
      let segmentCount = closed ? n : n - 1
      var starts: [Double] = []
      var tangents: [SIMD2<Double>] = []
      for i in 0..<segmentCount {
        let a = points[i]
        let b = points[(i + 1) % n]
        let d = b - a
        let length = (d.x * d.x + d.y * d.y).squareRoot()
        starts.append(s)
        tangents.append(d / length)
        s += length
      }
      let end = s
      subpaths.append((start, end, closed))
      let sub = SIMD2(Float(start), Float(end))

      func appendSegment(_ i: Int) {
        let a = points[i]
        let b = points[(i + 1) % n]
        let t = f(tangents[i])
        let before = i > 0 || closed ? f(tangents[(i - 1 + segmentCount) % segmentCount]) : .zero
        let after = i + 1 < segmentCount || closed ? f(tangents[(i + 1) % segmentCount]) : .zero
        let neighbours = SIMD4(before.x, before.y, after.x, after.y)
        let range = SIMD2(Float(starts[i]), Float(i + 1 < segmentCount ? starts[i + 1] : end))
        let base = UInt32(vertices.count)
        // Two rows of four: across, the band's outer edges (±2) and its
        // core's (±1), at the segment's start and end.
        for (point, along) in [(a, Float(-1)), (b, Float(1))] {
          for across: Float in [-2, -1, 1, 2] {
            vertices.append(
              StrokeVertex(
                base: f(point), tangent: t, tangents: neighbours, corner: SIMD2(along, across),
                range: range, subpath: sub, kind: SIMD2(StrokePiece.segment.rawValue, flag)))
          }
        }
        func quad(_ i: UInt32, _ j: UInt32) -> [UInt32] {
          [base + i, base + j, base + 4 + j, base + i, base + 4 + j, base + 4 + i]
        }
        coreIndices += quad(1, 2)
        indices += quad(0, 1) + quad(2, 3)
      }
      /// The join at point `i`, between the segment arriving there and the one leaving.
      func appendJoin(_ i: Int, at position: Double) {
        let incoming = tangents[(i - 1 + segmentCount) % segmentCount]
        let outgoing = tangents[i % segmentCount]
        let turn = abs(
          atan2(
            incoming.x * outgoing.y - incoming.y * outgoing.x,
            incoming.x * outgoing.x + incoming.y * outgoing.y))
        guard turn > 1e-9 else { return }  // straight on: no gap to fill
        var piece: StrokePiece
        if smooth[i] || join == .round {
          piece = .roundJoin
        } else if join == .bevel {
          piece = .bevelJoin
        } else {
          // Core Graphics' (and PostScript's) limit: miter length over line width.
          let factor = 1 / cos(turn / 2)
          piece = factor.isFinite && factor <= miterLimit ? .miterJoin : .bevelJoin
          if piece == .miterJoin { miterFactor = max(miterFactor, factor) }
        }
        // A full reversal leaves a gap only a round join fills.
        if piece != .roundJoin && turn > Double.pi - 1e-6 { return }
        let base = UInt32(vertices.count)
        for code in 0..<6 {
          vertices.append(
            StrokeVertex(
              base: f(points[i]), tangent: f(incoming),
              tangents: SIMD4(Float(incoming.x), Float(incoming.y), Float(outgoing.x), Float(outgoing.y)),
              corner: SIMD2(Float(code), 0), range: SIMD2(Float(position), Float(position)),
              subpath: sub, kind: SIMD2(piece.rawValue, flag)))
        }
        for k in 1...4 {
          indices += [base, base + UInt32(k), base + UInt32(k) + 1]
        }
      }
      for i in 0..<segmentCount {
        // A closed subpath's first corner is its closing one, at its end.
        if i > 0 { appendJoin(i, at: starts[i]) }
        appendSegment(i)
      }
      if closed { appendJoin(0, at: end) }
    }
    let bounds =
      box.minX <= box.maxX
      ? CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
      : .null
    return StrokeMesh(
      vertices: vertices, indices: coreIndices + indices, coreIndexCount: coreIndices.count,
      length: s, pointBounds: bounds,
      miterFactor: miterFactor, subpaths: subpaths)
  }

  /// The contour's points with repeats dropped (a segment of zero length
  /// has no direction; the corner is taken between its neighbours), and
  /// a closed contour's last point dropped when it is its first.
  static func distinctPoints(_ contour: FlatContour) -> ([SIMD2<Double>], [Bool]) {
    var points: [SIMD2<Double>] = []
    var smooth: [Bool] = []
    for (p, isSmooth) in zip(contour.points, contour.smooth) {
      if let last = points.last, last == p {
        // Keep the sharper flag: a corner stays a corner.
        smooth[smooth.count - 1] = smooth[smooth.count - 1] && isSmooth
        continue
      }
      points.append(p)
      smooth.append(isSmooth)
    }
    if contour.isClosed, points.count > 1, points.last == points.first {
      points.removeLast()
      smooth.removeLast()
    }
    return (points, smooth)
  }
}
