import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// `lamina render SCENE.json -o OUT.png [--time T] [--scale S]`, or a
/// sequence: `--frames A..B --fps F` with `-o 'frame-%04d.png'` or
/// `--video OUT.y4m` (`-` for standard output).
func runRender(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments, valued: ["-o", "--output", "--time", "--scale", "--frames", "--fps", "--video"])
    guard options.positional.count == 1 else {
      throw UsageError("render needs one scene file\n" + usage)
    }
    let output = options.string("-o") ?? options.string("--output")
    let video = options.string("--video")
    let sequence = options.string("--frames") != nil || video != nil
    let watchdog = FrameWatchdog(file: sceneName(options.positional[0]))
    if sequence {
      guard let frames = options.string("--frames") else {
        throw UsageError("--video needs --frames A..B")
      }
      guard (output == nil) != (video == nil) else {
        throw UsageError("a sequence needs either -o 'frame-%04d.png' or --video OUT.y4m")
      }
      guard options.string("--time") == nil else {
        throw UsageError("--time does not go with --frames")
      }
      let range = try FrameRange(frames)
      let pattern = try output.map { try FramePattern($0) }
      let fps = try options.number("--fps", range: 0.001...10_000) ?? 60
      let scale = try options.number("--scale", range: 0.01...8)
      // The last frame's time must stay a time the scene can be rendered at.
      guard Double(range.last) / fps <= Limits.maxTime else {
        throw UsageError(
          "--frames \(frames) at --fps \(fps) reaches t=\(Double(range.last) / fps) s, past the largest time \(Int(saturating: Limits.maxTime)) s"
        )
      }
      let renderer = try Renderer()
      let scene = try loadScene(options.positional[0], renderer: renderer, scale: scale)
      try renderSequence(
        scene: scene, renderer: renderer, range: range, fps: fps, scale: scale, pattern: pattern,
        videoPath: video, watchdog: watchdog)
      return 0
    }
    guard let output else { throw UsageError("render needs -o OUT.png") }
    if options.string("--fps") != nil { throw UsageError("--fps goes with --frames") }
    let time = try options.number("--time", range: 0...Limits.maxTime) ?? 0
    let scale = try options.number("--scale", range: 0.01...8)
    let renderer = try Renderer()
    let scene = try loadScene(options.positional[0], renderer: renderer, scale: scale)
    watchdog.begin("frame at t=\(Scene.seconds(time)) s")
    let image: RenderedImage
    do {
      let frame = try renderer.checkedFrame(
        scene: scene, time: time, scale: scale, presentation: PresentationTree(root: scene.root))
      image = try renderer.render(frame)
    } catch let error as SceneError {
      throw error
    } catch {
      throw FrameError(file: scene.fileName, frame: nil, time: time, underlying: error)
    }
    watchdog.end()
    let file = try OutputFile(path: output)
    try file.write(try image.pngData())
    try file.commit()
    return 0
  }
}

/// The scene file's name, as errors give it.
func sceneName(_ path: String) -> String { URL(fileURLWithPath: path).lastPathComponent }

/// Loads the scene at `path` for `renderer` (images up to its texture
/// size), and checks its canvas at `scale` (a `--scale` that overrides the
/// canvas's own) against the canvas limits.
func loadScene(_ path: String, renderer: Renderer, scale: Double?) throws -> Scene {
  let scene = try SceneLoader.load(
    contentsOf: URL(fileURLWithPath: path), maxImageDimension: renderer.maxTextureSize)
  if let scale { try scene.canvas.checkPixels(scale: CGFloat(scale), file: scene.fileName) }
  return scene
}

extension Renderer {
  /// Renders a loaded scene at `time` seconds (canvas scale overridable).
  func render(scene: Scene, time: Double, scale: Double?) throws -> RenderedImage {
    try render(
      checkedFrame(
        scene: scene, time: time, scale: scale, presentation: PresentationTree(root: scene.root)))
  }

  /// The frame of `scene` at `time`, its presentation tree checked against
  /// the scene's limits first (animations move values past what the file
  /// says): a `SceneError` names the file, the layer's JSON path and the time.
  func checkedFrame(
    scene: Scene, time: Double, scale: Double?, pixelSize: (Int, Int)? = nil,
    presentation: PresentationTree
  ) throws -> Frame {
    scene.root.layoutIfNeeded()
    let root = presentation.update(time: time)
    try scene.checkLimits(root, time: time)
    let frame = buildFrame(
      scene: scene, root: root, time: time, scale: scale, pixelSize: pixelSize)
    // Before anything walks the draw list (damage does): a frame past its
    // limits can be exponentially long to walk (nested shadows).
    try FrameLimits.check(frame)
    return frame
  }

  /// The frame of `scene` at `time` seconds: the presentation tree at that
  /// time, drawn. Pass the same `presentation` (made for `scene.root`) for
  /// every frame of a sequence so that its layers are reused.
  func buildFrame(
    scene: Scene, time: Double, scale: Double?, pixelSize: (Int, Int)? = nil,
    presentation: PresentationTree
  ) -> Frame {
    // Layout runs on the model, top-down, before the frame is built.
    scene.root.layoutIfNeeded()
    return buildFrame(
      scene: scene, root: presentation.update(time: time), time: time, scale: scale,
      pixelSize: pixelSize)
  }

  /// The frame of `scene` drawing `root` (a presentation root already
  /// brought to `time`, which emitters also follow).
  func buildFrame(
    scene: Scene, root: CALayer, time: Double, scale: Double?, pixelSize: (Int, Int)? = nil
  ) -> Frame {
    let size = CGSize(width: scene.canvas.width, height: scene.canvas.height)
    var builder: FrameBuilder
    if let pixelSize {
      builder = FrameBuilder(size: size, pixelWidth: pixelSize.0, pixelHeight: pixelSize.1)
    } else {
      builder = FrameBuilder(size: size, scale: CGFloat(scale ?? Double(scene.canvas.scale)))
    }
    builder.time = time
    return builder.build(root: root, background: scene.canvas.background)
  }
}
