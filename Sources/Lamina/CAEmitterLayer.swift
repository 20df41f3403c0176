import Foundation

/// The shape an emitter layer emits from.
public struct CAEmitterLayerEmitterShape: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let point = Self(rawValue: "point")
  public static let line = Self(rawValue: "line")
  public static let rectangle = Self(rawValue: "rectangle")
  public static let cuboid = Self(rawValue: "cuboid")
  public static let circle = Self(rawValue: "circle")
  public static let sphere = Self(rawValue: "sphere")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.point, .line, .rectangle, .cuboid, .circle, .sphere]
}

/// Where on its shape an emitter layer emits.
public struct CAEmitterLayerEmitterMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let points = Self(rawValue: "points")
  public static let outline = Self(rawValue: "outline")
  public static let surface = Self(rawValue: "surface")
  public static let volume = Self(rawValue: "volume")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.points, .outline, .surface, .volume]
}

/// How an emitter layer orders and composites its particles.
public struct CAEmitterLayerRenderMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let unordered = Self(rawValue: "unordered")
  public static let oldestFirst = Self(rawValue: "oldestFirst")
  public static let oldestLast = Self(rawValue: "oldestLast")
  public static let backToFront = Self(rawValue: "backToFront")
  public static let additive = Self(rawValue: "additive")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.unordered, .oldestFirst, .oldestLast, .backToFront, .additive]
}

/// A layer that emits particles described by its `emitterCells`. The same
/// `seed` gives the same frames.
open class CAEmitterLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAEmitterLayer.self }
  override package class func makeInstance() -> CALayer { CAEmitterLayer() }

  /// The cells emitted, each a kind of particle.
  @exclusivity(unchecked) open var emitterCells: [CAEmitterCell]? {
    didSet { didChange(.emitterCells, oldValue) }
  }
  /// Multiplies each cell's birth rate.
  @exclusivity(unchecked) open var birthRate: Float = 1 {
    didSet { didChange(.birthRate, oldValue) }
  }
  /// Multiplies each cell's lifetime.
  @exclusivity(unchecked) open var lifetime: Float = 1 {
    didSet { didChange(.lifetime, oldValue) }
  }
  /// The center of the emitter shape, in the layer's bounds space.
  @exclusivity(unchecked) open var emitterPosition: CGPoint = .zero {
    didSet { didChange(.emitterPosition, oldValue) }
  }
  /// The z of the emitter's center.
  @exclusivity(unchecked) open var emitterZPosition: CGFloat = 0 {
    didSet { didChange(.emitterZPosition, oldValue) }
  }
  /// The size of the emitter shape.
  @exclusivity(unchecked) open var emitterSize: CGSize = .zero {
    didSet { didChange(.emitterSize, oldValue) }
  }
  /// The depth of the emitter shape (cuboid, sphere).
  @exclusivity(unchecked) open var emitterDepth: CGFloat = 0 {
    didSet { didChange(.emitterDepth, oldValue) }
  }
  /// The shape particles are born on or in.
  @exclusivity(unchecked) open var emitterShape: CAEmitterLayerEmitterShape = .point {
    didSet { didChange(.emitterShape, oldValue) }
  }
  /// Where on the shape particles are born.
  @exclusivity(unchecked) open var emitterMode: CAEmitterLayerEmitterMode = .volume {
    didSet { didChange(.emitterMode, oldValue) }
  }
  /// How particles are ordered and composited.
  @exclusivity(unchecked) open var renderMode: CAEmitterLayerRenderMode = .unordered {
    didSet { didChange(.renderMode, oldValue) }
  }
  /// Whether particles keep their depth.
  @exclusivity(unchecked) open var preservesDepth: Bool = false {
    didSet { didChange(.preservesDepth, oldValue) }
  }
  /// Multiplies each cell's velocity.
  @exclusivity(unchecked) open var velocity: Float = 1 {
    didSet { didChange(.velocity, oldValue) }
  }
  /// Multiplies each cell's scale.
  @exclusivity(unchecked) open var scale: Float = 1 {
    didSet { didChange(.scale, oldValue) }
  }
  /// Multiplies each cell's spin.
  @exclusivity(unchecked) open var spin: Float = 1 {
    didSet { didChange(.spin, oldValue) }
  }
  /// Seeds the random numbers: the same seed gives the same frames.
  @exclusivity(unchecked) open var seed: UInt32 = 0 {
    didSet { didChange(.seed, oldValue) }
  }

  /// The descriptions of the emitter's own properties (LayerProperty.swift).
  static let emitterProperties: [LayerProperty] = {
    typealias P = LayerProperty
    typealias C = Convert
    return [
      P.optional(.emitterCells, .emitterCells, \CAEmitterLayer.emitterCells) {
        $0 as? [CAEmitterCell]
      },
      P.make(.birthRate, .number, \CAEmitterLayer.birthRate, action: true, C.float),
      P.make(.lifetime, .number, \CAEmitterLayer.lifetime, action: true, C.float),
      P.make(
        .emitterPosition, .point, \CAEmitterLayer.emitterPosition, range: .coordinate,
        action: true, C.point),
      P.make(
        .emitterZPosition, .number, \CAEmitterLayer.emitterZPosition, range: .coordinate,
        action: true, C.cgFloat),
      P.make(
        .emitterSize, .size, \CAEmitterLayer.emitterSize, range: .coordinate, action: true,
        C.size),
      P.make(
        .emitterDepth, .number, \CAEmitterLayer.emitterDepth, range: .coordinate, action: true,
        C.cgFloat),
      P.enumeration(
        .emitterShape, \CAEmitterLayer.emitterShape, all: CAEmitterLayerEmitterShape.all),
      P.enumeration(.emitterMode, \CAEmitterLayer.emitterMode, all: CAEmitterLayerEmitterMode.all),
      P.enumeration(.renderMode, \CAEmitterLayer.renderMode, all: CAEmitterLayerRenderMode.all),
      P.make(.preservesDepth, .bool, \CAEmitterLayer.preservesDepth, C.bool),
      P.make(.velocity, .number, \CAEmitterLayer.velocity, action: true, C.float),
      P.make(.scale, .number, \CAEmitterLayer.scale, action: true, C.float),
      P.make(.spin, .number, \CAEmitterLayer.spin, action: true, C.float),
      P.make(.seed, .integer, \CAEmitterLayer.seed, action: true, C.uint32),
    ]
  }()

  override class var properties: [LayerProperty] { super.properties + emitterProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    guard let o = other as? CAEmitterLayer else { return }
    emitterCells = o.emitterCells
    birthRate = o.birthRate
    lifetime = o.lifetime
    emitterPosition = o.emitterPosition
    emitterZPosition = o.emitterZPosition
    emitterSize = o.emitterSize
    emitterDepth = o.emitterDepth
    emitterShape = o.emitterShape
    emitterMode = o.emitterMode
    renderMode = o.renderMode
    preservesDepth = o.preservesDepth
    velocity = o.velocity
    scale = o.scale
    spin = o.spin
    seed = o.seed
  }
}
