import Foundation
import Lamina

/// A Lottie transform (`ks` of a layer, `tr` of a group, a repeater's `tr`).
struct TransformSpec {
  var anchor = Property(constant: [0, 0, 0])
  var position: Property? = Property(constant: [0, 0, 0])
  /// Split position (`p.s`): x and y animate apart.
  var positionX: Property?
  var positionY: Property?
  /// A split position's z (`p.z`).
  var positionZ: Property?
  var scale = Property(constant: [100, 100, 100])
  var rotation = Property(constant: [0])
  var rotationX = Property(constant: [0])
  var rotationY = Property(constant: [0])
  var orientation = Property(constant: [0, 0, 0])
  var opacity = Property(constant: [100])
  var skew = Property(constant: [0])
  var skewAxis = Property(constant: [0])
  var autoOrient = false
  var is3D = false

  var geometryProperties: [Property] {
    [anchor, scale, rotation, rotationX, rotationY, orientation, skew, skewAxis]
      + [position, positionX, positionY, positionZ].compactMap { $0 }
  }

  var needsMatrix: Bool {
    skew.isAnimated || skew.first[0] != 0 || autoOrient || is3D
      || orientation.first.contains { $0 != 0 } || orientation.isAnimated
      || rotationX.isAnimated || rotationY.isAnimated || rotationX.first[0] != 0
      || rotationY.first[0] != 0 || anchor.isAnimated && anchor.first.count > 2 && anchor.first[2] != 0
  }

  /// True when the transform leaves every point where it is and the
  /// opacity at 100 % at every frame (a group's usual `tr`: anchor and
  /// position equal, scale 100 %, no turn): its group draws as its items.
  var isIdentity: Bool {
    guard !needsMatrix, !hasNegativeScale else { return false }
    let properties =
      [anchor, scale, rotation, opacity] + [position, positionX, positionY].compactMap { $0 }
    guard !properties.contains(where: \.isAnimated) else { return false }
    let a = anchor.first
    let p = positionValue(at: 0)
    let s = scale.first
    return (a.first ?? 0) == p[0] && (a.count > 1 ? a[1] : 0) == (p.count > 1 ? p[1] : 0)
      && s.first == 100 && (s.count > 1 ? s[1] : s.first) == 100
      && rotation.first.first == 0 && opacity.first.first == 100
  }

  /// True when the scale is negative in x or y at any keyframe: a flip.
  /// Core Animation's `transform.rotation.z` and `transform.scale.x/y`
  /// key paths take a transform apart into a rotation and positive
  /// scales, so a flip (−100 %, −100 % is a half turn) animated through
  /// them would be lost: such a transform is a whole matrix.
  var hasNegativeScale: Bool {
    let values = [scale.first] + scale.keyframes.flatMap { [$0.value] + ($0.end.map { [$0] } ?? []) }
    return values.contains { $0.prefix(2).contains { $0 < 0 } }
  }

  func positionValue(at f: Double) -> [Double] {
    if let x = positionX, let y = positionY { return [x.scalar(at: f), y.scalar(at: f), positionZ?.scalar(at: f) ?? 0] }
    return position?.value(at: f) ?? [0, 0, 0]
  }

  /// The matrix at frame `f`, in lottie-web's order: anchor, scale, skew,
  /// rotation, position (row vectors, as CATransform3D).
  func matrix(at f: Double) -> CATransform3D { matrix4(at: f).transform }

  /// The matrix at frame `f` as numbers. Its z points at the viewer, as
  /// Core Animation's and CSS's do (After Effects' points away): a depth
  /// `z` of the document is `-z` here, as lottie-web writes it, so that a
  /// camera's perspective (`CameraModel`) sees the layers where After
  /// Effects does. Without a perspective the position's z changes nothing
  /// drawn; the anchor's z does under an x or y rotation, now as in
  /// lottie-web (until cameras it was taken with the other sign).
  func matrix4(at f: Double) -> Matrix4 {
    var m = Matrix4()
    let a = anchor.value(at: f)
    m.translate(-a[0], -(a.count > 1 ? a[1] : 0), a.count > 2 ? a[2] : 0)
    let s = scale.value(at: f)
    m.scale(s[0] / 100, (s.count > 1 ? s[1] : s[0]) / 100, (s.count > 2 ? s[2] : 100) / 100)
    let sk = skew.scalar(at: f)
    if sk != 0 {
      m.skewFromAxis(-sk * .pi / 180, skewAxis.scalar(at: f) * .pi / 180)
    }
    var r = rotation.scalar(at: f) * .pi / 180
    if autoOrient, let angle = orientAngle(at: f) { r += angle }
    m.rotateZ(-r)
    let rx = rotationX.scalar(at: f) * .pi / 180
    let ry = rotationY.scalar(at: f) * .pi / 180
    if ry != 0 { m.rotateY(ry) }
    if rx != 0 { m.rotateX(rx) }
    let o = orientation.value(at: f)
    if o.count >= 3, o.contains(where: { $0 != 0 }) {
      m.rotateZ(-o[2] * .pi / 180)
      m.rotateY(o[1] * .pi / 180)
      m.rotateX(o[0] * .pi / 180)
    }
    let p = positionValue(at: f)
    m.translate(p[0], p.count > 1 ? p[1] : 0, p.count > 2 ? -p[2] : 0)
    return m
  }

  /// The direction of motion at `f` (auto-orient), from the position's path.
  func orientAngle(at f: Double) -> Double? {
    guard let position, position.isAnimated else { return nil }
    let first = position.firstFrame
    let last = position.lastFrame
    var a = max(first, min(f, last))
    var b = a + 0.01
    if b > last {
      b = last
      a = last - 0.01
    }
    let p = position.value(at: a)
    let q = position.value(at: b)
    let dx = q[0] - p[0]
    let dy = q[1] - p[1]
    guard dx != 0 || dy != 0 else { return nil }
    return atan2(dy, dx)
  }
}

/// lottie-web's matrix: 16 numbers, row vectors; each step multiplies on the right.
struct Matrix4 {
  var p: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]

  mutating func multiply(_ b: [Double]) {
    var r = [Double](repeating: 0, count: 16)
    for i in 0..<4 {
      for j in 0..<4 {
        var s = 0.0
        for k in 0..<4 { s += p[i * 4 + k] * b[k * 4 + j] }
        r[i * 4 + j] = s
      }
    }
    p = r
  }

  mutating func translate(_ x: Double, _ y: Double, _ z: Double) {
    if x == 0 && y == 0 && z == 0 { return }
    multiply([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1])
  }

  mutating func scale(_ x: Double, _ y: Double, _ z: Double) {
    if x == 1 && y == 1 && z == 1 { return }
    multiply([x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1])
  }

  mutating func rotateZ(_ angle: Double) {
    if angle == 0 { return }
    let c = cos(angle)
    let s = sin(angle)
    multiply([c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  }

  mutating func rotateX(_ angle: Double) {
    let c = cos(angle)
    let s = sin(angle)
    multiply([1, 0, 0, 0, 0, c, -s, 0, 0, s, c, 0, 0, 0, 0, 1])
  }

  mutating func rotateY(_ angle: Double) {
    let c = cos(angle)
    let s = sin(angle)
    multiply([c, 0, s, 0, 0, 1, 0, 0, -s, 0, c, 0, 0, 0, 0, 1])
  }

  mutating func skewFromAxis(_ ax: Double, _ angle: Double) {
    let c = cos(angle)
    let s = sin(angle)
    multiply([c, s, 0, 0, -s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    multiply([1, 0, 0, 0, tan(ax), 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
    multiply([c, -s, 0, 0, s, c, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
  }

  var transform: CATransform3D { CATransform3D(p.map { CGFloat($0) }) }
}
