import Foundation

/// The kind of value a key (or key path) of a layer, emitter cell or
/// filter holds; the scene loader decodes JSON values by it.
public enum CAValueKind: Equatable, Sendable {
  /// A real number (CGFloat, Float or Double).
  case number
  /// A whole number (Int or UInt32).
  case integer
  case bool
  case point
  case size
  case rect
  case transform
  /// An optional CGColor.
  case color
  /// A list of CGColor (`CAGradientLayer.colors`).
  case colors
  /// A list of numbers (`locations`, `lineDashPattern`, `keyTimes`).
  case numbers
  /// An image (`contents`).
  case image
  /// A CGPath.
  case path
  /// Free text (`name`, `font`).
  case string
  /// A `CATextLayer` string (text).
  case text
  /// A string enumeration with its allowed raw values.
  case enumeration([String])
  /// `CACornerMask`, written as a list of corner names.
  case cornerMask
  /// A list of `CIFilter`.
  case filters
  /// A blend mode name (`compositingFilter`).
  case blendMode
  /// A layer (`mask`).
  case layer
  /// A list of layers (`sublayers`).
  case layers
  /// A list of `CAEmitterCell`.
  case emitterCells
  /// Anything else (`actions`, `style`).
  case object
}

/// One key of a class: how to read and write it on an object, by key-value
/// coding (`Any`) and typed (`LayerValue`), and how to copy it.
struct PropertyAccessor {
  let key: String
  let aliases: [String]
  let kind: CAValueKind
  /// False for computed keys (`frame`) and the tree (`sublayers`, `mask`),
  /// which class defaults never touch.
  let isStored: Bool
  let get: (AnyObject) -> Any?
  let set: (AnyObject, Any?) -> Void
  /// The value, typed (`.none` for nil or another class's object).
  let read: (AnyObject) -> LayerValue
  /// Sets a typed value; false when it does not fit the property's type.
  let write: (AnyObject, LayerValue) -> Bool
  /// Copies the property from the second object into the first (both of
  /// the class); nil for the keys `copyValues(from:)` does not copy (the
  /// computed ones and the tree).
  let copy: ((AnyObject, AnyObject) -> Void)?

  /// How a property's Swift type converts to and from `LayerValue`.
  struct Typing<V> {
    let read: (V) -> LayerValue
    let write: (LayerValue) -> V?
  }

  @inline(__always)
  private static func accessor<O: AnyObject, V>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    aliases: [String], stored: Bool, copied: Bool?, typing: Typing<V>,
    get: @escaping (AnyObject) -> Any?, set: @escaping (AnyObject, Any?) -> Void
  ) -> PropertyAccessor {
    PropertyAccessor(
      key: key, aliases: aliases, kind: kind, isStored: stored, get: get, set: set,
      read: { ($0 as? O).map { typing.read($0[keyPath: keyPath]) } ?? .none },
      write: { object, value in
        guard let o = object as? O, let v = typing.write(value) else { return false }
        o[keyPath: keyPath] = v
        return true
      },
      copy: copied ?? stored
        ? { to, from in
          guard let to = to as? O, let from = from as? O else { return }
          to[keyPath: keyPath] = from[keyPath: keyPath]
        } : nil)
  }

  /// A key backed by a non-optional property; values that do not convert are ignored.
  @inline(__always)
  static func make<O: AnyObject, V>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil, typing: Typing<V>,
    _ convert: @escaping (Any?) -> V?
  ) -> PropertyAccessor {
    accessor(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied, typing: typing,
      get: { ($0 as? O).map { $0[keyPath: keyPath] as Any } },
      set: { object, value in
        guard let o = object as? O, let v = convert(value) else { return }
        o[keyPath: keyPath] = v
      })
  }

  /// A key backed by an optional property: nil and NSNull clear it.
  @inline(__always)
  static func optional<O: AnyObject, W>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, W?>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil, typing: Typing<W>,
    _ convert: @escaping (Any) -> W?
  ) -> PropertyAccessor {
    accessor(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied,
      typing: Typing<W?>(
        read: { $0.map(typing.read) ?? .none },
        write: { value in
          if case .none = value { return .some(nil) }
          return typing.write(value).map { .some($0) }
        }),
      get: { object -> Any? in
        guard let o = object as? O, let v = o[keyPath: keyPath] else { return nil }
        return v
      },
      set: { object, value in
        guard let o = object as? O else { return }
        guard let value = Convert.unwrap(value) else {
          o[keyPath: keyPath] = nil
          return
        }
        if let v = convert(value) { o[keyPath: keyPath] = v }
      })
  }

  // The typing of each kind of Swift type: its own conversion, an
  // enumeration's raw string, or (a property whose type is `Any`: contents,
  // compositingFilter, fromValue) the value as key-value coding boxes it.

  @inline(__always)
  static func make<O: AnyObject, V: LayerValueConvertible>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any?) -> V?
  ) -> PropertyAccessor {
    make(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied, typing: .typed,
      convert)
  }

  @inline(__always)
  static func make<O: AnyObject, E: RawRepresentable>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, E>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any?) -> E?
  ) -> PropertyAccessor where E.RawValue == String {
    make(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied,
      typing: .enumeration, convert)
  }

  @inline(__always)
  static func make<O: AnyObject, V>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any?) -> V?
  ) -> PropertyAccessor {
    make(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied,
      typing: .boxed(convert), convert)
  }

  @inline(__always)
  static func optional<O: AnyObject, W: LayerValueConvertible>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, W?>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any) -> W?
  ) -> PropertyAccessor {
    optional(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied, typing: .typed,
      convert)
  }

  @inline(__always)
  static func optional<O: AnyObject, E: RawRepresentable>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, E?>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any) -> E?
  ) -> PropertyAccessor where E.RawValue == String {
    optional(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied,
      typing: .enumeration, convert)
  }

  @inline(__always)
  static func optional<O: AnyObject, W>(
    _ key: String, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, W?>,
    aliases: [String] = [], stored: Bool = true, copied: Bool? = nil,
    _ convert: @escaping (Any) -> W?
  ) -> PropertyAccessor {
    optional(
      key, kind, keyPath, aliases: aliases, stored: stored, copied: copied,
      typing: .boxed { $0.flatMap(convert) }, convert)
  }
}

extension PropertyAccessor.Typing where V: LayerValueConvertible {
  static var typed: Self { Self(read: \.layerValue, write: V.from) }
}

extension PropertyAccessor.Typing where V: RawRepresentable, V.RawValue == String {
  static var enumeration: Self {
    Self(
      read: { .string($0.rawValue) },
      write: { value in
        guard case .string(let s) = value else { return nil }
        return V(rawValue: s)
      })
  }
}

extension PropertyAccessor.Typing {
  /// A property whose Swift type is `Any` (or holds `Any`): the value goes
  /// in boxed, as its type says, through the key's conversion.
  static func boxed(_ convert: @escaping (Any?) -> V?) -> Self {
    Self(read: { LayerValue($0) }, write: { convert($0.boxed) })
  }
}

/// A table of accessors by key and alias, in declaration order.
final class AccessorTable: @unchecked Sendable {
  let ordered: [PropertyAccessor]
  let byKey: [String: PropertyAccessor]
  /// The copy of each copied key, in order: what `CAAnimation.copyValues(from:)`
  /// runs (a layer's copy is plain assignments, for speed: docs/animation.md).
  let copies: [(AnyObject, AnyObject) -> Void]

  init(_ accessors: [PropertyAccessor]) {
    ordered = accessors
    copies = accessors.compactMap(\.copy)
    var map: [String: PropertyAccessor] = [:]
    for a in accessors {
      map[a.key] = a
      for alias in a.aliases { map[alias] = a }
    }
    byKey = map
  }
}

/// Conversions of the values KVC receives (Double, Int, Float, CGFloat,
/// Bool, NSNumber, strings for enumerations) into property types.
enum Convert {
  /// The value, or nil for nil, NSNull and an Optional holding nil.
  static func unwrap(_ value: Any?) -> Any? {
    guard let value else { return nil }
    if value is NSNull { return nil }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional {
      return mirror.children.first.map { $0.value }
    }
    return value
  }

  static func double(_ value: Any?) -> Double? {
    switch unwrap(value) {
    case let v as Double: return v
    case let v as CGFloat: return Double(v)
    case let v as Float: return Double(v)
    case let v as Int: return Double(v)
    case let v as Bool: return v ? 1 : 0
    case let v as Int32: return Double(v)
    case let v as UInt32: return Double(v)
    case let v as Int64: return Double(v)
    case let v as UInt: return Double(v)
    case let v as NSNumber: return v.doubleValue
    default: return nil
    }
  }

  static func cgFloat(_ value: Any?) -> CGFloat? { double(value).map { CGFloat($0) } }
  static func float(_ value: Any?) -> Float? { double(value).map { Float($0) } }

  static func int(_ value: Any?) -> Int? {
    guard let d = double(value), d.isFinite, abs(d) < 9e18 else { return nil }
    return Int(saturating: d)
  }

  static func uint32(_ value: Any?) -> UInt32? {
    guard let d = double(value), d.isFinite, d >= 0, d <= Double(UInt32.max) else { return nil }
    return UInt32(exactly: d.rounded(.towardZero))
  }

  static func bool(_ value: Any?) -> Bool? {
    if let b = unwrap(value) as? Bool { return b }
    return double(value).map { $0 != 0 }
  }

  static func point(_ value: Any?) -> CGPoint? {
    switch unwrap(value) {
    case let p as CGPoint: return p
    case let v as NSValue: return v.unboxedGeometry as? CGPoint
    case let a as [Any] where a.count == 2:
      guard let x = cgFloat(a[0]), let y = cgFloat(a[1]) else { return nil }
      return CGPoint(x: x, y: y)
    default: return nil
    }
  }

  static func size(_ value: Any?) -> CGSize? {
    switch unwrap(value) {
    case let s as CGSize: return s
    case let v as NSValue: return v.unboxedGeometry as? CGSize
    case let a as [Any] where a.count == 2:
      guard let w = cgFloat(a[0]), let h = cgFloat(a[1]) else { return nil }
      return CGSize(width: w, height: h)
    default: return nil
    }
  }

  static func rect(_ value: Any?) -> CGRect? {
    switch unwrap(value) {
    case let r as CGRect: return r
    case let v as NSValue: return v.unboxedGeometry as? CGRect
    case let a as [Any] where a.count == 4:
      let n = a.compactMap { cgFloat($0) }
      guard n.count == 4 else { return nil }
      return CGRect(x: n[0], y: n[1], width: n[2], height: n[3])
    default: return nil
    }
  }

  static func transform(_ value: Any?) -> CATransform3D? {
    switch unwrap(value) {
    case let t as CATransform3D: return t
    case let t as CGAffineTransform: return CATransform3DMakeAffineTransform(t)
    case let v as NSValue: return v.unboxedGeometry as? CATransform3D
    case let a as [Any] where a.count == 16:
      let n = a.compactMap { cgFloat($0) }
      return n.count == 16 ? CATransform3D(n) : nil
    default: return nil
    }
  }

  static func string(_ value: Any) -> String? {
    value as? String ?? (value as? NSString).map { String(describing: $0) }
  }

  static func numbers(_ value: Any) -> [CGFloat]? {
    if let a = value as? [CGFloat] { return a }
    guard let a = value as? [Any] else { return nil }
    let n = a.compactMap { cgFloat($0) }
    return n.count == a.count ? n : nil
  }

  /// An actions table: values that are `CAAction`s (an entry of another
  /// type is left out).
  static func actions(_ value: Any) -> [String: CAAction]? {
    if let a = value as? [String: CAAction] { return a }
    guard let table = value as? [String: Any] else { return nil }
    return table.compactMapValues { $0 as? CAAction }
  }

  static func edgeAntialiasingMask(_ value: Any?) -> CAEdgeAntialiasingMask? {
    if let m = unwrap(value) as? CAEdgeAntialiasingMask { return m }
    return uint32(value).map { CAEdgeAntialiasingMask(rawValue: $0) }
  }

  /// A list of numbers as Core Animation's `[NSNumber]` properties hold them.
  static func nsNumbers(_ value: Any) -> [NSNumber]? {
    if let a = value as? [NSNumber] { return a }
    return numbers(value)?.map { NSNumber(value: Double($0)) }
  }

  /// `[NSNumber]` values as CGFloats.
  static func lengths(_ numbers: [NSNumber]) -> [CGFloat] {
    numbers.map { CGFloat($0.doubleValue) }
  }

  static func color(_ value: Any) -> CGColor? {
    if let c = value as? CGColor { return c }
    if let s = value as? String { return CGColor(hex: s) }
    return nil
  }

  /// A struct enumeration from itself or its raw string.
  static func enumeration<E: RawRepresentable>(_ type: E.Type) -> (Any?) -> E?
  where E.RawValue == String {
    { value in
      let v = unwrap(value)
      if let e = v as? E { return e }
      return (v as? String).map { E(rawValue: $0) } ?? nil
    }
  }

  static func cornerMask(_ value: Any?) -> CACornerMask? {
    switch unwrap(value) {
    case let m as CACornerMask: return m
    case let names as [String]:
      var mask: CACornerMask = []
      for name in names {
        guard let corner = CACornerMask.names.first(where: { $0.0 == name })?.1 else {
          return nil
        }
        mask.insert(corner)
      }
      return mask
    default:
      return int(value).map { CACornerMask(rawValue: UInt(truncatingIfNeeded: $0)) }
    }
  }

  /// True when two values are known to be equal (used to skip class defaults
  /// that match the initial values).
  static func same(_ a: Any?, _ b: Any?) -> Bool {
    let a = unwrap(a)
    let b = unwrap(b)
    if a == nil && b == nil { return true }
    guard let a, let b else { return false }
    if let x = a as? AnyHashable, let y = b as? AnyHashable { return x == y }
    return false
  }
}
