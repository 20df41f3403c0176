import Foundation
import Lamina
import LaminaFrame

/// A frame, planned: every render pass the GL executor runs, in order, the
/// targets they draw into and read, and the batches each pass draws. The
/// planner (`FramePlanner`) builds it from a `DrawList` without
/// GL, so a wrong frame can be read (`description`, `lamina render
/// --dump-plan`, `LAMINA_DUMP_PLAN=1`) and tested before it is debugged.
public struct FramePlan: CustomStringConvertible {
  /// The frame's size in pixels.
  public let width: Int, height: Int
  /// Every target, by `TargetID.index`.
  package internal(set) var targets: [PlannedTarget] = []
  /// The steps, in the order they run.
  package internal(set) var steps: [PlanStep] = []
  /// The images batches draw, by `TextureSource.image` index, in the order
  /// the plan first draws them.
  public internal(set) var images: [CGImage] = []
  /// For each step, the pooled targets whose last use it is: they go back
  /// to the pool after it.
  package internal(set) var releases: [[TargetID]] = []
  /// The most bytes of offscreen targets the plan holds at once (pooled
  /// ones and new cache entries; the canvas and cache hits excluded).
  public internal(set) var peakOffscreenBytes = 0
  /// How many offscreen targets are held at that peak.
  public internal(set) var peakOffscreenTargets = 0
  /// Nanoseconds the planner spent making vertices, when the renderer
  /// measures its stages (`Renderer.measuresStages`); else 0.
  public internal(set) var vertexNanoseconds: UInt64 = 0
  /// Runs of path items drawn on the CPU as one image each
  /// (`PlanOptions.cpuPaths`), and the path items they hold.
  public internal(set) var cpuPathRuns = 0
  public internal(set) var cpuPathItems = 0
  /// Of those runs, the ones drawn only where they differ from the last
  /// frame's bitmap over the same place (`PathRunCache`), and the pixels
  /// the runs not found in the cache drew (their bitmaps, or those parts).
  public internal(set) var cpuPathRunsRedrawn = 0
  public internal(set) var cpuPathRunPixels = 0
  /// The keys of the canvas's prefixes (`FramePlanner+Prefix.swift`), for
  /// the next frame's plan.
  package internal(set) var prefixKeys: [Int] = []

  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// The canvas target (always `T0`).
  package static let canvas = TargetID(index: 0)

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
