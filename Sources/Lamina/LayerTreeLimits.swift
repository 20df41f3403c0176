import Foundation

/// A limit that a layer tree exceeds, and where: the layer, and the key of
/// that layer that holds what was counted, when one does.
public struct LimitViolation: Error, CustomStringConvertible {
  /// The layer where the limit was crossed (a presentation layer when a
  /// presentation tree was checked; its `model()` is the scene's layer).
  public let layer: CALayer
  /// The key of `layer` that holds the offending value (`instanceCount`,
  /// `position.x`), or nil for totals reached at that layer.
  public let key: String?
  /// Which limit, and what was found.
  public let exceeded: LimitExceeded

  public init(layer: CALayer, key: String?, exceeded: LimitExceeded) {
    self.layer = layer
    self.key = key
    self.exceeded = exceeded
  }

  public var description: String {
    let name = layer.name.map { "layer \(MessageText.quoted($0))" } ?? "a layer"
    return "\(name)\(key.map { ".\($0)" } ?? ""): \(exceeded)"
  }
}

/// The limits of a layer tree as a whole, checked by one walk of the model
/// (at load) or of a presentation tree (before each frame, since animations
/// move values): nesting depth, layers once replicators and emitters are
/// expanded, replicator instances and emitter particles multiplied through
/// nesting, filters and blur radii, dash counts, text length, and every
/// number that geometry is built from finite and in range.
///
/// The walk costs a few operations per layer and never expands anything, so
/// a tree that would make millions of instances is refused before one is made.
public enum LayerTreeLimits {
  /// Throws a `LimitViolation` for the first limit `root`'s tree exceeds.
  public static func check(_ root: CALayer) throws {
    var walk = Walk()
    try walk.visit(root, depth: 1, factor: 1)
  }

  /// An upper bound on the particles an emitter simulates at any time: for
  /// each cell, its birth rate times the longest life it and its descendants
  /// reach, multiplied down through nested cells (every particle of a cell
  /// emits its nested cells).
  public static func particleBound(_ emitter: CAEmitterLayer) -> Double {
    let rate = nonNegative(Double(emitter.birthRate))
    let life = nonNegative(Double(emitter.lifetime))
    return cellBound(emitter.emitterCells ?? [], rateScale: rate, lifeScale: life, parents: 1)
  }

  static func cellBound(
    _ cells: [CAEmitterCell], rateScale: Double, lifeScale: Double, parents: Double, depth: Int = 0
  ) -> Double {
    // Nesting is bounded by the scene's own depth; a cycle built in code is cut here.
    guard depth < 32 else { return .infinity }
    var total = 0.0
    for cell in cells where cell.isEnabled {
      let rate = nonNegative(Double(cell.birthRate)) * rateScale
      let life = nonNegative(Double(cell.lifetime) + abs(Double(cell.lifetimeRange))) * lifeScale
      guard rate > 0, life > 0 else { continue }
      let reach = life + longestLife(cell.emitterCells ?? [], lifeScale, depth: depth + 1)
      // Births looked at per parent: those within the reach, plus the newest.
      let count = parents * (rate * reach + 1)
      total += count
      if let nested = cell.emitterCells, !nested.isEmpty {
        total += cellBound(
          nested, rateScale: 1, lifeScale: lifeScale, parents: count, depth: depth + 1)
      }
      if !(total < .infinity) { return .infinity }
    }
    return total
  }

  static func longestLife(_ cells: [CAEmitterCell], _ lifeScale: Double, depth: Int) -> Double {
    guard depth < 32 else { return .infinity }
    return cells.map {
      nonNegative(Double($0.lifetime) + abs(Double($0.lifetimeRange))) * lifeScale
        + longestLife($0.emitterCells ?? [], lifeScale, depth: depth + 1)
    }.max() ?? 0
  }

  /// NaN and negative values count as 0; infinity stays.
  static func nonNegative(_ v: Double) -> Double { v > 0 ? v : 0 }

  /// An upper bound on a path's length: its control polygon's.
  public static func lengthBound(_ path: CGPath) -> Double {
    var length = 0.0
    var current = CGPoint.zero
    var start = CGPoint.zero
    func add(_ p: CGPoint) {
      length += Double(hypot(p.x - current.x, p.y - current.y))
      current = p
    }
    for element in path.elements {
      switch element {
      case .moveTo(let p):
        current = p
        start = p
      case .lineTo(let p): add(p)
      case .quadCurveTo(let p, let c):
        add(c)
        add(p)
      case .curveTo(let p, let c1, let c2):
        add(c1)
        add(c2)
        add(p)
      case .closeSubpath: add(start)
      }
    }
    return length
  }

  struct Walk {
    var layers = 0.0
    var instances = 0.0
    var particles = 0.0
    var glyphs = 0.0
    var pathElements = 0

    func fail(_ layer: CALayer, _ key: String?, _ exceeded: LimitExceeded) -> LimitViolation {
      LimitViolation(layer: layer, key: key, exceeded: exceeded)
    }

    /// A count as messages write it: whole below 10^15, three digits above,
    /// and finite (a count that overflowed is "more than 1000000000000000").
    static func count(_ v: Double) -> String {
      if v < 1e15 { return String(Int(saturating: v)) }
      return v.isFinite ? String(format: "%.3g", v) : "more than 1000000000000000"
    }

    /// `v` rounded up to three significant digits: a bound to write in advice.
    static func roundedUp(_ v: Double) -> String {
      guard v.isFinite, v > 0 else { return number(CGFloat(v)) }
      let unit = pow(10, floor(log10(v)) - 2)
      return String(format: "%g", (v / unit).rounded(.up) * unit)
    }

    mutating func visit(_ layer: CALayer, depth: Int, factor: Double) throws {
      if depth > Limits.maxNestingDepth {
        throw fail(
          layer, nil,
          LimitExceeded(
            what: "layers nested (sublayers and masks)", found: "more than \(depth - 1)",
            limit: String(Limits.maxNestingDepth), name: "maxNestingDepth"))
      }
      layers += factor
      if layers > Double(Limits.maxLayers) {
        throw fail(layer, nil, Self.layerTotal(layers))
      }
      try checkValues(layer)
      if let text = layer as? CATextLayer, let string = text.string as? String {
        glyphs += factor * Double(string.unicodeScalars.count)
        if glyphs > Double(Limits.maxGlyphsPerFrame) {
          throw fail(
            layer, LayerKey.string.rawValue,
            LimitExceeded(
              what: "characters of all text layers, replicated ones once per instance",
              found: Self.count(glyphs), limit: String(Limits.maxGlyphsPerFrame),
              name: "maxGlyphsPerFrame"))
        }
      }
      var childFactor = factor
      if let replicator = layer as? CAReplicatorLayer {
        let n = replicator.instanceCount
        if n > Limits.maxInstanceCount {
          throw fail(
            layer, LayerKey.instanceCount.rawValue,
            LimitExceeded(
              what: "instances of one replicator", found: n, limit: Limits.maxInstanceCount,
              name: "maxInstanceCount"))
        }
        childFactor = factor * Double(max(0, n))
        instances += childFactor
        if instances > Double(Limits.maxInstances) {
          throw fail(
            layer, LayerKey.instanceCount.rawValue,
            LimitExceeded(
              what: "replicator instances in the tree, multiplied through nesting",
              found: Self.count(instances), limit: String(Limits.maxInstances),
              name: "maxInstances"))
        }
      }
      if let emitter = layer as? CAEmitterLayer {
        let bound = Self.particleBoundIgnoringTime(emitter) * factor
        particles += bound
        layers += bound
        if !(particles <= Double(Limits.maxParticles)) {
          throw fail(
            layer, LayerKey.birthRate.rawValue,
            LimitExceeded(
              what:
                "emitter particles alive at once (birth rate × lifetime, through nested cells and replicators)",
              found: Self.count(particles), limit: String(Limits.maxParticles),
              name: "maxParticles"))
        }
        if layers > Double(Limits.maxLayers) {
          throw fail(layer, nil, Self.layerTotal(layers))
        }
      }
      if let mask = layer.mask { try visit(mask, depth: depth + 1, factor: factor) }
      for sublayer in layer.sublayers ?? [] {
        try visit(sublayer, depth: depth + 1, factor: childFactor)
      }
    }

    static func particleBoundIgnoringTime(_ emitter: CAEmitterLayer) -> Double {
      LayerTreeLimits.particleBound(emitter)
    }

    static func layerTotal(_ layers: Double) -> LimitExceeded {
      LimitExceeded(
        what: "layers once replicators and emitters are expanded", found: count(layers),
        limit: String(Limits.maxLayers), name: "maxLayers")
    }

    // MARK: Values

    /// Values that animations can move: checked again on every presentation tree.
    mutating func checkValues(_ layer: CALayer) throws {
      func within(_ key: @autoclosure () -> String, _ v: CGFloat, _ limit: CGFloat, _ name: String)
        throws
      {
        guard !(abs(v) <= limit) else { return }
        throw fail(
          layer, key(),
          LimitExceeded(
            what: "\(key()) must be finite and within ±\(Self.number(limit))",
            found: Self.number(v), limit: Self.number(limit), name: name))
      }
      let c = Limits.maxCoordinate
      try within(LayerKey.position.path("x"), layer.position.x, c, "maxCoordinate")
      try within(LayerKey.position.path("y"), layer.position.y, c, "maxCoordinate")
      try within(LayerKey.zPosition.rawValue, layer.zPosition, c, "maxCoordinate")
      try within(LayerKey.anchorPointZ.rawValue, layer.anchorPointZ, c, "maxCoordinate")
      try within(LayerKey.anchorPoint.path("x"), layer.anchorPoint.x, c, "maxCoordinate")
      try within(LayerKey.anchorPoint.path("y"), layer.anchorPoint.y, c, "maxCoordinate")
      try within(LayerKey.bounds.path("origin.x"), layer.bounds.origin.x, c, "maxCoordinate")
      try within(LayerKey.bounds.path("origin.y"), layer.bounds.origin.y, c, "maxCoordinate")
      let side = Limits.maxLayerSide
      try within(LayerKey.bounds.path("size.width"), layer.bounds.size.width, side, "maxLayerSide")
      try within(
        LayerKey.bounds.path("size.height"), layer.bounds.size.height, side, "maxLayerSide")
      try within(LayerKey.cornerRadius.rawValue, layer.cornerRadius, side, "maxLayerSide")
      try within(LayerKey.borderWidth.rawValue, layer.borderWidth, side, "maxLayerSide")
      try within(LayerKey.shadowOffset.path("width"), layer.shadowOffset.width, c, "maxCoordinate")
      try within(
        LayerKey.shadowOffset.path("height"), layer.shadowOffset.height, c, "maxCoordinate")
      try within(
        LayerKey.shadowRadius.rawValue, layer.shadowRadius, Limits.maxBlurRadius, "maxBlurRadius")
      try within(
        LayerKey.opacity.rawValue, CGFloat(layer.opacity), CGFloat(Limits.maxMagnitude),
        "maxMagnitude")
      try within(
        LayerKey.shadowOpacity.rawValue, CGFloat(layer.shadowOpacity), CGFloat(Limits.maxMagnitude),
        "maxMagnitude")
      try checkTransform(layer, LayerKey.transform.rawValue, layer.transform)
      try checkTransform(layer, LayerKey.sublayerTransform.rawValue, layer.sublayerTransform)
      try checkFilters(layer, LayerKey.filters.rawValue, layer.filters)
      try checkFilters(layer, LayerKey.backgroundFilters.rawValue, layer.backgroundFilters)
      if let path = layer.shadowPath { try checkPath(layer, LayerKey.shadowPath.rawValue, path) }
      if let replicator = layer as? CAReplicatorLayer {
        try checkTransform(layer, LayerKey.instanceTransform.rawValue, replicator.instanceTransform)
      }
      if let emitter = layer as? CAEmitterLayer {
        // The emitter's place and extent are coordinates (their ranges in
        // CAEmitterLayer.emitterProperties).
        let e = emitter
        try within(LayerKey.emitterPosition.path("x"), e.emitterPosition.x, c, "maxCoordinate")
        try within(LayerKey.emitterPosition.path("y"), e.emitterPosition.y, c, "maxCoordinate")
        try within(LayerKey.emitterZPosition.rawValue, e.emitterZPosition, c, "maxCoordinate")
        try within(LayerKey.emitterSize.path("width"), e.emitterSize.width, c, "maxCoordinate")
        try within(LayerKey.emitterSize.path("height"), e.emitterSize.height, c, "maxCoordinate")
        try within(LayerKey.emitterDepth.rawValue, e.emitterDepth, c, "maxCoordinate")
      }
      if let shape = layer as? CAShapeLayer { try checkShape(shape) }
      if let text = layer as? CATextLayer { try checkText(text) }
      if let gradient = layer as? CAGradientLayer, let colors = gradient.colors,
        colors.count > Limits.maxGradientStops
      {
        throw fail(
          layer, LayerKey.colors.rawValue,
          LimitExceeded(
            what: "gradient colors", found: colors.count, limit: Limits.maxGradientStops,
            name: "maxGradientStops"))
      }
    }

    func checkTransform(_ layer: CALayer, _ key: String, _ t: CATransform3D) throws {
      let entries = [
        t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
      ]
      for (i, v) in entries.enumerated() where !(abs(v) <= Limits.maxTransformEntry) {
        let entry = "m\(i / 4 + 1)\(i % 4 + 1)"
        throw fail(
          layer, "\(key).\(entry)",
          LimitExceeded(
            what:
              "transform entries must be finite and within ±\(Self.number(Limits.maxTransformEntry))",
            found: Self.number(v), limit: Self.number(Limits.maxTransformEntry),
            name: "maxTransformEntry"))
      }
    }

    func checkFilters(_ layer: CALayer, _ key: String, _ filters: [Any]?) throws {
      guard let filters else { return }
      if filters.count > Limits.maxFiltersPerLayer {
        throw fail(
          layer, key,
          LimitExceeded(
            what: "filters on one layer", found: filters.count, limit: Limits.maxFiltersPerLayer,
            name: "maxFiltersPerLayer"))
      }
      for case let filter as CIFilter in filters {
        for input in filter.inputKeys {
          let values: [CGFloat]
          if let v = filter.value(forKey: input) as? CGFloat {
            values = [v]
          } else if let v = filter.value(forKey: input) as? CIVector {
            values = v.values
          } else {
            continue
          }
          let limit =
            input == kCIInputRadiusKey ? Limits.maxBlurRadius : CGFloat(Limits.maxMagnitude)
          let name = input == kCIInputRadiusKey ? "maxBlurRadius" : "maxMagnitude"
          for v in values where !(abs(v) <= limit) {
            throw fail(
              layer, "\(key).\(filter.name).\(input)",
              LimitExceeded(
                what: "\(input) must be finite and within ±\(Self.number(limit))",
                found: Self.number(v), limit: Self.number(limit), name: name))
          }
        }
      }
    }

    mutating func checkPath(_ layer: CALayer, _ key: String, _ path: CGPath) throws {
      let count = path.elements.count
      if count > Limits.maxPathElements {
        throw fail(
          layer, key,
          LimitExceeded(
            what: "path elements", found: count, limit: Limits.maxPathElements,
            name: "maxPathElements"))
      }
      pathElements += count
      if pathElements > Limits.maxPathElementsPerFrame {
        throw fail(
          layer, key,
          LimitExceeded(
            what: "path elements of all shape layers and shadow paths", found: pathElements,
            limit: Limits.maxPathElementsPerFrame, name: "maxPathElementsPerFrame"))
      }
    }

    mutating func checkShape(_ shape: CAShapeLayer) throws {
      let side = Limits.maxLayerSide
      for (key, v) in [
        (LayerKey.lineWidth.rawValue, shape.lineWidth),
        (LayerKey.miterLimit.rawValue, shape.miterLimit),
        (LayerKey.lineDashPhase.rawValue, shape.lineDashPhase),
        (LayerKey.strokeStart.rawValue, shape.strokeStart),
        (LayerKey.strokeEnd.rawValue, shape.strokeEnd),
      ] where !(abs(v) <= side) {
        throw fail(
          shape, key,
          LimitExceeded(
            what: "\(key) must be finite and within ±\(Self.number(side))",
            found: Self.number(v), limit: Self.number(side), name: "maxLayerSide"))
      }
      guard let path = shape.path else { return }
      try checkPath(shape, LayerKey.path.rawValue, path)
      guard let numbers = shape.lineDashPattern, !numbers.isEmpty else { return }
      let pattern = numbers.map { CGFloat($0.doubleValue) }
      if pattern.count > Limits.maxDashPatternLength {
        throw fail(
          shape, LayerKey.lineDashPattern.rawValue,
          LimitExceeded(
            what: "numbers in a dash pattern", found: pattern.count,
            limit: Limits.maxDashPatternLength, name: "maxDashPatternLength"))
      }
      for v in pattern where !(abs(v) <= side) {
        throw fail(
          shape, LayerKey.lineDashPattern.rawValue,
          LimitExceeded(
            what: "dash lengths must be finite and within ±\(Self.number(side))",
            found: Self.number(v), limit: Self.number(side), name: "maxLayerSide"))
      }
      guard shape.strokeColor != nil else { return }
      let period = pattern.reduce(0.0) { $0 + max(0, Double($1)) }
      // A pattern of zeros draws no dashes (nothing is cut).
      guard period > 0 else { return }
      let length = LayerTreeLimits.lengthBound(path)
      let dashes = length / period * Double(pattern.count)
      if !(dashes <= Double(Limits.maxDashSegments)) {
        var exceeded = LimitExceeded(
          what: "dashes along the stroked path (its length over the pattern's)",
          found: Self.count(dashes), limit: String(Limits.maxDashSegments),
          name: "maxDashSegments")
        // The shortest period that stays within the limit, for this many numbers.
        let least = length * Double(pattern.count) / Double(Limits.maxDashSegments)
        exceeded.advice =
          "a pattern whose lengths add up to at least \(Self.roundedUp(least)) points keeps the dashes within it"
        throw fail(shape, LayerKey.lineDashPattern.rawValue, exceeded)
      }
    }

    func checkText(_ text: CATextLayer) throws {
      if !(abs(text.fontSize) <= Limits.maxFontSize) {
        throw fail(
          text, LayerKey.fontSize.rawValue,
          LimitExceeded(
            what: "fontSize must be finite and within ±\(Self.number(Limits.maxFontSize))",
            found: Self.number(text.fontSize), limit: Self.number(Limits.maxFontSize),
            name: "maxFontSize"))
      }
      guard let string = text.string as? String else { return }
      let count = string.unicodeScalars.count
      if count > Limits.maxGlyphsPerTextLayer {
        throw fail(
          text, LayerKey.string.rawValue,
          LimitExceeded(
            what: "characters of one text layer", found: count,
            limit: Limits.maxGlyphsPerTextLayer, name: "maxGlyphsPerTextLayer"))
      }
    }

    /// A number as messages write it: whole numbers without a fraction.
    static func number(_ v: CGFloat) -> String {
      let d = Double(v)
      // Messages write finite numbers only (a value set in code can be infinite).
      guard d.isFinite else { return d.isNaN ? "not a number" : "an infinite number" }
      if d == d.rounded(), abs(d) < 1e15 { return String(Int(saturating: d)) }
      return "\(d)"
    }
  }
}
