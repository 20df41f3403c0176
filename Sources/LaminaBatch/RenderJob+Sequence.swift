import Foundation
import Lamina
import LaminaOutput
import LaminaRender
import LaminaScene

/// Renders frames `range` of `scene` at `fps`: frame n shows the scene at
/// n / fps seconds, independently of the frames before it. The GPU renders
/// on this thread while other threads encode and write the frames before
/// (one for a video stream, one per core for PNG files), so a sequence
/// takes about the longer of the two, not their sum. Each frame is checked
/// against the scene's limits (at its time) and the frame limits before it
/// is drawn, and timed by `watchdog`; a lost GL context is found before
/// the frame is handed to the writers.
/// Output: PNG files named by `pattern`, or a video to `videoPath`: a
/// YUV4MPEG2 stream (`.y4m`, or `-` for standard output) or a file that
/// ffmpeg encodes as its extension says (`VideoEncoder`, with `settings`),
/// through a `SequenceWriter`: on any failure nothing of the sequence is
/// left.
package func renderSequence(
  scene: Scene, renderer: Renderer, range: FrameRange, fps: Double, scale: Double?,
  pattern: FramePattern?, videoPath: String?, video settings: VideoSettings = VideoSettings(),
  watchdog: FrameWatchdog? = nil, verbose: Bool = false
) throws {
  let started = DispatchTime.now().uptimeNanoseconds
  var frames = SceneFrames(scene: scene, scale: scale, caches: renderer.caches)
  // An encoded video is checked (format, encoder, size) and started before
  // any frame is drawn; a GIF's palette is chosen from a sample first.
  var encoder: VideoEncoder?
  if let videoPath, try VideoFormat(path: videoPath) != .y4m {
    let background = scene.canvas.background
    let plan = try VideoEncoder.Plan(
      path: videoPath, width: frames.builder.width, height: frames.builder.height, fps: fps,
      transparent: background == nil || (background?.alpha ?? 0) < 1, background: background,
      settings: settings)
    if let (w, h) = plan.paddedSize {
      printError(
        "\(videoPath): \(plan.width)×\(plan.height) frames padded to \(w)×\(h) with "
          + (plan.padColor == "0x000000" && background == nil ? "black" : "the background \(plan.padColor)")
          + " (\(plan.codec) needs an even width and height; --no-pad refuses instead)")
    }
    encoder = try VideoEncoder(plan: plan)
  }
  let sample =
    encoder?.wantsPaletteSample == true ? VideoEncoder.Plan.paletteSample(count: range.count) : []
  let progress = Progress(total: range.count + sample.count)
  let output: SequenceWriter =
    if let encoder { SequenceWriter(encoder: encoder) } else if let videoPath {
      try SequenceWriter(videoPath: videoPath, fps: fps)
    } else if let pattern {
      SequenceWriter(pattern: pattern)
    } else {
      throw UsageError("a sequence needs either -o 'frame-%04d.png' or --video OUT.mp4")
    }
  if let encoder, !sample.isEmpty {
    do {
      var sampleFrames = SceneFrames(scene: scene, scale: scale, caches: renderer.caches)
      for index in sample {
        let n = range.first + index
        let time = Double(n) / fps
        watchdog?.begin("frame \(n) (t=\(Scene.seconds(time)) s), for the palette")
        defer { watchdog?.end() }
        let image = try FrameError.naming(file: scene.fileName, frame: n, time: time) {
          let image = try renderer.render(sampleFrames.checkedFrame(at: time))
          try renderer.checkContext()
          return image
        }
        try encoder.addPaletteSample(image)
        progress.frameDone()
      }
    } catch {
      output.abandon()
      progress.finish()
      throw error
    }
  }
  // A video is one stream, written in order by one thread; PNG files are
  // independent, encoded on as many threads as there are cores.
  let writers = SequenceWriterQueue(
    output: output, inOrder: videoPath != nil, fps: fps, written: { progress.frameDone() })

  var previous: (frame: DrawList, image: RenderedImage)?
  do {
    for n in range.first...range.last {
      if let failed = writers.error { throw failed }
      let time = Double(n) / fps
      watchdog?.begin("frame \(n) (t=\(Scene.seconds(time)) s)")
      defer { watchdog?.end() }
      let image = try FrameError.naming(file: scene.fileName, frame: n, time: time) {
        let frame = try frames.checkedFrame(at: time)
        // Only what changed since the last frame is drawn again.
        let image =
          if let previous {
            try renderer.render(
              frame, updating: previous.image, damage: Damage(from: previous.frame, to: frame))
          } else {
            try renderer.render(frame)
          }
        previous = (frame, image)
        try renderer.checkContext()
        return image
      }
      // Waiting for the writers (a slow pipe) is not the frame's time.
      watchdog?.end()
      writers.write(frame: n, image: image)
    }
    try writers.finish()
  } catch {
    writers.abandon()
    progress.finish()
    throw error
  }
  progress.finish()
  if verbose {
    // Wall time per frame, and how much of it the writer threads spent
    // encoding (alongside the rendering).
    let wall = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
    let count = Double(max(range.count, 1))
    let encoded = pattern != nil ? output.encodeSeconds : 0
    printError(
      String(
        format: "%d frames in %.2f s: %.1f ms a frame; PNG encoding %.1f ms a frame on the writer threads (%@)",
        range.count, wall, wall * 1000 / count, encoded * 1000 / count,
        PNGFile.compression.rawValue))
  }
}
