import Foundation

/// The layer tree as it appears at a moment: presentation layers (copies
/// of the model layers with their animations applied) for a whole tree,
/// kept between updates so that each update only copies and applies values.
///
/// ```swift
/// let tree = PresentationTree(root: scene.root)
/// for frame in 0..<240 {
///   let layers = tree.update(time: Double(frame) / 60)
///   render(layers)
/// }
/// ```
///
/// `time` is the root's parent time (scene time, or `CACurrentMediaTime()`
/// for live layers); every layer's `beginTime`, `speed` and `timeOffset`
/// map it into its subtree's and its animations' time. An update is
/// deterministic: it depends only on the model tree and `time`, never on
/// earlier updates. The returned layers belong to the tree and change on
/// the next update; their `model()` is the layer they show.
public final class PresentationTree {
  /// The model root.
  public let root: CALayer
  private let rootNode: Node

  /// A presentation tree for the model tree under `root`.
  public init(root: CALayer) {
    self.root = root
    rootNode = Node(model: root)
  }

  /// Brings the presentation layers to `time` (the root's parent time) and
  /// returns the presentation root. Sublayers and masks of the result are
  /// presentation layers too; layers added to or removed from the model
  /// since the last update are followed.
  @discardableResult
  public func update(time: CFTimeInterval) -> CALayer {
    rootNode.update(parentTime: time)
    return rootNode.layer
  }

  /// Hit testing at the time of the last update: the model layer whose
  /// presentation is front-most at `point` (in the root's superlayer
  /// space, as `CALayer.hitTest(_:)` takes it), or nil.
  public func hitTest(_ point: CGPoint) -> CALayer? {
    rootNode.layer.hitTest(point)?.model()
  }

  /// The presentation layer of one model layer of the tree, as of the last
  /// update (nil when it is not in the tree or was never updated).
  public func presentationLayer(for model: CALayer) -> CALayer? {
    rootNode.find(model)
  }

  final class Node {
    let model: CALayer
    let layer: CALayer
    var children: [Node] = []
    var mask: Node?
    var compiled: [CompiledAnimation] = []
    var compiledVersion = -1

    /// The model's `valuesVersion` when its values were last copied.
    var copiedVersion = -1
    /// Whether the animations can be undone key by key (see `update`).
    var restorable = false
    /// What the layer looked like when each of its transitions was first seen.
    var transitionSnapshots: [ObjectIdentifier: CALayer] = [:]

    init(model: CALayer) {
      self.model = model
      layer = model.valueCopy()
      layer.createdGeneration = .max
      layer.modelLayer = model
    }

    func update(parentTime: CFTimeInterval) {
      let model = self.model
      if compiledVersion != model.animationsVersion {
        compiled = model.storedAnimations.map { CompiledAnimation($0.animation) }
        compiledVersion = model.animationsVersion
        restorable = compiled.allSatisfy(\.restorable)
        copiedVersion = -1
      }
      // A new transition starts from the layer as it was last presented.
      let transitions = model.storedAnimations.compactMap { $0.animation as? CATransition }
      if transitions.isEmpty {
        transitionSnapshots.removeAll()
      } else {
        for transition in transitions where transitionSnapshots[ObjectIdentifier(transition)] == nil
        {
          transitionSnapshots[ObjectIdentifier(transition)] = layer.deepCopy()
        }
      }
      // Values copy only when the model changed; otherwise only what the
      // animations overwrote goes back. Subclasses copy always: their own
      // properties do not report changes.
      if copiedVersion == model.valuesVersion && restorable && type(of: model) == CALayer.self {
        for animation in compiled { animation.restore(layer, from: model) }
      } else {
        layer.copyValues(from: model)
        copiedVersion = model.valuesVersion
      }
      let time = model.timing.localTime(parentTime)
      // The mask first: animations of `mask.…` key paths write into it.
      updateMask(time: time)
      for animation in compiled { animation.apply(to: layer, at: time) }
      layer.transitionState = nil
      for transition in transitions.reversed() {
        if let state = Self.transitionState(
          transition, from: transitionSnapshots[ObjectIdentifier(transition)], at: time)
        {
          layer.transitionState = state
          break
        }
      }
      syncChildren()
      for child in children { child.update(parentTime: time) }
    }

    /// Brings the presentation mask to `time` (this layer's local time).
    private func updateMask(time: CFTimeInterval) {
      guard let modelMask = model.mask else {
        if mask != nil {
          mask = nil
          layer.mask = nil
        }
        return
      }
      if mask?.model !== modelMask { mask = Node(model: modelMask) }
      // What this layer's `mask.…` animations wrote last time goes back.
      if compiled.contains(where: { $0.keyPath.hasPrefix("mask.") }) { mask?.copiedVersion = -1 }
      mask?.update(parentTime: time)
      if layer.mask !== mask?.layer { layer.mask = mask?.layer }
    }

    /// The state of `transition` at the layer's local `time`, or nil when it
    /// does not show (not begun, or over and not filling).
    static func transitionState(_ transition: CATransition, from: CALayer?, at time: CFTimeInterval)
      -> TransitionState?
    {
      guard let from else { return nil }
      let timing = TimingModel(transition)
      if transition.isRemovedOnCompletion && timing.hasEnded(atParentTime: time) { return nil }
      guard let point = timing.point(atParentTime: time) else { return nil }
      let eased = transition.timingFunction?.evaluate(at: point.progress) ?? point.progress
      let start = Double(transition.startProgress)
      let end = Double(transition.endProgress)
      return TransitionState(
        from: from, type: transition.type, subtype: transition.subtype ?? .fromLeft,
        progress: min(1, max(0, start + (end - start) * eased)))
    }

    /// Makes the presentation sublayers follow the model's, reusing the
    /// nodes of layers that stay.
    private func syncChildren() {
      let models = model.storedSublayers
      if models.count == children.count {
        var same = true
        for i in 0..<models.count where children[i].model !== models[i] {
          same = false
          break
        }
        if same { return }
      }
      var old: [ObjectIdentifier: Node] = [:]
      for child in children { old[ObjectIdentifier(child.model)] = child }
      children = models.map { old[ObjectIdentifier($0)] ?? Node(model: $0) }
      for child in layer.storedSublayers where child.superlayer === layer { child.superlayer = nil }
      layer.storedSublayers = children.map(\.layer)
      for child in children { child.layer.superlayer = layer }
    }

    func find(_ target: CALayer) -> CALayer? {
      if model === target { return layer }
      for child in children { if let found = child.find(target) { return found } }
      return mask?.find(target)
    }
  }
}

extension CALayer {
  /// The layer as it appears now (at `CACurrentMediaTime()`): a copy with
  /// its animations applied, whose sublayers and mask are presentation
  /// layers too. A presentation layer returns itself.
  ///
  /// A presentation copy is an instance of the layer's Lamina class (Swift
  /// cannot call a subclass's `init(layer:)` through its metatype), so for
  /// a subclass defined outside Lamina this returns nil, with a warning
  /// (see `Diagnostics`); `presentationLayer()` returns the copy typed as
  /// its Lamina class.
  public func presentation() -> Self? {
    if modelLayer != nil { return self }
    guard let copy = presentationLayer() as? Self else {
      Diagnostics.warnOnce(
        "presentation() of \(type(of: self)): its presentation copy is a "
          + "\(type(of: self).laminaClass), not a \(type(of: self)); presentation() returns nil for "
          + "it, presentationLayer() returns the copy")
      return nil
    }
    return copy
  }

  /// The layer as it appears now, as `presentation()`, typed as a `CALayer`:
  /// for any layer, subclasses defined outside Lamina included (whose copy
  /// is an instance of their Lamina class, with every value of the layer).
  public func presentationLayer() -> CALayer {
    if modelLayer != nil { return self }
    let now = CACurrentMediaTime()
    let parent = superlayer ?? maskOwner
    let parentTime = parent.map { $0.localTime(fromAbsolute: now) } ?? now
    return PresentationTree(root: self).update(time: parentTime)
  }

  /// The model layer a presentation layer shows; a model layer returns itself.
  public func model() -> Self {
    (modelLayer as? Self) ?? self
  }
}
