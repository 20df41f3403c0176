import Foundation

/// One kind of particle of a `CAEmitterLayer`: its rates, motion, color and
/// image, with random ranges. Cells may emit cells of their own.
open class CAEmitterCell: NSObject, CAMediaTiming {
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
  /// What the cell's timing holds outside its active time (kept; a cell
  /// emits during its active time).
  @exclusivity(unchecked) open var fillMode: CAMediaTimingFillMode = .removed
  /// Default values consulted by `value(forKey:)` for keys never set.
  @exclusivity(unchecked) open var style: [AnyHashable: Any]?

  /// A cell with Core Animation's default values (and the class's
  /// `defaultValue(forKey:)` overrides). Subclasses override it as on iOS.
  public override init() {
    super.init()
    applyClassDefaults()
  }

  /// A cell decoded from an archive. Lamina archives no cells: this makes
  /// one with the default values, so that subclasses written for iOS
  /// (`required init?(coder: NSCoder)`) compile and may call it.
  public required init?(coder: NSCoder) {
    super.init()
    applyClassDefaults()
  }

  /// The default value of `key` for cells of this class, or nil. Subclasses
  /// override it to change the initial values of properties.
  open class func defaultValue(forKey key: String) -> Any? { nil }

  /// Whether `key` would be archived (Lamina archives nothing; true).
  open func shouldArchiveValue(forKey key: String) -> Bool { true }

  /// A copy of the cell and its sub-cells (as `CAEmitterCell`s), so that a
  /// key path change on a presentation copy leaves the model's cells alone.
  func deepCopy() -> CAEmitterCell {
    let copy = CAEmitterCell()
    for a in Self.table.ordered { a.set(copy, a.get(self)) }
    copy.emitterCells = emitterCells?.map { $0.deepCopy() }
    copy.attributes = attributes
    copy.style = style
    return copy
  }

  /// Sets the values of `defaultValue(forKey:)` overrides, once per class computed.
  private func applyClassDefaults() {
    let cls = type(of: self)
    guard cls != CAEmitterCell.self else { return }
    for a in Self.table.ordered where a.isStored {
      if let value = cls.defaultValue(forKey: a.key) { a.set(self, value) }
    }
  }

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
      P.optional("style", .object, \CAEmitterCell.style) { $0 as? [AnyHashable: Any] },
    ] + P.mediaTiming(CAEmitterCell.self)
  }()

  /// Values stored for keys cells do not have.
  @exclusivity(unchecked) var attributes: [String: Any] = [:]

  /// The value for `key` (a property, or a value stored for another key).
  open func value(forKey key: String) -> Any? {
    if let a = Self.table.byKey[key] { return a.get(self) }
    if let v = attributes[key] { return v }
    if let v = style?[key] { return v }
    return type(of: self).defaultValue(forKey: key)
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

/// A key path into a list of emitter cells, as Core Animation names a
/// cell's property: `<cell name>.<key>`, or through sub-cells
/// `<cell>.emitterCells.<sub-cell>.<key>` (`emitterCells.fire.birthRate`
/// on the emitter layer).
struct EmitterCellPath {
  /// Cell names from the top list down.
  let names: [String]
  let key: String

  init?(_ path: String) {
    var parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard parts.count >= 2, let last = parts.popLast(), !last.isEmpty else { return nil }
    var names = [parts.removeFirst()]
    while !parts.isEmpty {
      guard parts.count >= 2, parts[0] == "emitterCells" else { return nil }
      names.append(parts[1])
      parts.removeFirst(2)
    }
    guard names.allSatisfy({ !$0.isEmpty }) else { return nil }
    self.names = names
    key = last
  }

  var kind: CAValueKind? { CAEmitterCell.valueKind(forKey: key) }

  /// The cell the names lead to in `cells`, or nil.
  func cell(in cells: [CAEmitterCell]?) -> CAEmitterCell? {
    var list = cells
    var found: CAEmitterCell?
    for name in names {
      found = list?.first { $0.name == name }
      list = found?.emitterCells
    }
    return found
  }

  func value(in cells: [CAEmitterCell]?) -> Any? {
    cell(in: cells)?.value(forKey: key)
  }

  /// `cells` with the named cell's `key` set to `value` (that cell and
  /// those above it copied); nil when no cell has the name.
  func setting(_ value: Any?, in cells: [CAEmitterCell]) -> [CAEmitterCell]? {
    setting(in: cells) { $0.setValue(value, forKey: key) }
  }

  /// `cells` with a copy of the named cell changed by `change` (and copies
  /// of the cells above it); nil when no cell has the name.
  func setting(in cells: [CAEmitterCell], _ change: (CAEmitterCell) -> Void)
    -> [CAEmitterCell]?
  {
    func set(_ depth: Int, _ cells: [CAEmitterCell]) -> [CAEmitterCell]? {
      guard let i = cells.firstIndex(where: { $0.name == names[depth] }) else { return nil }
      var result = cells
      let copy = cells[i].deepCopy()
      if depth == names.count - 1 {
        change(copy)
      } else {
        guard let sub = set(depth + 1, copy.emitterCells ?? []) else { return nil }
        copy.emitterCells = sub
      }
      result[i] = copy
      return result
    }
    return set(0, cells)
  }
}
