import Foundation

extension CALayer {
  /// The nearest `CAScrollLayer` above this layer, if any.
  var enclosingScrollLayer: CAScrollLayer? {
    var layer = parentLayer
    while let current = layer {
      if let scroll = current as? CAScrollLayer { return scroll }
      layer = current.parentLayer
    }
    return nil
  }

  /// Scrolls the nearest enclosing `CAScrollLayer` so that `point` (in this
  /// layer's bounds space) lies at the scroll layer's origin.
  func scrollImpl(_ point: CGPoint) {
    guard let scroller = enclosingScrollLayer else { return }
    scroller.scroll(to: scroller.convert(point, from: self))
  }

  /// Scrolls the nearest enclosing `CAScrollLayer` as little as possible so
  /// that `rect` (in this layer's bounds space) becomes visible.
  func scrollRectToVisibleImpl(_ rect: CGRect) {
    guard let scroller = enclosingScrollLayer else { return }
    scroller.scroll(scroller.convert(rect, from: self))
  }

  /// The part of the layer's bounds that its nearest enclosing
  /// `CAScrollLayer` shows, in the layer's own bounds space (the whole
  /// bounds when no scroll layer encloses it; empty when none of it shows).
  var visibleRectImpl: CGRect {
    guard let scroller = enclosingScrollLayer else { return bounds }
    let shown = convert(scroller.bounds, from: scroller).intersection(bounds)
    return shown.isNull ? CGRect(origin: bounds.origin, size: .zero) : shown
  }
}
