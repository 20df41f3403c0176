import Foundation

// Key-value coding as Core Animation does it: every property is reachable by
// its key, struct members and transform components by key paths
// (`position.x`, `transform.rotation.y`), and keys the class does not have
// are stored on the layer and read back.

extension CALayer {
  /// The descriptions of CALayer's own properties (see LayerProperty.swift).
  static let layerProperties: [LayerProperty] = {
    typealias P = LayerProperty
    typealias C = Convert
    typealias A = AnimatedProperty
    return [
      P.make(
        .bounds, .rect, \CALayer.bounds, range: .box, action: true,
        animation: A.value({ .rect($0.bounds) }) { l, v in
          guard case .rect(let r) = v else { return false }
          l.bounds = r
          return true
        }, invalidates: .drawnText, C.rect),
      P.make(
        .position, .point, \CALayer.position, range: .coordinate, action: true,
        animation: A.value({ .point($0.position) }) { l, v in
          guard case .point(let p) = v else { return false }
          l.position = p
          return true
        }, C.point),
      P.make(.frame, .rect, \CALayer.frame, range: .box, stored: false, C.rect),
      P.make(
        .zPosition, .number, \CALayer.zPosition, range: .coordinate, action: true,
        animation: A.number({ Double($0.zPosition) }, { $0.zPosition = CGFloat($1) }),
        C.cgFloat),
      P.make(
        .anchorPoint, .point, \CALayer.anchorPoint, range: .coordinate, action: true, C.point),
      P.make(
        .anchorPointZ, .number, \CALayer.anchorPointZ, range: .coordinate, action: true,
        C.cgFloat),
      P.make(
        .transform, .transform, \CALayer.transform, range: .transform, action: true,
        animation: A.value({ .transform($0.transform) }) { l, v in
          guard case .transform(let t) = v else { return false }
          l.transform = t
          return true
        }, C.transform),
      P.make(
        .sublayerTransform, .transform, \CALayer.sublayerTransform, range: .transform,
        action: true, C.transform),
      P.make(.isGeometryFlipped, .bool, \CALayer.isGeometryFlipped, C.bool),
      // Animatable, but with "no default implied animation" (Core
      // Animation Programming Guide, Table B-1): no implicit action.
      P.make(.isDoubleSided, .bool, \CALayer.isDoubleSided, C.bool),
      P.make(.isHidden, .bool, \CALayer.isHidden, action: true, C.bool),
      P.make(
        .opacity, .number, \CALayer.opacity, action: true,
        animation: A.number({ Double($0.opacity) }, { $0.opacity = Float($1) }), C.float),
      P.optional(
        .backgroundColor, .color, \CALayer.backgroundColor, action: true,
        animation: A.value({ $0.backgroundColor.map { .color($0) } ?? .none }) { l, v in
          switch v {
          case .color(let c): l.backgroundColor = c
          case .none: l.backgroundColor = nil
          default: return false
          }
          return true
        }, C.color),
      P.make(
        .cornerRadius, .number, \CALayer.cornerRadius, range: .side, action: true,
        animation: A.number({ Double($0.cornerRadius) }, { $0.cornerRadius = CGFloat($1) }),
        C.cgFloat),
      P.make(.maskedCorners, .cornerMask, \CALayer.maskedCorners, C.cornerMask),
      P.make(
        .borderWidth, .number, \CALayer.borderWidth, range: .side, action: true,
        animation: A.number({ Double($0.borderWidth) }, { $0.borderWidth = CGFloat($1) }),
        C.cgFloat),
      P.optional(.borderColor, .color, \CALayer.borderColor, action: true, C.color),
      P.make(.masksToBounds, .bool, \CALayer.masksToBounds, action: true, C.bool),
      P.optional(.mask, .layer, \CALayer.mask, stored: false) { $0 as? CALayer },
      P.enumeration(.maskMode, \CALayer.maskMode, all: CALayerMaskMode.all),
      P.optional(.contents, .image, \CALayer.contents, action: true) { $0 },
      P.enumeration(.contentsGravity, \CALayer.contentsGravity, all: CALayerContentsGravity.all),
      P.make(.contentsRect, .rect, \CALayer.contentsRect, action: true, C.rect),
      P.make(.contentsCenter, .rect, \CALayer.contentsCenter, action: true, C.rect),
      P.make(
        .contentsScale, .number, \CALayer.contentsScale, range: .scale,
        invalidates: .drawnText, C.cgFloat),
      P.enumeration(
        .magnificationFilter, \CALayer.magnificationFilter, all: CALayerContentsFilter.all),
      P.enumeration(
        .minificationFilter, \CALayer.minificationFilter, all: CALayerContentsFilter.all),
      P.make(.minificationFilterBias, .number, \CALayer.minificationFilterBias, C.float),
      P.optional(.shadowColor, .color, \CALayer.shadowColor, action: true, C.color),
      P.make(
        .shadowOpacity, .number, \CALayer.shadowOpacity, action: true,
        animation: A.number({ Double($0.shadowOpacity) }, { $0.shadowOpacity = Float($1) }),
        C.float),
      P.make(
        .shadowOffset, .size, \CALayer.shadowOffset, range: .coordinate, action: true, C.size),
      P.make(
        .shadowRadius, .number, \CALayer.shadowRadius, range: .blur, action: true,
        animation: A.number({ Double($0.shadowRadius) }, { $0.shadowRadius = CGFloat($1) }),
        C.cgFloat),
      P.optional(.shadowPath, .path, \CALayer.shadowPath, action: true) { $0 as? CGPath },
      P.make(.shouldRasterize, .bool, \CALayer.shouldRasterize, C.bool),
      P.make(.rasterizationScale, .number, \CALayer.rasterizationScale, range: .scale, C.cgFloat),
      P.optional(.filters, .filters, \CALayer.filters, range: .filters, action: true) {
        $0 as? [Any]
      },
      P.optional(
        .backgroundFilters, .filters, \CALayer.backgroundFilters, range: .filters, action: true
      ) { $0 as? [Any] },
      P.optional(.compositingFilter, .blendMode, \CALayer.compositingFilter, action: true) { $0 },
      P.optional(.name, .string, \CALayer.name, C.string),
      P.optional(.sublayers, .layers, \CALayer.sublayers, stored: false) { $0 as? [CALayer] },
      P.optional(.actions, .object, \CALayer.actions) { Convert.actions($0) },
      P.optional(.style, .object, \CALayer.style) { $0 as? [AnyHashable: Any] },
      P.make(.allowsEdgeAntialiasing, .bool, \CALayer.allowsEdgeAntialiasing, C.bool),
      P.make(.allowsGroupOpacity, .bool, \CALayer.allowsGroupOpacity, C.bool),
      P.make(
        .edgeAntialiasingMask, .integer, \CALayer.edgeAntialiasingMask, C.edgeAntialiasingMask),
      P.enumeration(.cornerCurve, \CALayer.cornerCurve, all: CALayerCornerCurve.all),
      P.make(.drawsAsynchronously, .bool, \CALayer.drawsAsynchronously, C.bool),
      P.enumeration(.contentsFormat, \CALayer.contentsFormat, all: CALayerContentsFormat.all),
      P.make(.needsDisplayOnBoundsChange, .bool, \CALayer.needsDisplayOnBoundsChange, C.bool),
      P.make(.isOpaque, .bool, \CALayer.isOpaque, C.bool),
    ]
  }()

  /// CALayer's own accessors, read from its descriptions.
  static let layerAccessors: [PropertyAccessor] = layerProperties.map(\.accessor)

  /// The keys of the class, CALayer's first, in declaration order (the scene
  /// format's spellings: `isHidden`, `isDoubleSided`, `isGeometryFlipped`).
  public class var propertyKeys: [String] { accessorTable.ordered.map(\.key) }

  /// The kind of value `keyPath` holds on this class (`opacity` → number,
  /// `position.x` → number, `transform.rotation.y` → number,
  /// `bounds.size` → size), or nil when the class has no such key path.
  public class func valueKind(forKeyPath keyPath: String) -> CAValueKind? {
    let table = accessorTable.byKey
    if let a = table[keyPath] { return a.kind }
    guard let dot = keyPath.firstIndex(of: ".") else { return nil }
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    guard let a = table[head] else { return nil }
    if a.kind == .layer { return CALayer.valueKind(forKeyPath: rest) }
    if a.kind == .filters { return FilterPath(rest)?.kind }
    if a.kind == .emitterCells { return EmitterCellPath(rest)?.kind }
    return StructPath.kind(of: a.kind, path: rest)
  }

  static var accessorTable: AccessorTable {
    let id = ObjectIdentifier(self)
    ClassRegistry.lock.lock()
    if let table = ClassRegistry.tables[id] {
      ClassRegistry.lock.unlock()
      return table
    }
    ClassRegistry.lock.unlock()
    let table = AccessorTable(accessors)
    ClassRegistry.lock.lock()
    ClassRegistry.tables[id] = table
    ClassRegistry.lock.unlock()
    return table
  }

  // MARK: Keys

  func valueImpl(forKey key: String) -> Any? {
    if let a = Self.accessorTable.byKey[key] { return a.get(self) }
    if let v = attributes[key] { return v }
    return Self.defaultValue(forKey: key)
  }

  func setValueImpl(_ value: Any?, forKey key: String) {
    if let a = Self.accessorTable.byKey[key] {
      // CALayer's own properties observe their changes; a subclass's are
      // observed here (so they animate implicitly when set by key).
      guard !CALayer.observedKeys.contains(a.key) else { return a.set(self, value) }
      let old = isLive ? a.get(self) : nil
      a.set(self, value)
      valuesVersion &+= 1
      openTransaction()
      if isLive { propertyDidChange(a.key, from: old) }
    } else {
      // A key of no property: stored, as Core Animation stores any key.
      // Like a property, its change redraws the layer when the class's
      // `needsDisplay(forKey:)` says so, and runs its action (the
      // delegate's, `actions`, `style`; `defaultAction(forKey:)` has none
      // for such keys, as in Core Animation) on a live layer.
      let old = isLive ? attributes[key] : nil
      attributes[key] = Convert.unwrap(value)
      valuesVersion &+= 1
      openTransaction()
      if redisplaysOnChange && modelLayer == nil && type(of: self).needsDisplay(forKey: key) {
        setNeedsDisplay()
      }
      if isLive { propertyDidChange(key, from: old) }
    }
  }

  /// The keys of CALayer itself, whose properties report their own changes.
  static let observedKeys: Set<String> = Set((layerAccessors + timingAccessors).map(\.key))

  /// The value at a dotted key path: `position.x`, `bounds.size.width`,
  /// `transform.rotation.y`, `mask.opacity`.
  func valueImpl(forKeyPath keyPath: String) -> Any? {
    if Self.accessorTable.byKey[keyPath] != nil || !keyPath.contains(".") {
      return value(forKey: keyPath)
    }
    let dot = keyPath.firstIndex(of: ".")!
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    guard let a = Self.accessorTable.byKey[head] else { return attributes[keyPath] }
    guard let base = a.get(self) else { return nil }
    if let layer = base as? CALayer { return layer.value(forKeyPath: rest) }
    if a.kind == .filters, let path = FilterPath(rest) {
      return path.filter(in: base as? [Any])?.value(forKey: path.input)
    }
    if a.kind == .emitterCells, let path = EmitterCellPath(rest) {
      return path.value(in: base as? [CAEmitterCell])
    }
    return StructPath.get(base, kind: a.kind, path: rest)
  }

  /// Sets the value at a dotted key path; struct members and transform
  /// components are replaced in the current value, which is then set back.
  func setValueImpl(_ value: Any?, forKeyPath keyPath: String) {
    if Self.accessorTable.byKey[keyPath] != nil || !keyPath.contains(".") {
      setValue(value, forKey: keyPath)
      return
    }
    let dot = keyPath.firstIndex(of: ".")!
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    guard let a = Self.accessorTable.byKey[head] else {
      attributes[keyPath] = Convert.unwrap(value)
      return
    }
    guard let base = a.get(self) else { return }
    if let layer = base as? CALayer {
      layer.setValue(value, forKeyPath: rest)
    } else if a.kind == .filters {
      // Filters are shared between a layer and its presentation copies: the
      // named one is replaced by a changed copy, never changed in place.
      guard let path = FilterPath(rest), var list = base as? [Any],
        let i = list.firstIndex(where: { ($0 as? CIFilter)?.name == path.name })
      else { return }
      let old = (list[i] as! CIFilter).value(forKey: path.input)
      let changed = (list[i] as! CIFilter).copy()
      changed.setValue(value, forKey: path.input)
      list[i] = changed
      // The action is the input's (`filters.blur.inputRadius`), not the list's.
      let live = isLive
      let saved = createdGeneration
      createdGeneration = .max
      a.set(self, list)
      createdGeneration = saved
      if live { propertyDidChange(keyPath, from: old) }
    } else if a.kind == .emitterCells {
      // Cells are shared with presentation copies: the named one (and the
      // cells above it) are replaced by changed copies, never changed in place.
      guard let path = EmitterCellPath(rest), let cells = base as? [CAEmitterCell],
        let updated = path.setting(value, in: cells)
      else { return }
      a.set(self, updated)
    } else if let updated = StructPath.set(base, kind: a.kind, path: rest, to: value) {
      a.set(self, updated)
    }
  }

  // MARK: Class defaults

  static func defaultValueImpl(forKey key: String) -> Any? {
    guard let a = accessorTable.byKey[key], a.isStored else { return nil }
    return a.get(ClassRegistry.prototype(for: self))
  }

  /// Sets the values of `defaultValue(forKey:)` overrides. The list of keys
  /// whose default differs from the initial value is computed once per class,
  /// so creating a layer costs a dictionary look-up when nothing is overridden.
  func applyClassDefaults() {
    for (accessor, value) in ClassRegistry.overrides(for: type(of: self)) {
      accessor.set(self, value)
    }
  }
}

/// Per-class caches: accessor tables, pristine prototypes and the defaults
/// that differ from initial values.
enum ClassRegistry {
  static let lock = NSLock()
  nonisolated(unsafe) static var tables: [ObjectIdentifier: AccessorTable] = [:]
  nonisolated(unsafe) static var overrideLists: [ObjectIdentifier: [(PropertyAccessor, Any?)]] =
    [:]
  nonisolated(unsafe) static var prototypes: [ObjectIdentifier: CALayer] = [:]
  /// Classes whose prototype is being built: their instances skip defaults meanwhile.
  nonisolated(unsafe) static var building: Set<ObjectIdentifier> = []

  static func overrides(for cls: CALayer.Type) -> [(PropertyAccessor, Any?)] {
    let id = ObjectIdentifier(cls)
    lock.lock()
    if let list = overrideLists[id] {
      lock.unlock()
      return list
    }
    if building.contains(id) {
      lock.unlock()
      return []
    }
    lock.unlock()
    let proto = prototype(for: cls)
    var list: [(PropertyAccessor, Any?)] = []
    for a in cls.accessorTable.ordered where a.isStored {
      let value = cls.defaultValue(forKey: a.key)
      if !Convert.same(value, a.get(proto)) { list.append((a, value)) }
    }
    lock.lock()
    overrideLists[id] = list
    lock.unlock()
    return list
  }

  /// An instance of `cls` with its initial values, before any class default.
  /// A subclass defined outside Lamina shares its Lamina class's prototype:
  /// it cannot change the initial values of the properties it inherits.
  static func prototype(for requested: CALayer.Type) -> CALayer {
    let cls = requested.laminaClass
    let id = ObjectIdentifier(cls)
    lock.lock()
    if let p = prototypes[id] {
      lock.unlock()
      return p
    }
    let inserted = building.insert(id).inserted
    lock.unlock()
    let p = cls.makeInstance()
    lock.lock()
    if inserted { building.remove(id) }
    if let existing = prototypes[id] {
      lock.unlock()
      return existing
    }
    prototypes[id] = p
    lock.unlock()
    return p
  }
}

/// Members of struct values reached by key paths.
enum StructPath {
  static func kind(of base: CAValueKind, path: String) -> CAValueKind? {
    switch base {
    case .point: return ["x", "y"].contains(path) ? .number : nil
    case .size: return ["width", "height"].contains(path) ? .number : nil
    case .rect:
      switch path {
      case "origin": return .point
      case "size": return .size
      case "origin.x", "origin.y", "size.width", "size.height": return .number
      default: return nil
      }
    case .transform:
      guard CATransform3D.componentNames.contains(path) else { return nil }
      return path == "translation" ? .size : .number
    default: return nil
    }
  }

  /// A struct value's member by key path (`x`, `size.width`, a transform's
  /// `rotation.z`), boxed: the typed `LayerValue.member(_:)`.
  static func get(_ value: Any, kind: CAValueKind, path: String) -> Any? {
    LayerValue(value).member(path)?.boxed
  }

  /// `value` with its member at `path` set to `new`, boxed; nil when the
  /// path or the new value does not fit: the typed `LayerValue.setting`.
  static func set(_ value: Any, kind: CAValueKind, path: String, to new: Any?) -> Any? {
    LayerValue(value).setting(path, to: LayerValue(new))?.boxed
  }
}

/// A key path into a list of filters: `<filter name>.<input key>`
/// (`filters.blur.inputRadius`, as Core Animation names a filter's input).
struct FilterPath {
  let name: String
  let input: String

  init?(_ path: String) {
    guard let dot = path.firstIndex(of: "."), dot != path.startIndex else { return nil }
    name = String(path[..<dot])
    input = String(path[path.index(after: dot)...])
    guard !input.isEmpty, !input.contains(".") else { return nil }
  }

  /// Numeric inputs animate; a vector input is set whole.
  var kind: CAValueKind? {
    switch CIFilter.anyInputKind(forKey: input) {
    case .number: .number
    case .vector: .numbers
    case nil: nil
    }
  }

  func filter(in list: [Any]?) -> CIFilter? {
    list?.lazy.compactMap { $0 as? CIFilter }.first { $0.name == name }
  }
}
