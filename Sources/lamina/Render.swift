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
      let scene = try SceneLoader.load(
        contentsOf: URL(fileURLWithPath: options.positional[0]),
        maxImageDimension: renderer.maxTextureSize)
      try renderSequence(
        scene: scene, renderer: renderer, range: range, fps: fps, scale: scale, pattern: pattern,
        videoPath: video)
      return 0
    }
    guard let output else { throw UsageError("render needs -o OUT.png") }
    if options.string("--fps") != nil { throw UsageError("--fps goes with --frames") }
    let time = try options.number("--time", range: 0...1e9) ?? 0
    let scale = try options.number("--scale", range: 0.01...8)
    let renderer = try Renderer()
    let scene = try SceneLoader.load(
      contentsOf: URL(fileURLWithPath: options.positional[0]),
      maxImageDimension: renderer.maxTextureSize)
    let image = try renderer.render(scene: scene, time: time, scale: scale)
    try image.writePNG(to: URL(fileURLWithPath: output))
    return 0
  }
}

extension Renderer {
  /// Renders a loaded scene at `time` seconds (canvas scale overridable).
  func render(scene: Scene, time: Double, scale: Double?) throws -> RenderedImage {
    var frames = SceneFrames(scene: scene, scale: scale)
    return try render(frames.frame(at: time))
  }
}

/// The frames of one scene at successive times: one presentation tree and
/// one frame builder for all of them, so that each frame copies, animates
/// and derives only what changed since the one before.
struct SceneFrames {
  let scene: Scene
  let presentation: PresentationTree
  var builder: FrameBuilder

  /// Frames at the canvas scale (or `scale`), or stretched to `pixelSize`.
  init(scene: Scene, scale: Double?, pixelSize: (Int, Int)? = nil) {
    self.scene = scene
    presentation = PresentationTree(root: scene.root)
    let size = CGSize(width: scene.canvas.width, height: scene.canvas.height)
    if let pixelSize {
      builder = FrameBuilder(size: size, pixelWidth: pixelSize.0, pixelHeight: pixelSize.1)
    } else {
      builder = FrameBuilder(size: size, scale: CGFloat(scale ?? Double(scene.canvas.scale)))
    }
  }

  /// The frame at `time` seconds: layout on the model, the presentation
  /// tree at that time, drawn.
  mutating func frame(at time: Double) -> Frame {
    scene.root.layoutIfNeeded()
    return frame(root: presentation.update(time: time), time: time)
  }

  /// The frame drawing `root` (a presentation root already brought to
  /// `time`, which emitters also follow).
  mutating func frame(root: CALayer, time: Double) -> Frame {
    builder.time = time
    return builder.build(root: root, background: scene.canvas.background)
  }
}
