import Foundation
import LaminaFrame

/// Depth levels for drawing each pixel of a path item once. Path items take
/// increasing levels; their fragments write their item's level and pass
/// only where the depth buffer holds a lower one (test greater): the
/// overlapping pieces of one item paint a pixel once (a translucent stroke
/// is one layer of paint, as Core Graphics strokes the union), and a later
/// item draws over an earlier one. Levels go on increasing across passes
/// and frames; when they run out, the depth is cleared, so a level is never
/// met again from an older item. A level is an instance attribute, not a
/// state change: llvmpipe spends about 40 µs on a changed stencil
/// reference, nothing on this.
extension RenderTarget {
  /// The most levels between clears (levels step by 8 of the 24-bit depth,
  /// so that float rounding never merges two).
  static let depthLevels = (1 << 21) - 2

  /// The depth between two levels.
  static let depthStep: Float = 8 / Float(1 << 24)

  /// The first of `count` depth levels no item on this target has used
  /// since its depth was last cleared, as the depth value of the first
  /// (each next one is `depthStep` above). Makes the depth attachment on
  /// first use; clears the whole depth buffer when the levels run out.
  /// Binds the target's draw framebuffer.
  func takeDepthLevels(_ count: Int) throws -> Float {
    try attachDepth(true)
    device.bindFramebuffer(drawFramebuffer)
    if nextDepthLevel + count > Self.depthLevels {
      device.clearDepth()
      nextDepthLevel = 1
    }
    defer { nextDepthLevel += count }
    return Float(nextDepthLevel) * Self.depthStep
  }

  /// Attaches the depth buffer for a pass that draws paths, detaches it
  /// for one that does not (made on first use, kept). llvmpipe draws into
  /// a BGRA target without a depth attachment with its linear rasterizer
  /// where a 64x64 bin holds rects alone, with its general one otherwise:
  /// which one draws a pass must follow from the pass, not from whether an
  /// earlier frame or scene drew a path on this target.
  func attachDepth(_ attached: Bool) throws {
    guard attached != depthAttached else { return }
    if attached && depthBuffer == 0 {
      depthBuffer = try device.attachDepth(
        to: drawFramebuffer, width: width, height: height, samples: samples)
      nextDepthLevel = Self.depthLevels + 1  // cleared when levels are taken
    } else {
      device.setDepthAttachment(of: drawFramebuffer, to: attached ? depthBuffer : 0)
    }
    depthAttached = attached
  }
}
