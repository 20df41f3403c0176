import Foundation
import Lamina

extension FrameBuilder {
  /// The sublayers of a `CAReplicatorLayer`, drawn `instanceCount` times.
  /// Instance i is moved by `instanceTransform` applied i times about the
  /// replicator's anchor point (so a rotation turns a ring about its
  /// center), and its colors are multiplied by `instanceColor` plus i times
  /// the per-instance offsets, clamped to 0…1. Instances reuse the same
  /// images (no extra uploads) and batch like any other items.
  mutating func appendReplicatorInstances(
    _ replicator: CAReplicatorLayer, toTarget: CATransform3D, sublayerTransform: CATransform3D?,
    flipped: Bool, into commands: inout [DrawCommand]
  ) {
    let sublayers = drawingOrder(replicator.storedSublayersForRendering)
    // With an instanceDelay, instance i shows its animated sublayers as they
    // were i delays ago: their model layers are evaluated again at that time.
    let delay = replicator.instanceDelay
    let animated = delay != 0 ? sublayers.map { Self.hasAnimations($0.model()) } : []
    // Delayed instances are functions of time; and every instance visits
    // the same sublayers, so none of their visits is kept on its own (the
    // replicator's visit keeps them all).
    if animated.contains(true) { log.volatile += 1 }
    let wasRetaining = retaining
    retaining = false
    defer { retaining = wasRetaining }
    instanceIndices.append(0)
    defer { instanceIndices.removeLast() }
    for (i, (placement, tint)) in Self.replicatorInstances(replicator).enumerated() {
      instanceIndices[instanceIndices.count - 1] = i
      let start = commands.count
      // Instance i's placement, then the replicator's own sublayer transform.
      let forSublayers = sublayerTransform.map { placement.concatenating($0) } ?? placement
      let identity = CATransform3DIsIdentity(forSublayers)
      for (j, var sublayer) in sublayers.enumerated() {
        if i > 0, delay != 0, animated[j] {
          sublayer = PresentationTree(root: sublayer.model()).update(time: time - Double(i) * delay)
        }
        visit(
          sublayer, parentToTarget: toTarget, parentSublayers: identity ? nil : forSublayers,
          flipped: flipped, into: &commands)
      }
      if let tint {
        for j in start..<commands.count { commands[j].multiplyColor(tint) }
      }
    }
  }
}

extension FrameBuilder {
  /// True when `layer` or a layer below it has animations.
  static func hasAnimations(_ layer: CALayer) -> Bool {
    !layer.animationKeys().isNilOrEmpty
      || layer.storedSublayersForRendering.contains { hasAnimations($0) }
      || layer.mask.map { hasAnimations($0) } == true
  }

  /// Each instance of a replicator: its placement (`instanceTransform`
  /// applied i times about the anchor point) and its color, nil for white.
  static func replicatorInstances(_ replicator: CAReplicatorLayer) -> [(
    CATransform3D, SIMD4<Float>?
  )] {
    let a = replicator.anchorInBounds
    let step = CATransform3DMakeTranslation(-a.x, -a.y, -a.z)
      .concatenating(replicator.instanceTransform)
      .concatenating(CATransform3DMakeTranslation(a.x, a.y, a.z))
    let base = replicator.instanceColor ?? .white
    let offsets = SIMD4(
      replicator.instanceRedOffset, replicator.instanceGreenOffset,
      replicator.instanceBlueOffset, replicator.instanceAlphaOffset)
    var placement = CATransform3DIdentity
    var out: [(CATransform3D, SIMD4<Float>?)] = []
    for i in 0..<max(0, replicator.instanceCount) {
      let straight =
        SIMD4(Float(base.red), Float(base.green), Float(base.blue), Float(base.alpha))
        + offsets * Float(i)
      let tint = clampedToUnit(straight)
      out.append((placement, tint == SIMD4(repeating: 1) ? nil : tint))
      placement = placement.concatenating(step)
    }
    return out
  }
}

/// Each component clamped to 0…1.
func clampedToUnit(_ v: SIMD4<Float>) -> SIMD4<Float> {
  v.replacing(with: 0, where: v .< 0).replacing(with: 1, where: v .> 1)
}

extension Optional where Wrapped: Collection {
  var isNilOrEmpty: Bool { self?.isEmpty ?? true }
}
