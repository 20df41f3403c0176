import Foundation
import Lamina

extension FrameBuilder {
  /// A layer in the middle of a `CATransition`: its old appearance (the
  /// snapshot taken when the transition began) and its new one, drawn in the
  /// layer's plane by the transition's type. Offsets are the layer's width
  /// or height in its own space, from `subtype`'s side.
  mutating func appendTransition(
    _ layer: CALayer, _ transition: TransitionState, toTarget: CATransform3D, flipped: Bool,
    into commands: inout [DrawCommand]
  ) {
    let p = CGFloat(transition.progress)
    let size = layer.bounds.size
    // The direction the new appearance travels from.
    let direction: (dx: CGFloat, dy: CGFloat)
    switch transition.subtype {
    case .fromRight: direction = (1, 0)
    case .fromTop: direction = (0, -1)
    case .fromBottom: direction = (0, 1)
    default: direction = (-1, 0)
    }
    func shifted(_ amount: CGFloat) -> CATransform3D {
      CATransform3DMakeTranslation(
        direction.dx * size.width * amount, direction.dy * size.height * amount, 0
      ).concatenating(toTarget)
    }
    func old(_ m: CATransform3D) {
      appendLayerAndSublayers(
        transition.from, toTarget: m, flipped: flipped, opacity: 1, into: &commands)
    }
    func new(_ m: CATransform3D, opacity: Float = 1) {
      let start = commands.count
      appendLayerAndSublayers(layer, toTarget: m, flipped: flipped, opacity: 1, into: &commands)
      if opacity < 1 { applyTransitionFade(opacity, from: start, in: &commands) }
    }
    switch transition.type {
    case .push:
      old(shifted(-p))
      new(shifted(1 - p))
    case .moveIn:
      old(toTarget)
      new(shifted(1 - p))
    case .reveal:
      new(toTarget)
      old(shifted(-p))
    default:  // fade: the new appearance over the old, coming in with the progress
      old(toTarget)
      new(toTarget, opacity: Float(p))
    }
  }

  /// The new appearance of a fade, as one group at `opacity`.
  private mutating func applyTransitionFade(
    _ opacity: Float, from start: Int, in commands: inout [DrawCommand]
  ) {
    guard start < commands.count else { return }
    wrapTail(of: &commands, from: start, opacity: opacity, reason: "fade transition")
  }
}
