import Foundation
import Lamina
import LaminaFrame
import LaminaGL

/// What a renderer keeps across frames, against its budget (`caches`).
public struct CacheReport: Equatable, Sendable {
  /// The budget of all the caches together (`RenderCaches.maxBytes`).
  public var maxBytes = 0
  /// The CPU caches' share of it, and what they hold.
  public var cpuBudgetBytes = 0
  public var cpu = RenderCaches.Usage()
  /// The textures' share, and the bytes and count of textures held.
  public var textureBudgetBytes = 0
  public var textureBytes = 0, textureCount = 0
  /// Targets kept across frames: rasterized subtrees, masks and shadows.
  public var rasterBytes = 0, maskBytes = 0
  /// GPU buffers of path meshes.
  public var pathBufferBytes = 0
  /// Entries dropped for the budget or for going unused (CPU caches and
  /// textures).
  public var evictions = 0

  /// Every cache's bytes together (the glyph pages included).
  public var bytes: Int {
    cpu.budgetedBytes + cpu.glyphBytes + textureBytes + rasterBytes + maskBytes + pathBufferBytes
  }
}

extension Renderer {
  /// What the renderer's caches hold now, against their budget.
  public var cacheReport: CacheReport {
    let gpu = executor.cacheUsage
    let cpu = caches.usage
    return CacheReport(
      maxBytes: caches.maxBytes, cpuBudgetBytes: caches.cpuBytes, cpu: cpu,
      textureBudgetBytes: caches.textureBytes, textureBytes: gpu.textureBytes,
      textureCount: gpu.textureCount, rasterBytes: gpu.rasterBytes, maskBytes: gpu.maskBytes,
      pathBufferBytes: gpu.pathBufferBytes, evictions: cpu.evictions + gpu.textureEvictions)
  }
}
