import Foundation
import Lamina

/// Geometry shared by the frame builder and the GL backend: clipping a
/// layer's polygon where it crosses behind the eye, and widening it by a
/// pixel for the shader's edge antialiasing.
package enum EdgeGeometry {
  /// Points closer than this (in homogeneous w) to the eye plane are clipped.
  package static let nearW: CGFloat = 1e-4

  /// The corners of `rect`, clockwise on screen for an identity transform.
  static func corners(_ rect: CGRect) -> [CGPoint] {
    [
      CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
      CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY),
    ]
  }

  /// The part of `rect` (in the layer's plane) in front of the eye under `m`.
  static func visiblePolygon(_ rect: CGRect, _ m: CATransform3D) -> [CGPoint] {
    let polygon = corners(rect)
    guard m.m14 != 0 || m.m24 != 0 || m.m44 <= nearW else { return polygon }
    return clip(polygon, a: m.m14, b: m.m24, c: m.m44 - nearW)
  }

  /// True when every corner of `rect` lies in front of the eye under `m`.
  package static func inFront(_ rect: CGRect, _ m: CATransform3D) -> Bool {
    if m.m14 == 0 && m.m24 == 0 { return m.m44 > nearW }
    return m.apply(rect.minX, rect.minY).w > nearW && m.apply(rect.maxX, rect.minY).w > nearW
      && m.apply(rect.maxX, rect.maxY).w > nearW && m.apply(rect.minX, rect.maxY).w > nearW
  }

  /// Sutherland–Hodgman: keeps the part of a convex polygon where a·x + b·y + c ≥ 0.
  static func clip(_ polygon: [CGPoint], a: CGFloat, b: CGFloat, c: CGFloat) -> [CGPoint] {
    var out: [CGPoint] = []
    out.reserveCapacity(polygon.count + 1)
    for i in polygon.indices {
      let p = polygon[i]
      let q = polygon[(i + 1) % polygon.count]
      let dp = a * p.x + b * p.y + c
      let dq = a * q.x + b * q.y + c
      if dp >= 0 { out.append(p) }
      if (dp >= 0) != (dq >= 0) {
        let t = dp / (dp - dq)
        out.append(CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
      }
    }
    return out
  }

  /// How far (in the layer's units) to push `rect`'s edges out so that every
  /// pixel within `pixels` of an edge on screen is rasterized: the screen
  /// gradient of the local x and y coordinates, at the worst corner. Nil
  /// when the plane is seen edge-on (no finite margin exists).
  package static func margins(_ rect: CGRect, _ m: CATransform3D, pixels: CGFloat = 1)
    -> (x: CGFloat, y: CGFloat)?
  {
    var mx: CGFloat = 0
    var my: CGFloat = 0
    let affine = m.m14 == 0 && m.m24 == 0
    for corner in 0..<4 {
      let x = corner == 0 || corner == 3 ? rect.minX : rect.maxX
      let y = corner < 2 ? rect.minY : rect.maxY
      let q = m.apply(x, y)
      guard q.w > EdgeGeometry.nearW else { continue }
      // Jacobian of the screen position (X/W, Y/W) with respect to (x, y).
      let w2 = q.w * q.w
      let a = (m.m11 * q.w - q.x * m.m14) / w2
      let b = (m.m21 * q.w - q.x * m.m24) / w2
      let c = (m.m12 * q.w - q.y * m.m14) / w2
      let d = (m.m22 * q.w - q.y * m.m24) / w2
      let det = a * d - b * c
      guard abs(det) > 1e-12 else { return nil }
      // Rows of the inverse Jacobian: the screen gradients of local x and y.
      mx = max(mx, (d * d + b * b).squareRoot() / abs(det))
      my = max(my, (c * c + a * a).squareRoot() / abs(det))
      if affine { break }  // the Jacobian is the same at every corner
    }
    let limit = 4 * max(rect.width, rect.height, 1)
    return (min(mx * pixels, limit), min(my * pixels, limit))
  }
}
