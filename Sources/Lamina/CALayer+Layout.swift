import Foundation

// Layout as in Core Animation: a layer marked with `setNeedsLayout()` (and
// any layer whose bounds change size, or whose sublayers change) has its
// `layoutSublayers()` called by the next `layoutIfNeeded()`, top-down, which
// every outermost transaction commit runs (CATransaction.commitPhases()),
// and the renderer and the `lamina` command before each frame is built.
// Every marked layer also marks its ancestors as having a subtree that needs
// layout, so an unchanged tree costs one flag test per frame.

extension CALayer {
  /// Marks the layer as needing layout at the next `layoutIfNeeded()`.
  func setNeedsLayoutImpl() {
    if !needsLayoutFlag { noteInvalidated() }
    needsLayoutFlag = true
    openTransaction()
    markAncestorsForLayout()
    layoutManager?.invalidateLayout(of: self)
  }

  /// Whether the layer is marked as needing layout.
  func needsLayoutImpl() -> Bool { needsLayoutFlag }

  /// Lays out the layer (when it needs layout), then its sublayers that
  /// need it, top-down: a layer's `layoutSublayers()` runs before those of
  /// its sublayers, so that they see the bounds it gave them.
  func layoutIfNeededImpl() {
    guard needsLayoutFlag || subtreeNeedsLayout else { return }
    if needsLayoutFlag {
      needsLayoutFlag = false
      layoutSublayers()
    }
    // Layout may mark sublayers again (new bounds); walk until all are clean.
    var passes = 0
    while subtreeNeedsLayout && passes < Self.maxLayoutPasses {
      subtreeNeedsLayout = false
      for sublayer in storedSublayers { sublayer.layoutIfNeeded() }
      mask?.layoutIfNeeded()
      passes += 1
    }
    // A layout that keeps invalidating itself is cut off, not looped forever.
    subtreeNeedsLayout = false
  }

  /// Layout rounds of one subtree before a cycle is cut off.
  static let maxLayoutPasses = 16

  func markAncestorsForLayout() {
    var layer = storedSuperlayer ?? maskOwner
    while let current = layer, !current.subtreeNeedsLayout {
      current.subtreeNeedsLayout = true
      layer = current.storedSuperlayer ?? current.maskOwner
    }
  }
}
