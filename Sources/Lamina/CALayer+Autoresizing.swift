import Foundation

/// Lays out a layer's sublayers in its place (`CALayer.layoutManager`), as
/// Core Animation's layout manager protocol; every method has a default.
public protocol CALayoutManager: AnyObject {
  /// The size `layer` would like to be (`preferredFrameSize()` asks).
  func preferredSize(of layer: CALayer) -> CGSize
  /// `layer` was told to lay out again (`setNeedsLayout()`).
  func invalidateLayout(of layer: CALayer)
  /// Positions `layer`'s sublayers (its `layoutSublayers()` calls this).
  func layoutSublayers(of layer: CALayer)
}

extension CALayoutManager {
  /// The layer's bounds size.
  public func preferredSize(of layer: CALayer) -> CGSize { layer.bounds.size }
  public func invalidateLayout(of layer: CALayer) {}
  public func layoutSublayers(of layer: CALayer) {}
}

// Autoresizing, as Core Animation does it on macOS: when a layer without a
// layout manager changes size, each sublayer's frame follows its
// `autoresizingMask` (flexible margins and sizes share the change in
// proportion to their lengths).
extension CALayer {
  func resizeSublayersImpl(withOldSize size: CGSize) {
    for sublayer in storedSublayers { sublayer.resize(withOldSuperlayerSize: size) }
  }

  func resizeImpl(withOldSuperlayerSize size: CGSize) {
    guard let superlayer = storedSuperlayer, !autoresizingMask.isEmpty else { return }
    let new = superlayer.bounds.size
    let frame = self.frame
    guard !frame.isNull else { return }
    let old = superlayer.bounds
    let x = Self.share(
      delta: new.width - size.width,
      lengths: (
        frame.minX - old.minX, frame.width,
        old.minX + size.width - frame.maxX
      ),
      flexible: (
        autoresizingMask.contains(.layerMinXMargin), autoresizingMask.contains(.layerWidthSizable),
        autoresizingMask.contains(.layerMaxXMargin)
      ))
    let y = Self.share(
      delta: new.height - size.height,
      lengths: (
        frame.minY - old.minY, frame.height,
        old.minY + size.height - frame.maxY
      ),
      flexible: (
        autoresizingMask.contains(.layerMinYMargin), autoresizingMask.contains(.layerHeightSizable),
        autoresizingMask.contains(.layerMaxYMargin)
      ))
    self.frame = CGRect(
      x: frame.minX + x.margin, y: frame.minY + y.margin, width: max(0, frame.width + x.size),
      height: max(0, frame.height + y.size))
  }

  /// How much of `delta` the leading margin and the size take, sharing it
  /// among the flexible parts in proportion to their lengths (equally when
  /// those are all zero).
  static func share(
    delta: CGFloat, lengths: (CGFloat, CGFloat, CGFloat), flexible: (Bool, Bool, Bool)
  ) -> (margin: CGFloat, size: CGFloat) {
    let parts = [(lengths.0, flexible.0), (lengths.1, flexible.1), (lengths.2, flexible.2)]
    let count = parts.filter(\.1).count
    guard count > 0, delta != 0 else { return (0, 0) }
    let total = parts.filter(\.1).reduce(0) { $0 + max($1.0, 0) }
    func portion(_ part: (CGFloat, Bool)) -> CGFloat {
      guard part.1 else { return 0 }
      return total > 0 ? delta * max(part.0, 0) / total : delta / CGFloat(count)
    }
    return (portion(parts[0]), portion(parts[1]))
  }
}
