import Foundation
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

/// What a long-running process (`lamina batch`) needs from a renderer: the
/// GPU texture budget, and whether the context it draws with is still good.
extension Renderer {
  /// The most bytes of image textures kept between frames (width × height
  /// × 4, a third more with mipmaps); least recently used textures go
  /// first. One frame's own textures are kept even when they alone exceed
  /// it. Default: two thirds of `caches.maxBytes` (1 GiB of the default
  /// `Limits.maxCacheBytes`).
  public var textureBudgetBytes: Int {
    get { textures.budgetBytes }
    set { textures.budgetBytes = max(0, newValue) }
  }

  /// Bytes of image textures held now.
  public var textureBytes: Int { textures.bytes }

  /// Image textures held now.
  public var textureCount: Int { textures.count }

  /// Image textures released to stay within `textureBudgetBytes`.
  public var textureEvictions: Int { textures.evictions }

  /// Throws `RendererError.contextLost` when the context can no longer be
  /// trusted (EGL or GL says it was lost or reset, or GL ran out of
  /// memory): what was drawn since the last check may be wrong. The next
  /// frame replaces the context when `replacesLostContext` (else its owner
  /// must). Cheap enough to call after every frame; `lamina render` and
  /// `lamina batch` do before they write a frame.
  public func checkContext() throws {
    if let reason = lostContext { throw RendererError.contextLost(reason: reason) }
    if let reason = context.lostReason() ?? device.lostContextReason() {
      throw lose(reason)
    }
  }
}
