import Foundation

/// One kind of particle of a `CAEmitterLayer`: its rates, motion, color and
/// image, with random ranges. Cells may emit cells of their own.
open class CAEmitterCell {
  /// The cell's name, used in key paths.
  @exclusivity(unchecked) open var name: String?
  /// Whether the cell emits.
  @exclusivity(unchecked) open var isEnabled: Bool = true
  /// Particles born per second.
  @exclusivity(unchecked) open var birthRate: Float = 0
  /// Seconds a particle lives.
  @exclusivity(unchecked) open var lifetime: Float = 0
  /// Random variation of `lifetime`.
  @exclusivity(unchecked) open var lifetimeRange: Float = 0
  /// Angle of emission from the z axis, radians.
  @exclusivity(unchecked) open var emissionLatitude: CGFloat = 0
  /// Angle of emission in the x-y plane, radians.
  @exclusivity(unchecked) open var emissionLongitude: CGFloat = 0
  /// Random variation of the emission angle, radians.
  @exclusivity(unchecked) open var emissionRange: CGFloat = 0
  /// Initial speed, points per second.
  @exclusivity(unchecked) open var velocity: CGFloat = 0
  /// Random variation of `velocity`.
  @exclusivity(unchecked) open var velocityRange: CGFloat = 0
  /// Acceleration along x, points per second squared.
  @exclusivity(unchecked) open var xAcceleration: CGFloat = 0
  /// Acceleration along y.
  @exclusivity(unchecked) open var yAcceleration: CGFloat = 0
  /// Acceleration along z.
  @exclusivity(unchecked) open var zAcceleration: CGFloat = 0
  /// Scale of the contents.
  @exclusivity(unchecked) open var scale: CGFloat = 1
  /// Random variation of `scale`.
  @exclusivity(unchecked) open var scaleRange: CGFloat = 0
  /// Change of scale per second.
  @exclusivity(unchecked) open var scaleSpeed: CGFloat = 0
  /// Rotation speed, radians per second.
  @exclusivity(unchecked) open var spin: CGFloat = 0
  /// Random variation of `spin`.
  @exclusivity(unchecked) open var spinRange: CGFloat = 0
  /// Multiplies the contents' colors; white by default.
  @exclusivity(unchecked) open var color: CGColor? = .white
  /// Random variation of the color's red.
  @exclusivity(unchecked) open var redRange: Float = 0
  /// Random variation of the color's green.
  @exclusivity(unchecked) open var greenRange: Float = 0
  /// Random variation of the color's blue.
  @exclusivity(unchecked) open var blueRange: Float = 0
  /// Random variation of the color's alpha.
  @exclusivity(unchecked) open var alphaRange: Float = 0
  /// Change of red per second.
  @exclusivity(unchecked) open var redSpeed: Float = 0
  /// Change of green per second.
  @exclusivity(unchecked) open var greenSpeed: Float = 0
  /// Change of blue per second.
  @exclusivity(unchecked) open var blueSpeed: Float = 0
  /// Change of alpha per second.
  @exclusivity(unchecked) open var alphaSpeed: Float = 0
  /// The particle image (a `CGImage`).
  @exclusivity(unchecked) open var contents: Any?
  /// Unit rect of the image that is shown.
  @exclusivity(unchecked) open var contentsRect: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1)
  /// Pixels per point of the image.
  @exclusivity(unchecked) open var contentsScale: CGFloat = 1
  /// Sampling when magnified.
  @exclusivity(unchecked) open var magnificationFilter: CALayerContentsFilter = .linear
  /// Sampling when minified.
  @exclusivity(unchecked) open var minificationFilter: CALayerContentsFilter = .linear
  /// Level-of-detail bias.
  @exclusivity(unchecked) open var minificationFilterBias: Float = 0
  /// Cells each particle emits in turn.
  @exclusivity(unchecked) open var emitterCells: [CAEmitterCell]?
  /// Seconds after the emitter's start when the cell begins.
  @exclusivity(unchecked) open var beginTime: CFTimeInterval = 0
  /// How long the cell emits; 0 for ever.
  @exclusivity(unchecked) open var duration: CFTimeInterval = 0
  /// Time scale of the cell.
  @exclusivity(unchecked) open var speed: Float = 1
  /// Offset into the cell's time.
  @exclusivity(unchecked) open var timeOffset: CFTimeInterval = 0
  /// Repetitions of the cell's timing.
  @exclusivity(unchecked) open var repeatCount: Float = 0
  /// Seconds the cell's timing repeats for.
  @exclusivity(unchecked) open var repeatDuration: CFTimeInterval = 0
  /// Whether the cell's timing plays backward after forward.
  @exclusivity(unchecked) open var autoreverses: Bool = false

  /// A cell with Core Animation's default values.
  public init() {}

  /// The keys of CAEmitterCell, in declaration order.
  public static var propertyKeys: [String] { table.ordered.map(\.key) }

  /// The kind of value `key` holds, or nil for a key cells do not have.
  public static func valueKind(forKey key: String) -> CAValueKind? { table.byKey[key]?.kind }

  static let table = AccessorTable(accessors)

  static let accessors: [PropertyAccessor] = {
    typealias P = PropertyAccessor
    typealias C = Convert
    return [
      P.optional("name", .string, \CAEmitterCell.name) { C.string($0) },
      P.make("isEnabled", .bool, \CAEmitterCell.isEnabled, aliases: ["enabled"], C.bool),
      P.make("birthRate", .number, \CAEmitterCell.birthRate, C.float),
      P.make("lifetime", .number, \CAEmitterCell.lifetime, C.float),
      P.make("lifetimeRange", .number, \CAEmitterCell.lifetimeRange, C.float),
      P.make("emissionLatitude", .number, \CAEmitterCell.emissionLatitude, C.cgFloat),
      P.make("emissionLongitude", .number, \CAEmitterCell.emissionLongitude, C.cgFloat),
      P.make("emissionRange", .number, \CAEmitterCell.emissionRange, C.cgFloat),
      P.make("velocity", .number, \CAEmitterCell.velocity, C.cgFloat),
      P.make("velocityRange", .number, \CAEmitterCell.velocityRange, C.cgFloat),
      P.make("xAcceleration", .number, \CAEmitterCell.xAcceleration, C.cgFloat),
      P.make("yAcceleration", .number, \CAEmitterCell.yAcceleration, C.cgFloat),
      P.make("zAcceleration", .number, \CAEmitterCell.zAcceleration, C.cgFloat),
      P.make("scale", .number, \CAEmitterCell.scale, C.cgFloat),
      P.make("scaleRange", .number, \CAEmitterCell.scaleRange, C.cgFloat),
      P.make("scaleSpeed", .number, \CAEmitterCell.scaleSpeed, C.cgFloat),
      P.make("spin", .number, \CAEmitterCell.spin, C.cgFloat),
      P.make("spinRange", .number, \CAEmitterCell.spinRange, C.cgFloat),
      P.optional("color", .color, \CAEmitterCell.color) { C.color($0) },
      P.make("redRange", .number, \CAEmitterCell.redRange, C.float),
      P.make("greenRange", .number, \CAEmitterCell.greenRange, C.float),
      P.make("blueRange", .number, \CAEmitterCell.blueRange, C.float),
      P.make("alphaRange", .number, \CAEmitterCell.alphaRange, C.float),
      P.make("redSpeed", .number, \CAEmitterCell.redSpeed, C.float),
      P.make("greenSpeed", .number, \CAEmitterCell.greenSpeed, C.float),
      P.make("blueSpeed", .number, \CAEmitterCell.blueSpeed, C.float),
      P.make("alphaSpeed", .number, \CAEmitterCell.alphaSpeed, C.float),
      P.optional("contents", .image, \CAEmitterCell.contents) { $0 },
      P.make("contentsRect", .rect, \CAEmitterCell.contentsRect, C.rect),
      P.make("contentsScale", .number, \CAEmitterCell.contentsScale, C.cgFloat),
      P.make(
        "magnificationFilter", .enumeration(CALayerContentsFilter.all.map(\.rawValue)),
        \CAEmitterCell.magnificationFilter, C.enumeration(CALayerContentsFilter.self)),
      P.make(
        "minificationFilter", .enumeration(CALayerContentsFilter.all.map(\.rawValue)),
        \CAEmitterCell.minificationFilter, C.enumeration(CALayerContentsFilter.self)),
      P.make("minificationFilterBias", .number, \CAEmitterCell.minificationFilterBias, C.float),
      P.optional("emitterCells", .emitterCells, \CAEmitterCell.emitterCells) {
        $0 as? [CAEmitterCell]
      },
      P.make("beginTime", .number, \CAEmitterCell.beginTime, C.double),
      P.make("duration", .number, \CAEmitterCell.duration, C.double),
      P.make("speed", .number, \CAEmitterCell.speed, C.float),
      P.make("timeOffset", .number, \CAEmitterCell.timeOffset, C.double),
      P.make("repeatCount", .number, \CAEmitterCell.repeatCount, C.float),
      P.make("repeatDuration", .number, \CAEmitterCell.repeatDuration, C.double),
      P.make("autoreverses", .bool, \CAEmitterCell.autoreverses, C.bool),
    ]
  }()

  /// Values stored for keys cells do not have.
  @exclusivity(unchecked) var attributes: [String: Any] = [:]

  /// The value for `key` (a property, or a value stored for another key).
  open func value(forKey key: String) -> Any? {
    if let a = Self.table.byKey[key] { return a.get(self) }
    return attributes[key]
  }

  /// Sets the property for `key`, converting numbers and strings as
  /// `CALayer.setValue(_:forKey:)` does; other keys are stored.
  open func setValue(_ value: Any?, forKey key: String) {
    if let a = Self.table.byKey[key] {
      a.set(self, value)
    } else {
      attributes[key] = Convert.unwrap(value)
    }
  }
}
