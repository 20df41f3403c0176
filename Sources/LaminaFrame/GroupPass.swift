import Foundation
import Lamina

/// An offscreen pass: its commands are rendered into a texture covering
/// `bounds` (target pixels), which is then drawn at `opacity` in the parent.
public final class GroupPass {
  public let id: Int
  public let bounds: PixelRect
  public var opacity: Float
  public var commands: [DrawCommand]
  public let reason: String
  /// The model layer the pass is made for (`ObjectIdentifier(layer.model())`),
  /// when one is: what the frame limits name.
  public var source: ObjectIdentifier?
  /// Half-planes in target pixels that cut the composited group (depth sorting).
  public var clipPlanes: [SIMD3<Double>] = []
  /// A mask whose rendered alpha (same bounds) multiplies this group's.
  public var mask: GroupPass?
  /// What of the mask's rendering multiplies: its alpha, its luminance, or
  /// one minus either (`CALayer.maskMode`).
  public var maskMode = CALayerMaskMode.alpha
  /// Clip applied when compositing (target pixels → clip plane).
  public var clip: ClipEffect?
  /// When set, the group is not composited as it is: its alpha is blurred,
  /// tinted and drawn at `bounds` (see `Shadows.swift`).
  public var shadow: ShadowBlur?
  /// When set, the group's rendering is filtered before it is composited.
  public var filter: FilterChain?
  /// How the composited group combines with what is behind it.
  public var blend = BlendMode.sourceOver
  /// A layer's `backgroundFilters`: the group draws no commands of its own;
  /// what is already drawn behind its bounds (and `filter`'s reach around
  /// them) is captured when the renderer reaches it, filtered, and drawn
  /// back through `clip` (the layer's rounded bounds).
  public var backdrop = false

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
    return copy
  }
}
