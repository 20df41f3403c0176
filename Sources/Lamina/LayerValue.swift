import Foundation

/// A value of a layer property, typed: what the scene decoder decodes, the
/// property descriptions (LayerProperty.swift) read and write, and the
/// animation evaluator does arithmetic on. One case per `CAValueKind` (the
/// string kinds share `.string`); `Any` is met only where a value enters or
/// leaves through key-value coding (`init(_:)`, `boxed`) or a property
/// whose own type is `Any` (`contents`, `compositingFilter`).
package enum LayerValue {
  /// A real number (`CAValueKind.number`).
  case number(Double)
  /// A whole number (`CAValueKind.integer`: counts, seeds, masks).
  case integer(Int)
  case bool(Bool)
  case point(CGPoint)
  case size(CGSize)
  case rect(CGRect)
  case transform(CATransform3D)
  case color(CGColor)
  /// A list of numbers (gradient `locations`, dash patterns).
  case numbers([Double])
  /// A list of colors (gradient `colors`).
  case colors([CGColor])
  case path(CGPath)
  case image(CGImage)
  /// Text, an enumeration's raw value, a blend mode or font name.
  case string(String)
  case cornerMask(CACornerMask)
  case filters([CIFilter])
  case emitterCells([CAEmitterCell])
  case layer(CALayer)
  case layers([CALayer])
  /// No value: nil, which clears an optional property.
  case none
  /// A value of a type no case names (an `actions` table, a custom key's
  /// object), as key-value coding gave it.
  case other(Any)

  /// True when the two are certainly the same value (false when that
  /// cannot be told cheaply: two path objects, images, objects).
  func isSame(as other: LayerValue) -> Bool {
    switch (self, other) {
    case (.number(let a), .number(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.bool(let a), .bool(let b)): return a == b
    case (.point(let a), .point(let b)): return a == b
    case (.size(let a), .size(let b)): return a == b
    case (.rect(let a), .rect(let b)): return a == b
    case (.color(let a), .color(let b)): return a == b
    case (.transform(let a), .transform(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.cornerMask(let a), .cornerMask(let b)): return a == b
    case (.numbers(let a), .numbers(let b)): return a == b
    case (.colors(let a), .colors(let b)): return a == b
    // One path object (a held keyframe, the model's own): the same path.
    case (.path(let a), .path(let b)): return a === b
    case (.none, .none): return true
    default: return false
    }
  }

  /// Converts a value as animations and KVC hold it (whole numbers read as
  /// `.number`: an animation's `fromValue: 0` is the number 0).
  init(_ value: Any?) {
    switch value {
    case nil: self = .none
    case let v as LayerValue: self = v
    case is NSNull: self = .none
    case let v as Double: self = .number(v)
    case let v as CGFloat: self = .number(Double(v))
    case let v as Float: self = .number(Double(v))
    case let v as Int: self = .number(Double(v))
    case let v as CGPoint: self = .point(v)
    case let v as CGSize: self = .size(v)
    case let v as CGRect: self = .rect(v)
    case let v as CGColor: self = .color(v)
    case let v as CATransform3D: self = .transform(v)
    case let v as CGPath: self = .path(v)
    case let v as CGImage: self = .image(v)
    case let v as String: self = .string(v)
    case let v as CACornerMask: self = .cornerMask(v)
    case let v as CALayer: self = .layer(v)
    case let v as [CGColor]: self = .colors(v)
    case let v as [CGFloat]: self = .numbers(v.map { Double($0) })
    case let v as [Double]: self = .numbers(v)
    case let v as [Float]: self = .numbers(v.map { Double($0) })
    case let v as CIVector: self = .numbers(v.values.map { Double($0) })
    case let v as [Any]:
      if !v.isEmpty, let colors = v as? [CGColor] {
        self = .colors(colors)
      } else if !v.isEmpty, let n = Self.numbers(v) {
        self = .numbers(n)
      } else if !v.isEmpty, let filters = v as? [CIFilter] {
        self = .filters(filters)
      } else if !v.isEmpty, let cells = v as? [CAEmitterCell] {
        self = .emitterCells(cells)
      } else if !v.isEmpty, let layers = v as? [CALayer] {
        self = .layers(layers)
      } else {
        self = .other(v)
      }
    case let v as [NSNumber]: self = .numbers(v.map(\.doubleValue))
    case let v as NSNumber where !(value is Bool): self = .number(v.doubleValue)
    case let v as Bool: self = .bool(v)
    case let v as NSValue:
      self = v.unboxedGeometry.map { LayerValue($0) } ?? .other(v)
    case let v?: self = .other(v)
    }
  }

  private static func numbers(_ values: [Any]) -> [Double]? {
    var out: [Double] = []
    out.reserveCapacity(values.count)
    for v in values {
      switch v {
      case let d as Double: out.append(d)
      case let d as CGFloat: out.append(Double(d))
      case let d as Float: out.append(Double(d))
      case let d as Int: out.append(Double(d))
      case let d as NSNumber: out.append(d.doubleValue)
      default: return nil
      }
    }
    return out
  }

  /// The value as KVC setters take it and the scene decoder gives it to
  /// animations (`fromValue`, `values`): numbers as `CGFloat`.
  package var boxed: Any? {
    switch self {
    case .number(let v): return CGFloat(v)
    case .integer(let v): return v
    case .bool(let v): return v
    case .point(let v): return v
    case .size(let v): return v
    case .rect(let v): return v
    case .color(let v): return v
    case .transform(let v): return v
    case .numbers(let v): return v.map { CGFloat($0) }
    case .colors(let v): return v
    case .path(let v): return v
    case .image(let v): return v
    case .string(let v): return v
    case .cornerMask(let v): return v
    case .filters(let v): return v
    case .emitterCells(let v): return v
    case .layer(let v): return v
    case .layers(let v): return v
    case .none: return nil
    case .other(let v): return v
    }
  }

  /// The value boxed as `template` (the value it replaces) is: the same
  /// number type (a `Double` key reads back as `Double`, not `CGFloat`),
  /// geometry in an `NSValue` when the template was one. Keys without a
  /// property (stored by `setValue(_:forKey:)`) keep their type this way.
  func boxed(like template: Any?) -> Any? {
    switch (self.asNumber, template) {
    case (.number(let v), is Double): return v
    case (.number(let v), is CGFloat): return CGFloat(v)
    case (.number(let v), is Float): return Float(v)
    case (.number(let v), is Int): return Int(saturating: v.rounded())
    case (.number(let v), is NSNumber): return NSNumber(value: v)
    case (.point(let p), is NSValue): return NSValue(cgPoint: p)
    case (.size(let s), is NSValue): return NSValue(cgSize: s)
    case (.rect(let r), is NSValue): return NSValue(cgRect: r)
    case (.transform(let t), is NSValue): return NSValue(caTransform3D: t)
    default: return boxed
    }
  }

  /// A whole number as the real number it is; any other value as it is.
  var asNumber: LayerValue {
    guard case .integer(let i) = self else { return self }
    return .number(Double(i))
  }

  /// A point as the size of the same two numbers; any other value as it is.
  var pointAsSize: LayerValue {
    guard case .point(let p) = self else { return self }
    return .size(CGSize(width: p.x, height: p.y))
  }

  // MARK: Components

  /// The value as a vector, for the kinds that are one; nil otherwise.
  var components: [Double]? {
    switch self {
    case .number(let v): return [v]
    case .integer(let v): return [Double(v)]
    case .point(let p): return [Double(p.x), Double(p.y)]
    case .size(let s): return [Double(s.width), Double(s.height)]
    case .rect(let r):
      return [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
    case .color(let c): return [Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)]
    case .numbers(let n): return n
    case .colors(let cs):
      return cs.flatMap { [Double($0.red), Double($0.green), Double($0.blue), Double($0.alpha)] }
    case .path(let p): return p.elementPoints.flatMap { [Double($0.x), Double($0.y)] }
    case .transform, .bool, .image, .string, .cornerMask, .filters, .emitterCells, .layer,
      .layers, .none, .other:
      return nil
    }
  }

  /// A value of this one's kind and shape from `c` (as many components as
  /// `components` has).
  func with(components c: [Double]) -> LayerValue {
    func f(_ i: Int) -> CGFloat { CGFloat(c[i]) }
    switch self {
    case .number, .integer: return .number(c[0])
    case .point: return .point(CGPoint(x: f(0), y: f(1)))
    case .size: return .size(CGSize(width: f(0), height: f(1)))
    case .rect: return .rect(CGRect(x: f(0), y: f(1), width: f(2), height: f(3)))
    case .color: return .color(CGColor(red: f(0), green: f(1), blue: f(2), alpha: f(3)))
    case .numbers: return .numbers(c)
    case .colors:
      return .colors(
        stride(from: 0, to: c.count, by: 4).map {
          CGColor(red: f($0), green: f($0 + 1), blue: f($0 + 2), alpha: f($0 + 3))
        })
    case .path(let p): return .path(p.replacingPoints(c))
    case .transform, .bool, .image, .string, .cornerMask, .filters, .emitterCells, .layer,
      .layers, .none, .other:
      return self
    }
  }

  /// The zero offset of this value's kind and shape (what adding leaves
  /// unchanged): zeros, the identity transform; a value that does not add
  /// is its own zero.
  var zero: LayerValue {
    if case .transform = self { return .transform(CATransform3DIdentity) }
    guard let c = components else { return self }
    return with(components: [Double](repeating: 0, count: c.count))
  }

  /// True when `a` and `b` can be combined component by component.
  static func compatible(_ a: LayerValue, _ b: LayerValue) -> Bool {
    switch (a.asNumber, b.asNumber) {
    case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect),
      (.color, .color), (.transform, .transform):
      return true
    case (.numbers(let x), .numbers(let y)): return x.count == y.count
    case (.colors(let x), .colors(let y)): return x.count == y.count
    case (.path(let x), .path(let y)): return x.hasSameStructure(as: y)
    default: return false
    }
  }

  // MARK: Arithmetic

  /// The value `t` of the way from `a` to `b` (t may leave 0…1, as springs
  /// and overshooting curves do). Transforms interpolate by decomposition;
  /// values that cannot be mixed switch halfway.
  static func interpolate(_ a: LayerValue, _ b: LayerValue, _ t: Double) -> LayerValue {
    if case .number(let x) = a, case .number(let y) = b { return .number(x + (y - x) * t) }
    if case .transform(let x) = a, case .transform(let y) = b {
      return .transform(CATransform3D.interpolate(x, y, t))
    }
    guard compatible(a, b), let x = a.components, let y = b.components else {
      return t < 0.5 ? a : b
    }
    var c = x
    for i in c.indices { c[i] = x[i] + (y[i] - x[i]) * t }
    return a.with(components: c)
  }

  /// `a + b`: component sums; transforms concatenate (`b` applied after `a`).
  /// Nil when the kinds do not add.
  static func add(_ a: LayerValue, _ b: LayerValue) -> LayerValue? {
    if case .number(let x) = a, case .number(let y) = b { return .number(x + y) }
    if case .transform(let x) = a, case .transform(let y) = b {
      return .transform(x.concatenating(y))
    }
    guard compatible(a, b), let x = a.components, let y = b.components else { return nil }
    return a.with(components: zip(x, y).map { $0 + $1 })
  }

  /// `a − b`, the inverse of `add`.
  static func subtract(_ a: LayerValue, _ b: LayerValue) -> LayerValue? {
    if case .number(let x) = a, case .number(let y) = b { return .number(x - y) }
    if case .transform(let x) = a, case .transform(let y) = b {
      return .transform(x.concatenating(CATransform3DInvert(y)))
    }
    guard compatible(a, b), let x = a.components, let y = b.components else { return nil }
    return a.with(components: zip(x, y).map { $0 - $1 })
  }

  /// `a` added to itself `k` times (`k` ≥ 0); nil when the kind does not add.
  static func multiply(_ a: LayerValue, _ k: Int) -> LayerValue? {
    if case .transform(let t) = a {
      var r = CATransform3DIdentity
      for _ in 0..<k { r = r.concatenating(t) }
      return .transform(r)
    }
    guard let x = a.components else { return nil }
    return a.with(components: x.map { $0 * Double(k) })
  }

  /// The distance from `a` to `b`, for paced keyframes; nil when there is none.
  static func distance(_ a: LayerValue, _ b: LayerValue) -> Double? {
    if case .transform(let x) = a, case .transform(let y) = b {
      let dx = x.m41 - y.m41
      let dy = x.m42 - y.m42
      let dz = x.m43 - y.m43
      return Double((dx * dx + dy * dy + dz * dz).squareRoot())
    }
    guard compatible(a, b), let x = a.components, let y = b.components else { return nil }
    return zip(x, y).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
  }
}
// MARK: Struct members

extension LayerValue {
  /// The member at `path` of a point, size, rect or transform (`x`,
  /// `size.width`, `rotation.z`, `translation`), or nil when the value has
  /// no such member: what `position.x` and `transform.rotation.z` read.
  func member(_ path: String) -> LayerValue? {
    switch self {
    case .point(let p):
      switch path {
      case "x": return .number(Double(p.x))
      case "y": return .number(Double(p.y))
      default: return nil
      }
    case .size(let s):
      switch path {
      case "width": return .number(Double(s.width))
      case "height": return .number(Double(s.height))
      default: return nil
      }
    case .rect(let r):
      switch path {
      case "origin": return .point(r.origin)
      case "size": return .size(r.size)
      case "origin.x": return .number(Double(r.origin.x))
      case "origin.y": return .number(Double(r.origin.y))
      case "size.width": return .number(Double(r.size.width))
      case "size.height": return .number(Double(r.size.height))
      default: return nil
      }
    case .transform(let t):
      return t.value(ofComponent: path)
    default:
      return nil
    }
  }

  /// This value with the member at `path` replaced by `new`, or nil when
  /// there is no such member or `new` does not fit it.
  func setting(_ path: String, to new: LayerValue) -> LayerValue? {
    switch self {
    case .point(var p):
      guard let v = CGFloat.from(new) else { return nil }
      switch path {
      case "x": p.x = v
      case "y": p.y = v
      default: return nil
      }
      return .point(p)
    case .size(var s):
      guard let v = CGFloat.from(new) else { return nil }
      switch path {
      case "width": s.width = v
      case "height": s.height = v
      default: return nil
      }
      return .size(s)
    case .rect(var r):
      switch path {
      case "origin":
        guard let p = CGPoint.from(new) else { return nil }
        r.origin = p
      case "size":
        guard let s = CGSize.from(new) else { return nil }
        r.size = s
      default:
        guard let v = CGFloat.from(new) else { return nil }
        switch path {
        case "origin.x": r.origin.x = v
        case "origin.y": r.origin.y = v
        case "size.width": r.size.width = v
        case "size.height": r.size.height = v
        default: return nil
        }
      }
      return .rect(r)
    case .transform(let t):
      return t.setting(component: path, to: new).map { .transform($0) }
    default:
      return nil
    }
  }
}

// MARK: Property types

/// A Swift type a layer property holds, read and written as a `LayerValue`
/// (the descriptions' typed accessors, PropertyAccessor.swift).
protocol LayerValueConvertible {
  /// `value` as this type, or nil when it is not one.
  static func from(_ value: LayerValue) -> Self?
  var layerValue: LayerValue { get }
}

extension Double: LayerValueConvertible {
  static func from(_ value: LayerValue) -> Double? {
    switch value {
    case .number(let v): return v
    case .integer(let v): return Double(v)
    case .bool(let v): return v ? 1 : 0
    default: return nil
    }
  }
  var layerValue: LayerValue { .number(self) }
}

extension CGFloat: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGFloat? { Double.from(value).map { CGFloat($0) } }
  var layerValue: LayerValue { .number(Double(self)) }
}

extension Float: LayerValueConvertible {
  static func from(_ value: LayerValue) -> Float? { Double.from(value).map { Float($0) } }
  var layerValue: LayerValue { .number(Double(self)) }
}

extension Int: LayerValueConvertible {
  /// A whole number, or a real one as KVC converts it.
  static func from(_ value: LayerValue) -> Int? {
    if case .integer(let v) = value { return v }
    guard let d = Double.from(value), d.isFinite, abs(d) < 9e18 else { return nil }
    return Int(saturating: d)
  }
  var layerValue: LayerValue { .integer(self) }
}

extension UInt32: LayerValueConvertible {
  static func from(_ value: LayerValue) -> UInt32? {
    guard let d = Double.from(value), d.isFinite, d >= 0, d <= Double(UInt32.max) else {
      return nil
    }
    return UInt32(exactly: d.rounded(.towardZero))
  }
  var layerValue: LayerValue { .integer(Int(self)) }
}

extension Bool: LayerValueConvertible {
  static func from(_ value: LayerValue) -> Bool? {
    if case .bool(let b) = value { return b }
    return Double.from(value).map { $0 != 0 }
  }
  var layerValue: LayerValue { .bool(self) }
}

extension CGPoint: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGPoint? {
    guard case .point(let p) = value else { return nil }
    return p
  }
  var layerValue: LayerValue { .point(self) }
}

extension CGSize: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGSize? {
    guard case .size(let s) = value else { return nil }
    return s
  }
  var layerValue: LayerValue { .size(self) }
}

extension CGRect: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGRect? {
    guard case .rect(let r) = value else { return nil }
    return r
  }
  var layerValue: LayerValue { .rect(self) }
}

extension CATransform3D: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CATransform3D? {
    guard case .transform(let t) = value else { return nil }
    return t
  }
  var layerValue: LayerValue { .transform(self) }
}

extension CGColor: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGColor? {
    guard case .color(let c) = value else { return nil }
    return c
  }
  var layerValue: LayerValue { .color(self) }
}

extension CGPath: LayerValueConvertible {
  static func from(_ value: LayerValue) -> Self? {
    guard case .path(let p) = value else { return nil }
    return p as? Self
  }
  var layerValue: LayerValue { .path(self) }
}

extension CGImage: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CGImage? {
    guard case .image(let i) = value else { return nil }
    return i
  }
  var layerValue: LayerValue { .image(self) }
}

extension CALayer: LayerValueConvertible {
  static func from(_ value: LayerValue) -> Self? {
    guard case .layer(let l) = value else { return nil }
    return l as? Self
  }
  var layerValue: LayerValue { .layer(self) }
}

extension String: LayerValueConvertible {
  static func from(_ value: LayerValue) -> String? {
    guard case .string(let s) = value else { return nil }
    return s
  }
  var layerValue: LayerValue { .string(self) }
}

extension CACornerMask: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CACornerMask? {
    switch value {
    case .cornerMask(let m): return m
    case .integer(let i): return CACornerMask(rawValue: UInt(truncatingIfNeeded: i))
    default: return nil
    }
  }
  var layerValue: LayerValue { .cornerMask(self) }
}

extension CAEdgeAntialiasingMask: LayerValueConvertible {
  static func from(_ value: LayerValue) -> CAEdgeAntialiasingMask? {
    UInt32.from(value).map { CAEdgeAntialiasingMask(rawValue: $0) }
  }
  var layerValue: LayerValue { .integer(Int(rawValue)) }
}

/// The element of a list property (`[NSNumber]`, `[CAEmitterCell]`,
/// `[CALayer]`).
protocol LayerListElement {}
extension NSNumber: LayerListElement {}
extension CAEmitterCell: LayerListElement {}
extension CALayer: LayerListElement {}

extension Array: LayerValueConvertible where Element: LayerListElement {
  static func from(_ value: LayerValue) -> [Element]? {
    switch value {
    case .numbers(let n): return n.map { NSNumber(value: $0) } as? [Element]
    case .emitterCells(let c): return c as? [Element]
    case .layers(let l): return l as? [Element]
    default: return nil
    }
  }
  var layerValue: LayerValue {
    if let n = self as? [NSNumber] { return .numbers(n.map(\.doubleValue)) }
    if let c = self as? [CAEmitterCell] { return .emitterCells(c) }
    if let l = self as? [CALayer] { return .layers(l) }
    return .other(self)
  }
}

extension CGPath {
  /// Every point of every element, end points and control points, in order.
  var elementPoints: [CGPoint] {
    var points: [CGPoint] = []
    for e in elements {
      switch e {
      case .moveTo(let p), .lineTo(let p): points.append(p)
      case .quadCurveTo(let p, let c): points += [c, p]
      case .curveTo(let p, let c1, let c2): points += [c1, c2, p]
      case .closeSubpath: break
      }
    }
    return points
  }

  /// True when both paths have the same elements in the same order (so
  /// their points can be interpolated one by one).
  func hasSameStructure(as other: CGPath) -> Bool {
    guard elements.count == other.elements.count else { return false }
    for (a, b) in zip(elements, other.elements) {
      switch (a, b) {
      case (.moveTo, .moveTo), (.lineTo, .lineTo), (.quadCurveTo, .quadCurveTo),
        (.curveTo, .curveTo), (.closeSubpath, .closeSubpath):
        continue
      default: return false
      }
    }
    return true
  }

  /// This path's structure with the points of `c` (x, y pairs in `elementPoints` order).
  func replacingPoints(_ c: [Double]) -> CGPath {
    var i = 0
    func next() -> CGPoint {
      defer { i += 2 }
      return CGPoint(x: CGFloat(c[i]), y: CGFloat(c[i + 1]))
    }
    var out: [Element] = []
    out.reserveCapacity(elements.count)
    for e in elements {
      switch e {
      case .moveTo: out.append(.moveTo(next()))
      case .lineTo: out.append(.lineTo(next()))
      case .quadCurveTo:
        let control = next()
        out.append(.quadCurveTo(next(), control: control))
      case .curveTo:
        let c1 = next()
        let c2 = next()
        out.append(.curveTo(next(), control1: c1, control2: c2))
      case .closeSubpath: out.append(.closeSubpath)
      }
    }
    return CGPath(elements: out)
  }
}
