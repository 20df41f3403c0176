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

  private var entries: [UInt64: Entry] = [:]
  private var samplers: [SamplerKey: GLuint] = [:]
  private var frame = 0
  let maxTextureSize: Int
  /// Frames a texture may go unused before it is released.
  static let retainFrames = 120

  init(maxTextureSize: Int) {
    self.maxTextureSize = maxTextureSize
  }

  /// The texture of `image`, uploaded on first use; mipmaps are built when a
  /// trilinear sampler first needs them.
  func texture(for image: CGImage, sampler: SamplerKey, device: GLDevice) throws -> GLuint {
    let needsMipmaps = sampler.minification == .trilinear
    if var entry = entries[image.identifier] {
      entry.lastUsedFrame = frame
      if needsMipmaps && !entry.mipmapped {
        device.bindTexture(entry.texture, sampler: 0)
        glGenerateMipmap(GLenum(GL_TEXTURE_2D))
        entry.mipmapped = true
      }
      entries[image.identifier] = entry
      return entry.texture
    }
    guard image.width <= maxTextureSize, image.height <= maxTextureSize else {
      throw RendererError.imageTooLarge(
        width: image.width, height: image.height, maxTextureSize: maxTextureSize)
    }
    var texture: GLuint = 0
    glGenTextures(1, &texture)
    device.bindTexture(texture, sampler: 0)
    let pixels = premultipliedPixels(image)
    glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
    pixels.withUnsafeBytes { raw in
      glTexImage2D(
        GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(image.width), GLsizei(image.height), 0,
        GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), raw.baseAddress)
    }
    if needsMipmaps { glGenerateMipmap(GLenum(GL_TEXTURE_2D)) }
    device.counters.textureUploads += 1
    entries[image.identifier] = Entry(
      texture: texture, mipmapped: needsMipmaps, lastUsedFrame: frame)
    try device.check("texture upload")
    return texture
  }

  /// A sampler object for Core Animation's filters (clamped at the edges).
  func sampler(_ key: SamplerKey) -> GLuint {
    if let sampler = samplers[key] { return sampler }
    var sampler: GLuint = 0
    glGenSamplers(1, &sampler)
    let minFilter: GLint
    switch key.minification {
    case .nearest: minFilter = GL_NEAREST
    case .trilinear: minFilter = GL_LINEAR_MIPMAP_LINEAR
    default: minFilter = GL_LINEAR
    }
    let magFilter: GLint = key.magnification == .nearest ? GL_NEAREST : GL_LINEAR
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MIN_FILTER), minFilter)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MAG_FILTER), magFilter)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
    glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
    samplers[key] = sampler
    return sampler
  }

  /// Called once per frame: releases textures unused for `retainFrames` frames.
  func endFrame(device: GLDevice) {
    frame += 1
    let stale = entries.filter { frame - $0.value.lastUsedFrame > Self.retainFrames }
    for (key, entry) in stale {
      var texture = entry.texture
      device.forgetTexture(texture)
      glDeleteTextures(1, &texture)
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
