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
  /// since the last update are followed. Only what can have changed is
  /// visited: subtrees whose model layers did not change since the last
  /// update (`CALayer.changeStamp`) and that hold no animations are left as
  /// they are, so an update costs what animates and what was changed.
  @discardableResult
  public func update(time: CFTimeInterval) -> CALayer {
    let tick = LayerChangeClock.advance()
    var counts = Counts()
    rootNode.update(parentTime: time, since: lastTick, counts: &counts)
    lastTick = tick
    visitedLayers = counts.visited
    appliedLayers = counts.applied
    return rootNode.layer
  }

  /// The clock's tick when the last update began (see `LayerChangeClock`).
  private var lastTick: UInt64 = 0
  /// How many presentation layers the last update visited (the others
  /// were left as they were): what tests count.
  package private(set) var visitedLayers = 0
  /// How many of them had their animations evaluated (the others held
  /// still or have none): what tests count.
  package private(set) var appliedLayers = 0

  struct Counts {
    var visited = 0
    var applied = 0
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
    @exclusivity(unchecked) var children: [Node] = []
    @exclusivity(unchecked) var mask: Node?
    @exclusivity(unchecked) var compiled: [CompiledAnimation] = []
    @exclusivity(unchecked) var compiledVersion = -1
    /// Whether an animation animates a key the class redraws for.
    @exclusivity(unchecked) var redraws = false
    /// The transitions among the animations, in order.
    @exclusivity(unchecked) var transitions: [CATransition] = []
    /// Whether an animation writes into the mask (`mask.…` key paths).
    @exclusivity(unchecked) var writesMask = false
    /// The open span of local times around the last update's in which
    /// every animation holds still (`CompiledAnimation.steadySpan`): an
    /// update inside it, with the model as it was, leaves the layer as it
    /// is. Empty when some animation moves.
    @exclusivity(unchecked) var steady: (lower: Double, upper: Double) = (0, 0)
    /// The open span of parent times around the last update's in which
    /// nothing in the subtree moves: the intersection of the layer's
    /// `steady` span (everything, without animations) and its sublayers'
    /// and mask's spans, taken into the parent's time. An update inside
    /// it, with the model subtree as it was, changes nothing below: the
    /// subtree is not visited. Empty where that cannot be known (a layer
    /// that redraws for an animated key, writes its mask or has a
    /// transition; a layer with a `duration`, whose time cycles).
    @exclusivity(unchecked) var still: (lower: Double, upper: Double) = (0, 0)

    /// The model's `valuesVersion` when its values were last copied.
    @exclusivity(unchecked) var copiedVersion = -1
    /// How the values the animations overwrote go back to the model's
    /// before they are applied again (see `update`); nil: copy everything.
    @exclusivity(unchecked) var restore: Restore?
    /// Whether this layer or one below it has animations: then the subtree
    /// depends on time and is visited by every update.
    @exclusivity(unchecked) var animatedBelow = true
    /// Whether the node has been brought up to date once.
    @exclusivity(unchecked) var updated = false
    /// What the layer looked like when each of its transitions was first seen.
    @exclusivity(unchecked) var transitionSnapshots: [ObjectIdentifier: CALayer] = [:]
    /// What the animations overwrite, undone from the model.
    enum Restore {
      /// Only fast properties (opacity, position, ...): typed getters and setters.
      case fast
      /// Whole properties through the class's accessors (`transform` for
      /// `transform.rotation.z`, `path` for a shape's `path`, ...).
      case accessors([PropertyAccessor])
    }

    init(model: CALayer) {
      self.model = model
      layer = model.valueCopy()
      layer.createdGeneration = .max
      layer.modelLayer = model
    }

    /// Brings the node to `parentTime`; `tick` is the clock's tick of the
    /// previous update: a model subtree stamped no later has not changed.
    func update(parentTime: CFTimeInterval, since tick: UInt64, counts: inout Counts) {
      let model = self.model
      // Nothing below changed and nothing moves by itself, or nothing
      // moves until a time beyond this one: as it was.
      if updated && model.changeStamp <= tick
        && (!animatedBelow || (still.lower < parentTime && parentTime < still.upper))
      {
        return
      }
      counts.visited += 1
      updated = true
      var animationsChanged = false
      if compiledVersion != model.animationsVersion {
        animationsChanged = compiledVersion != -1
        compiled = model.storedAnimations.map { CompiledAnimation($0.animation) }
        compiledVersion = model.animationsVersion
        transitions = model.storedAnimations.compactMap { $0.animation as? CATransition }
        writesMask = compiled.contains { $0.keyPath.hasPrefix("mask.") }
        restore = Self.restore(for: compiled, of: type(of: model))
        // (Only a copy of the model's own class draws as the model does.)
        redraws = type(of: layer) == type(of: model) && compiled.contains { $0.redraws(model) }
        copiedVersion = -1
      }
      // A new transition starts from the layer as it was last presented.
      if transitions.isEmpty {
        if !transitionSnapshots.isEmpty { transitionSnapshots.removeAll() }
      } else {
        for transition in transitions where transitionSnapshots[ObjectIdentifier(transition)] == nil
        {
          transitionSnapshots[ObjectIdentifier(transition)] = layer.deepCopy()
        }
      }
      // Values copy only when the model changed; otherwise only what the
      // animations overwrote goes back, and is overwritten again, quietly:
      // the layer reports a change only where the values end up different
      // (an animation that ended, or holds its last value, changes nothing).
      let time = model.timing.localTime(parentTime)
      // The mask first: animations of `mask.…` key paths write into it.
      updateMask(
        time: time, since: tick, counts: &counts, rewritten: animationsChanged || writesMask)
      var held = compiled.isEmpty
      if copiedVersion == model.valuesVersion, compiled.isEmpty {
        // Nothing to undo or apply.
      } else if copiedVersion == model.valuesVersion, steady.lower < time, time < steady.upper,
        !redraws, !writesMask, transitions.isEmpty
      {
        // Every animation holds still since the last update: the layer
        // shows what that update applied (most Lottie layers most frames).
        held = true
      } else if copiedVersion == model.valuesVersion, compiled.count == 1,
        let get = compiled[0].fastGet, let set = compiled[0].fastNumbers?.set
      {
        // One number animating (opacity, position.x, …): its value now, or
        // the model's when it does not apply.
        let animation = compiled[0]
        layer.mutesChanges = true
        if animation.property?.isTransformComponent == true {
          // Set on the model's transform, as every frame.
          let before = layer.transform
          layer.transform = model.transform
          if let value = animation.fastValue(at: time) { set(layer, value) }
          if layer.transform != before { layer.noteChangeHere(opacityOnly: false) }
        } else {
          let before = get(layer)
          set(layer, animation.fastValue(at: time) ?? get(model))
          if get(layer) != before {
            layer.noteChangeHere(opacityOnly: animation.keyPath == LayerKey.opacity.rawValue)
          }
        }
        layer.mutesChanges = false
      } else if copiedVersion == model.valuesVersion, let restore {
        switch restore {
        case .fast:
          // The layer changed when a value the animations set ends up
          // different: a Lottie layer's visibility, transform and opacity
          // that hold still leave it as it was (and its frame retained).
          let before = compiled.map { $0.presentedValue(of: layer) }
          layer.mutesChanges = true
          for animation in compiled { animation.restore(layer, from: model) }
          for animation in compiled { animation.apply(to: layer, at: time) }
          layer.mutesChanges = false
          var changed = false
          var opacityOnly = true
          for (animation, old) in zip(compiled, before)
          where !old.isSame(as: animation.presentedValue(of: layer)) {
            changed = true
            if animation.keyPath != LayerKey.opacity.rawValue { opacityOnly = false }
          }
          if changed { layer.noteChangeHere(opacityOnly: opacityOnly) }
        case .accessors(let accessors):
          let before = accessors.map { $0.get(layer) }
          layer.mutesChanges = true
          for accessor in accessors { accessor.set(layer, accessor.get(model)) }
          for animation in compiled { animation.apply(to: layer, at: time) }
          layer.mutesChanges = false
          for (accessor, old) in zip(accessors, before)
          where !Convert.same(old, accessor.get(layer)) {
            layer.noteChangeHere(opacityOnly: false)
            break
          }
        }
      } else {
        layer.copyValues(from: model)
        copiedVersion = model.valuesVersion
        for animation in compiled { animation.apply(to: layer, at: time) }
      }
      if !held {
        counts.applied += 1
        steady = Self.steadySpan(of: compiled, at: time)
      }
      // An animated key the class draws from: the presentation copy draws
      // again (its `draw(in:)` reads the animated value), as in Core Animation.
      if redraws { layer.setNeedsDisplay() }
      if layer.transitionState != nil { layer.transitionState = nil }
      for transition in transitions.reversed() {
        if let state = Self.transitionState(
          transition, from: transitionSnapshots[ObjectIdentifier(transition)], at: time)
        {
          layer.transitionState = state
          break
        }
      }
      syncChildren()
      // Layers stamped here (`noteChangeHere`) are not stamped up the tree:
      // each node raises its own stamp to its sublayers' as it returns.
      var animated = !compiled.isEmpty
      var below: UInt64 = 0
      // In this layer's time: when nothing in the subtree moves.
      var span =
        compiled.isEmpty ? (lower: -Double.infinity, upper: Double.infinity) : steady
      if redraws || writesMask || !transitions.isEmpty { span = (0, 0) }
      for child in children {
        child.update(parentTime: time, since: tick, counts: &counts)
        animated = animated || child.animatedBelow
        below = max(below, child.layer.changeStamp)
        span = (max(span.lower, child.still.lower), min(span.upper, child.still.upper))
      }
      if let mask {
        animated = animated || mask.animatedBelow
        below = max(below, mask.layer.changeStamp)
        span = (max(span.lower, mask.still.lower), min(span.upper, mask.still.upper))
      }
      layer.noteChangeBelow(below)
      animatedBelow = animated
      still = Self.parentSpan(span, model.timing)
    }

    /// A span of a layer's local times as its parent's times: the same
    /// under the identity timing, mapped back through `beginTime`, `speed`
    /// and `timeOffset` otherwise (a little inside, so that a time at a
    /// bound that rounding moved is visited), empty for a layer with a
    /// `duration`.
    static func parentSpan(_ span: (lower: Double, upper: Double), _ timing: LayerTiming)
      -> (lower: Double, upper: Double)
    {
      guard span.lower < span.upper, timing.duration <= 0 else { return (0, 0) }
      let speed = Double(timing.speed)
      if speed == 1 && timing.beginTime == 0 && timing.timeOffset == 0 { return span }
      guard speed != 0 else {
        // Local time stands still at the offset.
        let t = timing.timeOffset
        return span.lower < t && t < span.upper ? (-.infinity, .infinity) : (0, 0)
      }
      let a = (span.lower - timing.timeOffset) / speed + timing.beginTime
      let b = (span.upper - timing.timeOffset) / speed + timing.beginTime
      var (lower, upper) = speed > 0 ? (a, b) : (b, a)
      if lower.isFinite { lower += max(abs(lower), 1) * 1e-9 }
      if upper.isFinite { upper -= max(abs(upper), 1) * 1e-9 }
      return lower < upper ? (lower, upper) : (0, 0)
    }

    /// The span of local times around `time` in which none of `compiled`
    /// moves (their steady spans' intersection), or an empty span.
    static func steadySpan(of compiled: [CompiledAnimation], at time: CFTimeInterval)
      -> (lower: Double, upper: Double)
    {
      guard !compiled.isEmpty else { return (0, 0) }
      var lower = -Double.infinity
      var upper = Double.infinity
      for animation in compiled {
        guard let span = animation.steadySpan(atParentTime: time) else { return (0, 0) }
        lower = max(lower, span.lower)
        upper = min(upper, span.upper)
      }
      return (lower, upper)
    }

    /// How `compiled` can be undone key by key, or nil when the values
    /// must be copied whole: a group or an animation of a key path the
    /// class does not store (a sublayer's key, an unknown key).
    static func restore(for compiled: [CompiledAnimation], of cls: CALayer.Type) -> Restore? {
      // Restorable key by key when the class stores every key (a shape's
      // `path` animated on a plain layer is a key of no property there).
      let stored = cls.accessorTable.byKey
      if compiled.allSatisfy({ $0.restorable && stored[$0.keyHead] != nil }) { return .fast }
      var keys: [String] = []
      for animation in compiled {
        if animation.animation is CATransition { continue }
        guard animation.children.isEmpty, !animation.keyPath.isEmpty else { return nil }
        let head = String(animation.keyPath.prefix { $0 != "." })
        if !keys.contains(head) { keys.append(head) }
        // A keyframe path with a rotation mode also turns the transform.
        if (animation.animation as? CAKeyframeAnimation)?.rotationMode != nil,
          !keys.contains(LayerKey.transform.rawValue)
        {
          keys.append(LayerKey.transform.rawValue)
        }
      }
      let table = cls.accessorTable.byKey
      var accessors: [PropertyAccessor] = []
      for key in keys {
        guard let accessor = table[key], accessor.isStored, accessor.kind != .layer,
          accessor.kind != .layers
        else { return nil }
        accessors.append(accessor)
      }
      return .accessors(accessors)
    }

    /// Brings the presentation mask to `time` (this layer's local time).
    /// `rewritten`: this layer's animations write `mask.…` key paths or
    /// changed, so what they wrote last time goes back (a full copy).
    private func updateMask(
      time: CFTimeInterval, since tick: UInt64, counts: inout Counts, rewritten: Bool
    ) {
      guard let modelMask = model.mask else {
        if mask != nil {
          mask = nil
          layer.mask = nil
        }
        return
      }
      if mask?.model !== modelMask { mask = Node(model: modelMask) }
      guard let mask else { return }
      if rewritten {
        mask.copiedVersion = -1
        mask.updated = false
      }
      mask.update(parentTime: time, since: tick, counts: &counts)
      if layer.mask !== mask.layer { layer.mask = mask.layer }
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
      for child in layer.storedSublayers where child.storedSuperlayer === layer {
        child.storedSuperlayer = nil
      }
      layer.storedSublayers = children.map(\.layer)
      for child in children { child.layer.storedSuperlayer = layer }
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
  func presentationImpl() -> Self? {
    if modelLayer != nil { return self }
    guard let copy = presentationLayer() as? Self else {
      Diagnostics.warnOnce(
        "presentation() of \(type(of: self)): its presentation copy is a "
          + "\(type(of: self).laminaClass), not a \(type(of: self)); presentation() returns nil for "
          + "it, presentationLayer() returns the copy (adopt PresentationCopyable to have copies "
          + "made with init(layer:))")
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
    let parent = storedSuperlayer ?? maskOwner
    let parentTime = parent.map { $0.localTime(fromAbsolute: now) } ?? now
    return PresentationTree(root: self).update(time: parentTime)
  }

  /// The model layer a presentation layer shows; a model layer returns itself.
  func modelImpl() -> Self {
    (modelLayer as? Self) ?? self
  }
}
