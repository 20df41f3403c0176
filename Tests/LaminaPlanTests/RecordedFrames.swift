import Foundation
import Lamina
import LaminaDraw
import LaminaScene

@testable import LaminaFrame
@testable import LaminaPlan

/// A benchmark scene stepped as `lamina bench` steps it (one presentation
/// tree, one frame builder, frame i at 10 s + (i − 3)/60), each frame
/// planned and executed as the renderer does it, on a recording device.
final class RecordedRun {
  let scene: Scene
  let presentation: PresentationTree
  var builder: FrameBuilder
  let device: RecordingDevice
  let runner: FrameRunner
  var frameIndex = 0
  /// The plan of the last frame.
  private(set) var lastPlan: FramePlan?
  var pool: TargetPool { runner.pool }

  /// The scenes of `Benchmarks/scenes`, by name.
  static let benchmarkScenes = [
    "grid", "cards", "cubes", "blur", "nineslice", "shapes", "gradients", "masks", "text",
    "particles", "kiosk",
  ]

  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  init(_ name: String, device: RecordingDevice = RecordingDevice()) throws {
    let url = Self.packageRoot.appendingPathComponent("Benchmarks/scenes/\(name).json")
    // Caches of its own (the glyph atlas included), as a fresh renderer's:
    // counts do not depend on what ran before.
    let caches = RenderCaches()
    self.device = device
    runner = try FrameRunner(device: device, samples: 1, maxTextureSize: 16384, caches: caches)
    scene = try SceneLoader.load(contentsOf: url, maxImageDimension: 16384)
    presentation = PresentationTree(root: scene.root)
    builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: scene.canvas.scale, caches: caches)
  }

  /// Builds, plans and runs the next frame; returns it.
  @discardableResult
  func step() throws -> DrawList {
    let time = 10 + Double(frameIndex - 3) / 60
    frameIndex += 1
    LaminaDraw.install()
    CATransaction.commitFrame(root: scene.root)
    let root = presentation.update(time: time)
    builder.time = time
    let frame = builder.build(root: root, background: scene.canvas.background)
    // As the renderer begins a frame: the cache forgets what it knew.
    device.reset()
    device.counters = RenderCounters()
    device.clearCommands()
    let plan = runner.plan(frame, tile: 4096, options: PlanOptions())
    try runner.run(plan, maxOffscreenBytes: 2 << 30, output: { _, _ in })
    lastPlan = plan
    return frame
  }
}
