import Foundation

/// The directions a scroll layer may scroll in.
public struct CAScrollLayerScrollMode: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public static let none = Self(rawValue: "none")
  public static let vertically = Self(rawValue: "vertically")
  public static let horizontally = Self(rawValue: "horizontally")
  public static let both = Self(rawValue: "both")
  /// Every value Core Animation defines.
  public static let all: [Self] = [.none, .vertically, .horizontally, .both]
}

/// A layer whose bounds origin is the scroll offset; it masks to its bounds
/// by default.
open class CAScrollLayer: CALayer {
  override package class var laminaClass: CALayer.Type { CAScrollLayer.self }
  override package class func makeInstance() -> CALayer { CAScrollLayer() }

  /// The directions `scroll(to:)` and `scroll(_:)` may move in.
  @exclusivity(unchecked) open var scrollMode: CAScrollLayerScrollMode = .both {
    didSet { didChange(.scrollMode, oldValue) }
  }

  open override class func defaultValue(forKey key: String) -> Any? {
    key == LayerKey.masksToBounds.rawValue ? true : super.defaultValue(forKey: key)
  }

  /// The descriptions of the scroll layer's own properties (LayerProperty.swift).
  static let scrollProperties: [LayerProperty] = [
    LayerProperty.enumeration(
      .scrollMode, \CAScrollLayer.scrollMode, all: CAScrollLayerScrollMode.all)
  ]

  override class var properties: [LayerProperty] { super.properties + scrollProperties }

  /// Moves the bounds origin to `point`, along the axes `scrollMode` allows.
  open func scroll(to point: CGPoint) {
    var origin = bounds.origin
    if scrollMode == .both || scrollMode == .horizontally { origin.x = point.x }
    if scrollMode == .both || scrollMode == .vertically { origin.y = point.y }
    bounds.origin = origin
  }

  /// Scrolls as little as possible to show as much of `rect` (in the
  /// layer's bounds space) as fits (Core Animation's `scroll(to:)` with a rect).
  open func scroll(to rect: CGRect) { scroll(rect) }

  /// Scrolls as little as possible to show as much of `rect` (in the
  /// layer's bounds space) as fits.
  open func scroll(_ rect: CGRect) {
    let r = rect.standardized
    let b = bounds
    func axis(_ lo: CGFloat, _ hi: CGFloat, _ blo: CGFloat, _ length: CGFloat) -> CGFloat {
      if lo < blo || hi - lo > length { return lo }
      if hi > blo + length { return hi - length }
      return blo
    }
    scroll(
      to: CGPoint(
        x: axis(r.minX, r.maxX, b.minX, b.width), y: axis(r.minY, r.maxY, b.minY, b.height)))
  }

  open override func copyValues(from other: CALayer) {
    super.copyValues(from: other)
    if let o = other as? CAScrollLayer { scrollMode = o.scrollMode }
  }
}
