import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

/// Draws frames with OpenGL ES into offscreen targets and reads them back.
///
/// ```swift
/// let renderer = try Renderer()
/// let image = try renderer.render(layer: root, size: CGSize(width: 320, height: 240), scale: 2)
/// try image.writePNG(to: URL(fileURLWithPath: "out.png"))
/// ```
///
/// A frame goes through three stages: the `FrameBuilder` turns the layer
/// tree into a draw list (`DrawList`), the planner turns the draw list into a
/// `FramePlan` (render passes, their targets and batches; no GL), and the
/// executor runs the plan through the context's `GLDevice`, the one owner of
/// GL state. `plan(_:)` shows the plan of a frame; `LAMINA_DUMP_PLAN=1`
/// writes every frame's plan to standard error.
public final class Renderer {
  /// The context the renderer draws with. A renderer that
  /// `replacesLostContext` changes it for a new one after a loss
  /// (`Renderer+ContextLoss.swift`); read it anew for each use.
  public internal(set) var context: GPUContext
  /// Whether the renderer makes a new context of its own when its context
  /// is lost or wedged (see `contextsReplaced`): true for one made on the
  /// process's shared context, false for one given a context (a display's
  /// window, which its owner must replace with the window). Make a renderer
  /// whose context something else draws on too (a `HeadlessOutput`'s
  /// panel) with false: what the other made is not on the new context.
  public let replacesLostContext: Bool
  /// How many times the renderer replaced a lost context.
  public internal(set) var contextsReplaced = 0
  /// Why the context was found lost, until the next frame replaces it.
  var lostContext: String?
  /// How edges are antialiased.
  public let antialiasing: Antialiasing
  /// Multisamples per pixel of the targets (1 unless multisampling).
  public let samples: Int
  /// Largest texture side the GPU accepts.
  public let maxTextureSize: Int
  /// Largest tile rendered in one go; larger canvases render in tiles.
  public let maxTileSize: Int
  /// What the last frame cost, counted (a `present` after it adds its own).
  public package(set) var counters = RenderCounters()
  /// CPU time the last frame spent planning and turning the plan into GL
  /// calls (the GPU may still be working when it ends), in milliseconds.
  public internal(set) var lastEncodeMilliseconds = 0.0
  /// Whether `draw` and `render` measure where their CPU time goes
  /// (`lastStages`): the planner's vertices and every GL call are timed,
  /// which costs a clock read around each. Off by default; `lamina bench`
  /// turns it on.
  public var measuresStages = false
  /// Where the last frame's encoding time went, when `measuresStages` is on.
  public internal(set) var lastStages = EncodeStages()

  /// Whether consecutive compatible items share a draw call (the default);
  /// false draws every item with its own, which must give the same pixels.
  public var batchesDraws = true

  /// How many idle offscreen targets the renderer keeps for later passes
  /// and frames (8 by default). Targets are reused only at their exact
  /// size; any value renders the same pixels — 1 is the most constrained
  /// pool that still reuses, 0 makes every pass allocate its own.
  public var offscreenPoolLimit: Int {
    get { pool.limit }
    set { pool.limit = max(0, newValue) }
  }

  /// Bytes of idle offscreen targets kept at most (128 MiB by default).
  public var offscreenPoolBytes: Int {
    get { pool.byteBudget }
    set { pool.byteBudget = max(0, newValue) }
  }

  /// The most offscreen memory a frame may hold at once (2 GiB by default):
  /// a frame whose plan needs more is refused before anything is drawn.
  public var maxOffscreenBytes = 2 << 30

  /// Path fills whose bounds cover more pixels than this draw by their
  /// pieces' own programs instead of in one draw with their neighbours
  /// (docs/rendering.md, "Batching and uploads"): 4,096 on a software
  /// rasterizer, unlimited on a hardware GPU; `LAMINA_MERGED_FILL_MAX_PIXELS`
  /// sets it (for measuring a driver).
  package var mergedFillMaxPixels: Int
  /// Masks that are one path composite as the path painted with the masked
  /// rendering (`PlanOptions.pathMasks`); off only to compare.
  package var pathMasks = true
  /// A frame's first commands that drew the same the frame before are
  /// copied from a kept target (`PlanOptions.canvasPrefix`): on a software
  /// rasterizer, unless `LAMINA_CANVAS_PREFIX=0`.
  package var canvasPrefix: Bool
  /// A run of paths written first into its pass holds the clear color
  /// around its paths over all the clear would cover, and the pass is not
  /// cleared (`PlanOptions.clearsByUpload`): on a software rasterizer,
  /// unless `LAMINA_CLEAR_BY_UPLOAD=0`.
  package var clearsByUpload: Bool
  /// Groups of paths alone are drawn whole on the CPU with the paths
  /// around them (`PlanOptions.cpuGroups`); off only to compare.
  package var cpuGroups = true
  /// Runs of path items are drawn on the CPU by Cairo, one bitmap each
  /// (`PlanOptions.cpuPaths`): on a software rasterizer, unless
  /// `LAMINA_PATHS=gpu`; `LAMINA_PATHS=cpu` asks for it on any driver.
  /// Its frame builders then leave fills untessellated until drawn on the
  /// GPU (`PathGeometryCache.defersFills`).
  package var cpuPaths: Bool {
    didSet { caches.defersFills = cpuPaths }
  }

  static func cpuPaths(software: Bool) -> Bool {
    switch ProcessInfo.processInfo.environment["LAMINA_PATHS"] {
    case "gpu": return false
    case "cpu": return true
    default: return software
    }
  }

  static func mergedFillMaxPixels(software: Bool) -> Int {
    if let given = ProcessInfo.processInfo.environment["LAMINA_MERGED_FILL_MAX_PIXELS"],
      let value = Int(given), value >= 0
    {
      return value
    }
    return software ? PlanOptions.softwareMergedFillMaxPixels : Int.max
  }

  /// Called with the plan of every frame before it is drawn; by default,
  /// when `LAMINA_DUMP_PLAN=1`, the plan is written to standard error.
  public var planObserver: ((FramePlan) -> Void)? = Renderer.defaultPlanObserver

  /// What the renderer keeps across frames, within one byte budget
  /// (`Limits.maxCacheBytes` unless `init` was given another): the CPU
  /// caches its frame builders use, and the shares of its GPU caches.
  /// Its own: another renderer shares none of it.
  public let caches: RenderCaches

  /// Plans frames and runs them on the context's device (replaced with
  /// the context).
  package internal(set) var runner: FrameRunner
  package var executor: PlanExecutor { runner.executor }
  var pool: TargetPool { runner.pool }
  /// The GL device of the renderer's context (the executor sees it as a
  /// `GPUDevice`).
  package var device: GLDevice { context.device }
  /// The image textures (held by the executor).
  package var textures: TextureCache { executor.textures }
  /// The canvas: one tile, kept between frames (a display's retained buffer).
  package var canvasTarget: RenderTarget? {
    get { runner.canvasTarget }
    set { runner.canvasTarget = newValue }
  }
  /// False with `LAMINA_BLEND=shader` (blend modes by the shader fallback,
  /// to compare the two).
  var blendEquationsWanted = ProcessInfo.processInfo.environment["LAMINA_BLEND"] != "shader"

  /// Whether blend modes (`compositingFilter`) use the GPU's advanced blend
  /// equations (KHR_blend_equation_advanced). Where the GPU lacks them, or
  /// when this is set to false, each blended layer is drawn by a shader
  /// from its offscreen rendering and a copy of what is behind it: the same
  /// formulas, one copy and one pass the size of the layer more.
  public var usesBlendEquations: Bool {
    get { blendEquationsWanted && executor.programs.solidBlend != nil }
    set { blendEquationsWanted = newValue }
  }

  /// The largest image this renderer writes, in pixels (1 GiB of RGBA).
  public static let maxCanvasPixels = 1 << 28

  /// A renderer on `context` (the process's shared context by default).
  /// - Parameters:
  ///   - antialiasing: `.automatic` computes edge coverage in the shaders
  ///     everywhere and adds 4× multisampled targets on hardware GPUs; on a
  ///     software rasterizer multisampling would cost over three times the
  ///     fill, so it is left out there.
  ///   - maxTileSize: the largest tile side (canvases above it render in tiles).
  ///   - cacheBytes: the byte budget of everything kept across frames
  ///     (`caches`).
  ///   - replacesLostContext: whether a lost context is replaced by a new
  ///     one of the renderer's own (nil: when no `context` is given).
  public init(
    context: GPUContext? = nil, antialiasing: Antialiasing = .automatic,
    maxTileSize tile: Int = 4096, cacheBytes: Int = Limits.maxCacheBytes,
    replacesLostContext: Bool? = nil
  ) throws {
    self.replacesLostContext = replacesLostContext ?? (context == nil)
    let context = try context ?? GPUContext.shared()
    context.makeCurrent()
    context.device.reset()
    self.context = context
    let info = context.info
    let maxSamples = max(1, info.maxSamples)
    var mode = antialiasing
    if mode == .automatic {
      mode = info.isSoftwareRenderer || maxSamples < 4 ? .edges : .combined(4)
    }
    switch mode {
    case .multisample(let n) where n <= 1 || maxSamples <= 1,
      .combined(let n) where n <= 1 || maxSamples <= 1:
      mode = .edges
    case .multisample(let n): mode = .multisample(min(n, maxSamples))
    case .combined(let n): mode = .combined(min(n, maxSamples))
    default: break
    }
    self.antialiasing = mode
    mergedFillMaxPixels = Self.mergedFillMaxPixels(software: info.isSoftwareRenderer)
    cpuPaths = Self.cpuPaths(software: info.isSoftwareRenderer)
    canvasPrefix =
      info.isSoftwareRenderer && ProcessInfo.processInfo.environment["LAMINA_CANVAS_PREFIX"] != "0"
    clearsByUpload =
      info.isSoftwareRenderer
      && ProcessInfo.processInfo.environment["LAMINA_CLEAR_BY_UPLOAD"] != "0"
    switch mode {
    case .multisample(let n), .combined(let n): samples = n
    default: samples = 1
    }
    maxTextureSize = info.maxTextureSize
    maxTileSize = max(16, min(info.maxRenderbufferSize, maxTextureSize, tile))
    caches = RenderCaches(maxBytes: cacheBytes)
    caches.defersFills = cpuPaths
    runner = try FrameRunner(
      device: context.device, samples: samples, maxTextureSize: maxTextureSize, caches: caches)
    try context.device.check("renderer setup")
  }

  deinit {
    // The runner's targets go with it, on this context.
    context.makeCurrent()
  }

  /// Writes each frame's plan to standard error when `LAMINA_DUMP_PLAN=1`.
  static var defaultPlanObserver: ((FramePlan) -> Void)? {
    guard ProcessInfo.processInfo.environment["LAMINA_DUMP_PLAN"] == "1" else { return nil }
    return { plan in
      FileHandle.standardError.write(Data((plan.description + "\n" + plan.breakSummary + "\n").utf8))
    }
  }

}

/// How a renderer antialiases the edges of layers.
public enum Antialiasing: Equatable, Sendable {
  /// Multisampling on hardware GPUs, edge coverage on software rasterizers.
  case automatic
  /// Multisampled targets with this many samples per pixel, resolved before read-back.
  case multisample(Int)
  /// Coverage computed in the fragment shaders from the distance to each edge.
  case edges
  /// Edge coverage for layer edges and multisampled targets for everything
  /// else (the hardware default: both cost next to nothing on a GPU).
  case combined(Int)

  /// Whether layer edges get their coverage computed in the shaders.
  public var usesEdgeCoverage: Bool {
    switch self {
    case .edges, .combined: return true
    default: return false
    }
  }
}

/// Where a frame's encoding time (`Renderer.lastEncodeMilliseconds`) went,
/// in milliseconds: Lamina's own stages and the driver's time inside GL
/// calls. On llvmpipe the draw calls shade vertices and bin triangles on
/// the calling thread and wait for targets still being rasterized, so the
/// GL share is what a hardware GPU's driver would mostly not spend; Lamina's
/// own share is what any GPU waits for.
public struct EncodeStages: Equatable, Sendable {
  /// Planning the frame (passes, targets, batches), vertices excluded.
  public var planning = 0.0
  /// Making the vertices of the planned batches.
  public var vertices = 0.0
  /// The executor's own work outside GL calls (finding textures and
  /// targets, setting up batches).
  public var executor = 0.0
  /// Inside GL calls: uploads of vertices, indices, instances and textures.
  public var glUploads = 0.0
  /// Inside GL calls: draws, clears, blits.
  public var glDraws = 0.0
  /// Inside GL calls: binds, uniforms and other state.
  public var glState = 0.0

  public init() {}

  init(planning: Double, vertices: Double, execution: Double, gl: GLCallTimes) {
    self.planning = max(0, planning - vertices)
    self.vertices = vertices
    glUploads = Double(gl.uploads) / 1e6
    glDraws = Double(gl.draws) / 1e6
    glState = Double(gl.state) / 1e6
    executor = max(0, execution - Double(gl.total) / 1e6)
  }

  /// Lamina's own share: planning, vertices, the executor.
  public var lamina: Double { planning + vertices + executor }
  /// The driver's share: the time inside GL calls.
  public var driver: Double { glUploads + glDraws + glState }
}
