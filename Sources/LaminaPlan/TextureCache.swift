import Foundation
import Lamina
import LaminaFrame

/// GPU textures of `CGImage`s and of gradients' color ramps: each image is
/// uploaded once (premultiplied) and reused while it lives, each distinct
/// set of gradient stops once; textures unused for a while are released.
package final class TextureCache {
  private enum Key: Hashable {
    case image(UInt64)
    case ramp(GradientStops)
  }

  private struct Entry {
    var texture: GPUHandle
    var mipmapped: Bool
    var lastUsedFrame: Int
    /// When it was last asked for, counting every request: the order of use.
    var lastUse: UInt64
    var width: Int, height: Int
    var bytesPerTexel = 4
    var bytes: Int { width * height * bytesPerTexel * (mipmapped ? 4 : 3) / 3 }
  }

  private let device: any GPUDevice
  private var entries: [Key: Entry] = [:]
  private var samplers: [SamplerKey: GPUHandle] = [:]
  private var frame = 0
  private var clock: UInt64 = 0
  let maxTextureSize: Int
  /// Frames a texture may go unused before it is released.
  static let retainFrames = 120
  /// The default budget: 1 GiB of texels.
  static let defaultBudgetBytes = 1 << 30
  /// The most texture bytes held between frames.
  package var budgetBytes = TextureCache.defaultBudgetBytes
  /// Texture bytes held now.
  package private(set) var bytes = 0
  /// Textures released to stay within the budget, since the cache was made.
  package private(set) var evictions = 0

  init(maxTextureSize: Int, device: any GPUDevice) {
    self.maxTextureSize = maxTextureSize
    self.device = device
  }

  deinit {
    for entry in entries.values { device.deleteTexture(entry.texture) }
    for sampler in samplers.values { device.deleteSampler(sampler) }
  }

  /// The texture of `image`, uploaded on first use; mipmaps are built when a
  /// trilinear sampler first needs them.
  func texture(for image: CGImage, sampler: SamplerKey?) throws -> GPUHandle {
    let needsMipmaps = sampler?.minification == .trilinear
    clock &+= 1
    let key = Key.image(image.identifier)
    if var entry = entries[key] {
      entry.lastUsedFrame = frame
      entry.lastUse = clock
      if needsMipmaps && !entry.mipmapped {
        device.generateMipmaps(entry.texture)
        bytes -= entry.bytes
        entry.mipmapped = true
        bytes += entry.bytes
      }
      entries[key] = entry
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
    let (pixels, order) = premultipliedPixels(image)
    entry.texture = try device.uploadTexture(
      pixels, order: order, width: image.width, height: image.height, mipmaps: needsMipmaps)
    entries[key] = entry
    bytes += entry.bytes
    return entry.texture
  }

  /// Ramps uploaded since the cache was made (one per distinct stops that
  /// the cache did not hold).
  private(set) var rampUploads = 0

  /// The color ramp of `paint`'s stops (`GradientPaint.rampTexels`, floats:
  /// finer than the 8-bit target, so dithering still hides bands),
  /// uploaded the first time those stops are drawn.
  func ramp(for paint: GradientPaint) throws -> GPUHandle {
    clock &+= 1
    let key = Key.ramp(paint.stops)
    if var entry = entries[key] {
      entry.lastUsedFrame = frame
      entry.lastUse = clock
      entries[key] = entry
      return entry.texture
    }
    var entry = Entry(
      texture: 0, mipmapped: false, lastUsedFrame: frame, lastUse: clock,
      width: GradientPaint.rampWidth, height: 1, bytesPerTexel: device.rampBytesPerTexel)
    evict(toFit: entry.bytes)
    entry.texture = try device.uploadRampTexture(paint.rampTexels(), width: entry.width)
    entries[key] = entry
    bytes += entry.bytes
    rampUploads += 1
    return entry.texture
  }

  /// A sampler object for Core Animation's filters (clamped at the edges).
  package func sampler(_ key: SamplerKey) -> GPUHandle {
    if let sampler = samplers[key] { return sampler }
    let sampler = device.makeSampler(key)
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

  /// Releases the textures of `images` (identifiers) now: images made for
  /// one frame (`PathRunCache`) that no later frame draws.
  func release(images: [UInt64]) {
    for identifier in images { release(.image(identifier)) }
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

  private func release(_ key: Key) {
    guard let entry = entries.removeValue(forKey: key) else { return }
    device.deleteTexture(entry.texture)
    bytes -= entry.bytes
  }

  /// Number of textures held.
  package var count: Int { entries.count }

  /// The image's premultiplied pixels and their order (the order it was
  /// made in, else RGBA).
  private func premultipliedPixels(_ image: CGImage) -> ([UInt8], TexelOrder) {
    if let ready = image.premultiplied { return (ready, image.premultipliedOrder) }
    return (straightPremultiplied(image), .rgba)
  }

  private func straightPremultiplied(_ image: CGImage) -> [UInt8] {
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
