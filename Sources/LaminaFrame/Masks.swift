import Foundation
import Lamina

/// Mask layers: the masked layer's whole rendering (background, contents,
/// sublayers, border) goes offscreen, the mask's rendering goes offscreen
/// over the same pixels, and the composite multiplies the first by the
/// second's alpha. Both passes are cached by the signature of their draw
/// lists (`PlanExecutor.maskCache`): a mask moving over still content, or
/// content changing under a still mask, renders one pass, not two.
/// The mask is laid out as a sublayer of the masked layer
/// would be; its own mask, clips and opacity apply as for any layer, so
/// masks of masks nest.
extension FrameBuilder {
  /// `mode` (the masked layer's `maskMode`) says what of the mask's
  /// rendering multiplies: its alpha, its luminance, or one minus either
  /// (an inverted mask that draws nothing, or nothing over the content,
  /// hides nothing).
  mutating func applyMask(
    _ mask: CALayer, mode: CALayerMaskMode = .alpha, toTarget: CATransform3D, flipped: Bool,
    from start: Int, in commands: inout [DrawCommand]
  ) {
    let range = start..<commands.count
    guard !range.isEmpty else { return }
    var maskCommands: [DrawCommand] = []
    visit(
      mask, parentToTarget: toTarget, parentSublayers: nil, flipped: flipped, into: &maskCommands)
    func union(_ list: ArraySlice<DrawCommand>) -> PixelRect {
      list.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1.bounds) }
    }
    // The group covers the masked rendering, not its overlap with the mask:
    // then a mask that moves leaves the content's pass (and its cached
    // texture) as it was, and only the mask renders again.
    let bounds = union(commands[range])
    guard !bounds.isEmpty, bounds.intersects(union(maskCommands[...])) else {
      // The mask lets nothing through (an inverted one: everything).
      if !mode.isInverted { commands.removeSubrange(range) }
      return
    }
    let maskGroup = makeGroup(maskCommands, bounds: bounds, reason: "mask \(mask.name ?? "")")
    wrapTail(of: &commands, from: start, bounds: bounds, reason: "masked layer") {
      $0.mask = maskGroup
      $0.maskMode = mode
    }
  }
}
