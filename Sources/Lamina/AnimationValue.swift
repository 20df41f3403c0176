import Foundation

/// An animated value in a form the evaluator can do arithmetic on. Values
/// are converted from what animations and layers hold (`Any`) once per
/// animation, and back when applied.
enum AnimationValue {
  case number(Double)
  case point(CGPoint)
  case size(CGSize)
  case rect(CGRect)
  case color(CGColor)
  case transform(CATransform3D)
  /// A list of numbers (gradient `locations`, dash patterns).
  case numbers([Double])
  /// A list of colors (gradient `colors`).
  case colors([CGColor])
  case path(CGPath)
  /// Anything else (booleans, enumerations, images, nil): it only switches.
  case discrete(Any?)

  /// True when the two are certainly the same value (false when that
  /// cannot be told cheaply: lists, paths, discrete values).
  func isSame(as other: AnimationValue) -> Bool {
    switch (self, other) {
    case (.number(let a), .number(let b)): return a == b
    case (.point(let a), .point(let b)): return a == b
    case (.size(let a), .size(let b)): return a == b
    case (.rect(let a), .rect(let b)): return a == b
    case (.color(let a), .color(let b)): return a == b
    case (.transform(let a), .transform(let b)): return a == b
    default: return false
    }
  }

  /// Converts a value as animations and KVC hold it.
  init(_ value: Any?) {
    switch value {
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
      } else {
        self = .discrete(value)
      }
    case let v as [NSNumber]: self = .numbers(v.map(\.doubleValue))
    case let v as NSNumber where !(value is Bool): self = .number(v.doubleValue)
    case let v as NSValue:
      self = v.unboxedGeometry.map { AnimationValue($0) } ?? .discrete(value)
    default: self = .discrete(value)
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

  /// The value as KVC setters take it.
  var boxed: Any? {
    switch self {
    case .number(let v): return v
    case .point(let v): return v
    case .size(let v): return v
    case .rect(let v): return v
    case .color(let v): return v
    case .transform(let v): return v
    case .numbers(let v): return v.map { CGFloat($0) }
    case .colors(let v): return v
    case .path(let v): return v
    case .discrete(let v): return v
    }
  }

  /// The value boxed as `template` (the value it replaces) is: the same
  /// number type (a `CGFloat` key reads back as `CGFloat`, not `Double`),
  /// geometry in an `NSValue` when the template was one. Keys without a
  /// property (stored by `setValue(_:forKey:)`) keep their type this way.
  func boxed(like template: Any?) -> Any? {
    switch (self, template) {
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

  /// A point as the size of the same two numbers; any other value as it is.
  var pointAsSize: AnimationValue {
    guard case .point(let p) = self else { return self }
    return .size(CGSize(width: p.x, height: p.y))
  }

  // MARK: Components

  /// The value as a vector, for the kinds that are one; nil otherwise.
  var components: [Double]? {
    switch self {
    case .number(let v): return [v]
    case .point(let p): return [Double(p.x), Double(p.y)]
    case .size(let s): return [Double(s.width), Double(s.height)]
    case .rect(let r):
      return [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
    case .color(let c): return [Double(c.red), Double(c.green), Double(c.blue), Double(c.alpha)]
    case .numbers(let n): return n
    case .colors(let cs):
      return cs.flatMap { [Double($0.red), Double($0.green), Double($0.blue), Double($0.alpha)] }
    case .path(let p): return p.elementPoints.flatMap { [Double($0.x), Double($0.y)] }
    case .transform, .discrete: return nil
    }
  }

  /// A value of this one's kind and shape from `c` (as many components as
  /// `components` has).
  func with(components c: [Double]) -> AnimationValue {
    func f(_ i: Int) -> CGFloat { CGFloat(c[i]) }
    switch self {
    case .number: return .number(c[0])
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
    case .transform, .discrete: return self
    }
  }

  /// The zero offset of this value's kind and shape (what adding leaves
  /// unchanged): zeros, the identity transform; a value that does not add
  /// is its own zero.
  var zero: AnimationValue {
    if case .transform = self { return .transform(CATransform3DIdentity) }
    guard let c = components else { return self }
    return with(components: [Double](repeating: 0, count: c.count))
  }

  /// True when `a` and `b` can be combined component by component.
  static func compatible(_ a: AnimationValue, _ b: AnimationValue) -> Bool {
    switch (a, b) {
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
  static func interpolate(_ a: AnimationValue, _ b: AnimationValue, _ t: Double) -> AnimationValue {
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
  static func add(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue? {
    if case .number(let x) = a, case .number(let y) = b { return .number(x + y) }
    if case .transform(let x) = a, case .transform(let y) = b {
      return .transform(x.concatenating(y))
    }
    guard compatible(a, b), let x = a.components, let y = b.components else { return nil }
    return a.with(components: zip(x, y).map { $0 + $1 })
  }

  /// `a − b`, the inverse of `add`.
  static func subtract(_ a: AnimationValue, _ b: AnimationValue) -> AnimationValue? {
    if case .number(let x) = a, case .number(let y) = b { return .number(x - y) }
    if case .transform(let x) = a, case .transform(let y) = b {
      return .transform(x.concatenating(CATransform3DInvert(y)))
    }
    guard compatible(a, b), let x = a.components, let y = b.components else { return nil }
    return a.with(components: zip(x, y).map { $0 - $1 })
  }

  /// `a` added to itself `k` times (`k` ≥ 0); nil when the kind does not add.
  static func multiply(_ a: AnimationValue, _ k: Int) -> AnimationValue? {
    if case .transform(let t) = a {
      var r = CATransform3DIdentity
      for _ in 0..<k { r = r.concatenating(t) }
      return .transform(r)
    }
    guard let x = a.components else { return nil }
    return a.with(components: x.map { $0 * Double(k) })
  }

  /// The distance from `a` to `b`, for paced keyframes; nil when there is none.
  static func distance(_ a: AnimationValue, _ b: AnimationValue) -> Double? {
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
