import Foundation

/// How a gradient layer maps locations to points.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let axial = Self(rawValue: "axial")
  public static let radial = Self(rawValue: "radial")
  public static let conic = Self(rawValue: "conic")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.axial, .radial, .conic]
}

/// A layer that fills its bounds with a color gradient.
///
/// ```swift
/// let g = CAGradientLayer()
/// g.colors = [CGColor.white, CGColor.black]
/// g.startPoint = CGPoint(x: 0, y: 0.5); g.endPoint = CGPoint(x: 1, y: 0.5)
/// ```
open class CAGradientLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAGradientLayer.self }
  override package class func makeInstance() -> CALayer { CAGradientLayer() }

  /// The colors (`CGColor` values), first at location 0.
  @exclusivity(unchecked) open var colors: [Any]? {
    didSet { didChange(.colors, oldValue) }
  }
  /// The location of each color in 0…1, or nil for evenly spaced colors.
  /// Numbers, as in Core Animation: `gradient.locations = [0, 0.5, 1]`.
  @exclusivity(unchecked) open var locations: [NSNumber]? {
    didSet { didChange(.locations, oldValue) }
  }
  /// `locations` as values.
  public var locationValues: [CGFloat]? { locations.map(Convert.lengths) }
  /// Unit point where location 0 lies (the center for radial and conic).
  @exclusivity(unchecked) open var startPoint = CGPoint(x: 0.5, y: 0) {
    didSet { didChange(.startPoint, oldValue) }
  }
  /// Unit point where location 1 lies (the direction of 0 for conic).
  @exclusivity(unchecked) open var endPoint = CGPoint(x: 0.5, y: 1) {
    didSet { didChange(.endPoint, oldValue) }
  }
  /// Lamina extension (Core Animation has none; Lottie's radial highlight
  /// needs it): for a radial gradient, where location 0 lies (the focal
  /// point), as an offset from `startPoint` in unit coordinates, with
  /// location 1 still on the ellipse around `startPoint` through `endPoint`
  /// (a two-point conical gradient from the focal point to that ellipse).
  /// Zero, the default, is Core Animation's radial gradient. A focal point
  /// on or outside the ellipse is drawn just inside it. Other types ignore it.
  ///
  /// ```swift
  /// g.type = .radial
  /// g.focalPointOffset = CGPoint(x: -0.2, y: 0.2)   // the bright spot lower left
  /// ```
  @exclusivity(unchecked) open var focalPointOffset = CGPoint.zero {
    didSet { didChange(.focalPointOffset, oldValue) }
  }
  /// Lamina extension (After Effects' raster, for Lottie): the gradient's
  /// color at each pixel is taken at the pixel's top-left corner instead of
  /// its center (Core Animation's, the default), half a pixel up and left
  /// in the output, at any scale. Coverage (edges, masks) is unchanged.
  @exclusivity(unchecked) open var samplesAtPixelCorners = false {
    didSet { didChange(.samplesAtPixelCorners, oldValue) }
  }
  /// Axial, radial or conic.
  @exclusivity(unchecked) open var type: CAGradientLayerType = .axial {
    didSet { didChange(.type, oldValue) }
  }

  /// The colors as `CGColor` values (entries of another type are skipped).
  public var cgColors: [CGColor] { (colors ?? []).compactMap { $0 as? CGColor } }

  /// Colors given in any form a color takes, or nil.
  static func convertColors(_ v: Any) -> [Any]? {
    guard let list = v as? [Any] else { return nil }
    let colors = list.compactMap { Convert.color($0) }
    return colors.count == list.count ? colors : nil
  }

  /// `colors` read and written typed by animations, frame after frame: the
  /// boxed read of `[Any]` tried a score of casts, each over the list.
  static let colorsAnimation = AnimatedProperty.value(
    { layer in
      guard let list = (layer as? CAGradientLayer)?.colors else { return .none }
      var colors: [CGColor] = []
      colors.reserveCapacity(list.count)
      for entry in list {
        guard let color = entry as? CGColor else { return LayerValue(list) }
        colors.append(color)
      }
      return .colors(colors)
    },
    { layer, value in
      guard let gradient = layer as? CAGradientLayer else { return false }
      switch value {
      case .colors(let colors): gradient.colors = colors
      case .none: gradient.colors = nil
      default:
        guard let boxed = value.boxed, let colors = convertColors(boxed) else { return false }
        gradient.colors = colors
      }
      return true
    })

  /// The descriptions of the gradient layer's own properties (LayerProperty.swift).
  static let gradientProperties: [LayerProperty] = [
    LayerProperty.optional(
      .colors, .colors, \CAGradientLayer.colors, range: .stops, action: true,
      animation: colorsAnimation, convertColors),
    LayerProperty.optional(
      .locations, .numbers, \CAGradientLayer.locations, range: .stops, action: true,
      Convert.nsNumbers),
    LayerProperty.make(
      .startPoint, .point, \CAGradientLayer.startPoint, action: true, Convert.point),
    LayerProperty.make(.endPoint, .point, \CAGradientLayer.endPoint, action: true, Convert.point),
    LayerProperty.enumeration(.type, \CAGradientLayer.type, all: CAGradientLayerType.all),
    LayerProperty.make(.focalPointOffset, .point, \CAGradientLayer.focalPointOffset, Convert.point),
    LayerProperty.make(.samplesAtPixelCorners, .bool, \CAGradientLayer.samplesAtPixelCorners, Convert.bool),
  ]

  override class var properties: [LayerProperty] { super.properties + gradientProperties }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    guard let o = other as? CAGradientLayer else { return }
    colors = o.colors
    locations = o.locations
    startPoint = o.startPoint
    endPoint = o.endPoint
    type = o.type
    focalPointOffset = o.focalPointOffset
    samplesAtPixelCorners = o.samplesAtPixelCorners
  }
}
