import Foundation
import Lamina
import LaminaFrame

/// Where a batch's texture comes from (plain values: batches compare and
/// copy them per item).
package enum TextureSource: Hashable {
  /// An image of the plan (`FramePlan.images`), uploaded on first use.
  case image(Int)
  /// A target an earlier pass of the plan drew (or a cache holds).
  case target(TargetID)
  /// A dma-buf frame, imported.
  case dmabuf(DMABufFrame)

  var target: TargetID? {
    if case .target(let id) = self { return id }
    return nil
  }
}
