import CEGL
import CGLES3
import Foundation
import LaminaFrame
import LaminaPlan

/// What the GPU behind a `GPUContext` is and can do, as `lamina info` shows it.
///
///     let context = try GPUContext.shared()
///     print(context.info.report())
public struct GPUInfo: Codable, Sendable, Equatable {
  /// The EGL platform the display came from.
  public var platform: EGLPlatformKind
  /// `EGL_VENDOR`, e.g. `Mesa Project` or `NVIDIA`.
  public var eglVendor: String
  /// `EGL_VERSION`, e.g. `1.5`.
  public var eglVersion: String
  /// `EGL_CLIENT_APIS`, e.g. `OpenGL OpenGL_ES`.
  public var eglClientAPIs: String
  /// `GL_VENDOR`.
  public var glVendor: String
  /// `GL_RENDERER`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`.
  public var glRenderer: String
  /// `GL_VERSION`, e.g. `OpenGL ES 3.2 Mesa 22.3.6`.
  public var glVersion: String
  /// `GL_SHADING_LANGUAGE_VERSION`.
  public var glslVersion: String
  /// `GL_MAX_TEXTURE_SIZE`: the largest layer contents or backing store, in pixels.
  public var maxTextureSize: Int
  /// `GL_MAX_RENDERBUFFER_SIZE`.
  public var maxRenderbufferSize: Int
  /// `GL_MAX_SAMPLES`: the most MSAA samples a renderbuffer can have.
  public var maxSamples: Int
  /// `GL_MAX_VIEWPORT_DIMS`, width.
  public var maxViewportWidth: Int
  /// `GL_MAX_VIEWPORT_DIMS`, height.
  public var maxViewportHeight: Int
  /// Each extension in `GPUInfo.trackedExtensions`, present or not.
  public var extensions: [String: Bool]
  /// What display selection tried, in order (`GPUContext.selectionLog`).
  public var selectionLog: [String]

  /// The GL and EGL extensions Lamina's renderer cares about.
  public static let trackedExtensions: [String] = [
    "GL_EXT_disjoint_timer_query",
    "GL_KHR_debug",
    "GL_EXT_color_buffer_float",
    "GL_EXT_texture_filter_anisotropic",
    "GL_OES_texture_npot",
    "EGL_KHR_fence_sync",
    "EGL_EXT_buffer_age",
    "EGL_KHR_surfaceless_context",
    "EGL_KHR_no_config_context",
    "EGL_EXT_device_enumeration",
    "EGL_EXT_device_base",
    "EGL_MESA_platform_surfaceless",
    "EGL_KHR_platform_gbm",
    "EGL_EXT_platform_device",
    "EGL_ANDROID_native_fence_sync",
    "EGL_EXT_image_dma_buf_import",
    "GL_OES_EGL_image",
    "GL_KHR_blend_equation_advanced",
  ]

  /// What the renderer can do with these extensions, one line each.
  public var features: [String] {
    let dmabuf: String
    switch DMABufImport.availability(
      eglExtensions: has("EGL_EXT_image_dma_buf_import") ? ["EGL_EXT_image_dma_buf_import"] : [],
      glExtensions: has("GL_OES_EGL_image") ? ["GL_OES_EGL_image"] : [])
    {
    case .success: dmabuf = "yes"
    case .failure(.dmabufUnsupported(let reason)): dmabuf = "no (\(reason))"
    case .failure(let other): dmabuf = "no (\(other))"
    }
    let blend =
      has("GL_KHR_blend_equation_advanced")
      ? "the GPU's advanced blend equations" : "a shader reading a copy of the backdrop"
    return ["dma-buf contents: \(dmabuf)", "blend modes: \(blend)"]
  }

  /// Whether `name` (one of `trackedExtensions`) is present.
  public func has(_ name: String) -> Bool { extensions[name] ?? false }

  /// The GL version as numbers, e.g. (3, 2) for `OpenGL ES 3.2 Mesa 22.3.6`.
  /// True when `GL_RENDERER` names a software rasterizer (llvmpipe and the like).
  public var isSoftwareRenderer: Bool {
    let renderer = glRenderer.lowercased()
    return ContextMaker.softwareRenderers.contains { renderer.contains($0) }
  }

  public var glesVersion: (major: Int, minor: Int) {
    let numbers = glVersion.split(separator: " ").first { $0.first?.isNumber == true } ?? ""
    let parts = numbers.split(separator: ".").compactMap { Int($0) }
    return (parts.first ?? 0, parts.dropFirst().first ?? 0)
  }

  /// Everything above as readable text, one fact a line.
  public func report() -> String {
    var lines: [String] = []
    func add(_ label: String, _ value: String) {
      lines.append(label.padding(toLength: 22, withPad: " ", startingAt: 0) + value)
    }
    add("platform", platform.rawValue)
    add("EGL vendor", eglVendor)
    add("EGL version", eglVersion)
    add("EGL client APIs", eglClientAPIs)
    add("GL vendor", glVendor)
    add("GL renderer", glRenderer)
    add("GL version", glVersion)
    add("GLSL version", glslVersion)
    add("max texture size", "\(maxTextureSize)")
    add("max renderbuffer size", "\(maxRenderbufferSize)")
    add("max samples", "\(maxSamples)")
    add("max viewport", "\(maxViewportWidth)x\(maxViewportHeight)")
    lines.append("extensions:")
    for name in Self.trackedExtensions {
      lines.append("  \(has(name) ? "yes" : "no ")  \(name)")
    }
    lines.append("features:")
    for line in features { lines.append("  \(line)") }
    lines.append("display selection:")
    for step in selectionLog { lines.append("  \(step)") }
    return lines.joined(separator: "\n")
  }

  /// Everything above as pretty-printed JSON with sorted keys.
  public func json() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}

extension GPUInfo {
  /// Asks EGL and GL; the context must be current on `display`.
  static func query(display: EGLDisplay, platform: EGLPlatformKind, log: [String]) -> GPUInfo {
    let glExtensions = GLQuery.extensions()
    // Platform extensions are client extensions; the rest belong to the display.
    let eglExtensions = (eglExtensionSet(nil) ?? []).union(eglExtensionSet(display) ?? [])
    var tracked: [String: Bool] = [:]
    for name in trackedExtensions {
      tracked[name] =
        name.hasPrefix("EGL_") ? eglExtensions.contains(name) : glExtensions.contains(name)
    }
    let viewport = GLQuery.integers(GL_MAX_VIEWPORT_DIMS, count: 2)
    return GPUInfo(
      platform: platform,
      eglVendor: eglString(display, EGL_VENDOR),
      eglVersion: eglString(display, EGL_VERSION),
      eglClientAPIs: eglString(display, EGL_CLIENT_APIS),
      glVendor: GLQuery.string(GL_VENDOR),
      glRenderer: GLQuery.string(GL_RENDERER),
      glVersion: GLQuery.string(GL_VERSION),
      glslVersion: GLQuery.string(GL_SHADING_LANGUAGE_VERSION),
      maxTextureSize: GLQuery.integers(GL_MAX_TEXTURE_SIZE)[0],
      maxRenderbufferSize: GLQuery.integers(GL_MAX_RENDERBUFFER_SIZE)[0],
      maxSamples: GLQuery.integers(GL_MAX_SAMPLES)[0],
      maxViewportWidth: viewport[0],
      maxViewportHeight: viewport[1],
      extensions: tracked,
      selectionLog: log)
  }
}
