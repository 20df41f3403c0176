import Foundation
import LaminaFrame

/// What the executor's GPU caches hold now (each within its share of the
/// renderer's `RenderCaches` budget).
package struct GPUCacheUsage: Equatable, Sendable {
  /// Image, glyph page and gradient ramp textures.
  package var textureBytes = 0, textureCount = 0, textureEvictions = 0
  /// Targets of rasterized subtrees (`shouldRasterize`).
  package var rasterBytes = 0, rasterCount = 0
  /// Targets of masks, masked content and blurred shadows.
  package var maskBytes = 0, maskCount = 0
  /// Vertex and index buffers of path meshes.
  package var pathBufferBytes = 0, pathBufferCount = 0

  package var bytes: Int { textureBytes + rasterBytes + maskBytes + pathBufferBytes }
}

extension PlanExecutor {
  package var cacheUsage: GPUCacheUsage {
    GPUCacheUsage(
      textureBytes: textures.bytes, textureCount: textures.count,
      textureEvictions: textures.evictions,
      rasterBytes: rasterCache.bytes, rasterCount: rasterCache.count,
      maskBytes: maskCache.bytes, maskCount: maskCache.count,
      pathBufferBytes: paths.buffers.byteCount, pathBufferCount: paths.buffers.count)
  }
}
