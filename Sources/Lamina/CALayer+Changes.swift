import Foundation
import Synchronization

/// The clock that orders layer changes against the frames built from them.
///
/// Every change to a layer (a value, its sublayers, its mask, its
/// animations, a pending display) stamps the layer and its ancestors with
/// the clock's current tick (`CALayer.changeStamp`). Whoever derives data
/// from a layer tree (the renderer's retained render tree, a presentation
/// tree) calls `advance()` when it starts and keeps the tick it got: a
/// subtree whose stamp is not later than that tick has not changed since.
/// Ticks only grow, so any number of such consumers can watch the same
/// layers, each with its own tick.
package enum LayerChangeClock {
  private static let counter = Atomic<UInt64>(1)

  /// The tick changes are stamped with now.
  @inline(__always)
  package static var now: UInt64 { counter.load(ordering: .relaxed) }

  /// Ends the current tick and returns it: changes made from now on are
  /// stamped later than the value returned.
  package static func advance() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).oldValue
  }
}

extension CALayer {
  /// Records a change of this layer (its values, sublayers, mask,
  /// animations or pending display): stamps it and its ancestors (through
  /// superlayers and the layers they mask) with the current tick. A layer
  /// stamped at this tick already has stamped ancestors (attaching a layer
  /// stamps its new parent), so a burst of changes costs a comparison each.
  @inline(__always)
  func noteChange() {
    if mutesChanges { return }
    let now = LayerChangeClock.now
    if !changeIsOpacity && contentStamp < now { contentStamp = now }
    if changeStamp < now { markChanged(at: now) }
  }

  /// Records a change of `opacity` alone: the layer's drawing stays what
  /// it was, only the opacity applied over it changes (see `contentStamp`).
  @inline(__always)
  func noteOpacityChange() {
    if mutesChanges { return }
    let now = LayerChangeClock.now
    if changeStamp < now { markChanged(at: now) }
  }

  /// Stamps this layer alone, for a presentation tree that stamps the
  /// ancestors itself as its update returns up the tree (see
  /// `PresentationTree`): no walk up through weak references.
  package func noteChangeHere(opacityOnly: Bool) {
    let now = LayerChangeClock.now
    if !opacityOnly && contentStamp < now { contentStamp = now }
    if changeStamp < now { changeStamp = now }
  }

  /// Raises this layer's stamp to `stamp` (a sublayer's) when it is older.
  package func noteChangeBelow(_ stamp: UInt64) {
    if changeStamp < stamp { changeStamp = stamp }
  }

  private func markChanged(at now: UInt64) {
    var layer: CALayer? = self
    while let current = layer, current.changeStamp < now {
      current.changeStamp = now
      layer = current.storedSuperlayer ?? current.maskOwner
    }
  }
}
