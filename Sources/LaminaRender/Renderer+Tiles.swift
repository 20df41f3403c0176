import Foundation
import Lamina
import LaminaFrame
import LaminaGL
import LaminaOutput
import LaminaPlan

/// Which parts of the canvas a frame draws — whole, tile by tile, or only
/// its damaged rects — planned and run.
extension Renderer {
  /// The plan that drawing `frame` whole would run now (with what the
  /// caches hold at this moment): the passes, their targets and batches.
  public func plan(_ frame: DrawList) -> FramePlan {
    makePlan(frame, damage: nil)
  }

  /// The rects to redraw `frame` by, from its `damage` (empty: nothing
  /// changed), or nil when it is better drawn whole: background filters
  /// read what is behind them across the layer, a canvas larger than a
  /// tile has no single target to keep, and rects covering half the canvas
  /// or more would draw parts of it twice where one pass costs less.
  func partialRects(_ frame: DrawList, damage: Damage) -> [PixelRect]? {
    guard frame.width <= maxTileSize, frame.height <= maxTileSize,
      !Self.hasBackdrop(frame.commands)
    else { return nil }
    let rects = damage.rects.filter { !$0.isEmpty }
    return rects.reduce(0, { $0 + $1.area }) * 2 >= frame.width * frame.height ? nil : rects
  }

  static func hasBackdrop(_ commands: [DrawCommand]) -> Bool {
    commands.contains {
      guard case .group(let g) = $0 else { return false }
      return g.backdrop || hasBackdrop(g.commands)
        || (g.mask.map { hasBackdrop($0.commands) } ?? false)
    }
  }

  /// Plans `frame` whole (tile by tile), or only `damage` (a one-tile
  /// canvas, scissored).
  func makePlan(_ frame: DrawList, damage: [PixelRect]?) -> FramePlan {
    var options = PlanOptions(
      blendEquations: usesBlendEquations, edgeCoverage: antialiasing.usesEdgeCoverage,
      batching: batchesDraws, samples: samples, timesVertices: measuresStages,
      mergedFillMaxPixels: mergedFillMaxPixels)
    options.pathMasks = pathMasks
    options.cpuPaths = cpuPaths
    options.cpuGroups = cpuGroups
    options.texelOrder = device.texelOrder
    options.canvasPrefix = canvasPrefix && samples == 1
    options.clearsByUpload = clearsByUpload
    return runner.plan(frame, tile: maxTileSize, options: options, damage: damage)
  }

  /// Plans and draws `frame` (whole, or only the `damage` rects); `output`
  /// sees the canvas after each tile or rect.
  func draw(
    _ frame: DrawList, damage: [PixelRect]?, output: (RenderTarget, OutputStep) throws -> Void
  ) throws {
    try begin()
    device.counters = RenderCounters()
    device.callTimes = GLCallTimes()
    device.timesCalls = measuresStages
    let start = DispatchTime.now().uptimeNanoseconds
    var planned = start
    var vertexNanoseconds: UInt64 = 0
    defer {
      let end = DispatchTime.now().uptimeNanoseconds
      lastEncodeMilliseconds = Double(end - start) / 1e6
      counters = device.counters
      if measuresStages {
        lastStages = EncodeStages(
          planning: Double(planned - start) / 1e6, vertices: Double(vertexNanoseconds) / 1e6,
          execution: Double(end - planned) / 1e6, gl: device.callTimes)
      }
      device.timesCalls = false
    }
    let plan = makePlan(frame, damage: damage)
    planned = DispatchTime.now().uptimeNanoseconds
    vertexNanoseconds = plan.vertexNanoseconds
    try guardingContext { try run(plan, output: output) }
  }

  /// Runs `plan` on the canvas target (made at the plan's canvas size).
  func run(_ plan: FramePlan, output: (RenderTarget, OutputStep) throws -> Void) throws {
    planObserver?(plan)
    try runner.run(plan, maxOffscreenBytes: maxOffscreenBytes, output: output)
  }
}
