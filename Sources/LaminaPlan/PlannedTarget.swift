import Foundation
import Lamina
import LaminaFrame

/// A target a plan draws into or samples, and who owns it.
package struct PlannedTarget {
  package enum Role: Equatable {
    /// The renderer's canvas: kept across frames (a display's back buffer).
    case canvas
    /// From the offscreen pool; returned after its last use.
    case pooled
    /// A mask, masked content or blurred shadow kept by the renderer's cache
    /// under `key`; `hit` when the cache holds it already (nothing draws it).
    case cached(key: Int, hit: Bool)
    /// A rasterized subtree (`shouldRasterize`) kept by the raster cache.
    case raster(key: Int, hit: Bool)
    /// The framebuffer of a `CAOpenGLLayer`, kept for the layer.
    case openGLLayer(UInt64)
  }
  package let id: TargetID
  /// Size in pixels.
  package let width: Int, height: Int
  /// Who owns it, and so where the executor finds it.
  package var role: Role
  /// What the target holds, for people reading the plan.
  package let label: String

  /// Whether the target is a new offscreen allocation of this frame (pooled,
  /// or a cache entry being made): what counts toward the offscreen budget.
  package var isAllocated: Bool {
    switch role {
    case .pooled, .cached(_, hit: false), .raster(_, hit: false): return true
    default: return false
    }
  }
}
