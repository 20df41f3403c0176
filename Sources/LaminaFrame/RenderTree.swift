import Foundation
import Lamina
import Synchronization

/// What frame building keeps from one frame to the next: for each layer a
/// flattening visit drew, the inputs of that visit and the draw commands it
/// produced, in a tree shaped like the visits (see docs/rendering.md,
/// "Retained frame building").
///
/// A layer's commands are a function of the layer's subtree (its values,
/// sublayers and mask, theirs) and of the visit's inputs: the matrix of the
/// superlayer's plane, the superlayer's sublayer transform and whether the
/// geometry above is flipped. Every change to a layer stamps it and its
/// ancestors with the tick of `LayerChangeClock` (`CALayer.changeStamp`),
/// so a node whose layer is stamped no later than the tick it was derived
/// at, and whose inputs are the same, is reused as it is: its subtree is not
/// walked at all. A changed layer is derived again, and the nodes of its
/// sublayers are reused where they did not change themselves; a change of
/// a layer's transform reaches its sublayers as new inputs. A layer whose
/// opacity alone changed (`CALayer.contentStamp`) keeps its drawing and
/// only applies the new opacity over it.
///
/// What cannot be known from the stamps is never reused: layers that are a
/// function of time (emitters, `CAOpenGLLayer`, tiled layers, replicator
/// delays) and, once the glyph atlas's images changed, text.
final class RenderTree {
  /// One visit of a flattening layer.
  final class Node {
    let layer: CALayer
    /// The visit's inputs.
    @exclusivity(unchecked) var parentToTarget = CATransform3DIdentity
    @exclusivity(unchecked) var parentSublayers: CATransform3D?
    @exclusivity(unchecked) var flipped = false
    /// The tick of the build that made `commands` (kept or not).
    @exclusivity(unchecked) var derivedAt: UInt64 = 0
    /// The build that last claimed the node (a layer visited twice in one
    /// build gets a second node).
    @exclusivity(unchecked) var claimedAt: UInt64 = 0
    /// The commands of the layer and its subtree, its opacity applied,
    /// when `keeps` (not while the layer fades frame after frame).
    @exclusivity(unchecked) var commands: [DrawCommand] = []
    @exclusivity(unchecked) var keeps = false
    /// Whether the layer has a `compositingFilter` (part of its drawing).
    @exclusivity(unchecked) var blends = false
    /// The tick of the last build that derived the layer's drawing.
    @exclusivity(unchecked) var contentAt: UInt64 = 0
    /// The commands before the layer's opacity (and blend mode) applied:
    /// what an opacity change reuses. Kept for layers that are translucent
    /// or had their opacity change alone before; nil for layers whose
    /// drawing is not one flattening visit (transform layers, replicators,
    /// rasterized layers, transitions).
    @exclusivity(unchecked) var unfaded: [DrawCommand]?
    @exclusivity(unchecked) var wantsUnfaded = false
    /// The tick of the last build that only applied a new opacity.
    @exclusivity(unchecked) var fadedAt: UInt64 = 0
    /// The counts the derivation added to the frame's statistics.
    @exclusivity(unchecked) var sortedPlanes = 0, sortedPieces = 0
    /// False when the commands depend on more than the subtree and the
    /// inputs (time): derived again every frame.
    @exclusivity(unchecked) var reusable = false
    /// The glyph atlas's image version the commands point at, when they
    /// hold text (nil otherwise).
    @exclusivity(unchecked) var atlasVersion: Int?
    /// The nodes of the visits made while deriving the commands.
    @exclusivity(unchecked) var children: [Node] = []
    /// A shape layer's path items before they are placed (`appendPathItems`).
    @exclusivity(unchecked) var pathItems: PathItemsMemo?
    /// The layer was plain at its last derivation (`FrameBuilder.isPlain`):
    /// while its own values stay, it is derived without the steps that do
    /// nothing for it (`derivePlain`).
    @exclusivity(unchecked) var plain = false

    init(layer: CALayer) { self.layer = layer }

    /// True when commands derived for the node's last inputs hold for
    /// these (the same inputs, nothing outside the subtree involved).
    @inline(__always)
    func sameInputs(
      _ parentToTarget: CATransform3D, _ parentSublayers: CATransform3D?, _ flipped: Bool,
      atlasVersion current: Int
    ) -> Bool {
      reusable && self.flipped == flipped && (atlasVersion == nil || atlasVersion == current)
        && self.parentToTarget == parentToTarget && self.parentSublayers == parentSublayers
    }

    /// True when only the layer's opacity can have changed since its
    /// drawing was derived: its own values did not, nor any sublayer's or
    /// its mask's subtree.
    func onlyOpacityChanged() -> Bool {
      guard contentAt != 0, layer.contentStamp <= contentAt else { return false }
      for child in children where child.layer.changeStamp > contentAt { return false }
      return true
    }
  }

  /// The nodes of the visits below one derivation: those of the last
  /// derivation, taken in order as the same layers are visited again, and
  /// those taken so far.
  struct Scope {
    var previous: [Node]
    var cursor = 0
    var taken: [Node] = []
    /// The previous nodes by layer, made when the order of visits changed.
    var byLayer: [ObjectIdentifier: [Int]]?

    init(previous: [Node]) {
      self.previous = previous
      taken.reserveCapacity(previous.count)
    }

    /// The node for a visit of `layer` in the build of `tick`: the next
    /// previous node when it is `layer`'s, else any unclaimed previous one
    /// of `layer`, else a new one.
    mutating func claim(_ layer: CALayer, tick: UInt64) -> Node {
      var node: Node?
      if cursor < previous.count, previous[cursor].layer === layer,
        previous[cursor].claimedAt != tick
      {
        node = previous[cursor]
        cursor += 1
      } else if !previous.isEmpty {
        if byLayer == nil {
          var map: [ObjectIdentifier: [Int]] = [:]
          for (i, n) in previous.enumerated() {
            map[ObjectIdentifier(n.layer), default: []].append(i)
          }
          byLayer = map
        }
        if let indices = byLayer?[ObjectIdentifier(layer)],
          let i = indices.first(where: { previous[$0].claimedAt != tick })
        {
          node = previous[i]
        }
      }
      let claimed = node ?? Node(layer: layer)
      claimed.claimedAt = tick
      taken.append(claimed)
      return claimed
    }
  }

  /// The fewest commands whose copy a node changing frame after frame
  /// does not keep (`visitRetained`).
  static let keptCopyLimit = 32

  /// The visit of the root layer.
  @exclusivity(unchecked) var root = Scope(previous: [])
  /// The tick of the build under way (`LayerChangeClock.advance()`), and
  /// of the one before.
  @exclusivity(unchecked) var tick: UInt64 = 0
  @exclusivity(unchecked) var previousTick: UInt64 = 0
  /// Group ids keep counting across frames, so that the groups of reused
  /// commands never share an id with the groups of a new derivation.
  @exclusivity(unchecked) var nextGroupID = 0
  /// The last serial given to a draw item. Serials are unique in the
  /// process: each tree counts in its own range (the top 24 bits number
  /// the trees; 2^40 items a tree is 60 years of 10,000 new items a frame
  /// at 60 frames a second).
  @exclusivity(unchecked) var nextSerial = RenderTree.newSerialRange()
  private static let serialRanges = Atomic<UInt64>(1)
  private static func newSerialRange() -> UInt64 {
    serialRanges.wrappingAdd(1, ordering: .relaxed).oldValue << 40
  }
  /// Nodes derived this frame whose commands hold placeholder images
  /// (shapes and glyphs drawn when the walk ends): patched with the images.
  @exclusivity(unchecked) var placeholderNodes: [Node] = []
  /// Nodes derived this frame that hold text: they point at the atlas's
  /// images as they are when the frame ends.
  @exclusivity(unchecked) var textNodes: [Node] = []
}

/// What the derivations of a build depended on beyond their layers and
/// inputs, counted as they happen (shared with the builders of rasterized
/// subtrees, whose commands become their parent's).
final class DerivationLog {
  /// Layers drawn as a function of time.
  @exclusivity(unchecked) var volatile = 0
  /// Items pointing at a placeholder image, replaced when the walk ends.
  @exclusivity(unchecked) var placeholders = 0
  /// Text layers drawn (their items point at the glyph atlas's images).
  @exclusivity(unchecked) var texts = 0
  /// Shape layers whose path items were placed from what their visit kept
  /// (`PathItemsMemo`).
  @exclusivity(unchecked) var placedShapes = 0
  /// The layer whose commands before its opacity are wanted, and those
  /// commands once its derivation reached them.
  @exclusivity(unchecked) var unfadedLayer: ObjectIdentifier?
  @exclusivity(unchecked) var unfaded: [DrawCommand]?
}

extension FrameBuilder {
  /// Appends the commands of `layer`'s visit: those kept from the last
  /// frame when nothing they depend on changed, those before its opacity
  /// when only its opacity changed, else derived.
  mutating func visitRetained(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool, tree: RenderTree, into commands: inout [DrawCommand]
  ) {
    let node = scope.claim(layer, tick: tree.tick)
    let derivedBefore = node.derivedAt
    let sameInputs = node.sameInputs(
      parentToTarget, parentSublayers, flipped, atlasVersion: atlasVersion)
    let unchanged = sameInputs && layer.changeStamp <= node.derivedAt
    if unchanged && node.keeps {
      commands.append(contentsOf: node.commands)
      stats.reusedLayers += 1
      stats.sortedPlanes += node.sortedPlanes
      stats.sortedPieces += node.sortedPieces
      if node.atlasVersion != nil { log.texts += 1 }
      return
    }
    let start = commands.count
    let before = (stats.sortedPlanes, stats.sortedPieces, log.volatile, log.placeholders, log.texts)
    let onlyOpacity =
      sameInputs && !layer.isHidden && layer.opacity > 0 && node.onlyOpacityChanged()
    if onlyOpacity, let unfaded = node.unfaded {
      // The same drawing under a new opacity.
      commands.append(contentsOf: unfaded)
      applyOpacity(layer.opacity, from: start, in: &commands)
      if node.blends { applyCompositingFilter(of: layer, from: start, in: &commands) }
      stats.fadedLayers += 1
      // A layer faded frame after frame does not keep what the next frame
      // fades anew; once its opacity holds still it keeps it again.
      let fadedBefore = node.fadedAt == tree.previousTick
      node.fadedAt = tree.tick
      if !unchanged && fadedBefore {
        node.keeps = false
        node.commands = []
        node.derivedAt = tree.tick
        return
      }
      stats.sortedPlanes += node.sortedPlanes
      stats.sortedPieces += node.sortedPieces
      if node.atlasVersion != nil { log.texts += 1 }
    } else {
      let outer = scope
      scope = RenderTree.Scope(previous: node.children)
      // The drawing before opacity is kept for what may fade.
      if onlyOpacity { node.wantsUnfaded = true }
      let outerUnfaded = log.unfadedLayer
      log.unfadedLayer =
        node.wantsUnfaded || layer.opacity < 1 ? ObjectIdentifier(layer) : nil
      log.unfaded = nil
      memoNode = node
      // A plain layer whose own values are as they were (a parent moved,
      // a sublayer changed, its opacity): derived without the steps that
      // do nothing for it (the same commands).
      let plain =
        node.plain && layer.contentStamp <= derivedBefore
        && derivePlain(
          layer, parentToTarget: parentToTarget, parentSublayers: parentSublayers,
          flipped: flipped, into: &commands)
      if plain {
        stats.plainLayers += 1
      } else {
        derive(
          layer, parentToTarget: parentToTarget, parentSublayers: parentSublayers,
          flipped: flipped, into: &commands)
        node.plain = Self.isPlain(layer)
      }
      memoNode = nil
      node.children = scope.taken
      scope = outer
      // Only a plain flattening visit hands its commands before opacity over.
      node.unfaded = log.unfaded
      node.contentAt = tree.tick
      node.blends = layer.compositingFilter != nil
      log.unfadedLayer = outerUnfaded
      log.unfaded = nil
      stats.derivedLayers += 1
      node.sortedPlanes = stats.sortedPlanes - before.0
      node.sortedPieces = stats.sortedPieces - before.1
      node.reusable = log.volatile == before.2
      node.atlasVersion = nil
      node.parentToTarget = parentToTarget
      node.parentSublayers = parentSublayers
      node.flipped = flipped
      if log.texts != before.4 { tree.textNodes.append(node) }
      if log.placeholders != before.3 { tree.placeholderNodes.append(node) }
    }
    node.derivedAt = tree.tick
    // Serials mark the items as derived now; reused ones keep theirs.
    for i in start..<commands.count { commands[i].assignSerials(&tree.nextSerial) }
    if !unchanged && derivedBefore == tree.previousTick && derivedBefore != 0
      && commands.count - start >= RenderTree.keptCopyLimit
    {
      // Derived in the last build too and changed since, over many
      // commands: a layer that changes frame after frame (a turning layer
      // over hundreds of shapes, and its ancestors) would pay a copy of
      // them every frame for nothing. It keeps them again once a build
      // finds it unchanged.
      node.keeps = false
      node.commands = []
      return
    }
    node.commands = Array(commands[start...])
    node.keeps = true
  }

  /// Hands the commands of `layer` before its opacity is applied (from
  /// `start`) to its retained node, when they are wanted and are all its
  /// drawing: not a replicator's (its instances' visits are not retained)
  /// nor a transition's (two appearances).
  func noteUnfaded(_ layer: CALayer, from start: Int, in commands: [DrawCommand]) {
    guard log.unfadedLayer == ObjectIdentifier(layer) else { return }
    log.unfadedLayer = nil
    guard !(layer is CAReplicatorLayer), layer.transitionState == nil else { return }
    log.unfaded = Array(commands[start...])
  }

  /// Points the commands of this frame's new nodes at the images drawn
  /// when the walk ended (placeholder → image) and notes which atlas
  /// images their text uses.
  func finishRetained(_ tree: RenderTree, images: [ObjectIdentifier: CGImage], atlasVersion: Int) {
    if !images.isEmpty {
      for node in tree.placeholderNodes {
        PendingShapes.replace(images, in: &node.commands)
        if node.unfaded != nil { PendingShapes.replace(images, in: &node.unfaded!) }
      }
    }
    for node in tree.textNodes { node.atlasVersion = atlasVersion }
    tree.placeholderNodes.removeAll()
    tree.textNodes.removeAll()
  }
}

extension FrameBuilder {
  /// The layers whose visits the last `build` derived instead of reusing,
  /// in the order they were visited (what tests check).
  package var lastDerivedLayers: [CALayer] {
    guard let tree = retained else { return [] }
    var layers: [CALayer] = []
    func collect(_ nodes: [RenderTree.Node]) {
      for node in nodes
      where node.claimedAt == tree.tick && node.derivedAt == tree.tick && node.fadedAt != tree.tick
      {
        layers.append(node.layer)
        collect(node.children)
      }
    }
    collect(tree.root.taken)
    return layers
  }
}
