import Foundation
import Lamina

/// An offscreen pass: its commands are rendered into a texture covering
/// `bounds` (target pixels), which is then drawn at `opacity` in the parent.
package final class GroupPass {
  package let id: Int
  package let bounds: PixelRect
  package var opacity: Float
  package var commands: [DrawCommand]
  package let reason: String
  /// The model layer the pass is made for (`ObjectIdentifier(layer.model())`),
  /// when one is: what the frame limits name.
  package var source: ObjectIdentifier?
  /// Half-planes in target pixels that cut the composited group (depth sorting).
  package var clipPlanes: [SIMD3<Double>] = []
  /// A mask whose rendered alpha (same bounds) multiplies this group's.
  package var mask: GroupPass?
  /// What of the mask's rendering multiplies: its alpha, its luminance, or
  /// one minus either (`CALayer.maskMode`).
  package var maskMode = CALayerMaskMode.alpha
  /// Clip applied when compositing (target pixels → clip plane).
  package var clip: ClipEffect?
  /// When set, the group is not composited as it is: its alpha is blurred,
  /// tinted and drawn at `bounds` (see `Shadows.swift`).
  package var shadow: ShadowBlur?
  /// When set, the group's rendering is filtered before it is composited.
  package var filter: FilterChain?
  /// How the composited group combines with what is behind it.
  package var blend = BlendMode.sourceOver
  /// A layer's `backgroundFilters`: the group draws no commands of its own;
  /// what is already drawn behind its bounds (and `filter`'s reach around
  /// them) is captured when the renderer reaches it, filtered, and drawn
  /// back through `clip` (the layer's rounded bounds).
  package var backdrop = false
  /// Which copy of its enclosing replicators the pass was made for: the
  /// instance index of each, outermost first (what the frame limits name).
  package var instances: [Int] = []

  package init(id: Int, bounds: PixelRect, opacity: Float, commands: [DrawCommand], reason: String) {
    self.id = id
    self.bounds = bounds
    self.opacity = opacity
    self.commands = commands
    self.reason = reason
  }

  /// A copy to change: groups may be shared by the commands of several
  /// frames (kept by the render tree), so frame building never changes a
  /// group it did not make itself just now. The copy keeps the id: it is
  /// the same rendering (depth sorting's pieces of one group share it).
  func copy() -> GroupPass {
    let copy = GroupPass(
      id: id, bounds: bounds, opacity: opacity, commands: commands, reason: reason)
    copy.source = source
    copy.clipPlanes = clipPlanes
    copy.mask = mask
    copy.maskMode = maskMode
    copy.clip = clip
    copy.shadow = shadow
    copy.filter = filter
    copy.blend = blend
    copy.backdrop = backdrop
    copy.instances = instances
    return copy
  }
}
