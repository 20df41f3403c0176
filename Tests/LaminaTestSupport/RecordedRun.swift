import Foundation
import Lamina
import LaminaDraw
import LaminaFrame
import LaminaPlan
import LaminaScene

/// A scene stepped as `lamina bench` steps it (one presentation tree, one
/// frame builder, caches of its own as a fresh renderer's, so that counts do
/// not depend on what ran before), each frame planned and executed as the
/// renderer does it, on a recording device (no EGL).
package final class RecordedRun {
  package let scene: Scene
  package let presentation: PresentationTree
  package var builder: FrameBuilder
  package let device: RecordingDevice
  package let runner: FrameRunner
  /// The plan of the last frame.
  package private(set) var lastPlan: FramePlan?
  package var pool: TargetPool { runner.pool }
  /// How the frames are planned (paths on the CPU or not, …).
  package var options = PlanOptions()

  package init(_ scene: Scene, device: RecordingDevice = RecordingDevice()) throws {
    let caches = RenderCaches()
    self.scene = scene
    self.device = device
    runner = try FrameRunner(device: device, samples: 1, maxTextureSize: 16384, caches: caches)
    presentation = PresentationTree(root: scene.root)
    builder = FrameBuilder(
      size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
      scale: scene.canvas.scale, caches: caches)
  }

  /// Builds, plans and runs the frame at `time`, its counters from zero;
  /// returns it.
  @discardableResult
  package func step(at time: Double) throws -> DrawList {
    LaminaDraw.install()
    CATransaction.commitFrame(root: scene.root)
    let root = presentation.update(time: time)
    builder.time = time
    let frame = builder.build(root: root, background: scene.canvas.background)
    // As the renderer begins a frame: the cache forgets what it knew.
    device.reset()
    device.counters = RenderCounters()
    device.clearCommands()
    let plan = runner.plan(frame, tile: 4096, options: options)
    try runner.run(plan, maxOffscreenBytes: 2 << 30, output: { _, _ in })
    lastPlan = plan
    return frame
  }
}
