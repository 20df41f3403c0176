import Foundation
import Lamina
import LaminaFrame

/// A linked program and the uniform locations the renderer sets.
package final class GPUProgram {
  package let id: GPUHandle
  let viewport: Int32
  /// `u_canvasOrigin` (the target's corner in canvas pixels), or -1.
  let canvasOrigin: Int32
  private let device: any GPUDevice
  private var locations: [String: Int32] = [:]

  /// Compiles and links `vertex` with `fragment` (file names in `Shaders/`),
  /// the fragment shader specialized by `defines` (`NAME` or `NAME VALUE`).
  package init(
    vertex: String, fragment: String, defines: [String] = [], device: any GPUDevice
  ) throws {
    self.device = device
    id = try device.makeProgram(
      ProgramSource(vertex: vertex, fragment: fragment, fragmentDefines: defines))
    viewport = device.uniformLocation(id, "u_viewport")
    canvasOrigin = device.uniformLocation(id, "u_canvasOrigin")
  }

  /// The location of a uniform (looked up once).
  package func uniform(_ name: String) -> Int32 {
    if let location = locations[name] { return location }
    let location = device.uniformLocation(id, name)
    locations[name] = location
    return location
  }

  deinit { device.deleteProgram(id) }
}

/// The programs a frame uses, compiled once per renderer.
package struct ProgramSet {
  let solid: GPUProgram
  let image: GPUProgram
  /// `solid` for batches of exact rects and `image` for batches that copy
  /// texels (`Batch.exactRects`, `copiesTexels`): no edge coverage, so that
  /// llvmpipe's linear rasterizer runs them (`program(for:plain:)`).
  let solidPlain: GPUProgram
  let imagePlain: GPUProgram
  let gradient: GradientProgram
  /// Offscreen passes of blurred shadows.
  let downsample: GPUProgram
  /// Scales a downsampled target back to full size (large filter blurs).
  let upsample: GPUProgram
  let blur: GPUProgram
  let shadow: GPUProgram
  /// A color filter over a whole offscreen target.
  let colorMatrix: GPUProgram
  /// Variants of `solid` and `image` that declare the advanced blend
  /// equations (nil where the GPU lacks KHR_blend_equation_advanced; the
  /// gradient and effect programs have theirs too).
  package let solidBlend: GPUProgram?, imageBlend: GPUProgram?
  /// Blend modes computed in a shader from a copy of the backdrop, where
  /// the equations are missing (or turned off).
  let blendFallback: GPUProgram
  /// Shows the retained canvas in a window buffer (`lamina show`).
  package let present: GPUProgram
  /// Effect shader variants, compiled as items need them.
  let effects: EffectPrograms

  init(device: any GPUDevice) throws {
    func make(_ vertex: String, _ fragment: String, _ defines: [String] = []) throws -> GPUProgram {
      try GPUProgram(vertex: vertex, fragment: fragment, defines: defines, device: device)
    }
    solid = try make("quad.vert.glsl", "solid.frag.glsl")
    image = try make("quad.vert.glsl", "image.frag.glsl")
    solidPlain = try make("quad.vert.glsl", "solid_plain.frag.glsl")
    imagePlain = try make("quad.vert.glsl", "image_plain.frag.glsl")
    let advanced = device.supports("GL_KHR_blend_equation_advanced")
    gradient = GradientProgram(device: device, advanced: advanced)
    downsample = try make("fullscreen.vert.glsl", "downsample.frag.glsl")
    upsample = try make("fullscreen.vert.glsl", "upsample.frag.glsl")
    blur = try make("fullscreen.vert.glsl", "blur.frag.glsl")
    shadow = try make("quad.vert.glsl", "shadow.frag.glsl")
    colorMatrix = try make("fullscreen.vert.glsl", "colormatrix.frag.glsl")
    blendFallback = try make("fullscreen.vert.glsl", "blend.frag.glsl")
    present = try make("fullscreen.vert.glsl", "present.frag.glsl")
    effects = EffectPrograms(device: device, advanced: advanced)
    solidBlend = advanced ? try make("quad.vert.glsl", "solid.frag.glsl", ["BLEND_ADVANCED"]) : nil
    imageBlend = advanced ? try make("quad.vert.glsl", "image.frag.glsl", ["BLEND_ADVANCED"]) : nil
  }

  /// The program `batch` draws with: the plain variant of its program
  /// when `plain` (the device's linear rasterizer wants them) and the
  /// batch allows it, else the one its key names.
  func program(for batch: Batch, plain: Bool) throws -> GPUProgram {
    if plain {
      if batch.program == .solid && batch.exactRects { return solidPlain }
      if batch.program == .image && batch.copiesTexels { return imagePlain }
    }
    return try program(batch.program)
  }

  /// Whether `program` is one of the plain programs.
  func isPlain(_ program: GPUProgram) -> Bool { program === solidPlain || program === imagePlain }

  /// The program a batch of the plan names.
  func program(_ key: ProgramKey) throws -> GPUProgram {
    switch key {
    case .solid: return solid
    case .image: return image
    case .shadow: return shadow
    case .solidBlend: return solidBlend ?? solid
    case .imageBlend: return imageBlend ?? image
    case .gradient(let kind, let blend, let corners):
      return try gradient.program(kind: kind, blend: blend, corners: corners)
    case .effect(let variant): return try effects.program(variant)
    case .path:
      // Path batches draw with `PathPrograms` (`PlanExecutor+Paths.swift`).
      throw RendererError.missingShader(name: "path_*.glsl in the program set")
    }
  }
}

