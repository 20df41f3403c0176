import Foundation

/// How a shape layer decides the inside of its path.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let nonZero = Self(rawValue: "nonZero")
  public static let evenOdd = Self(rawValue: "evenOdd")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.nonZero, .evenOdd]
}

/// The ends of stroked open subpaths.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let butt = Self(rawValue: "butt")
  public static let round = Self(rawValue: "round")
  public static let square = Self(rawValue: "square")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.butt, .round, .square]
}

/// The corners of stroked paths.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let miter = Self(rawValue: "miter")
  public static let round = Self(rawValue: "round")
  public static let bevel = Self(rawValue: "bevel")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.miter, .round, .bevel]
}

/// A layer that fills and strokes a path.
///
/// ```swift
/// let shape = CAShapeLayer()
/// shape.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 80, height: 80))
/// shape.fillColor = nil
/// shape.strokeColor = CGColor.black
/// shape.lineWidth = 4
/// ```
open class CAShapeLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAShapeLayer.self }
  override package class func makeInstance() -> CALayer { CAShapeLayer() }

  /// The path, in the layer's bounds space.
  @exclusivity(unchecked) open var path: CGPath? {
    didSet { didChange(.path, oldValue) }
  }
  /// The fill color; nil for no fill. Black by default.
  @exclusivity(unchecked) open var fillColor: CGColor? = .black {
    didSet { didChange(.fillColor, oldValue) }
  }
  /// Non-zero winding or even-odd.
  @exclusivity(unchecked) open var fillRule: CAShapeLayerFillRule = .nonZero {
    didSet { didChange(.fillRule, oldValue) }
  }
  /// The stroke color; nil (the default) for no stroke.
  @exclusivity(unchecked) open var strokeColor: CGColor? {
    didSet { didChange(.strokeColor, oldValue) }
  }
  /// The stroke width in points.
  @exclusivity(unchecked) open var lineWidth: CGFloat = 1 {
    didSet { didChange(.lineWidth, oldValue) }
  }
  @exclusivity(unchecked) open var lineCap: CAShapeLayerLineCap = .butt {
    didSet { didChange(.lineCap, oldValue) }
  }
  @exclusivity(unchecked) open var lineJoin: CAShapeLayerLineJoin = .miter {
    didSet { didChange(.lineJoin, oldValue) }
  }
  /// Miter joins longer than this times half the line width become bevels.
  @exclusivity(unchecked) open var miterLimit: CGFloat = 10 {
    didSet { didChange(.miterLimit, oldValue) }
  }
  /// Lengths of dashes and gaps, alternating; nil for a solid line.
  /// Numbers, as in Core Animation: `shape.lineDashPattern = [6, 3]`.
  @exclusivity(unchecked) open var lineDashPattern: [NSNumber]? {
    didSet { didChange(.lineDashPattern, oldValue) }
  }
  /// `lineDashPattern` as lengths in points.
  public var lineDashLengths: [CGFloat]? { lineDashPattern.map(Convert.lengths) }
  /// How far into the dash pattern the stroke starts.
  @exclusivity(unchecked) open var lineDashPhase: CGFloat = 0 {
    didSet { didChange(.lineDashPhase, oldValue) }
  }
  /// The part of the path stroked, as fractions of its length.
  @exclusivity(unchecked) open var strokeStart: CGFloat = 0 {
    didSet { didChange(.strokeStart, oldValue) }
  }
  @exclusivity(unchecked) open var strokeEnd: CGFloat = 1 {
    didSet { didChange(.strokeEnd, oldValue) }
  }

  /// The descriptions of the shape layer's own properties (LayerProperty.swift).
  static let shapeProperties: [LayerProperty] = {
    typealias P = LayerProperty
    typealias C = Convert
    return [
      P.optional(
        .path, .path, \CAShapeLayer.path, action: true,
        animation: animated { $0.path } set: { $0.path = $1 }) { $0 as? CGPath },
      P.optional(
        .fillColor, .color, \CAShapeLayer.fillColor, action: true,
        animation: animated { $0.fillColor } set: { $0.fillColor = $1 }, C.color),
      P.enumeration(.fillRule, \CAShapeLayer.fillRule, all: CAShapeLayerFillRule.all),
      P.optional(
        .strokeColor, .color, \CAShapeLayer.strokeColor, action: true,
        animation: animated { $0.strokeColor } set: { $0.strokeColor = $1 }, C.color),
      P.make(
        .lineWidth, .number, \CAShapeLayer.lineWidth, range: .side, action: true,
        animation: animated { $0.lineWidth } set: { $0.lineWidth = $1 }, C.cgFloat),
      P.enumeration(.lineCap, \CAShapeLayer.lineCap, all: CAShapeLayerLineCap.all),
      P.enumeration(.lineJoin, \CAShapeLayer.lineJoin, all: CAShapeLayerLineJoin.all),
      P.make(
        .miterLimit, .number, \CAShapeLayer.miterLimit, range: .side, action: true,
        animation: animated { $0.miterLimit } set: { $0.miterLimit = $1 }, C.cgFloat),
      P.optional(
        .lineDashPattern, .numbers, \CAShapeLayer.lineDashPattern, range: .dashes, C.nsNumbers),
      P.make(
        .lineDashPhase, .number, \CAShapeLayer.lineDashPhase, range: .side, action: true,
        animation: animated { $0.lineDashPhase } set: { $0.lineDashPhase = $1 }, C.cgFloat),
      P.make(
        .strokeStart, .number, \CAShapeLayer.strokeStart, action: true,
        animation: animated { $0.strokeStart } set: { $0.strokeStart = $1 }, C.cgFloat),
      P.make(
        .strokeEnd, .number, \CAShapeLayer.strokeEnd, action: true,
        animation: animated { $0.strokeEnd } set: { $0.strokeEnd = $1 }, C.cgFloat),
    ]
  }()

  /// An animated key of a shape read and written through its property
  /// directly, typed as the key's description types it (read and written
  /// through a key path, a Lottie frame of trimmed strokes spent 6 % of
  /// its time in the key paths' runtime); another class's layer has no
  /// such property (key-value coding takes the value).
  private static func animated<V: LayerValueConvertible>(
    _ get: @escaping (CAShapeLayer) -> V, set: @escaping (CAShapeLayer, V) -> Void
  ) -> AnimatedProperty {
    .value({ ($0 as? CAShapeLayer).map { get($0).layerValue } ?? .none }) { layer, value in
      guard let shape = layer as? CAShapeLayer, let v = V.from(value) else { return false }
      set(shape, v)
      return true
    }
  }

  /// `animated` for an optional property: `.none` clears it.
  private static func animated<W: LayerValueConvertible>(
    _ get: @escaping (CAShapeLayer) -> W?, set: @escaping (CAShapeLayer, W?) -> Void
  ) -> AnimatedProperty {
    .value({ ($0 as? CAShapeLayer).map { get($0)?.layerValue ?? .none } ?? .none }) {
      layer, value in
      guard let shape = layer as? CAShapeLayer else { return false }
      if case .none = value {
        set(shape, nil)
        return true
      }
      guard let v = W.from(value) else { return false }
      set(shape, v)
      return true
    }
  }

  override class var properties: [LayerProperty] { super.properties + shapeProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    guard let o = other as? CAShapeLayer else { return }
    path = o.path
    fillColor = o.fillColor
    fillRule = o.fillRule
    strokeColor = o.strokeColor
    lineWidth = o.lineWidth
    lineCap = o.lineCap
    lineJoin = o.lineJoin
    miterLimit = o.miterLimit
    lineDashPattern = o.lineDashPattern
    lineDashPhase = o.lineDashPhase
    strokeStart = o.strokeStart
    strokeEnd = o.strokeEnd
  }
}
