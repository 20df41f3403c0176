import Foundation
import Lamina
import LaminaFrame

/// A frame, planned: every render pass the GL executor runs, in order, the
/// targets they draw into and read, and the batches each pass draws. The
/// planner (`FramePlanner`) builds it from a `Frame`'s draw list without
/// GL, so a wrong frame can be read (`description`, `lamina render
/// --dump-plan`, `LAMINA_DUMP_PLAN=1`) and tested before it is debugged.
public struct FramePlan: CustomStringConvertible {
  /// The frame's size in pixels.
  public let width: Int, height: Int
  /// Every target, by `TargetID.index`.
  public internal(set) var targets: [PlannedTarget] = []
  /// The steps, in the order they run.
  public internal(set) var steps: [PlanStep] = []
  /// The images batches draw, by `TextureSource.image` index, in the order
  /// the plan first draws them.
  public internal(set) var images: [CGImage] = []
  /// For each step, the pooled targets whose last use it is: they go back
  /// to the pool after it.
  public internal(set) var releases: [[TargetID]] = []
  /// The most bytes of offscreen targets the plan holds at once (pooled
  /// ones and new cache entries; the canvas and cache hits excluded).
  public internal(set) var peakOffscreenBytes = 0
  /// How many offscreen targets are held at that peak.
  public internal(set) var peakOffscreenTargets = 0
  /// Nanoseconds the planner spent making vertices, when the renderer
  /// measures its stages (`Renderer.measuresStages`); else 0.
  public internal(set) var vertexNanoseconds: UInt64 = 0

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The canvas target (always `T0`).
  public static let canvas = TargetID(index: 0)

  /// Draw passes, copies, filter passes and `CAOpenGLLayer` draws.
  public var passCount: Int { steps.filter { if case .output = $0 { false } else { true } }.count }

  /// Batches (draw calls) of every draw pass.
  public var batchCount: Int {
    steps.reduce(0) { n, step in
      if case .draw(let pass) = step { return n + pass.batches.count }
      return n
    }
  }
}

/// A target of a plan, by its number: `T0` is the canvas.
public struct TargetID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The target's place in `FramePlan.targets`.
  public let index: Int
  public static func < (a: TargetID, b: TargetID) -> Bool { a.index < b.index }
  public var description: String { "T\(index)" }
}

/// A target a plan draws into or samples, and who owns it.
public struct PlannedTarget {
  public enum Role: Equatable {
    /// The renderer's canvas: kept across frames (a display's back buffer).
    case canvas
    /// From the offscreen pool; returned after its last use.
    case pooled
    /// A mask, masked content or blurred shadow kept by the renderer's cache
    /// under `key`; `hit` when the cache holds it already (nothing draws it).
    case cached(key: Int, hit: Bool)
    /// A rasterized subtree (`shouldRasterize`) kept by the raster cache.
    case raster(key: Int, hit: Bool)
    /// The framebuffer of a `CAOpenGLLayer`, kept for the layer.
    case openGLLayer(UInt64)
  }
  public let id: TargetID
  /// Size in pixels.
  public let width: Int, height: Int
  /// Who owns it, and so where the executor finds it.
  public internal(set) var role: Role
  /// What the target holds, for people reading the plan.
  public let label: String

  /// Whether the target is a new offscreen allocation of this frame (pooled,
  /// or a cache entry being made): what counts toward the offscreen budget.
  package var isAllocated: Bool {
    switch role {
    case .pooled, .cached(_, hit: false), .raster(_, hit: false): return true
    default: return false
    }
  }
}

/// One step of a plan.
public enum PlanStep {
  /// Batches drawn into a target.
  case draw(DrawPass)
  /// A rect of one target copied into another (what is behind a backdrop
  /// filter or a blend mode).
  case copy(CopyPass)
  /// A full-target shader pass: a color filter, a blur, a blend mode.
  case effect(EffectPass)
  /// A `CAOpenGLLayer`'s own GL drawing into its framebuffer.
  case openGLLayer(OpenGLLayerStep)
  /// The canvas holds a finished tile or damaged rect: read it back or show it.
  case output(OutputStep)
}

/// Batches drawn into `target`, which shows `region` of the frame (canvas
/// pixels, or a raster's own pixels) at its origin.
public struct DrawPass {
  /// What the pass draws into.
  public var target: TargetID
  /// The part of the frame (canvas pixels, or a raster's own) the target
  /// shows at its origin.
  public var region: PixelRect
  /// The premultiplied color the target is cleared to first, or nil when
  /// the pass continues what an earlier pass drew into it.
  public var clear: SIMD4<Float>?
  /// Target pixels the pass may change (a damaged rect); nil: all. It lies
  /// within `viewport`.
  public var scissor: PixelRect?
  /// The part of the target the region maps onto (target pixels); nil: all
  /// of it. Passes that share one target (an atlas) each draw into their
  /// own part: the clear and the drawing keep to it.
  public var viewport: PixelRect?
  /// Drawn in order, one draw call each.
  public var batches: [Batch] = []
  /// What the pass renders, for people reading the plan.
  public var label: String
  /// The vertices and indices of the batches.
  package var geometry = PassGeometry()
}

/// What a draw pass's batches draw from.
package struct PassGeometry {
  package var vertices: [Vertex] = []
  package var indices: [UInt32] = []
  /// Items with effects use the larger vertex format and its own buffers.
  package var effectVertices: [EffectVertex] = []
  package var effectIndices: [UInt32] = []
}

/// Consecutive items drawn with one draw call.
public struct Batch {
  /// The program the batch draws with.
  public var program: ProgramKey
  /// Sampled on texture unit 0 (nil: the program samples nothing).
  public var texture: TextureSource?
  /// Sampled on unit 1 (`s_mask`): a group's mask, or any second texture
  /// a program reads.
  public var mask: TextureSource?
  /// How the textures are sampled.
  public var sampler: SamplerKey?
  /// How the batch combines with what is behind it.
  public var blend: BlendMode
  /// Whether the batch uses the effect vertex format.
  public var usesEffectVertices: Bool
  /// The gradient whose uniforms and ramp (on unit 0) the batch sets.
  public var paint: GradientPaint?
  /// The batch's indices in its vertex format's index list.
  public var firstIndex: Int
  public var indexCount: Int
  /// Items drawn, and the first one's layer name.
  public var items: Int
  public var firstLayerName: String?
  /// Path items, drawn from their mesh instead of the pass's vertices
  /// (`PathBatch`; the program is then `.path`).
  public var path: PathBatch? = nil
}

/// Which program a batch draws with.
public enum ProgramKey: Hashable {
  /// A premultiplied color per vertex (`solid.frag`).
  case solid
  /// A texture times the vertex color (`image.frag`).
  case image
  /// The blurred alpha of a shadow group, tinted.
  case shadow
  /// `solid` and `image` declaring the advanced blend equations.
  case solidBlend, imageBlend
  /// A gradient kind (sampling the batch's ramp), declaring the advanced
  /// blend equations when `blend`.
  case gradient(GradientPaint.Kind, blend: Bool)
  /// The effect shader specialized for what the items need.
  case effect(EffectVariant)
  /// The path shaders (`path_fill.*`, `path_stroke.*`), one variant per
  /// kind of piece of the batch's mesh (`GL/PathPrograms.swift`).
  case path
}

/// What the effect shader (`effect.frag`, `masked.frag`) is specialized by.
public struct EffectVariant: Hashable {
  /// 0 none, 1 fill, 2 ring, 3 blurred in closed form, 4 blurred and integrated.
  public var shapeMode: Int
  /// Samples a texture (else a solid color).
  public var textured: Bool
  /// Draws a gradient of this kind from its ramp (instead of the texture).
  public var gradient: GradientPaint.Kind? = nil
  /// Cuts by a rounded rect in another plane (`masksToBounds`).
  public var clip: Bool
  /// Multiplies by a mask's alpha (`masked.frag`).
  public var masked: Bool
  /// What of the mask multiplies, when `masked`: its alpha (the default),
  /// luminance, or one minus either.
  public var maskMode = CALayerMaskMode.alpha
  /// Declares the advanced blend equations (a compositingFilter).
  public var blend = false
}

/// Where a batch's texture comes from (plain values: batches compare and
/// copy them per item).
public enum TextureSource: Equatable {
  /// An image of the plan (`FramePlan.images`), uploaded on first use.
  case image(Int)
  /// A target an earlier pass of the plan drew (or a cache holds).
  case target(TargetID)
  /// A dma-buf frame, imported.
  case dmabuf(DMABufFrame)

  var target: TargetID? {
    if case .target(let id) = self { return id }
    return nil
  }
}

/// `rect` of `source`'s pixels copied to the origin of `destination` (same size).
public struct CopyPass {
  /// Copied from (its texture, resolved).
  public var source: TargetID
  /// The source's pixels copied.
  public var rect: PixelRect
  /// Copied to, at its origin.
  public var destination: TargetID
  /// What is copied, for people reading the plan.
  public var label: String
}

/// A shader over `viewport` of `output`, reading `inputs` (unit 0, then 1)
/// with `sampler`; blending off.
public struct EffectPass {
  public enum Kind: Equatable {
    /// A color filter: rows of a 4×4 matrix and a bias, on straight color.
    case colorMatrix(matrix: [Float], bias: SIMD4<Float>)
    /// One direction of a separable Gaussian of `sigma` texels.
    case blur(dx: Float, dy: Float, sigma: Float)
    /// A box filter shrinking by `factor`.
    case downsample(factor: Int)
    /// Back up by `factor`.
    case upsample(factor: Int)
    /// A blend mode without the blend equations: input 0 is the layer's
    /// rendering, input 1 a copy of what is behind it; `origin` is the
    /// viewport's corner in `output`.
    case blend(mode: Int, name: String, originX: Int, originY: Int, opacity: Float)
  }
  /// The shader and its parameters.
  public var kind: Kind
  /// Sampled on units 0 and 1.
  public var inputs: [TargetID]
  /// How the inputs are sampled.
  public var sampler: SamplerKey
  /// Drawn into: a new target, or the pass a blend interrupts.
  public var output: TargetID
  /// The output's pixels covered.
  public var viewport: PixelRect
  /// Only for passes into a scissored canvas (a blend mode in a damaged rect).
  public var scissor: PixelRect?
}

/// A `CAOpenGLLayer` that needs new content: its `draw(atLayerTime:)` runs
/// with `target` bound.
public struct OpenGLLayerStep {
  /// The layer, its size and time.
  public let pass: GLLayerPass
  /// Its framebuffer.
  public let target: TargetID
}

/// `rect` of the canvas target holds `tile` of the frame, finished.
public struct OutputStep {
  /// The finished part of the frame (canvas pixels).
  public var tile: PixelRect
  /// Where it is in the canvas target (target pixels).
  public var rect: PixelRect
}

/// What the planner asks about the renderer's caches (pure questions, so
/// that a plan can be made and tested without GL).
package protocol PlanCaches {
  /// Whether the mask/shadow cache holds `key`.
  func holdsCachedPass(_ key: Int) -> Bool
  /// Whether the raster cache holds `key`.
  func holdsRaster(_ key: Int) -> Bool
  /// Whether a `CAOpenGLLayer`'s framebuffer is missing or stale for `pass`.
  func openGLLayerNeedsDrawing(_ pass: GLLayerPass) -> Bool
}

/// How the frame is to be drawn.
package struct PlanOptions {
  /// Blend modes use the advanced blend equations (else the shader fallback).
  var blendEquations = true
  /// Edge antialiasing computed in the shaders (vertex distances).
  var edgeCoverage = true
  /// Consecutive compatible items share a draw call.
  var batching = true
  /// Samples per pixel of the targets (for their sizes in bytes).
  var samples = 1
  /// The time spent making vertices is measured (`FramePlan.vertexNanoseconds`).
  var timesVertices = false

  package init(
    blendEquations: Bool = true, edgeCoverage: Bool = true, batching: Bool = true,
    samples: Int = 1, timesVertices: Bool = false
  ) {
    self.blendEquations = blendEquations
    self.edgeCoverage = edgeCoverage
    self.batching = batching
    self.samples = samples
    self.timesVertices = timesVertices
  }
}
