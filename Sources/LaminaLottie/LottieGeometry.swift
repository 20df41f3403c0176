import Foundation
import Lamina

/// A Lottie bezier shape: vertices with in and out tangents relative to them.
struct BezierShape: Equatable {
  var v: [CGPoint] = []
  var i: [CGPoint] = []
  var o: [CGPoint] = []
  var closed = false

  var count: Int { v.count }

  /// From a property vector: x, y of each vertex, then of each in and out tangent.
  init(vector: [Double], closed: Bool) {
    let n = vector.count / 6
    for k in 0..<n {
      v.append(CGPoint(x: vector[2 * k], y: vector[2 * k + 1]))
      i.append(CGPoint(x: vector[2 * n + 2 * k], y: vector[2 * n + 2 * k + 1]))
      o.append(CGPoint(x: vector[4 * n + 2 * k], y: vector[4 * n + 2 * k + 1]))
    }
    self.closed = closed
  }

  init(v: [CGPoint], i: [CGPoint], o: [CGPoint], closed: Bool) {
    self.v = v
    self.i = i
    self.o = o
    self.closed = closed
  }

  /// Appends the shape to `path`.
  func add(to path: CGMutablePath, transform t: CGAffineTransform = .identity) {
    guard let first = v.first else { return }
    path.move(to: first.applying(t))
    let n = v.count
    let segments = closed ? n : n - 1
    for k in 0..<max(segments, 0) {
      let a = k
      let b = (k + 1) % n
      let c1 = CGPoint(x: v[a].x + o[a].x, y: v[a].y + o[a].y)
      let c2 = CGPoint(x: v[b].x + i[b].x, y: v[b].y + i[b].y)
      if o[a] == .zero && i[b] == .zero {
        path.addLine(to: v[b].applying(t))
      } else {
        path.addCurve(to: v[b].applying(t), control1: c1.applying(t), control2: c2.applying(t))
      }
    }
    if closed { path.closeSubpath() }
  }

  var cgPath: CGPath {
    let p = CGMutablePath()
    add(to: p)
    return p
  }

  /// An open shape run backwards from its last vertex.
  func reversedOpen() -> BezierShape {
    let order = Array((0..<count).reversed())
    return BezierShape(v: order.map { v[$0] }, i: order.map { o[$0] }, o: order.map { i[$0] }, closed: false)
  }

  func reversed() -> BezierShape {
    guard count > 1 else { return self }
    // Vertex k of the reversed shape is vertex n-1-k (closed shapes keep their start).
    var order = Array((0..<count).reversed())
    if closed { order = [0] + Array((1..<count).reversed()) }
    return BezierShape(
      v: order.map { v[$0] }, i: order.map { o[$0] }, o: order.map { i[$0] }, closed: closed)
  }
}

enum Geometry {
  /// The length of a bezier handle that makes a quarter circle.
  static let kappa = 0.5519150244935105707435627

  static func cubic(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: Double) -> CGPoint {
    let u = 1 - t
    let a = u * u * u
    let b = 3 * u * u * t
    let c = 3 * u * t * t
    let d = t * t * t
    return CGPoint(
      x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
  }

  static func rect(center p: CGPoint, size s: CGSize, roundness r: Double, reversed: Bool)
    -> BezierShape
  {
    let w = Double(s.width) / 2
    let h = Double(s.height) / 2
    let round = max(0, min(min(w, h), r))
    let c = round * (1 - kappa)
    let x = Double(p.x)
    let y = Double(p.y)
    var shape = BezierShape(v: [], i: [], o: [], closed: true)
    // (vertex, out handle, in handle) in absolute coordinates, as lottie-web orders them.
    func add(_ v: (Double, Double), _ o: (Double, Double), _ i: (Double, Double)) {
      shape.v.append(CGPoint(x: v.0, y: v.1))
      shape.o.append(CGPoint(x: o.0 - v.0, y: o.1 - v.1))
      shape.i.append(CGPoint(x: i.0 - v.0, y: i.1 - v.1))
    }
    if round > 0 {
      add((x + w, y - h + round), (x + w, y - h + round), (x + w, y - h + c))
      add((x + w, y + h - round), (x + w, y + h - c), (x + w, y + h - round))
      add((x + w - round, y + h), (x + w - round, y + h), (x + w - c, y + h))
      add((x - w + round, y + h), (x - w + c, y + h), (x - w + round, y + h))
      add((x - w, y + h - round), (x - w, y + h - round), (x - w, y + h - c))
      add((x - w, y - h + round), (x - w, y - h + c), (x - w, y - h + round))
      add((x - w + round, y - h), (x - w + round, y - h), (x - w + c, y - h))
      add((x + w - round, y - h), (x + w - c, y - h), (x + w - round, y - h))
    } else {
      add((x + w, y - h), (x + w, y - h), (x + w, y - h))
      add((x + w, y + h), (x + w, y + h), (x + w, y + h))
      add((x - w, y + h), (x - w, y + h), (x - w, y + h))
      add((x - w, y - h), (x - w, y - h), (x - w, y - h))
    }
    return reversed ? shape.reversed() : shape
  }

  static func ellipse(center p: CGPoint, size s: CGSize, reversed: Bool) -> BezierShape {
    let w = Double(s.width) / 2
    let h = Double(s.height) / 2
    let cw = w * kappa
    let ch = h * kappa
    let x = Double(p.x)
    let y = Double(p.y)
    let v = [
      CGPoint(x: x, y: y - h), CGPoint(x: x + w, y: y), CGPoint(x: x, y: y + h), CGPoint(x: x - w, y: y),
    ]
    let o = [CGPoint(x: cw, y: 0), CGPoint(x: 0, y: ch), CGPoint(x: -cw, y: 0), CGPoint(x: 0, y: -ch)]
    let i = [CGPoint(x: -cw, y: 0), CGPoint(x: 0, y: -ch), CGPoint(x: cw, y: 0), CGPoint(x: 0, y: ch)]
    let shape = BezierShape(v: v, i: i, o: o, closed: true)
    return reversed ? shape.reversed() : shape
  }

  /// A star (`star` true) or polygon, as lottie-web builds it.
  static func polystar(
    star: Bool, points: Double, center: CGPoint, rotation: Double, outerRadius: Double,
    innerRadius: Double, outerRoundness: Double, innerRoundness: Double, reversed: Bool,
    maxVertices: Int
  ) -> BezierShape {
    let pts = Int(saturating: min(max(points, 0), Double(maxVertices / 2)), rounding: .down)
    var shape = BezierShape(v: [], i: [], o: [], closed: true)
    guard pts > 0 else { return shape }
    let count = star ? pts * 2 : pts
    let angle = 2 * Double.pi / Double(count)
    let dir: Double = reversed ? -1 : 1
    var current = -Double.pi / 2 + rotation * .pi / 180
    var long = true
    for _ in 0..<count {
      let rad = long || !star ? outerRadius : innerRadius
      let roundness = (long || !star ? outerRoundness : innerRoundness) / 100
      let perim = star ? 2 * Double.pi * rad / Double(count * 2) : 2 * Double.pi * rad / Double(count * 4)
      var x = rad * cos(current)
      var y = rad * sin(current)
      let len = sqrt(x * x + y * y)
      let ox = len == 0 ? 0 : y / len
      let oy = len == 0 ? 0 : -x / len
      x += Double(center.x)
      y += Double(center.y)
      shape.v.append(CGPoint(x: x, y: y))
      shape.o.append(CGPoint(x: -ox * perim * roundness * dir, y: -oy * perim * roundness * dir))
      shape.i.append(CGPoint(x: ox * perim * roundness * dir, y: oy * perim * roundness * dir))
      long.toggle()
      current += angle * dir
    }
    return shape
  }

  // MARK: Modifiers

  static func roundCorners(_ s: BezierShape, radius: Double) -> BezierShape {
    guard radius > 0, s.count > 1 else { return s }
    var out = BezierShape(v: [], i: [], o: [], closed: s.closed)
    let n = s.count
    for k in 0..<n {
      let cur = s.v[k]
      let sharp = s.i[k] == .zero && s.o[k] == .zero
      if !sharp || (!s.closed && (k == 0 || k == n - 1)) {
        out.v.append(cur)
        out.i.append(s.i[k])
        out.o.append(s.o[k])
        continue
      }
      let prev = s.v[(k - 1 + n) % n]
      let next = s.v[(k + 1) % n]
      func towards(_ p: CGPoint) -> CGPoint {
        let d = Double(hypot(p.x - cur.x, p.y - cur.y))
        let f = d > 0 ? min(d / 2, radius) / d : 0
        return CGPoint(x: cur.x + (p.x - cur.x) * f, y: cur.y + (p.y - cur.y) * f)
      }
      let a = towards(prev)
      out.v.append(a)
      out.i.append(.zero)
      out.o.append(CGPoint(x: (cur.x - a.x) * kappa, y: (cur.y - a.y) * kappa))
      let b = towards(next)
      out.v.append(b)
      out.i.append(CGPoint(x: (cur.x - b.x) * kappa, y: (cur.y - b.y) * kappa))
      out.o.append(.zero)
    }
    return out
  }

  static func puckerBloat(_ s: BezierShape, amount: Double) -> BezierShape {
    guard s.count > 0, amount != 0 else { return s }
    let a = amount / 100
    var cx = 0.0
    var cy = 0.0
    for p in s.v {
      cx += Double(p.x)
      cy += Double(p.y)
    }
    cx /= Double(s.count)
    cy /= Double(s.count)
    var out = s
    for k in 0..<s.count {
      let v = s.v[k]
      let nv = CGPoint(x: v.x + (cx - v.x) * a, y: v.y + (cy - v.y) * a)
      let o = CGPoint(x: v.x + s.o[k].x, y: v.y + s.o[k].y)
      let i = CGPoint(x: v.x + s.i[k].x, y: v.y + s.i[k].y)
      let no = CGPoint(x: o.x + (cx - o.x) * -a, y: o.y + (cy - o.y) * -a)
      let ni = CGPoint(x: i.x + (cx - i.x) * -a, y: i.y + (cy - i.y) * -a)
      out.v[k] = nv
      out.o[k] = CGPoint(x: no.x - nv.x, y: no.y - nv.y)
      out.i[k] = CGPoint(x: ni.x - nv.x, y: ni.y - nv.y)
    }
    return out
  }

  /// Segments of a shape as cubic control points.
  static func segments(_ s: BezierShape) -> [(CGPoint, CGPoint, CGPoint, CGPoint)] {
    let n = s.count
    guard n > 1 else { return [] }
    let count = s.closed ? n : n - 1
    return (0..<count).map { k in
      let a = s.v[k]
      let b = s.v[(k + 1) % n]
      return (
        a, CGPoint(x: a.x + s.o[k].x, y: a.y + s.o[k].y),
        CGPoint(x: b.x + s.i[(k + 1) % n].x, y: b.y + s.i[(k + 1) % n].y), b
      )
    }
  }

  static func derivative(_ c: (CGPoint, CGPoint, CGPoint, CGPoint), _ t: Double) -> CGPoint {
    let u = 1 - t
    let (p0, p1, p2, p3) = c
    var x = 3 * u * u * (p1.x - p0.x) + 6 * u * t * (p2.x - p1.x) + 3 * t * t * (p3.x - p2.x)
    var y = 3 * u * u * (p1.y - p0.y) + 6 * u * t * (p2.y - p1.y) + 3 * t * t * (p3.y - p2.y)
    if x == 0 && y == 0 {
      x = p3.x - p0.x
      y = p3.y - p0.y
    }
    return CGPoint(x: x, y: y)
  }

  /// Zig-zag: `ridges` ridges per segment of `amplitude`, corners or smooth.
  static func zigZag(_ s: BezierShape, amplitude: Double, ridges: Double, smooth: Bool) -> BezierShape {
    // A handle on its vertex moves to a third of the chord (as lottie-web
    // linearizes segments), so the ridges of a straight side are evenly
    // spaced, as After Effects spaces them: a line's cubic with both handles
    // on its ends runs 3t² − 2t³ along it, bunching them at the corners.
    let segs = segments(s).map { c -> (CGPoint, CGPoint, CGPoint, CGPoint) in
      func third(_ f: CGFloat) -> CGPoint { CGPoint(x: c.0.x + (c.3.x - c.0.x) * f, y: c.0.y + (c.3.y - c.0.y) * f) }
      return (c.0, c.1 == c.0 ? third(1 / 3) : c.1, c.2 == c.3 ? third(2 / 3) : c.2, c.3)
    }
    guard !segs.isEmpty else { return s }
    // At most 100,000 points in all.
    let r = max(0, min(Int(saturating: min(max(ridges, 0), 1e6), rounding: .down), 100_000 / segs.count - 1))
    var out = BezierShape(v: [], i: [], o: [], closed: s.closed)
    // As After Effects: vertices go inward, the first ridge of each segment outward.
    var direction = -1.0
    func emit(_ p: CGPoint, _ tangent: CGPoint, _ handle: Double) {
      let len = Double(hypot(tangent.x, tangent.y))
      let tx = len > 0 ? Double(tangent.x) / len : 1
      let ty = len > 0 ? Double(tangent.y) / len : 0
      // The normal on the left of the direction of travel (y down).
      let nx = ty
      let ny = -tx
      let q = CGPoint(x: Double(p.x) + nx * amplitude * direction, y: Double(p.y) + ny * amplitude * direction)
      out.v.append(q)
      if smooth {
        out.i.append(CGPoint(x: -tx * handle, y: -ty * handle))
        out.o.append(CGPoint(x: tx * handle, y: ty * handle))
      } else {
        out.i.append(.zero)
        out.o.append(.zero)
      }
      direction = -direction
    }
    for (k, c) in segs.enumerated() {
      let length = Double(hypot(c.3.x - c.0.x, c.3.y - c.0.y))
      let handle = length / Double(r + 1) / 2
      // The vertex: its tangent halfway between the segments meeting there.
      var t0 = derivative(c, 0)
      if k > 0 || s.closed {
        let prev = segs[(k - 1 + segs.count) % segs.count]
        let d = derivative(prev, 1)
        let l0 = Double(hypot(t0.x, t0.y))
        let l1 = Double(hypot(d.x, d.y))
        if l0 > 0 && l1 > 0 {
          t0 = CGPoint(x: Double(t0.x) / l0 + Double(d.x) / l1, y: Double(t0.y) / l0 + Double(d.y) / l1)
        }
      }
      emit(c.0, t0, handle)
      for j in 0..<r {
        let t = Double(j + 1) / Double(r + 1)
        emit(cubic(c.0, c.1, c.2, c.3, t), derivative(c, t), handle)
      }
    }
    if !s.closed, let last = segs.last {
      emit(last.3, derivative(last, 1), 0)
    }
    return out
  }

  /// Offset path: each segment moved along its normals by `amount`, corners
  /// joined (miter within `miterLimit`, round or bevel).
  static func offset(
    _ s: BezierShape, amount: Double, join: Int, miterLimit: Double, sideOnly: Bool = false
  ) -> BezierShape {
    guard amount != 0, s.count > 1 else { return s }
    // Curves are split in eight, so that moving control points along the
    // normals of their ends stays close to the true offset.
    let segs = segments(s).filter { $0.0 != $0.3 || $0.1 != $0.0 || $0.2 != $0.3 }.flatMap { c in
      let isLine = c.1 == c.0 && c.2 == c.3
      return isLine ? [c] : split(c, into: 8)
    }
    guard !segs.isEmpty else { return s }
    // Orientation: positive amount grows the shape outward.
    var area = 0.0
    for c in segs { area += Double(c.0.x * c.3.y - c.3.x * c.0.y) }
    // An open path's side is taken as is (the outline adds the other side).
    let sign: Double = sideOnly || !s.closed ? 1 : area >= 0 ? 1 : -1
    let d = amount * sign
    func normal(_ t: CGPoint) -> CGPoint {
      let l = Double(hypot(t.x, t.y))
      guard l > 0 else { return .zero }
      return CGPoint(x: Double(t.y) / l, y: -Double(t.x) / l)
    }
    var pieces: [(CGPoint, CGPoint, CGPoint, CGPoint)] = []
    for c in segs {
      let n0 = normal(derivative(c, 0))
      let n1 = normal(derivative(c, 1))
      func m(_ p: CGPoint, _ n: CGPoint) -> CGPoint { CGPoint(x: p.x + n.x * d, y: p.y + n.y * d) }
      // Control points move with the normal of the end they belong to; a
      // curve's middle also bulges, scaled by how far its handles are.
      pieces.append((m(c.0, n0), m(c.1, n0), m(c.2, n1), m(c.3, n1)))
    }
    var b = ShapeBuilder()
    let joinKind = join
    func addJoin(_ prev: (CGPoint, CGPoint, CGPoint, CGPoint), _ p: (CGPoint, CGPoint, CGPoint, CGPoint), _ corner: CGPoint) {
      guard hypot(prev.3.x - p.0.x, prev.3.y - p.0.y) > 1e-6 else { return }
      switch joinKind {
      case 2:
        let a0 = atan2(Double(prev.3.y - corner.y), Double(prev.3.x - corner.x))
        var sweep = atan2(Double(p.0.y - corner.y), Double(p.0.x - corner.x)) - a0
        while sweep > .pi { sweep -= 2 * .pi }
        while sweep < -.pi { sweep += 2 * .pi }
        let a1 = a0 + sweep
        let h = 4.0 / 3.0 * tan(sweep / 4) * abs(d)
        b.curve(
          CGPoint(x: Double(prev.3.x) - sin(a0) * h, y: Double(prev.3.y) + cos(a0) * h),
          CGPoint(x: Double(p.0.x) + sin(a1) * h, y: Double(p.0.y) - cos(a1) * h), p.0)
      case 1:
        if let x = intersect(prev.3, derivative(prev, 1), p.0, derivative(p, 0)),
          hypot(x.x - corner.x, x.y - corner.y) <= miterLimit * abs(d)
        {
          b.line(x)
        }
        b.line(p.0)
      default:
        b.line(p.0)
      }
    }
    for (k, p) in pieces.enumerated() {
      if k == 0 { b.move(p.0) } else { addJoin(pieces[k - 1], p, segs[k].0) }
      b.curve(p.1, p.2, p.3)
    }
    if s.closed, let last = pieces.last {
      addJoin(last, pieces[0], segs[0].0)
      return b.finish(closed: true)
    }
    if sideOnly { return b.finish(closed: false) }
    // An open path becomes the outline around it: this side, a cap, the
    // other side back, a cap (round with round joins, else flat).
    func cap(_ end: CGPoint, _ tangent: CGPoint, to target: CGPoint) {
      let l = Double(hypot(tangent.x, tangent.y))
      guard joinKind == 2, l > 0, let from = b.shape.v.last else { return b.line(target) }
      let r = abs(d)
      let tip = CGPoint(x: Double(end.x) + Double(tangent.x) / l * r, y: Double(end.y) + Double(tangent.y) / l * r)
      let k = kappa
      let tx = Double(tangent.x) / l * r * k
      let ty = Double(tangent.y) / l * r * k
      b.curve(
        CGPoint(x: Double(from.x) + tx, y: Double(from.y) + ty),
        CGPoint(x: Double(tip.x) + Double(from.x - end.x) * k, y: Double(tip.y) + Double(from.y - end.y) * k), tip)
      b.curve(
        CGPoint(x: Double(tip.x) + Double(target.x - end.x) * k, y: Double(tip.y) + Double(target.y - end.y) * k),
        CGPoint(x: Double(target.x) + tx, y: Double(target.y) + ty), target)
    }
    let back = offset(s.reversedOpen(), amount: amount, join: join, miterLimit: miterLimit, sideOnly: true)
    guard let lastSeg = segs.last, let firstBack = back.v.first else { return b.finish(closed: false) }
    cap(lastSeg.3, derivative(lastSeg, 1), to: firstBack)
    for k in 1..<back.count {
      let prev = back.v[k - 1]
      b.curve(
        CGPoint(x: prev.x + back.o[k - 1].x, y: prev.y + back.o[k - 1].y),
        CGPoint(x: back.v[k].x + back.i[k].x, y: back.v[k].y + back.i[k].y), back.v[k])
    }
    if let firstSeg = segs.first {
      let t = derivative(firstSeg, 0)
      cap(firstSeg.0, CGPoint(x: -t.x, y: -t.y), to: pieces[0].0)
    }
    return b.finish(closed: true)
  }

  /// A cubic cut into `n` pieces of equal parameter span.
  static func split(_ c: (CGPoint, CGPoint, CGPoint, CGPoint), into n: Int)
    -> [(CGPoint, CGPoint, CGPoint, CGPoint)]
  {
    var out: [(CGPoint, CGPoint, CGPoint, CGPoint)] = []
    func lerp(_ a: CGPoint, _ b: CGPoint, _ t: Double) -> CGPoint {
      CGPoint(x: Double(a.x) + Double(b.x - a.x) * t, y: Double(a.y) + Double(b.y - a.y) * t)
    }
    var rest = c
    for k in 0..<(n - 1) {
      let t = 1.0 / Double(n - k)
      let p01 = lerp(rest.0, rest.1, t)
      let p12 = lerp(rest.1, rest.2, t)
      let p23 = lerp(rest.2, rest.3, t)
      let a = lerp(p01, p12, t)
      let b = lerp(p12, p23, t)
      let m = lerp(a, b, t)
      out.append((rest.0, p01, a, m))
      rest = (m, b, p23, rest.3)
    }
    out.append(rest)
    return out
  }

  static func intersect(_ a: CGPoint, _ da: CGPoint, _ b: CGPoint, _ db: CGPoint) -> CGPoint? {
    let den = Double(da.x * db.y - da.y * db.x)
    guard abs(den) > 1e-9 else { return nil }
    let t = Double((b.x - a.x) * db.y - (b.y - a.y) * db.x) / den
    return CGPoint(x: Double(a.x) + Double(da.x) * t, y: Double(a.y) + Double(da.y) * t)
  }

  /// Trims `path` to [start, end] with `offset`, fractions (Lottie's wrap-around).
  static func trim(_ path: CGPath, start: Double, end: Double, offset: Double) -> CGPath {
    var s = min(max(start, 0), 1)
    var e = min(max(end, 0), 1)
    if s > e { swap(&s, &e) }
    if e - s >= 1 { return path }
    var o = offset.truncatingRemainder(dividingBy: 1)
    if o < 0 { o += 1 }
    s += o
    e += o
    if s >= 1 && e >= 1 {
      s -= 1
      e -= 1
    }
    if e <= 1 { return path.trimmed(from: s, to: e) }
    let out = CGMutablePath()
    out.addPath(path.trimmed(from: s, to: 1))
    out.addPath(path.trimmed(from: 0, to: e - 1))
    return out
  }
}

/// Builds a bezier shape from move, line and curve steps.
struct ShapeBuilder {
  var shape = BezierShape(v: [], i: [], o: [], closed: false)

  mutating func move(_ p: CGPoint) {
    shape.v.append(p)
    shape.i.append(.zero)
    shape.o.append(.zero)
  }

  mutating func line(_ p: CGPoint) {
    guard !shape.v.isEmpty else { return move(p) }
    move(p)
  }

  mutating func curve(_ c1: CGPoint, _ c2: CGPoint, _ p: CGPoint) {
    guard let last = shape.v.last else { return move(p) }
    shape.o[shape.o.count - 1] = CGPoint(x: c1.x - last.x, y: c1.y - last.y)
    move(p)
    shape.i[shape.i.count - 1] = CGPoint(x: c2.x - p.x, y: c2.y - p.y)
  }

  /// The shape; a closed one whose last vertex is its first merges them.
  func finish(closed: Bool) -> BezierShape {
    var s = shape
    s.closed = closed
    if closed, s.v.count > 1, let first = s.v.first, let last = s.v.last,
      hypot(first.x - last.x, first.y - last.y) < 1e-6
    {
      s.i[0] = s.i[s.i.count - 1]
      s.v.removeLast()
      s.i.removeLast()
      s.o.removeLast()
    }
    return s
  }
}
