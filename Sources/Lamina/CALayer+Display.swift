import Foundation

extension CALayer {
  /// Marks the contents as needing to be redrawn; the renderer calls
  /// `displayIfNeeded()` before it draws the next frame.
  func setNeedsDisplayImpl() { displayPending = true }

  /// Marks part of the contents as needing to be redrawn. Lamina redraws the
  /// whole backing store.
  func setNeedsDisplayImpl(_ rect: CGRect) { displayPending = true }

  /// Whether `setNeedsDisplay()` was called since the last display.
  func needsDisplayImpl() -> Bool { displayPending }

  /// Calls `display()` when the layer needs it.
  func displayIfNeededImpl() {
    guard displayPending else { return }
    displayPending = false
    guard displayDeferredWhileNew else { return display() }
    // The display an earlier commit owed the layer while it was new: what
    // it sets shows at once, as it would have then.
    displayDeferredWhileNew = false
    let created = createdGeneration
    createdGeneration = CATransaction.generation
    display()
    createdGeneration = created
  }

  /// Marks the layers of the tree (sublayers and masks) that need display
  /// and are not committed yet as owed a display of a new layer: a commit
  /// with no drawing backend leaves their display to a later one.
  func deferDisplayOfNewLayers() {
    if displayPending && !isLive { displayDeferredWhileNew = true }
    guard subtreeNeedsDisplay else { return }
    for sublayer in storedSublayers { sublayer.deferDisplayOfNewLayers() }
    mask?.deferDisplayOfNewLayers()
  }

  /// Marks the ancestors (through superlayers and the layers masked) as
  /// having a layer below that needs display.
  func markAncestorsForDisplay() {
    var layer = storedSuperlayer ?? maskOwner
    while let current = layer, !current.subtreeNeedsDisplay {
      current.subtreeNeedsDisplay = true
      layer = current.storedSuperlayer ?? current.maskOwner
    }
  }

  /// Calls `displayIfNeeded()` on every layer of the tree (sublayers and
  /// masks) that needs display, parents before their sublayers: the
  /// display phase of Core Animation's commit. Only subtrees marked as
  /// holding such a layer are visited.
  package func displayTreeIfNeeded() {
    displayIfNeeded()
    guard subtreeNeedsDisplay else { return }
    subtreeNeedsDisplay = false
    for sublayer in storedSublayers { sublayer.displayTreeIfNeeded() }
    mask?.displayTreeIfNeeded()
  }

  /// The layout and display phases of Core Animation's commit for this
  /// tree, without committing: `layoutIfNeeded()`, `displayIfNeeded()` on
  /// every layer that needs it, then layout again for what display changed.
  /// For a renderer of a tree at a given time (not a live display loop,
  /// which calls `CATransaction.commitFrame(root:)`).
  package func layoutAndDisplayIfNeeded() {
    layoutIfNeeded()
    displayTreeIfNeeded()
    layoutIfNeeded()
  }

  /// `display()`'s default: a delegate's `display(_:)` wins, otherwise
  /// the backing store is drawn.
  func defaultDisplay() {
    // Gradient, shape and text layers draw in the renderer, from their
    // properties; without a delegate, displaying them sets no contents.
    if delegate == nil
      && (self is CAGradientLayer || self is CAShapeLayer
        || (self as? CATextLayer).map { !$0.drawsTextIntoContents } == true)
    {
      return
    }
    if let delegate {
      delegate.display(self)
    } else {
      drawIntoBackingStore()
    }
  }

  /// Makes a bitmap of `bounds × contentsScale` pixels, draws into it with
  /// `draw(in:)` (bounds space) and sets it as `contents`.
  public func drawIntoBackingStore() {
    delegate?.layerWillDraw(self)
    let scale = contentsScale > 0 ? contentsScale : 1
    let width = Int(saturating: bounds.width * scale, rounding: .up)
    let height = Int(saturating: bounds.height * scale, rounding: .up)
    guard let context = CGContext.bitmap(width: width, height: height) else {
      contents = nil
      return
    }
    context.scaleBy(x: scale, y: scale)
    context.translateBy(x: -bounds.minX, y: -bounds.minY)
    draw(in: context)
    contents = context.makeImage()
  }
}
