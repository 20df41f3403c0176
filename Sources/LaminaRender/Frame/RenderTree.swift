import Foundation
import Lamina

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
/// a layer's transform reaches its sublayers as new inputs.
///
/// What cannot be known from the stamps is never reused: layers that are a
/// function of time (emitters, `CAOpenGLLayer`, tiled layers, replicator
/// delays) and, until the glyph atlas stays the same, text.
final class RenderTree {
  /// One visit of a flattening layer.
  final class Node {
    let layer: CALayer
    /// The visit's inputs.
    var parentToTarget = CATransform3DIdentity
    var parentSublayers: CATransform3D?
    var flipped = false
    /// The tick of the build that derived the commands.
    var derivedAt: UInt64 = 0
    /// The build that last claimed the node (a layer visited twice in one
    /// build gets a second node).
    var claimedAt: UInt64 = 0
    /// The commands of the layer and its subtree, its opacity applied.
    var commands: [DrawCommand] = []
    /// The counts the derivation added to the frame's statistics.
    var sortedPlanes = 0, sortedPieces = 0
    /// False when the commands depend on more than the subtree and the
    /// inputs (time): derived again every frame.
    var reusable = false
    /// The glyph atlas's image version the commands point at, when they
    /// hold text (nil otherwise).
    var atlasVersion: Int?
    /// The nodes of the visits made while deriving the commands.
    var children: [Node] = []

    init(layer: CALayer) { self.layer = layer }

    /// True when the commands can be used again for a visit with these inputs.
    @inline(__always)
    func matches(
      _ parentToTarget: CATransform3D, _ parentSublayers: CATransform3D?, _ flipped: Bool,
      atlasVersion current: Int
    ) -> Bool {
      reusable && layer.changeStamp <= derivedAt && self.flipped == flipped
        && (atlasVersion == nil || atlasVersion == current)
        && self.parentToTarget == parentToTarget && self.parentSublayers == parentSublayers
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
          for (i, n) in previous.enumerated() { map[ObjectIdentifier(n.layer), default: []].append(i) }
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

  /// The visit of the root layer.
  var root = Scope(previous: [])
  /// The tick of the build under way (`LayerChangeClock.advance()`).
  var tick: UInt64 = 0
  /// Group ids keep counting across frames, so that the groups of reused
  /// commands never share an id with the groups of a new derivation.
  var nextGroupID = 0
  /// The last serial given to a draw item.
  var nextSerial: UInt64 = 0
  /// Nodes derived this frame whose commands hold placeholder images
  /// (shapes and glyphs drawn when the walk ends): patched with the images.
  var placeholderNodes: [Node] = []
  /// Nodes derived this frame that hold text: they point at the atlas's
  /// images as they are when the frame ends.
  var textNodes: [Node] = []
}

/// What the derivations of a build depended on beyond their layers and
/// inputs, counted as they happen (shared with the builders of rasterized
/// subtrees, whose commands become their parent's).
final class DerivationLog {
  /// Layers drawn as a function of time.
  var volatile = 0
  /// Items pointing at a placeholder image, replaced when the walk ends.
  var placeholders = 0
  /// Text layers drawn (their items point at the glyph atlas's images).
  var texts = 0
}

extension FrameBuilder {
  /// Appends the commands of `layer`'s visit: those kept from the last
  /// frame when nothing they depend on changed, else derived (and kept).
  mutating func visitRetained(
    _ layer: CALayer, parentToTarget: CATransform3D, parentSublayers: CATransform3D?,
    flipped: Bool, tree: RenderTree, into commands: inout [DrawCommand]
  ) {
    let node = scope.claim(layer, tick: tree.tick)
    if node.matches(parentToTarget, parentSublayers, flipped, atlasVersion: atlasVersion) {
      commands.append(contentsOf: node.commands)
      stats.reusedLayers += 1
      stats.sortedPlanes += node.sortedPlanes
      stats.sortedPieces += node.sortedPieces
      if node.atlasVersion != nil { log.texts += 1 }
      return
    }
    let outer = scope
    scope = RenderTree.Scope(previous: node.children)
    let start = commands.count
    let before = (stats.sortedPlanes, stats.sortedPieces, log.volatile, log.placeholders, log.texts)
    derive(
      layer, parentToTarget: parentToTarget, parentSublayers: parentSublayers, flipped: flipped,
      into: &commands)
    node.children = scope.taken
    scope = outer
    stats.derivedLayers += 1
    // Serials mark the items as derived now; reused ones keep theirs.
    for i in start..<commands.count { commands[i].assignSerials(&tree.nextSerial) }
    node.commands = Array(commands[start...])
    node.parentToTarget = parentToTarget
    node.parentSublayers = parentSublayers
    node.flipped = flipped
    node.derivedAt = tree.tick
    node.sortedPlanes = stats.sortedPlanes - before.0
    node.sortedPieces = stats.sortedPieces - before.1
    node.reusable = log.volatile == before.2
    node.atlasVersion = nil
    if log.placeholders != before.3 { tree.placeholderNodes.append(node) }
    if log.texts != before.4 { tree.textNodes.append(node) }
  }

  /// Points the commands of this frame's new nodes at the images drawn
  /// when the walk ended (placeholder → image) and notes which atlas
  /// images their text uses.
  func finishRetained(_ tree: RenderTree, images: [ObjectIdentifier: CGImage], atlasVersion: Int) {
    if !images.isEmpty {
      for node in tree.placeholderNodes { PendingShapes.replace(images, in: &node.commands) }
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
      for node in nodes where node.claimedAt == tree.tick && node.derivedAt == tree.tick {
        layers.append(node.layer)
        collect(node.children)
      }
    }
    collect(tree.root.taken)
    return layers
  }
}
