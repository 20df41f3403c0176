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
  }

  private let device: GLDevice
  private var entries: [UInt64: Entry] = [:]
  private var samplers: [SamplerKey: GLuint] = [:]
  private var frame = 0
  let maxTextureSize: Int
  /// Frames a texture may go unused before it is released.
  static let retainFrames = 120

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
    if var entry = entries[image.identifier] {
      entry.lastUsedFrame = frame
      if needsMipmaps && !entry.mipmapped {
        device.generateMipmaps(entry.texture)
        entry.mipmapped = true
      }
      entries[image.identifier] = entry
      return entry.texture
    }
    guard image.width <= maxTextureSize, image.height <= maxTextureSize else {
      throw RendererError.imageTooLarge(
        width: image.width, height: image.height, maxTextureSize: maxTextureSize)
    }
    let texture = try device.uploadTexture(
      premultipliedPixels(image), width: image.width, height: image.height, mipmaps: needsMipmaps)
    entries[image.identifier] = Entry(
      texture: texture, mipmapped: needsMipmaps, lastUsedFrame: frame)
    return texture
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

  /// Called once per frame: releases textures unused for `retainFrames` frames.
  func endFrame() {
    frame += 1
    let stale = entries.filter { frame - $0.value.lastUsedFrame > Self.retainFrames }
    for (key, entry) in stale {
      device.deleteTexture(entry.texture)
      entries[key] = nil
    }
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
