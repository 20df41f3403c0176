import Foundation

extension CATransform3D {
  /// A matrix taken apart for interpolation: perspective, translation,
  /// scale, skew and a rotation quaternion, such that recomposing gives the
  /// matrix back (for any invertible matrix whose m44 is not 0).
  struct Decomposed {
    var perspective: (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 1)
    var translation: (CGFloat, CGFloat, CGFloat) = (0, 0, 0)
    var scale: (CGFloat, CGFloat, CGFloat) = (1, 1, 1)
    /// Shear xy, xz, yz.
    var skew: (CGFloat, CGFloat, CGFloat) = (0, 0, 0)
    /// Unit quaternion (x, y, z, w).
    var quaternion: (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 1)
  }

  /// The matrix as rows `r[i][j]` = m(i+1)(j+1).
  private var rows: [[CGFloat]] {
    [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
  }

  private init(rows r: [[CGFloat]]) {
    self.init(r.flatMap { $0 })
  }

  /// Decomposes the matrix (row-vector convention: translation in the fourth
  /// row, perspective in the fourth column), or nil when it is singular.
  func decomposed() -> Decomposed? {
    guard m44 != 0 else { return nil }
    var r = rows
    for i in 0..<4 { for j in 0..<4 { r[i][j] /= m44 } }
    var out = Decomposed()
    // The perspective part: solve for the column that maps through the
    // perspective-free matrix.
    var p = r
    for i in 0..<3 { p[i][3] = 0 }
    p[3][3] = 1
    let pm = CATransform3D(rows: p)
    guard abs(pm.determinant) > 1e-12 else { return nil }
    if r[0][3] != 0 || r[1][3] != 0 || r[2][3] != 0 {
      // perspective = [r03 r13 r23 r33] × (p⁻¹)ᵀ
      let inv = CATransform3DInvert(pm).rows
      let rhs = [r[0][3], r[1][3], r[2][3], r[3][3]]
      var v = [CGFloat](repeating: 0, count: 4)
      for i in 0..<4 { for k in 0..<4 { v[i] += inv[i][k] * rhs[k] } }
      out.perspective = (v[0], v[1], v[2], v[3])
    }
    out.translation = (r[3][0], r[3][1], r[3][2])
    var row = (0..<3).map { i in (0..<3).map { r[i][$0] } }
    func length(_ v: [CGFloat]) -> CGFloat {
      (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot()
    }
    func dot(_ a: [CGFloat], _ b: [CGFloat]) -> CGFloat { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
    func combine(_ a: [CGFloat], _ b: [CGFloat], _ sa: CGFloat, _ sb: CGFloat) -> [CGFloat] {
      (0..<3).map { a[$0] * sa + b[$0] * sb }
    }
    func normalized(_ v: [CGFloat]) -> [CGFloat] {
      let l = length(v)
      return l == 0 ? v : v.map { $0 / l }
    }
    // Gram–Schmidt: scales and shears from the upper 3×3.
    let sx = length(row[0])
    guard sx != 0 else { return nil }
    row[0] = normalized(row[0])
    var xy = dot(row[0], row[1])
    row[1] = combine(row[1], row[0], 1, -xy)
    let sy = length(row[1])
    guard sy != 0 else { return nil }
    row[1] = normalized(row[1])
    xy /= sy
    var xz = dot(row[0], row[2])
    row[2] = combine(row[2], row[0], 1, -xz)
    var yz = dot(row[1], row[2])
    row[2] = combine(row[2], row[1], 1, -yz)
    let sz = length(row[2])
    guard sz != 0 else { return nil }
    row[2] = normalized(row[2])
    xz /= sz
    yz /= sz
    // A mirror: flip everything so that the rotation is proper.
    let cross = [
      row[1][1] * row[2][2] - row[1][2] * row[2][1],
      row[1][2] * row[2][0] - row[1][0] * row[2][2],
      row[1][0] * row[2][1] - row[1][1] * row[2][0],
    ]
    if dot(row[0], cross) < 0 {
      for i in 0..<3 { row[i] = row[i].map { -$0 } }
      out.scale = (-sx, -sy, -sz)
    } else {
      out.scale = (sx, sy, sz)
    }
    out.skew = (xy, xz, yz)
    // Quaternion from the rotation matrix (rows are the rotated axes).
    let trace = row[0][0] + row[1][1] + row[2][2]
    var q: (CGFloat, CGFloat, CGFloat, CGFloat)
    if trace > 0 {
      let s = 0.5 / (trace + 1).squareRoot()
      q = (
        (row[1][2] - row[2][1]) * s, (row[2][0] - row[0][2]) * s, (row[0][1] - row[1][0]) * s,
        0.25 / s
      )
    } else if row[0][0] > row[1][1] && row[0][0] > row[2][2] {
      let s = 2 * (1 + row[0][0] - row[1][1] - row[2][2]).squareRoot()
      q = (
        0.25 * s, (row[1][0] + row[0][1]) / s, (row[2][0] + row[0][2]) / s,
        (row[1][2] - row[2][1]) / s
      )
    } else if row[1][1] > row[2][2] {
      let s = 2 * (1 + row[1][1] - row[0][0] - row[2][2]).squareRoot()
      q = (
        (row[1][0] + row[0][1]) / s, 0.25 * s, (row[2][1] + row[1][2]) / s,
        (row[2][0] - row[0][2]) / s
      )
    } else {
      let s = 2 * (1 + row[2][2] - row[0][0] - row[1][1]).squareRoot()
      q = (
        (row[2][0] + row[0][2]) / s, (row[2][1] + row[1][2]) / s, 0.25 * s,
        (row[0][1] - row[1][0]) / s
      )
    }
    out.quaternion = q
    return out
  }

  /// The matrix of `d`: scale, skew, rotation, translation, perspective.
  init(decomposed d: Decomposed) {
    let (x, y, z, w) = d.quaternion
    // Rotation as rows (row-vector convention: v × R).
    let rot: [[CGFloat]] = [
      [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)],
      [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)],
      [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)],
    ]
    // Upper 3×3 = S × K × R, where K holds the shears (upper-triangular in
    // the decomposition's order: row1 += xy·row0 … as Gram–Schmidt removed them).
    let k: [[CGFloat]] = [[1, 0, 0], [d.skew.0, 1, 0], [d.skew.1, d.skew.2, 1]]
    var kr = [[CGFloat]](repeating: [0, 0, 0], count: 3)
    for i in 0..<3 { for j in 0..<3 { for m in 0..<3 { kr[i][j] += k[i][m] * rot[m][j] } } }
    let s = [d.scale.0, d.scale.1, d.scale.2]
    var r = [[CGFloat]](repeating: [0, 0, 0, 0], count: 4)
    for i in 0..<3 { for j in 0..<3 { r[i][j] = s[i] * kr[i][j] } }
    r[3] = [d.translation.0, d.translation.1, d.translation.2, 1]
    var m = CATransform3D(rows: r)
    let (p0, p1, p2, p3) = d.perspective
    if p0 != 0 || p1 != 0 || p2 != 0 || p3 != 1 {
      // The perspective column was removed against the perspective-free
      // matrix: put it back as its product.
      let rows = m.rows
      var col = [CGFloat](repeating: 0, count: 4)
      let pv = [p0, p1, p2, p3]
      for i in 0..<4 { for kk in 0..<4 { col[i] += rows[i][kk] * pv[kk] } }
      m.m14 = col[0]
      m.m24 = col[1]
      m.m34 = col[2]
      m.m44 = col[3]
    }
    self = m
  }

  /// The transform `t` of the way from `a` to `b` as Core Animation
  /// interpolates whole matrices: both are decomposed, translation, scale,
  /// skew and perspective mix linearly, rotation by quaternion slerp (the
  /// shorter way), and the result is recomposed. Matrices that do not
  /// decompose (singular ones) mix element by element.
  static func interpolate(_ a: CATransform3D, _ b: CATransform3D, _ t: Double) -> CATransform3D {
    let t = CGFloat(t)
    if t == 0 { return a }
    if t == 1 { return b }
    guard let da = a.decomposed(), let db = b.decomposed() else {
      return CATransform3D(zip(a.values, b.values).map { $0 + ($1 - $0) * t })
    }
    func mix(_ x: CGFloat, _ y: CGFloat) -> CGFloat { x + (y - x) * t }
    var d = Decomposed()
    d.perspective = (
      mix(da.perspective.0, db.perspective.0), mix(da.perspective.1, db.perspective.1),
      mix(da.perspective.2, db.perspective.2), mix(da.perspective.3, db.perspective.3)
    )
    d.translation = (
      mix(da.translation.0, db.translation.0), mix(da.translation.1, db.translation.1),
      mix(da.translation.2, db.translation.2)
    )
    d.scale = (
      mix(da.scale.0, db.scale.0), mix(da.scale.1, db.scale.1), mix(da.scale.2, db.scale.2)
    )
    d.skew = (mix(da.skew.0, db.skew.0), mix(da.skew.1, db.skew.1), mix(da.skew.2, db.skew.2))
    d.quaternion = slerp(da.quaternion, db.quaternion, t)
    return CATransform3D(decomposed: d)
  }

  static func slerp(
    _ a: (CGFloat, CGFloat, CGFloat, CGFloat), _ b: (CGFloat, CGFloat, CGFloat, CGFloat),
    _ t: CGFloat
  ) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
    var b = b
    var cosine = a.0 * b.0 + a.1 * b.1 + a.2 * b.2 + a.3 * b.3
    if cosine < 0 {
      cosine = -cosine
      b = (-b.0, -b.1, -b.2, -b.3)
    }
    var wa = 1 - t
    var wb = t
    if cosine < 0.9999 {
      let angle = acos(min(1, cosine))
      let s = sin(angle)
      wa = sin((1 - t) * angle) / s
      wb = sin(t * angle) / s
    }
    var q = (a.0 * wa + b.0 * wb, a.1 * wa + b.1 * wb, a.2 * wa + b.2 * wb, a.3 * wa + b.3 * wb)
    let l = (q.0 * q.0 + q.1 * q.1 + q.2 * q.2 + q.3 * q.3).squareRoot()
    if l > 0 { q = (q.0 / l, q.1 / l, q.2 / l, q.3 / l) }
    return q
  }
}
