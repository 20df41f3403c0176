import Foundation

/// A layer that draws its sublayers `instanceCount` times, each copy
/// transformed by `instanceTransform` relative to the previous one and
/// tinted by the color offsets.
open class CAReplicatorLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAReplicatorLayer.self }
  override package class func makeInstance() -> CALayer { CAReplicatorLayer() }

  /// How many copies are drawn (1 draws the sublayers once).
  @exclusivity(unchecked) open var instanceCount: Int = 1 {
    didSet { didChange(.instanceCount, oldValue) }
  }
  /// Seconds between the copies' animations.
  @exclusivity(unchecked) open var instanceDelay: CFTimeInterval = 0 {
    didSet { didChange(.instanceDelay, oldValue) }
  }
  /// Applied once more to each copy, about the layer's anchor point.
  @exclusivity(unchecked) open var instanceTransform: CATransform3D = CATransform3DIdentity {
    didSet { didChange(.instanceTransform, oldValue) }
  }
  /// Multiplies the first copy's colors; white (no change) by default.
  @exclusivity(unchecked) open var instanceColor: CGColor? = .white {
    didSet { didChange(.instanceColor, oldValue) }
  }
  /// Added to the color multiplier's components for each copy after the first.
  @exclusivity(unchecked) open var instanceRedOffset: Float = 0 {
    didSet { didChange(.instanceRedOffset, oldValue) }
  }
  @exclusivity(unchecked) open var instanceGreenOffset: Float = 0 {
    didSet { didChange(.instanceGreenOffset, oldValue) }
  }
  @exclusivity(unchecked) open var instanceBlueOffset: Float = 0 {
    didSet { didChange(.instanceBlueOffset, oldValue) }
  }
  @exclusivity(unchecked) open var instanceAlphaOffset: Float = 0 {
    didSet { didChange(.instanceAlphaOffset, oldValue) }
  }
  /// Whether the copies keep their depth (as a transform layer does).
  @exclusivity(unchecked) open var preservesDepth = false {
    didSet { didChange(.preservesDepth, oldValue) }
  }

  /// The descriptions of the replicator's own properties (LayerProperty.swift).
  static let replicatorProperties: [LayerProperty] = {
    typealias P = LayerProperty
    typealias C = Convert
    return [
      P.make(.instanceCount, .integer, \CAReplicatorLayer.instanceCount, range: .count, C.int),
      P.make(.instanceDelay, .number, \CAReplicatorLayer.instanceDelay, action: true, C.double),
      P.make(
        .instanceTransform, .transform, \CAReplicatorLayer.instanceTransform,
        range: .transform, action: true, C.transform),
      P.optional(.instanceColor, .color, \CAReplicatorLayer.instanceColor, action: true, C.color),
      P.make(
        .instanceRedOffset, .number, \CAReplicatorLayer.instanceRedOffset, action: true, C.float),
      P.make(
        .instanceGreenOffset, .number, \CAReplicatorLayer.instanceGreenOffset, action: true,
        C.float),
      P.make(
        .instanceBlueOffset, .number, \CAReplicatorLayer.instanceBlueOffset, action: true,
        C.float),
      P.make(
        .instanceAlphaOffset, .number, \CAReplicatorLayer.instanceAlphaOffset, action: true,
        C.float),
      P.make(.preservesDepth, .bool, \CAReplicatorLayer.preservesDepth, C.bool),
    ]
  }()

  override class var properties: [LayerProperty] { super.properties + replicatorProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    guard let o = other as? CAReplicatorLayer else { return }
    instanceCount = o.instanceCount
    instanceDelay = o.instanceDelay
    instanceTransform = o.instanceTransform
    instanceColor = o.instanceColor
    instanceRedOffset = o.instanceRedOffset
    instanceGreenOffset = o.instanceGreenOffset
    instanceBlueOffset = o.instanceBlueOffset
    instanceAlphaOffset = o.instanceAlphaOffset
    preservesDepth = o.preservesDepth
  }
}
