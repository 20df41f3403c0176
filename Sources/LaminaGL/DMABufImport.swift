import CEGL
import CGLES3
import Foundation
import Lamina
import LaminaFrame
import LaminaPlan

/// Imports dma-buf frames as GL textures through EGL images, where the
/// driver offers `EGL_EXT_image_dma_buf_import` and `GL_OES_EGL_image`.
final class DMABufImport {
  /// Whether frames can be imported, decided from the extensions alone (so
  /// that the choice is testable without such a driver).
  static func availability(eglExtensions: Set<String>, glExtensions: Set<String>) -> Result<
    Void, RendererError
  > {
    guard eglExtensions.contains("EGL_EXT_image_dma_buf_import") else {
      return .failure(
        .dmabufUnsupported(reason: "the EGL driver lacks EGL_EXT_image_dma_buf_import"))
    }
    guard glExtensions.contains("GL_OES_EGL_image") else {
      return .failure(.dmabufUnsupported(reason: "the GL driver lacks GL_OES_EGL_image"))
    }
    return .success(())
  }

  /// The EGL attributes that describe `frame` (one plane).
  static func attributes(_ frame: DMABufFrame) throws -> [EGLint] {
    guard DMABufFrame.Format.all.contains(frame.fourcc) else {
      throw RendererError.dmabufUnsupported(
        reason: String(
          format: "pixel format 0x%08x is not one of ARGB/XRGB/ABGR/XBGR 8888", frame.fourcc))
    }
    guard frame.width > 0, frame.height > 0, frame.stride >= frame.width * 4, frame.fd >= 0 else {
      throw RendererError.dmabufUnsupported(
        reason: "the frame's size, stride or descriptor is invalid")
    }
    var list: [EGLint] = [
      EGL_WIDTH, EGLint(frame.width), EGL_HEIGHT, EGLint(frame.height),
      EGL_LINUX_DRM_FOURCC_EXT, EGLint(bitPattern: frame.fourcc),
      EGL_DMA_BUF_PLANE0_FD_EXT, frame.fd,
      EGL_DMA_BUF_PLANE0_OFFSET_EXT, EGLint(frame.offset),
      EGL_DMA_BUF_PLANE0_PITCH_EXT, EGLint(frame.stride),
    ]
    if let modifier = frame.modifier {
      list += [
        EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT,
        EGLint(bitPattern: UInt32(truncatingIfNeeded: modifier)),
        EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT,
        EGLint(bitPattern: UInt32(truncatingIfNeeded: modifier >> 32)),
      ]
    }
    return list + [EGL_NONE]
  }

  private let display: EGLDisplay
  private let device: GLDevice
  private var textures: [DMABufFrame: GLuint] = [:]

  init(display: EGLDisplay, device: GLDevice) {
    self.display = display
    self.device = device
  }

  deinit {
    for texture in textures.values { device.deleteTexture(texture) }
  }

  /// The texture of `frame`, imported on first use.
  func texture(for frame: DMABufFrame, context: GPUContext) throws -> GLuint {
    if let texture = textures[frame] { return texture }
    if case .failure(let error) = Self.availability(
      eglExtensions: Set(context.info.extensions.filter(\.value).map(\.key)),
      glExtensions: GLQuery.extensions())
    {
      throw error
    }
    guard
      let create = eglProc("eglCreateImageKHR", as: PFNEGLCREATEIMAGEKHRPROC.self),
      let destroy = eglProc("eglDestroyImageKHR", as: PFNEGLDESTROYIMAGEKHRPROC.self),
      let target = eglProc(
        "glEGLImageTargetTexture2DOES", as: PFNGLEGLIMAGETARGETTEXTURE2DOESPROC.self)
    else { throw RendererError.dmabufUnsupported(reason: "the EGL image entry points are missing") }
    let attributes = try Self.attributes(frame)
    guard let image = create(display, nil, EGLenum(EGL_LINUX_DMA_BUF_EXT), nil, attributes) else {
      throw RendererError.dmabufUnsupported(
        reason: String(format: "eglCreateImageKHR refused the frame (0x%04x)", eglGetError()))
    }
    defer { _ = destroy(display, image) }
    let texture = device.makeTexture(eglImage: image, attach: target)
    textures[frame] = texture
    return texture
  }
}
