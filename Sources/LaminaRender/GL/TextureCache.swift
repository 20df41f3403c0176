import CGLES3
import Foundation
import Lamina

/// GPU textures of `CGImage`s: each image is uploaded once (premultiplied)
/// and reused while it lives; textures unused for a while are released.
final class TextureCache {
  private struct Entry {
    var texture: GLuint
    var mipmapped: Bool
    var lastUsedFrame: Int
    /// When it was last asked for, counting every request: the order of use.
    var lastUse: UInt64
    var width: Int, height: Int
    var bytes: Int { width * height * 4 * (mipmapped ? 4 : 3) / 3 }
  }

  private let device: GLDevice
  private var entries: [UInt64: Entry] = [:]
  private var samplers: [SamplerKey: GLuint] = [:]
  private var frame = 0
  private var clock: UInt64 = 0
  let maxTextureSize: Int
  /// Frames a texture may go unused before it is released.
  static let retainFrames = 120
  /// The default budget: 1 GiB of texels.
  static let defaultBudgetBytes = 1 << 30
  /// The most texture bytes held between frames.
  var budgetBytes = TextureCache.defaultBudgetBytes
  /// Texture bytes held now.
  private(set) var bytes = 0
  /// Textures released to stay within the budget, since the cache was made.
  private(set) var evictions = 0

  init(maxTextureSize: Int, device: GLDevice) {
    self.maxTextureSize = maxTextureSize
    self.device = device
  }

  deinit {
    for entry in entries.values { device.deleteTexture(entry.texture) }
    for sampler in samplers.values { device.deleteSampler(sampler) }
  }

  /// The texture of `image`, uploaded on first use; mipmaps are built when a
  /// trilinear sampler first needs them.
  func texture(for image: CGImage, sampler: SamplerKey?) throws -> GLuint {
    let needsMipmaps = sampler?.minification == .trilinear
    clock &+= 1
    if var entry = entries[image.identifier] {
      entry.lastUsedFrame = frame
      entry.lastUse = clock
      if needsMipmaps && !entry.mipmapped {
        device.generateMipmaps(entry.texture)
        bytes -= entry.bytes
        entry.mipmapped = true
        bytes += entry.bytes
      }
      entries[image.identifier] = entry
      return entry.texture
    }
    guard image.width <= maxTextureSize, image.height <= maxTextureSize else {
      throw RendererError.imageTooLarge(
        width: image.width, height: image.height, maxTextureSize: maxTextureSize)
    }
    var entry = Entry(
      texture: 0, mipmapped: needsMipmaps, lastUsedFrame: frame, lastUse: clock,
      width: image.width, height: image.height)
    evict(toFit: entry.bytes)
    entry.texture = try device.uploadTexture(
      premultipliedPixels(image), width: image.width, height: image.height, mipmaps: needsMipmaps)
    entries[image.identifier] = entry
    bytes += entry.bytes
    return entry.texture
  }

  /// A sampler object for Core Animation's filters (clamped at the edges).
  func sampler(_ key: SamplerKey) -> GLuint {
    if let sampler = samplers[key] { return sampler }
    let minFilter: Int32
    switch key.minification {
    case .nearest: minFilter = GL_NEAREST
    case .trilinear: minFilter = GL_LINEAR_MIPMAP_LINEAR
    default: minFilter = GL_LINEAR
    }
    let sampler = device.makeSampler(
      minFilter: minFilter, magFilter: key.magnification == .nearest ? GL_NEAREST : GL_LINEAR)
    samplers[key] = sampler
    return sampler
  }

  /// Called once per frame: releases textures unused for `retainFrames`
  /// frames, and the least recently used while over the budget.
  func endFrame() {
    frame += 1
    let stale = entries.filter { frame - $0.value.lastUsedFrame > Self.retainFrames }
    for (key, _) in stale { release(key) }
    evict(toFit: 0)
  }

  /// Releases textures not used this frame, least recently used first,
  /// until `incoming` more bytes fit in the budget (or none is left to go).
  private func evict(toFit incoming: Int) {
    guard bytes + incoming > budgetBytes else { return }
    let candidates = entries.filter { $0.value.lastUsedFrame < frame }
      .sorted { $0.value.lastUse < $1.value.lastUse }
    for (key, _) in candidates {
      guard bytes + incoming > budgetBytes else { break }
      release(key)
      evictions += 1
    }
  }

  private func release(_ key: UInt64) {
    guard let entry = entries.removeValue(forKey: key) else { return }
    device.deleteTexture(entry.texture)
    bytes -= entry.bytes
  }

  /// Number of textures held.
  var count: Int { entries.count }

  private func premultipliedPixels(_ image: CGImage) -> [UInt8] {
    if let ready = image.premultipliedPixels { return ready }
    if image.isOpaque { return image.pixels }
    var out = image.pixels
    out.withUnsafeMutableBufferPointer { p in
      var i = 0
      while i < p.count {
        let a = UInt32(p[i + 3])
        if a != 255 {
          // Rounded (x·a)/255.
          for c in 0..<3 {
            let v = UInt32(p[i + c]) * a + 128
            p[i + c] = UInt8((v + (v >> 8)) >> 8)
          }
        }
        i += 4
      }
    }
    return out
  }
}
