import Foundation

extension CATransform3D {
  /// A transform taken apart into translation, scale and Euler rotation,
  /// the components Core Animation's `transform.*` key paths read and write.
  /// Recomposed as scale, then rotation about x, then y, then z, then
  /// translation (row-vector order); perspective and skew are not part of it.
  public struct Components: Equatable, Sendable {
    public var translation: (x: CGFloat, y: CGFloat, z: CGFloat)
    public var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
    /// Radians about x, y and z.
    public var rotation: (x: CGFloat, y: CGFloat, z: CGFloat)

    public init(
      translation: (x: CGFloat, y: CGFloat, z: CGFloat) = (0, 0, 0),
      scale: (x: CGFloat, y: CGFloat, z: CGFloat) = (1, 1, 1),
      rotation: (x: CGFloat, y: CGFloat, z: CGFloat) = (0, 0, 0)
    ) {
      self.translation = translation
      self.scale = scale
      self.rotation = rotation
    }

    public static func == (a: Components, b: Components) -> Bool {
      a.translation == b.translation && a.scale == b.scale && a.rotation == b.rotation
    }
  }

  /// The components of the upper 3×3 and the translation row.
  public var components: Components {
    var sx = (m11 * m11 + m12 * m12 + m13 * m13).squareRoot()
    let sy = (m21 * m21 + m22 * m22 + m23 * m23).squareRoot()
    let sz = (m31 * m31 + m32 * m32 + m33 * m33).squareRoot()
    let det =
      m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31)
      + m13 * (m21 * m32 - m22 * m31)
    // A mirror shows up as a negative x scale.
    if det < 0 { sx = -sx }
    func row(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ s: CGFloat) -> (CGFloat, CGFloat, CGFloat)
    {
      s == 0 ? (0, 0, 0) : (a / s, b / s, c / s)
    }
    let r1 = row(m11, m12, m13, sx)
    let r2 = row(m21, m22, m23, sy)
    let r3 = row(m31, m32, m33, sz)
    // R = Rx(a) Ry(b) Rz(c) gives r1 = (cb cc, cb sc, -sb), r2.z = sa cb, r3.z = ca cb.
    let sb = max(-1, min(1, -r1.2))
    let b = asin(sb)
    var a: CGFloat
    var c: CGFloat
    if abs(sb) < 1 - 1e-12 {
      a = atan2(r2.2, r3.2)
      c = atan2(r1.1, r1.0)
    } else {
      // Gimbal lock: put the whole turn on x.
      c = 0
      a = atan2(-r3.1, r2.1)
    }
    if a == 0 { a = 0 }  // no negative zero
    if c == 0 { c = 0 }
    return Components(
      translation: (m41, m42, m43), scale: (sx, sy, sz), rotation: (a, b == 0 ? 0 : b, c))
  }

  /// The transform of `components`; exact when only one rotation is set.
  public init(components k: Components) {
    var t = CATransform3DMakeScale(k.scale.x, k.scale.y, k.scale.z)
    if k.rotation.x != 0 { t = t.concatenating(CATransform3DMakeRotation(k.rotation.x, 1, 0, 0)) }
    if k.rotation.y != 0 { t = t.concatenating(CATransform3DMakeRotation(k.rotation.y, 0, 1, 0)) }
    if k.rotation.z != 0 { t = t.concatenating(CATransform3DMakeRotation(k.rotation.z, 0, 0, 1)) }
    t.m41 = k.translation.x
    t.m42 = k.translation.y
    t.m43 = k.translation.z
    self = t
  }

  /// The value of a `transform.*` sub-key path (`rotation.y`, `scale`,
  /// `translation`, `m34`, …), or nil for an unknown one.
  public func value(forComponent path: String) -> Any? {
    switch value(ofComponent: path) {
    case .number(let v)?: return CGFloat(v)
    case .size(let s)?: return s
    default: return nil
    }
  }

  /// `value(forComponent:)` typed: a number, or a size for `translation`.
  func value(ofComponent path: String) -> LayerValue? {
    if let v = element(named: path) { return .number(Double(v)) }
    let k = components
    let v: CGFloat
    switch path {
    case "rotation.x": v = k.rotation.x
    case "rotation.y": v = k.rotation.y
    case "rotation", "rotation.z": v = k.rotation.z
    case "scale.x": v = k.scale.x
    case "scale.y": v = k.scale.y
    case "scale.z": v = k.scale.z
    case "scale": v = (k.scale.x + k.scale.y + k.scale.z) / 3
    case "scale.xy": v = (k.scale.x + k.scale.y) / 2
    case "translation.x": v = k.translation.x
    case "translation.y": v = k.translation.y
    case "translation.z": v = k.translation.z
    case "translation": return .size(CGSize(width: k.translation.x, height: k.translation.y))
    default: return nil
    }
    return .number(Double(v))
  }

  /// This transform with one sub-key path replaced, or nil when the path is
  /// unknown or the value has the wrong type. Components other than
  /// `m11`…`m44` are set by decomposing, replacing and recomposing; the
  /// perspective column (`m14 m24 m34 m44`) is kept.
  public func setting(component path: String, to value: Any?) -> CATransform3D? {
    setting(
      component: path, number: Convert.cgFloat(value),
      size: Convert.size(value) ?? Convert.point(value).map { CGSize(width: $0.x, height: $0.y) })
  }

  /// `setting(component:to:)` typed: a number, or for `translation` a size
  /// or point.
  func setting(component path: String, to value: LayerValue) -> CATransform3D? {
    let size: CGSize?
    switch value {
    case .size(let s): size = s
    case .point(let p): size = CGSize(width: p.x, height: p.y)
    default: size = nil
    }
    return setting(component: path, number: CGFloat.from(value), size: size)
  }

  private func setting(component path: String, number: CGFloat?, size: CGSize?)
    -> CATransform3D?
  {
    if path.count == 3, path.hasPrefix("m"), element(named: path) != nil {
      guard let v = number else { return nil }
      var t = self
      let i = Int(String(path.dropFirst()))!
      var values = t.values
      values[(i / 10 - 1) * 4 + (i % 10 - 1)] = v
      t = CATransform3D(values)
      return t
    }
    var k = components
    if path == "translation" {
      // A size, or a point: Core Animation reads the two numbers of either.
      guard let s = size else { return nil }
      k.translation.x = s.width
      k.translation.y = s.height
    } else {
      guard let v = number else { return nil }
      switch path {
      case "rotation.x": k.rotation.x = v
      case "rotation.y": k.rotation.y = v
      case "rotation", "rotation.z": k.rotation.z = v
      case "scale.x": k.scale.x = v
      case "scale.y": k.scale.y = v
      case "scale.z": k.scale.z = v
      case "scale": k.scale = (v, v, v)
      // Not in Apple's list, but common in iOS code: x and y together.
      case "scale.xy": (k.scale.x, k.scale.y) = (v, v)
      case "translation.x": k.translation.x = v
      case "translation.y": k.translation.y = v
      case "translation.z": k.translation.z = v
      default: return nil
      }
    }
    var t = CATransform3D(components: k)
    (t.m14, t.m24, t.m34, t.m44) = (m14, m24, m34, m44)
    return t
  }

  /// The names `transform.*` key paths accept.
  public static let componentNames: Set<String> = {
    var names: Set<String> = [
      "rotation", "rotation.x", "rotation.y", "rotation.z", "scale", "scale.x", "scale.y",
      "scale.z", "scale.xy", "translation", "translation.x", "translation.y", "translation.z",
    ]
    for r in 1...4 { for c in 1...4 { names.insert("m\(r)\(c)") } }
    return names
  }()

  private func element(named name: String) -> CGFloat? {
    guard name.count == 3, name.hasPrefix("m"), let i = Int(String(name.dropFirst())) else {
      return nil
    }
    let r = i / 10
    let c = i % 10
    guard (1...4).contains(r), (1...4).contains(c) else { return nil }
    return values[(r - 1) * 4 + (c - 1)]
  }
}
