import Foundation
import Lamina
import LaminaRender
import LaminaScene

/// `lamina render SCENE.json -o OUT.png [--time T] [--scale S]`, or a
/// sequence: `--frames A..B --fps F` with `-o 'frame-%04d.png'` or
/// `--video OUT.y4m` (`-` for standard output). `--dump-plan` writes the
/// frame plan of every frame drawn (one line per pass and per batch) to
/// standard output (standard error when the video goes there); without
/// `-o` a single frame is only planned and drawn.
func runRender(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments, valued: ["-o", "--output", "--time", "--scale", "--frames", "--fps", "--video"],
      switches: ["--dump-plan"])
    guard options.positional.count == 1 else {
      throw UsageError("render needs one scene file\n" + usage)
    }
    let output = options.string("-o") ?? options.string("--output")
    let video = options.string("--video")
    let sequence = options.string("--frames") != nil || video != nil
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
      let renderer = try Renderer()
      if options.has("--dump-plan") { renderer.planObserver = planPrinter(toError: video == "-") }
      let scene = try SceneLoader.load(
        contentsOf: URL(fileURLWithPath: options.positional[0]),
        maxImageDimension: renderer.maxTextureSize)
      try renderSequence(
        scene: scene, renderer: renderer, range: range, fps: fps, scale: scale, pattern: pattern,
        videoPath: video)
      return 0
    }
    let dumpPlan = options.has("--dump-plan")
    guard output != nil || dumpPlan else {
      throw UsageError("render needs -o OUT.png (or --dump-plan)")
    }
    if options.string("--fps") != nil { throw UsageError("--fps goes with --frames") }
    let time = try options.number("--time", range: 0...1e9) ?? 0
    let scale = try options.number("--scale", range: 0.01...8)
    let renderer = try Renderer()
    if dumpPlan { renderer.planObserver = planPrinter(toError: false) }
    let scene = try SceneLoader.load(
      contentsOf: URL(fileURLWithPath: options.positional[0]),
      maxImageDimension: renderer.maxTextureSize)
    guard let output else {
      try renderer.draw(
        renderer.buildFrame(
          scene: scene, time: time, scale: scale, presentation: PresentationTree(root: scene.root)))
      return 0
    }
    let image = try renderer.render(scene: scene, time: time, scale: scale)
    try image.writePNG(to: URL(fileURLWithPath: output))
    return 0
  }
}

/// Writes each frame plan to standard output (or error).
func planPrinter(toError: Bool) -> (FramePlan) -> Void {
  { plan in
    let text = Data((plan.description + "\n").utf8)
    (toError ? FileHandle.standardError : FileHandle.standardOutput).write(text)
  }
}

extension Renderer {
  /// Renders a loaded scene at `time` seconds (canvas scale overridable).
  func render(scene: Scene, time: Double, scale: Double?) throws -> RenderedImage {
    let frame = buildFrame(
      scene: scene, time: time, scale: scale, presentation: PresentationTree(root: scene.root))
    return try render(frame)
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
