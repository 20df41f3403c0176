import Foundation
import Lamina
import LaminaFrame

/// Plans frames and runs their plans on a GPU device: the executor, its
/// pool of offscreen targets and the canvas target kept between frames.
/// The renderer draws through one on the GL device; tests run one on the
/// recording device, the same code.
package final class FrameRunner {
  package let device: any GPUDevice
  package let executor: PlanExecutor
  /// Idle offscreen targets, reused across passes and frames.
  package let pool: TargetPool
  package let samples: Int
  /// The canvas: one tile, kept between frames (a display's retained buffer).
  package var canvasTarget: RenderTarget?
  /// The bitmaps of runs of paths drawn on the CPU, kept for the next frame.
  package let pathRuns = PathRunCache()
  /// The last whole frame's prefix keys (`FramePlanner+Prefix.swift`).
  private var lastPrefixKeys: [Int] = []

  /// A runner whose executor keeps its GPU caches within their shares of
  /// `caches`' budget (the renderer's `RenderCaches`).
  package init(
    device: any GPUDevice, samples: Int, maxTextureSize: Int,
    caches: RenderCaches = RenderCaches()
  ) throws {
    self.device = device
    self.samples = samples
    pool = TargetPool(limit: 8, byteBudget: 128 << 20)
    executor = try PlanExecutor(
      device: device, samples: samples, maxTextureSize: maxTextureSize, pool: pool,
      caches: caches)
  }

  deinit {
    canvasTarget = nil
    pool.drain()
  }

  /// Plans `frame` whole (tile by tile, each at most `tile` pixels a
  /// side), or only `damage` (a one-tile canvas, scissored), with what the
  /// caches hold now.
  package func plan(
    _ frame: DrawList, tile: Int, options: PlanOptions, damage: [PixelRect]? = nil
  ) -> FramePlan {
    var planner = FramePlanner(
      width: frame.width, height: frame.height, canvasWidth: min(frame.width, tile),
      canvasHeight: min(frame.height, tile), options: options, caches: executor)
    planner.pathRuns = pathRuns
    planner.lastPrefixKeys = lastPrefixKeys
    if let damage {
      planner.planDamage(frame, rects: damage)
    } else {
      planner.planTiles(frame)
    }
    var plan = planner.plan
    if damage == nil { lastPrefixKeys = plan.prefixKeys }
    plan.computeLifetimes(samples: samples)
    return plan
  }

  /// Runs `plan` on the canvas target (made at the plan's canvas size);
  /// `output` sees the canvas after each tile or rect. A plan that would
  /// hold more than `maxOffscreenBytes` at once is refused before any work.
  package func run(
    _ plan: FramePlan, maxOffscreenBytes: Int,
    output: (RenderTarget, OutputStep) throws -> Void
  ) throws {
    guard plan.peakOffscreenBytes <= maxOffscreenBytes else {
      throw RendererError.offscreenBudgetExceeded(
        bytes: plan.peakOffscreenBytes, limit: maxOffscreenBytes,
        targets: plan.peakOffscreenTargets)
    }
    let size = plan.targets[FramePlan.canvas.index]
    if canvasTarget?.width != size.width || canvasTarget?.height != size.height {
      canvasTarget = nil
      canvasTarget = try RenderTarget(
        width: size.width, height: size.height, samples: samples, device: device)
    }
    guard let canvas = canvasTarget else { return }
    try executor.run(plan, canvas: canvas, output: output)
    executor.textures.release(images: pathRuns.endFrame())
    executor.endFrame()
    try device.check("the end of a frame")
  }

  /// Render targets held between frames: the canvas, the pool's idle ones,
  /// the raster and mask caches' and `CAOpenGLLayer` framebuffers.
  package var heldTargets: Int {
    (canvasTarget == nil ? 0 : 1) + pool.idleCount + executor.rasterCache.count
      + executor.maskCache.count + executor.openGLLayers.targets.count
  }
}
