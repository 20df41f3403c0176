import Foundation
import Lamina

/// Tessellates the fill of a path, exactly under either fill rule, for any
/// path (self-intersecting, with holes, touching itself), by cutting the
/// plane into horizontal slabs at every vertex and every crossing of two
/// edges: inside a slab no two edges cross, so sorting them by x and
/// counting the winding number from left to right gives the filled spans
/// exactly, each a trapezoid. Trapezoids of consecutive slabs between the
/// same two edges are merged.
///
/// The mesh has two parts (see docs/drawing.md, "CAShapeLayer: paths on the GPU"):
/// - a ribbon around the boundary of the filled region (the left and right
///   sides of the spans, and the horizontal pieces where the spans of two
///   slabs differ, chained into loops and merged where collinear): a quad
///   per boundary edge reaching `ribbonReach` pixels to both sides, cut at
///   the bisectors of its corners, whose fragments compute their coverage
///   from their distance to the edge (and to the neighbouring edges at
///   corners);
/// - the interior: rectangles inside runs of trapezoids and the thin
///   trapezoids between them and the boundary (`coverColumn`), drawn after
///   the ribbon at the same depth level, so that a pixel the ribbon drew is
///   not drawn again (and pieces of the interior that overlap draw a pixel
///   once). The pieces overlap their neighbours by `interiorOverlap` pixels so
///   that no crack opens between them; the overlap cannot show, because
///   it lies under the ribbon.
package enum FillTessellator {
  /// How far the ribbon reaches to each side of the boundary, in pixels:
  /// box-filter coverage ends √2/2 pixels from an edge.
  static let ribbonReach: Float = 0.8
  /// The longest a corner's miter grows the ribbon's reach (times
  /// `ribbonReach`): at a sharp corner the ribbon, and the coverage its
  /// fragments compute, reach this far past the region.
  static let longestMiter = 4.0
  /// How far past the filled region's bounds the ribbon's fragments reach,
  /// in whole pixels: what a fill item's bounds (damage, overlap) hold.
  package static var boundsReach: Int { Int(saturating: Double(ribbonReach) * longestMiter, rounding: .up) }
  /// How far interior trapezoids grow beyond their slab, in pixels.
  static let interiorOverlap: Float = 0.25
  /// The most work (edges sorted, over all slabs) a path may need: a path
  /// of thousands of crossing edges is refused, not tessellated for minutes.
  static let maxWork = 20_000_000

  struct Edge {
    var x0: Double, y0: Double, x1: Double, y1: Double
    /// +1 when the path runs downward (toward larger y), −1 upward.
    var dir: Int

    func x(at y: Double) -> Double {
      if y <= y0 { return x0 }
      if y >= y1 { return x1 }
      return x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    }
  }

  /// A filled span of one slab, between two edges (group representatives).
  struct Span: Equatable {
    var left: Int, right: Int
    var xlt: Double, xrt: Double, xlb: Double, xrb: Double
  }

  struct Slab {
    var top: Double, bottom: Double
    var spans: [Span]
  }

  /// A piece of the boundary of the filled region, directed so that the
  /// region lies on its left on screen (its inward normal is the direction
  /// turned by +90°, `(-d.y, d.x)`).
  struct Piece {
    var from: SIMD2<Double>, to: SIMD2<Double>
    /// The path edge it lies on, or −1 for a horizontal piece.
    var edge: Int
  }

  /// The fill mesh of `contours`; an empty mesh when nothing is filled;
  /// nil when the path needs more than `maxWork`.
  static func mesh(
    _ contours: [FlatContour], evenOdd: Bool, maxWork: Int = maxWork
  ) -> FillMesh? {
    if contours.count == 1, let convex = convexMesh(contours[0].points) { return convex }
    guard let (slabs, scale) = slabs(contours, evenOdd: evenOdd, maxWork: maxWork) else {
      return nil
    }
    let eps = 1e-9 * scale
    var vertices: [FillVertex] = []
    var smooth: [UInt32] = []
    var corners: [UInt32] = []
    appendRibbon(boundary(slabs, eps: eps), into: &vertices, smooth: &smooth, corners: &corners)
    var interior: [UInt32] = []
    let bounds = appendInterior(slabs, into: &vertices, &interior)
    return makeMesh(vertices, [smooth, corners, interior], bounds)
  }

  // MARK: Convex contours

  /// The mesh of a convex polygon (circles, rounded rects, …, under
  /// either fill rule the same): the ribbon along its own edges and its
  /// interior as a balanced triangulation (a large triangle and ever
  /// smaller ones toward the edges, rather than slivers across it: on
  /// llvmpipe a triangle costs by the pixel blocks it touches). Nil when
  /// the polygon is not convex (or winds around more than once).
  static func convexMesh(_ input: [SIMD2<Double>]) -> FillMesh? {
    var points: [SIMD2<Double>] = []
    for p in input where points.last != p { points.append(p) }
    if points.count > 1, points.first == points.last { points.removeLast() }
    let n = points.count
    guard n >= 3 else { return nil }
    func cross(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double { a.x * b.y - a.y * b.x }
    var area = 0.0
    var turning = 0.0
    var sign = 0.0
    for i in 0..<n {
      let a = points[i]
      let b = points[(i + 1) % n]
      let c = points[(i + 2) % n]
      area += cross(a, b)
      let turn = atan2(cross(b - a, c - b), (b - a).x * (c - b).x + (b - a).y * (c - b).y)
      if abs(turn) > 1e-12 {
        if sign == 0 { sign = turn > 0 ? 1 : -1 }
        guard turn * sign > 0 else { return nil }
      }
      turning += turn
    }
    guard area != 0, abs(abs(turning) - 2 * Double.pi) < 1e-6 else { return nil }
    // The ribbon's edges run with the inside on their left on screen.
    if area < 0 { points.reverse() }
    let edges = (0..<n).map { i in
      BoundaryEdge(
        from: points[i], to: points[(i + 1) % n], previous: (i + n - 1) % n, next: (i + 1) % n)
    }
    var vertices: [FillVertex] = []
    var smooth: [UInt32] = []
    var corners: [UInt32] = []
    appendRibbon(edges, into: &vertices, smooth: &smooth, corners: &corners)
    var indices: [UInt32] = []
    let base = UInt32(vertices.count)
    for p in points {
      vertices.append(
        FillVertex(
          position: SIMD2(Float(p.x), Float(p.y)), extrude: .zero, own: .zero, prev: .zero,
          next: .zero))
    }
    // Triangles sharing their edges exactly: no crack, so no overlap.
    var pending = [(0, n / 3), (n / 3, 2 * n / 3), (2 * n / 3, n)]
    indices += [base, base + UInt32(n / 3), base + UInt32(2 * n / 3)]
    while let (i, j) = pending.popLast() {
      guard j - i >= 2 else { continue }
      let m = (i + j) / 2
      indices += [base + UInt32(i), base + UInt32(m), base + UInt32(j % n)]
      pending += [(i, m), (m, j)]
    }
    let lower = points.reduce(points[0]) { pointwiseMin($0, $1) }
    let upper = points.reduce(points[0]) { pointwiseMax($0, $1) }
    let bounds = CGRect(x: lower.x, y: lower.y, width: upper.x - lower.x, height: upper.y - lower.y)
    return makeMesh(vertices, [smooth, corners, indices], bounds)
  }

  /// A line no pixel of a path is near (`0·x + 0·y + c`): its coverage is 1.
  static let everywhere = SIMD4<Float>(0, 0, 1e6, 0)

  /// The mesh of the groups' indices, in `FillMesh.Group` order. The lines
  /// a group's pieces do not use are set to `everywhere` (the smooth
  /// ribbon's neighbours, all three of the interior's), so that the
  /// corner ribbon's program draws every group as its own program does:
  /// one program, and one draw, for a whole fill (`PathBatch`).
  static func makeMesh(_ vertices: [FillVertex], _ groups: [[UInt32]], _ bounds: CGRect) -> FillMesh
  {
    var vertices = vertices
    for index in groups[FillMesh.Group.smoothRibbon.rawValue] {
      vertices[Int(index)].prev = everywhere
      vertices[Int(index)].next = everywhere
    }
    for index in groups[FillMesh.Group.interior.rawValue] {
      vertices[Int(index)].own = everywhere
      vertices[Int(index)].prev = everywhere
      vertices[Int(index)].next = everywhere
    }
    var indices: [UInt32] = []
    var ranges: [Range<Int>] = []
    for group in groups {
      ranges.append(indices.count..<indices.count + group.count)
      indices += group
    }
    return FillMesh(vertices: vertices, indices: indices, groups: ranges, bounds: bounds)
  }

  // MARK: Slabs

  /// The path's slabs from its top to its bottom (empty ones included, so
  /// that consecutive slabs touch), and the size of its coordinates.
  static func slabs(
    _ contours: [FlatContour], evenOdd: Bool, maxWork: Int = maxWork
  ) -> ([Slab], Double)? {
    var edges: [Edge] = []
    var scale = 1.0
    for contour in contours where contour.points.count >= 2 {
      let points = contour.points
      for i in points.indices {
        let a = points[i]
        let b = points[(i + 1) % points.count]
        scale = max(scale, abs(a.x), abs(a.y))
        guard a.y != b.y else { continue }  // horizontal: no winding across slabs
        edges.append(
          a.y < b.y
            ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, dir: 1)
            : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, dir: -1))
      }
    }
    guard !edges.isEmpty else { return ([], scale) }
    let eps = 1e-9 * scale
    let order = edges.indices.sorted { edges[$0].y0 < edges[$1].y0 }
    let ys = Array(Set(edges.flatMap { [$0.y0, $0.y1] })).sorted()
    var slabs: [Slab] = []
    var active: [Int] = []
    var next = 0
    var work = 0
    var xTop: [Double] = []
    var xBottom: [Double] = []
    var sorted: [Int] = []
    var scratch: [Int] = []
    var scratchX: [Double] = []
    for k in 0..<(ys.count - 1) {
      let (ya, yb) = (ys[k], ys[k + 1])
      while next < order.count, edges[order[next]].y0 <= ya {
        active.append(order[next])
        next += 1
      }
      active.removeAll { edges[$0].y1 <= ya }
      var top = ya
      while top < yb {
        work += (active.count + 1) * (Int.bitWidth - active.count.leadingZeroBitCount + 1)
        guard work <= maxWork else { return nil }
        // Order at the slab's top (ties by where the edges go).
        // (The buffers are reused from slab to slab.)
        xTop.removeAll(keepingCapacity: true)
        xBottom.removeAll(keepingCapacity: true)
        for e in active {
          xTop.append(edges[e].x(at: top))
          xBottom.append(edges[e].x(at: yb))
        }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: active.indices)
        sorted.sort { xTop[$0] != xTop[$1] ? xTop[$0] < xTop[$1] : xBottom[$0] < xBottom[$1] }
        // Edges that meet at the top (within rounding: a crossing just
        // found) go in the order they take below it.
        var run = 0
        while run < sorted.count {
          var end = run + 1
          while end < sorted.count, xTop[sorted[end]] - xTop[sorted[end - 1]] <= eps { end += 1 }
          if end - run > 1 { sorted[run..<end].sort { xBottom[$0] < xBottom[$1] } }
          run = end
        }
        scratch.removeAll(keepingCapacity: true)
        for i in sorted { scratch.append(active[i]) }
        swap(&active, &scratch)
        scratchX.removeAll(keepingCapacity: true)
        for i in sorted { scratchX.append(xTop[i]) }
        swap(&xTop, &scratchX)
        scratchX.removeAll(keepingCapacity: true)
        for i in sorted { scratchX.append(xBottom[i]) }
        swap(&xBottom, &scratchX)
        // The first crossing is between two edges adjacent at the top.
        var bottom = yb
        for i in active.indices.dropLast() where xBottom[i] - xBottom[i + 1] > eps {
          let before = xTop[i] - xTop[i + 1]  // ≤ 0
          let after = xBottom[i] - xBottom[i + 1]  // > 0
          let y = top + (yb - top) * (-before / (after - before))
          if y > top + eps, y < bottom { bottom = y }
        }
        slabs.append(
          Slab(top: top, bottom: bottom, spans: spans(active, edges, top, bottom, evenOdd, eps)))
        top = bottom
      }
    }
    return (slabs, scale)
  }

  /// The filled spans of a slab whose edges are sorted by x. Edges that
  /// coincide in the slab count as one (their directions summed), so that
  /// two contours sharing an edge leave no seam.
  static func spans(
    _ sorted: [Int], _ edges: [Edge], _ top: Double, _ bottom: Double, _ evenOdd: Bool,
    _ eps: Double
  ) -> [Span] {
    var spans: [Span] = []
    var winding = 0
    var inside = false
    var start = (edge: 0, xt: 0.0, xb: 0.0)
    var i = 0
    while i < sorted.count {
      let first = sorted[i]
      let xt = edges[first].x(at: top)
      let xb = edges[first].x(at: bottom)
      var dir = 0
      while i < sorted.count {
        let e = edges[sorted[i]]
        guard abs(e.x(at: top) - xt) <= eps, abs(e.x(at: bottom) - xb) <= eps else { break }
        dir += e.dir
        i += 1
      }
      winding += dir
      let now = evenOdd ? winding & 1 != 0 : winding != 0
      if now == inside { continue }
      if now {
        start = (first, xt, xb)
      } else {
        spans.append(
          Span(left: start.edge, right: first, xlt: start.xt, xrt: xt, xlb: start.xb, xrb: xb))
      }
      inside = now
    }
    return spans
  }

  // MARK: The interior

  /// Appends the interior: each run of slabs whose spans continue each
  /// other (a column between a left and a right chain of edges) is covered
  /// by large rectangles inside it and the thin trapezoids between them and
  /// its chains (`coverColumn`), rather than by a strip per slab: on
  /// llvmpipe a triangle costs by the pixel blocks its edges cross, so a
  /// curved fill cut into strips a few pixels tall costs several times its
  /// area in rectangles (a 512-pixel square: 0.56 ms as two triangles,
  /// 2.5 ms as strips 2 pixels tall). Returns the bounds they cover.
  static func appendInterior(
    _ slabs: [Slab], into vertices: inout [FillVertex], _ indices: inout [UInt32]
  ) -> CGRect {
    var box = (
      minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity
    )
    // The columns open at the last slab's bottom, one per span. A slab
    // continues them when it has as many spans and touches it: its i-th
    // span then joins the i-th column (a rectangle is only placed inside
    // every strip of a column, so a pairing that is not the shape's own
    // costs pieces, never pixels).
    var open: [[Strip]] = []
    var bottom = -Double.infinity
    for slab in slabs {
      for span in slab.spans {
        box.minX = min(box.minX, span.xlt, span.xlb)
        box.maxX = max(box.maxX, span.xrt, span.xrb)
        box.minY = min(box.minY, slab.top)
        box.maxY = max(box.maxY, slab.bottom)
      }
      if slab.top != bottom || slab.spans.count != open.count {
        for column in open { coverColumn(column[...], into: &vertices, &indices) }
        open = Array(repeating: [], count: slab.spans.count)
      }
      for (i, span) in slab.spans.enumerated() {
        // Between the same two edges as the strip above: the same trapezoid.
        if let last = open[i].last, last.span.left == span.left, last.span.right == span.right {
          open[i][open[i].count - 1].bottom = slab.bottom
          open[i][open[i].count - 1].span.xlb = span.xlb
          open[i][open[i].count - 1].span.xrb = span.xrb
        } else {
          open[i].append(Strip(top: slab.top, bottom: slab.bottom, span: span))
        }
      }
      bottom = slab.bottom
    }
    for column in open { coverColumn(column[...], into: &vertices, &indices) }
    guard box.minX <= box.maxX else { return .null }
    return CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
  }

  /// One slab's filled span, from `top` to `bottom`.
  struct Strip {
    var top: Double, bottom: Double
    var span: Span
    var area: Double { (span.xrt - span.xlt + span.xrb - span.xlb) / 2 * (bottom - top) }
  }

  /// The largest share of a column's area that its rectangle must cover
  /// for the column to be drawn as it and its slivers, not split in two.
  static let rectangleShare = 0.6

  /// Covers consecutive strips of one column: by the rectangle inside all
  /// of them (from the rightmost of their left sides to the leftmost of
  /// their right sides) and, strip by strip, the slivers between it and
  /// the strip's sides, when the rectangle holds `rectangleShare` of the
  /// area; otherwise by each half in turn; two strips or fewer as they are.
  static func coverColumn(
    _ strips: ArraySlice<Strip>, into vertices: inout [FillVertex], _ indices: inout [UInt32]
  ) {
    let o = interiorOverlap
    if strips.count > 2 {
      var left = -Double.infinity
      var right = Double.infinity
      var area = 0.0
      for strip in strips {
        left = max(left, strip.span.xlt, strip.span.xlb)
        right = min(right, strip.span.xrt, strip.span.xrb)
        area += strip.area
      }
      let top = strips.first!.top
      let bottom = strips.last!.bottom
      guard right > left, (right - left) * (bottom - top) >= rectangleShare * area else {
        // Split where half the height lies above.
        let middle = (top + bottom) / 2
        let cut = strips.firstIndex { $0.bottom > middle }.map { max($0, strips.startIndex + 1) }
          ?? strips.endIndex - 1
        coverColumn(strips[..<cut], into: &vertices, &indices)
        coverColumn(strips[cut...], into: &vertices, &indices)
        return
      }
      // The rectangle grows by the overlap on every side: its sides meet
      // the slivers' along lines whose ends differ, which a transform can
      // snap apart by a sample.
      appendPiece(
        (left, top, SIMD2(-o, -o)), (right, top, SIMD2(o, -o)), (right, bottom, SIMD2(o, o)),
        (left, bottom, SIMD2(-o, o)), into: &vertices, &indices)
      for strip in strips {
        let s = strip.span
        if min(s.xlt, s.xlb) < left {
          appendPiece(
            (s.xlt, strip.top, SIMD2(0, -o)), (left, strip.top, SIMD2(0, -o)),
            (left, strip.bottom, SIMD2(0, o)), (s.xlb, strip.bottom, SIMD2(0, o)),
            into: &vertices, &indices)
        }
        if max(s.xrt, s.xrb) > right {
          appendPiece(
            (right, strip.top, SIMD2(0, -o)), (s.xrt, strip.top, SIMD2(0, -o)),
            (s.xrb, strip.bottom, SIMD2(0, o)), (right, strip.bottom, SIMD2(0, o)),
            into: &vertices, &indices)
        }
      }
      return
    }
    for strip in strips {
      let s = strip.span
      appendPiece(
        (s.xlt, strip.top, SIMD2(0, -o)), (s.xrt, strip.top, SIMD2(0, -o)),
        (s.xrb, strip.bottom, SIMD2(0, o)), (s.xlb, strip.bottom, SIMD2(0, o)),
        into: &vertices, &indices)
    }
  }

  /// Appends a quad of the interior: four corners (x, y, growth in pixels).
  static func appendPiece(
    _ a: (Double, Double, SIMD2<Float>), _ b: (Double, Double, SIMD2<Float>),
    _ c: (Double, Double, SIMD2<Float>), _ d: (Double, Double, SIMD2<Float>),
    into vertices: inout [FillVertex], _ indices: inout [UInt32]
  ) {
    let base = UInt32(vertices.count)
    for corner in [a, b, c, d] {
      vertices.append(
        FillVertex(
          position: SIMD2(Float(corner.0), Float(corner.1)), extrude: corner.2, own: .zero,
          prev: .zero, next: .zero))
    }
    appendQuad(base, to: &indices)
  }

  // MARK: The boundary

  /// The boundary of the filled region: the spans' sides, and the
  /// horizontal pieces where the region above a slab boundary differs from
  /// the region below, as directed pieces.
  static func boundaryPieces(_ slabs: [Slab], eps: Double) -> [Piece] {
    var pieces: [Piece] = []
    for (k, slab) in slabs.enumerated() {
      for span in slab.spans {
        let leftFrom = SIMD2(span.xlb, slab.bottom)
        let leftTo = SIMD2(span.xlt, slab.top)
        let rightFrom = SIMD2(span.xrt, slab.top)
        let rightTo = SIMD2(span.xrb, slab.bottom)
        if leftFrom != leftTo { pieces.append(Piece(from: leftFrom, to: leftTo, edge: span.left)) }
        if rightFrom != rightTo {
          pieces.append(Piece(from: rightFrom, to: rightTo, edge: span.right))
        }
      }
      let above = k > 0 ? slabs[k - 1].spans.map { ($0.xlb, $0.xrb) } : []
      let below = slab.spans.map { ($0.xlt, $0.xrt) }
      appendHorizontal(above: above, below: below, y: slab.top, eps: eps, into: &pieces)
    }
    if let last = slabs.last {
      appendHorizontal(
        above: last.spans.map { ($0.xlb, $0.xrb) }, below: [], y: last.bottom, eps: eps,
        into: &pieces)
    }
    return pieces
  }

  /// The pieces of the line `y` covered on one side only: bottoms of the
  /// region above (right to left) and tops of the region below (left to right).
  private static func appendHorizontal(
    above: [(Double, Double)], below: [(Double, Double)], y: Double, eps: Double,
    into pieces: inout [Piece]
  ) {
    guard !(above.isEmpty && below.isEmpty) else { return }
    var events: [(x: Double, above: Int, below: Int)] = []
    for (l, r) in above {
      events.append((l, 1, 0))
      events.append((r, -1, 0))
    }
    for (l, r) in below {
      events.append((l, 0, 1))
      events.append((r, 0, -1))
    }
    events.sort { $0.x < $1.x }
    var inAbove = 0
    var inBelow = 0
    var runStart = 0.0
    var runState = 0  // 1: above only, 2: below only
    func close(at x: Double) {
      guard runState != 0, x - runStart > eps else { return }
      if runState == 1 {
        pieces.append(Piece(from: SIMD2(x, y), to: SIMD2(runStart, y), edge: -1))
      } else {
        pieces.append(Piece(from: SIMD2(runStart, y), to: SIMD2(x, y), edge: -1))
      }
    }
    var i = 0
    while i < events.count {
      let x = events[i].x
      while i < events.count, events[i].x == x {
        inAbove += events[i].above
        inBelow += events[i].below
        i += 1
      }
      let state = inAbove > 0 && inBelow == 0 ? 1 : (inBelow > 0 && inAbove == 0 ? 2 : 0)
      if state != runState {
        close(at: x)
        runStart = x
        runState = state
      }
    }
  }

  /// A straight part of the boundary and its neighbours along its loop.
  struct BoundaryEdge {
    var from: SIMD2<Double>, to: SIMD2<Double>
    var previous: Int?, next: Int?
  }

  /// The boundary as edges chained into loops: each piece continues with
  /// the piece leaving its end that turns most toward the inside (so that
  /// where the region touches itself at a point, each part keeps its own
  /// loop); consecutive pieces on one line become one edge.
  static func boundary(_ slabs: [Slab], eps: Double) -> [BoundaryEdge] {
    let pieces = boundaryPieces(slabs, eps: eps)
    // The pieces leaving each point, in increasing order: the first by
    // point, the rest chained (one allocation, not an array per point).
    var leaving: [SIMD2<Double>: Int] = [:]
    leaving.reserveCapacity(pieces.count)
    var nextLeaving = [Int](repeating: -1, count: pieces.count)
    for i in pieces.indices.reversed() {
      if let first = leaving.updateValue(i, forKey: pieces[i].from) { nextLeaving[i] = first }
    }
    var successor = [Int?](repeating: nil, count: pieces.count)
    var predecessor = [Int?](repeating: nil, count: pieces.count)
    for (i, piece) in pieces.enumerated() {
      guard var j = leaving[piece.to] else { continue }
      let d = piece.to - piece.from
      // The candidate turning most to the left (the first of equals); one
      // alone needs no angle.
      var best: (Int, Double)?
      let single = nextLeaving[j] < 0
      while j >= 0 {
        if predecessor[j] == nil {
          if single {
            best = (j, 0)
          } else {
            let e = pieces[j].to - pieces[j].from
            let turn = atan2(d.x * e.y - d.y * e.x, d.x * e.x + d.y * e.y)
            if best == nil || turn > best!.1 { best = (j, turn) }
          }
        }
        j = nextLeaving[j]
      }
      if let (j, _) = best {
        successor[i] = j
        predecessor[j] = i
      }
    }
    // Pieces that continue on the same line merge.
    func continues(_ i: Int) -> Bool {
      guard let j = successor[i] else { return false }
      let a = pieces[i]
      let b = pieces[j]
      if a.edge >= 0 { return a.edge == b.edge }
      return b.edge < 0 && a.from.y == b.from.y
        && (a.to.x - a.from.x > 0) == (b.to.x - b.from.x > 0)
    }
    var edgeOf = [Int](repeating: -1, count: pieces.count)
    var edges: [BoundaryEdge] = []
    func walk(from start: Int) {
      var i = start
      let from = pieces[i].from
      let index = edges.count
      while true {
        edgeOf[i] = index
        guard continues(i), let j = successor[i], edgeOf[j] < 0 else { break }
        i = j
      }
      edges.append(BoundaryEdge(from: from, to: pieces[i].to, previous: nil, next: nil))
    }
    for i in pieces.indices where edgeOf[i] < 0 {
      if let p = predecessor[i], continues(p) { continue }
      walk(from: i)
    }
    for i in pieces.indices where edgeOf[i] < 0 { walk(from: i) }  // cycles on one line
    for i in pieces.indices {
      guard let j = successor[i], edgeOf[j] != edgeOf[i] else { continue }
      edges[edgeOf[i]].next = edgeOf[j]
      edges[edgeOf[j]].previous = edgeOf[i]
    }
    return edges
  }

  // MARK: The ribbon

  /// The line of an edge, inside positive, and its direction.
  private static func line(_ e: BoundaryEdge) -> (SIMD3<Double>, SIMD2<Double>)? {
    let d = e.to - e.from
    let length = (d.x * d.x + d.y * d.y).squareRoot()
    guard length > 0 else { return nil }
    let n = SIMD2(-d.y, d.x) / length
    return (SIMD3(n.x, n.y, -(n.x * e.from.x + n.y * e.from.y)), d / length)
  }

  /// Corners turning less than this (a fraction of a right angle) leave
  /// their pieces' coverage to their own edges.
  static let smoothCorner = 1.0 / 3

  /// Appends the ribbon quads of `edges`: pieces whose corners both turn
  /// less than `smoothCorner` to `smooth`, the others to `corners`.
  static func appendRibbon(
    _ edges: [BoundaryEdge], into vertices: inout [FillVertex], smooth: inout [UInt32],
    corners: inout [UInt32]
  ) {
    let lines = edges.map { line($0) }
    /// The outward miter at the corner from edge `a` into edge `b` (unit
    /// offset: it meets both edges' lines moved out by 1), and the
    /// corner's signed weight: + convex, − reflex, magnitude the turn
    /// over a right angle (the fragment shader mixes min and product).
    func corner(_ a: Int?, _ b: Int?, own: Int) -> (SIMD2<Double>, Double) {
      guard let (la, da) = a.flatMap({ lines[$0] }), let (lb, db) = b.flatMap({ lines[$0] }) else {
        let n = SIMD2(lines[own]!.0.x, lines[own]!.0.y)
        return (-n, 0)
      }
      let na = SIMD2(la.x, la.y)
      let nb = SIMD2(lb.x, lb.y)
      let dot = na.x * nb.x + na.y * nb.y
      var miter = -(na + nb) / max(1 + dot, 1e-12)
      let longest = longestMiter
      if 1 + dot < 2 / (longest * longest) {
        var dir = -(na + nb)
        let length = (dir.x * dir.x + dir.y * dir.y).squareRoot()
        dir = length > 1e-9 ? dir / length : da
        miter = dir * longest
      }
      let turn = atan2(da.x * db.y - da.y * db.x, da.x * db.x + da.y * db.y)
      let weight = min(abs(turn) / (Double.pi / 2), 1) * (turn >= 0 ? 1 : -1)
      return (miter, weight)
    }
    for (i, edge) in edges.enumerated() {
      guard let (own, _) = lines[i] else { continue }
      let previous = edge.previous.flatMap { lines[$0] != nil ? $0 : nil }
      let next = edge.next.flatMap { lines[$0] != nil ? $0 : nil }
      let (m0, w0) = corner(previous, i, own: i)
      let (m1, w1) = corner(i, next, own: i)
      func line4(_ index: Int?, weight: Double) -> SIMD4<Float> {
        let l = index.flatMap { lines[$0]?.0 } ?? own
        return SIMD4(Float(l.x), Float(l.y), Float(l.z), Float(weight))
      }
      let ownLine = line4(i, weight: 0)
      let prevLine = line4(previous, weight: w0)
      let nextLine = line4(next, weight: w1)
      let reach = Double(ribbonReach)
      let base = UInt32(vertices.count)
      func put(_ p: SIMD2<Double>, _ m: SIMD2<Double>) {
        vertices.append(
          FillVertex(
            position: SIMD2(Float(p.x), Float(p.y)),
            extrude: SIMD2(Float(m.x * reach), Float(m.y * reach)), own: ownLine, prev: prevLine,
            next: nextLine))
      }
      put(edge.from, m0)
      put(edge.to, m1)
      put(edge.to, -m1)
      put(edge.from, -m0)
      if abs(w0) < smoothCorner && abs(w1) < smoothCorner {
        appendQuad(base, to: &smooth)
      } else {
        appendQuad(base, to: &corners)
      }
    }
  }

  /// The two triangles of the quad whose corners are the four vertices
  /// from `base`, in order.
  @inline(__always)
  static func appendQuad(_ base: UInt32, to indices: inout [UInt32]) {
    indices.append(base)
    indices.append(base + 1)
    indices.append(base + 2)
    indices.append(base)
    indices.append(base + 2)
    indices.append(base + 3)
  }
}
