import Foundation

extension CGMutablePath {
  /// Adds an arc of a circle around `center`, from `startAngle` to
  /// `endAngle` (radians, measured from the x axis toward the y axis), as
  /// Core Graphics does: `clockwise` runs toward decreasing angles (clockwise
  /// with y up; on a y-down screen it looks counterclockwise). A line joins
  /// the current point to the arc's start; without one, the arc starts a subpath.
  ///
  /// The sweep runs from `startAngle` to `endAngle` in the direction asked
  /// for. When the end lies the other way, whole turns bring it round
  /// (so `0` to `-.pi / 2` counterclockwise is three quarters of a turn);
  /// an end more than a turn away in the direction asked for is drawn as
  /// given: a full circle, then on to the end angle, where the current
  /// point is left (docs/api-coverage.md, "Arcs").
  public func addArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
    transform: CGAffineTransform = .identity
  ) {
    guard radius >= 0, radius.isFinite, startAngle.isFinite, endAngle.isFinite else { return }
    var sweep = endAngle - startAngle
    let full = 2 * CGFloat.pi
    if clockwise {
      if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }
      if sweep > 0 { sweep -= full }
    } else {
      if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }
      if sweep < 0 { sweep += full }
    }
    // Beyond a few hundred turns more circles retrace what is drawn; whole
    // turns come off so that the end stays where it is.
    let most = 256 * full
    if abs(sweep) > most {
      let rest = abs(sweep).truncatingRemainder(dividingBy: full)
      sweep = (most - full + rest) * (sweep < 0 ? -1 : 1)
    }
    let start = CGPoint(
      x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
    if isEmpty {
      move(to: start, transform: transform)
    } else {
      addLine(to: start, transform: transform)
    }
    // Cubic Béziers of at most a quarter turn each: control points along the
    // tangents at 4/3·tan(θ/4) of the radius.
    let pieces = Int(clamping: abs(sweep) / (CGFloat.pi / 2), to: 1...1024, rounding: .up)
    let step = sweep / CGFloat(pieces)
    let k = 4 / 3 * tan(step / 4) * radius
    var angle = startAngle
    for _ in 0..<pieces {
      let next = angle + step
      let p0 = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
      let p3 = CGPoint(x: center.x + radius * cos(next), y: center.y + radius * sin(next))
      let c1 = CGPoint(x: p0.x - k * sin(angle), y: p0.y + k * cos(angle))
      let c2 = CGPoint(x: p3.x + k * sin(next), y: p3.y - k * cos(next))
      addCurve(to: p3, control1: c1, control2: c2, transform: transform)
      angle = next
    }
  }

  /// Adds a rounded corner as Core Graphics' tangent arc (HTML canvas's
  /// `arcTo`): a line from the current point toward `tangent1End`, then an
  /// arc of `radius` tangent to both that line and the line from
  /// `tangent1End` to `tangent2End`. When the three points are in line, a
  /// line to `tangent1End`.
  public func addArc(
    tangent1End t1: CGPoint, tangent2End t2: CGPoint, radius: CGFloat,
    transform: CGAffineTransform = .identity
  ) {
    let p0 = isEmpty ? t1 : currentPoint.applying(transform.inverted())
    if isEmpty { move(to: t1, transform: transform) }
    let v1 = CGPoint(x: p0.x - t1.x, y: p0.y - t1.y)
    let v2 = CGPoint(x: t2.x - t1.x, y: t2.y - t1.y)
    let l1 = (v1.x * v1.x + v1.y * v1.y).squareRoot()
    let l2 = (v2.x * v2.x + v2.y * v2.y).squareRoot()
    let cross = v1.x * v2.y - v1.y * v2.x
    guard radius > 0, l1 > 0, l2 > 0, abs(cross) > 1e-12 * l1 * l2 else {
      addLine(to: t1, transform: transform)
      return
    }
    let u1 = CGPoint(x: v1.x / l1, y: v1.y / l1)
    let u2 = CGPoint(x: v2.x / l2, y: v2.y / l2)
    let theta = acos(max(-1, min(1, u1.x * u2.x + u1.y * u2.y)))  // the corner's angle
    let d = radius / tan(theta / 2)
    let a = CGPoint(x: t1.x + u1.x * d, y: t1.y + u1.y * d)
    let b = CGPoint(x: t1.x + u2.x * d, y: t1.y + u2.y * d)
    let bisector = CGPoint(x: u1.x + u2.x, y: u1.y + u2.y)
    let lb = (bisector.x * bisector.x + bisector.y * bisector.y).squareRoot()
    let h = radius / sin(theta / 2)
    let center = CGPoint(x: t1.x + bisector.x / lb * h, y: t1.y + bisector.y / lb * h)
    let startAngle = atan2(a.y - center.y, a.x - center.x)
    let endAngle = atan2(b.y - center.y, b.x - center.x)
    // Turning from the first line to the second decides the direction.
    addArc(
      center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
      clockwise: cross > 0, transform: transform)
  }

  /// Adds an arc of a circle around `center` from `startAngle`, turning by
  /// `delta` radians (toward increasing angles when positive: clockwise on
  /// a y-down screen), as Core Graphics' `addRelativeArc`: `delta` is the
  /// arc's length in radians, so more than a turn draws the circle and goes
  /// on to `startAngle + delta`.
  public func addRelativeArc(
    center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
    transform: CGAffineTransform = .identity
  ) {
    guard delta.isFinite, startAngle.isFinite else { return }
    addArc(
      center: center, radius: radius, startAngle: startAngle, endAngle: startAngle + delta,
      clockwise: delta < 0, transform: transform)
  }
}
