import Foundation

// The description of every property of Lamina's layer classes, written once
// (docs/animation.md, "The property descriptions"). Each class lists its own
// properties as `LayerProperty` values (`CALayer.layerProperties`,
// `CAShapeLayer.shapeProperties`, …): key, value kind, typed accessor
// (the class's default is the accessor's value on a new instance; it reads
// and writes `LayerValue`s, the one value type of the scene decoder and the
// animation evaluator, and `Any` for key-value coding), the range
// a scene may set, the animation fast path, whether a change runs an
// implicit action, and what a change invalidates. KVC, `didChange`, the
// implicit-action keys, the animation evaluator, the text layer's redraw
// keys and the scene decoder's range rules read them; the key strings exist
// only as the raw values of `LayerKey` (and its aliases), which
// `LayerTreeLimits`, the presentation tree and the decoder name keys by.
// LayerPropertyTests holds `copyValues(from:)` and `LayerTreeLimits` (which
// stay plain code on the per-frame paths) to the descriptions, and fails
// on a key spelled anywhere else. (The metamorphic generator keeps its own
// list, `SpecKeys`, taken from the scene format spec, as the independent
// check.)

/// The key of a property of one of Lamina's layer classes; the raw value is
/// the key-value coding key (and the scene format's key).
package enum LayerKey: String, CaseIterable, Sendable {
  // CALayer
  case bounds, position, frame, zPosition, anchorPoint, anchorPointZ, transform
  case sublayerTransform, isGeometryFlipped, isDoubleSided, isHidden, opacity
  case backgroundColor, cornerRadius, maskedCorners, borderWidth, borderColor
  case masksToBounds, mask, maskMode, contents, contentsGravity, contentsRect
  case contentsCenter, contentsScale, magnificationFilter, minificationFilter
  case minificationFilterBias, shadowColor, shadowOpacity, shadowOffset, shadowRadius
  case shadowPath, shouldRasterize, rasterizationScale, filters, backgroundFilters
  case compositingFilter, name, sublayers, actions, style, allowsEdgeAntialiasing
  case allowsGroupOpacity, edgeAntialiasingMask, cornerCurve, drawsAsynchronously
  case contentsFormat, needsDisplayOnBoundsChange, isOpaque
  // CAShapeLayer
  case path, fillColor, fillRule, strokeColor, lineWidth, lineCap, lineJoin
  case miterLimit, lineDashPattern, lineDashPhase, strokeStart, strokeEnd
  // CAGradientLayer
  case colors, locations, startPoint, endPoint, type, focalPointOffset, samplesAtPixelCorners
  // CATextLayer
  case string, font, fontSize, foregroundColor, isWrapped, alignmentMode
  case truncationMode, allowsFontSubpixelQuantization
  // CAReplicatorLayer
  case instanceCount, instanceDelay, instanceTransform, instanceColor
  case instanceRedOffset, instanceGreenOffset, instanceBlueOffset, instanceAlphaOffset
  case preservesDepth
  // CAEmitterLayer
  case emitterCells, birthRate, lifetime, emitterPosition, emitterZPosition
  case emitterSize, emitterDepth, emitterShape, emitterMode, renderMode
  case velocity, scale, spin, seed
  // CAScrollLayer, CATiledLayer, CAOpenGLLayer
  case scrollMode, tileSize, levelsOfDetail, levelsOfDetailBias, asynchronous

  /// The event a change runs the action of: Core Animation's name of the
  /// property (`hidden`, `doubleSided`), else the key.
  @inline(__always)
  package var event: String {
    switch self {
    case .isHidden: "hidden"
    case .isDoubleSided: "doubleSided"
    default: rawValue
    }
  }

  /// The Objective-C spellings KVC also accepts (`hidden` for `isHidden`).
  var aliases: [String] {
    switch self {
    case .isHidden, .isDoubleSided: [event]
    case .isGeometryFlipped: ["geometryFlipped"]
    case .isOpaque: ["opaque"]
    case .isWrapped: ["wrapped"]
    case .asynchronous: ["isAsynchronous"]
    default: []
    }
  }

  /// A key path below this key (`position.x`).
  func path(_ member: String) -> String { rawValue + "." + member }
}

/// The numbers a property may hold, as the scene decoder and the layer tree
/// limits check them (see `Limits`).
package enum LayerValueRange: Sendable, Hashable {
  /// A position, origin, offset or depth: ±`Limits.maxCoordinate`.
  case coordinate
  /// A size, radius or width: ±`Limits.maxLayerSide`.
  case side
  /// A blur radius: ±`Limits.maxBlurRadius`.
  case blur
  /// A pixels-per-point scale: `Limits.minContentsScale` to its inverse.
  case scale
  /// A font size: ±`Limits.maxFontSize`.
  case fontSize
  /// A transform: entries ±`Limits.maxTransformEntry`, translations
  /// coordinates, rotations any magnitude.
  case transform
  /// A rectangle placing the layer: its origin a coordinate, its size a
  /// side ≥ 0.
  case box
  /// A dash pattern: at most `Limits.maxDashPatternLength` sides.
  case dashes
  /// Gradient colors or locations: at most `Limits.maxGradientStops`.
  case stops
  /// A filter list: at most `Limits.maxFiltersPerLayer`, radii blurs.
  case filters
  /// Text: at most `Limits.maxGlyphsPerTextLayer` characters.
  case text
  /// A replicator's count: 0 to `SceneLoader.maxInstanceCount`.
  case count
  /// Anything else: ±`Limits.maxMagnitude`.
  case magnitude
}

/// What a change of a property makes stale, besides the frame built from
/// the layer (which every change does; see CALayer+Changes.swift).
package enum LayerInvalidation: Sendable, Equatable {
  /// Only the frame built from the layer's values.
  case rendering
  /// Also the drawn contents of a text layer subclass that draws its text
  /// itself (`CATextLayer.needsDisplay(forKey:)`).
  case drawnText
}

/// One property of a layer class, described once.
struct LayerProperty {
  let key: LayerKey
  /// Reads and writes the property by key (its kind is the value type).
  let accessor: PropertyAccessor
  let range: LayerValueRange
  /// Whether a change runs the implicit action (an animation from the old
  /// value): Core Animation's animatable properties.
  let implicitAction: Bool
  /// The evaluator's fast path, when the property has one; other keys are
  /// read and written by `read` and `write`.
  let animation: AnimatedProperty?
  let invalidates: LayerInvalidation

  var kind: CAValueKind { accessor.kind }

  /// Whether an animation can set the property through its typed `write`
  /// and undo itself through `read` (values, not objects of the tree,
  /// images, filters or names).
  var isTypedAnimatable: Bool {
    switch kind {
    case .number, .integer, .bool, .point, .size, .rect, .transform, .color, .colors, .numbers,
      .path, .cornerMask:
      return true
    default:
      return false
    }
  }

  /// The value, typed.
  func read(_ layer: CALayer) -> LayerValue { accessor.read(layer) }

  /// Sets a typed value; false when it does not fit the property's type.
  func write(_ layer: CALayer, _ value: LayerValue) -> Bool { accessor.write(layer, value) }

  @inline(__always)
  private static func described(
    _ key: LayerKey, _ accessor: PropertyAccessor, range: LayerValueRange, action: Bool,
    animation: AnimatedProperty?, invalidates: LayerInvalidation
  ) -> LayerProperty {
    LayerProperty(
      key: key, accessor: accessor, range: range, implicitAction: action, animation: animation,
      invalidates: invalidates)
  }

  // A property backed by a non-optional stored property, typed by its
  // Swift type (PropertyAccessor's `make` overloads).

  @inline(__always)
  static func make<O: AnyObject, V: LayerValueConvertible>(
    _ key: LayerKey, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    range: LayerValueRange = .magnitude, action: Bool = false, animation: AnimatedProperty? = nil,
    invalidates: LayerInvalidation = .rendering, stored: Bool = true,
    _ convert: @escaping (Any?) -> V?
  ) -> LayerProperty {
    described(
      key, .make(key.rawValue, kind, keyPath, aliases: key.aliases, stored: stored, convert),
      range: range, action: action, animation: animation, invalidates: invalidates)
  }

  @inline(__always)
  static func make<O: AnyObject, V>(
    _ key: LayerKey, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, V>,
    range: LayerValueRange = .magnitude, action: Bool = false, animation: AnimatedProperty? = nil,
    invalidates: LayerInvalidation = .rendering, stored: Bool = true,
    _ convert: @escaping (Any?) -> V?
  ) -> LayerProperty {
    described(
      key, .make(key.rawValue, kind, keyPath, aliases: key.aliases, stored: stored, convert),
      range: range, action: action, animation: animation, invalidates: invalidates)
  }

  // A property backed by an optional stored property: nil and NSNull clear it.

  @inline(__always)
  static func optional<O: AnyObject, W: LayerValueConvertible>(
    _ key: LayerKey, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, W?>,
    range: LayerValueRange = .magnitude, action: Bool = false, animation: AnimatedProperty? = nil,
    invalidates: LayerInvalidation = .rendering, stored: Bool = true,
    _ convert: @escaping (Any) -> W?
  ) -> LayerProperty {
    described(
      key, .optional(key.rawValue, kind, keyPath, aliases: key.aliases, stored: stored, convert),
      range: range, action: action, animation: animation, invalidates: invalidates)
  }

  @inline(__always)
  static func optional<O: AnyObject, W>(
    _ key: LayerKey, _ kind: CAValueKind, _ keyPath: ReferenceWritableKeyPath<O, W?>,
    range: LayerValueRange = .magnitude, action: Bool = false, animation: AnimatedProperty? = nil,
    invalidates: LayerInvalidation = .rendering, stored: Bool = true,
    _ convert: @escaping (Any) -> W?
  ) -> LayerProperty {
    described(
      key, .optional(key.rawValue, kind, keyPath, aliases: key.aliases, stored: stored, convert),
      range: range, action: action, animation: animation, invalidates: invalidates)
  }

  /// An enumeration property, set from its raw string too.
  static func enumeration<O: AnyObject, E: RawRepresentable>(
    _ key: LayerKey, _ keyPath: ReferenceWritableKeyPath<O, E>, all: [E],
    invalidates: LayerInvalidation = .rendering
  ) -> LayerProperty where E.RawValue == String {
    described(
      key,
      .make(
        key.rawValue, .enumeration(all.map(\.rawValue)), keyPath, aliases: key.aliases,
        Convert.enumeration(E.self)),
      range: .magnitude, action: false, animation: nil, invalidates: invalidates)
  }

  /// Every class's own descriptions, CALayer's first (each class's list
  /// holds the properties it declares; subclasses add to their superclass's).
  static let tables: [[LayerProperty]] = [
    CALayer.layerProperties, CAShapeLayer.shapeProperties, CAGradientLayer.gradientProperties,
    CATextLayer.textProperties, CAReplicatorLayer.replicatorProperties,
    CAEmitterLayer.emitterProperties, CAScrollLayer.scrollProperties,
    CATiledLayer.tiledProperties, CAOpenGLLayer.openGLProperties,
  ]

  /// The descriptions by key (a key two classes declare, `preservesDepth`,
  /// is described alike in both).
  static let byKey: [String: LayerProperty] = {
    var map: [String: LayerProperty] = [:]
    for table in tables {
      for p in table { map[p.key.rawValue] = p }
    }
    return map
  }()

  /// The events whose changes run implicit actions.
  static let implicitActionEvents: Set<String> = Set(
    tables.joined().filter(\.implicitAction).map(\.key.event))

  /// The keys whose changes redraw a drawing text layer subclass.
  static let drawnTextKeys: Set<String> = Set(
    tables.joined().filter { $0.invalidates == .drawnText }.map(\.key.rawValue))
}

extension CALayer {
  /// The range rule of the number at `key` of any of Lamina's layer
  /// classes (nil for a key no class has).
  package static func valueRange(forKey key: String) -> LayerValueRange? {
    LayerProperty.byKey[key]?.range
  }
}
