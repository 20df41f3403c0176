import Foundation

// Typed values on layers: what the scene decoder and the animation
// evaluator read and set, through the property descriptions
// (LayerProperty.swift) and their typed accessors. Key-value coding
// (`value(forKey:)`, `setValue(_:forKey:)`) is the same thing with `Any`.

extension CALayer {
  /// The value at `keyPath` (a key, or a dotted path: `position.x`,
  /// `transform.rotation.z`, `mask.opacity`, `filters.blur.inputRadius`),
  /// typed; nil when the class has no such key path.
  package func layerValue(forKeyPath keyPath: String) -> LayerValue? {
    let table = Self.accessorTable.byKey
    if let a = table[keyPath] { return a.read(self) }
    guard let dot = keyPath.firstIndex(of: "."), let a = table[String(keyPath[..<dot])] else {
      return nil
    }
    let rest = String(keyPath[keyPath.index(after: dot)...])
    let base = a.read(self)
    switch (a.kind, base) {
    case (.layer, .layer(let layer)):
      return layer.layerValue(forKeyPath: rest)
    case (.filters, .filters(let list)):
      guard let path = FilterPath(rest) else { return nil }
      return list.first { $0.name == path.name }.map { LayerValue($0.value(forKey: path.input)) }
    case (.emitterCells, .emitterCells(let cells)):
      guard let path = EmitterCellPath(rest), let cell = path.cell(in: cells) else { return nil }
      return CAEmitterCell.table.byKey[path.key]?.read(cell)
    default:
      return base.member(rest)
    }
  }

  /// Sets the value at `keyPath` through its property's description, as
  /// `setValue(_:forKeyPath:)` sets it (changes reported, actions run);
  /// false when the class has no such key path or `value` does not fit it.
  @discardableResult
  package func setLayerValue(_ value: LayerValue, forKeyPath keyPath: String) -> Bool {
    let table = Self.accessorTable.byKey
    if let a = table[keyPath] { return setProperty(a) { a.write(self, value) } }
    guard let dot = keyPath.firstIndex(of: "."), let a = table[String(keyPath[..<dot])] else {
      return false
    }
    let rest = String(keyPath[keyPath.index(after: dot)...])
    let base = a.read(self)
    switch (a.kind, base) {
    case (.layer, .layer(let layer)):
      return layer.setLayerValue(value, forKeyPath: rest)
    case (.filters, _):
      guard let path = FilterPath(rest) else { return false }
      let input: Any
      switch value {
      case .numbers(let v): input = CIVector(values: v.map { CGFloat($0) })
      default:
        guard let v = CGFloat.from(value) else { return false }
        input = v
      }
      return setFilterInput(a, path, keyPath: keyPath) { $0.setValue(input, forKey: path.input) }
    case (.emitterCells, .emitterCells(let cells)):
      guard let path = EmitterCellPath(rest), let accessor = CAEmitterCell.table.byKey[path.key]
      else { return false }
      var fits = false
      guard let updated = path.setting(in: cells, { fits = accessor.write($0, value) }), fits
      else { return false }
      return a.write(self, .emitterCells(updated))
    default:
      guard let updated = base.setting(rest, to: value) else { return false }
      return a.write(self, updated)
    }
  }

  /// Sets property `a` by `apply` (false: nothing was set). CALayer's own
  /// properties report their changes; a subclass's are reported here, so
  /// that they animate implicitly when set by key.
  func setProperty(_ a: PropertyAccessor, _ apply: () -> Bool) -> Bool {
    guard !CALayer.observedKeys.contains(a.key) else { return apply() }
    let old = isLive ? a.get(self) : nil
    guard apply() else { return false }
    valuesVersion &+= 1
    if isLive { propertyDidChange(a.key, from: old) }
    return true
  }

  /// Replaces the filter `path` names in the list of property `a` by a copy
  /// changed by `change` (filters are shared between a layer and its
  /// presentation copies: never changed in place); false when the list
  /// has no such filter. The action is the input's
  /// (`filters.blur.inputRadius`), not the list's.
  func setFilterInput(
    _ a: PropertyAccessor, _ path: FilterPath, keyPath: String, _ change: (CIFilter) -> Void
  ) -> Bool {
    guard var list = a.get(self) as? [Any],
      let i = list.firstIndex(where: { ($0 as? CIFilter)?.name == path.name }),
      let filter = list[i] as? CIFilter
    else { return false }
    let old = filter.value(forKey: path.input)
    let changed = filter.copy()
    change(changed)
    list[i] = changed
    let live = isLive
    let saved = createdGeneration
    createdGeneration = .max
    a.set(self, list)
    createdGeneration = saved
    if live { propertyDidChange(keyPath, from: old) }
    return true
  }
}

extension CAEmitterCell {
  /// Sets the cell's `key` through its description; false when cells have
  /// no such key or `value` does not fit it.
  @discardableResult
  package func setLayerValue(_ value: LayerValue, forKey key: String) -> Bool {
    Self.table.byKey[key]?.write(self, value) ?? false
  }

  /// The cell's `key`, typed; nil when cells have no such key.
  package func layerValue(forKey key: String) -> LayerValue? {
    Self.table.byKey[key]?.read(self)
  }
}
