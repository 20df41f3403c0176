import Foundation
import Lamina
import LaminaRender
import LaminaScene

extension Renderer {
  /// Renders a loaded scene at `time` seconds (canvas scale overridable),
  /// checked as `checkedFrame` checks it.
  package func render(scene: Scene, time: Double, scale: Double?) throws -> RenderedImage {
    var frames = SceneFrames(scene: scene, scale: scale, caches: caches)
    return try render(frames.checkedFrame(at: time))
  }
}

/// The frames of one scene at successive times: one presentation tree and
/// one frame builder for all of them, so that each frame copies, animates
/// and derives only what changed since the one before.
package struct SceneFrames {
  package let scene: Scene
  package let presentation: PresentationTree
  package var builder: FrameBuilder

  /// Frames at the canvas scale (or `scale`), or stretched to `pixelSize`,
  /// built with `caches` (the renderer's that draws them).
  package init(
    scene: Scene, scale: Double?, pixelSize: (Int, Int)? = nil,
    caches: RenderCaches = RenderCaches()
  ) {
    self.scene = scene
    presentation = PresentationTree(root: scene.root)
    let size = CGSize(width: scene.canvas.width, height: scene.canvas.height)
    if let pixelSize {
      builder = FrameBuilder(
        size: size, pixelWidth: pixelSize.0, pixelHeight: pixelSize.1, caches: caches)
    } else {
      builder = FrameBuilder(
        size: size, scale: CGFloat(scale ?? Double(scene.canvas.scale)), caches: caches)
    }
  }

  /// The frame at `time` seconds: layout on the model, the presentation
  /// tree at that time, drawn.
  package mutating func frame(at time: Double) -> DrawList {
    Renderer.commit(scene.root)
    return frame(root: presentation.update(time: time), time: time)
  }

  /// The frame at `time` seconds as `frame(at:)` makes it, checked: the
  /// presentation tree against the scene's limits first (animations move
  /// values past what the file says; a `SceneError` names the file, the
  /// layer's JSON path and the time), then the built frame against the
  /// frame limits, before anything walks its draw list (damage does): a
  /// frame past them can be exponentially long to walk (nested shadows).
  package mutating func checkedFrame(at time: Double) throws -> DrawList {
    Renderer.commit(scene.root)
    let root = presentation.update(time: time)
    try scene.checkLimits(root, time: time)
    let frame = frame(root: root, time: time)
    // Its layers named by their places in the file.
    let totals = try FrameLimits.check(
      frame, naming: scene.place(ofLayerWith:), copy: scene.place(ofLayerWith:copy:))
    // What a frame that still runs out of its time is blamed on.
    FrameWatchdog.predict(
      seconds: totals.seconds, costliest: totals.slowestLayer.flatMap(scene.place(ofLayerWith:)),
      costliestSeconds: totals.slowestSeconds)
    return frame
  }

  /// The frame drawing `root` (a presentation root already brought to
  /// `time`, which emitters also follow).
  package mutating func frame(root: CALayer, time: Double) -> DrawList {
    builder.time = time
    return builder.build(root: root, background: scene.canvas.background)
  }
}
