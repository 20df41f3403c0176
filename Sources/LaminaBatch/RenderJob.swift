import Foundation
import Lamina
import LaminaLottie
import LaminaRender
import LaminaScene

/// One render, as `lamina render` reads it from its options and
/// `lamina batch` from a job line: a scene, when (a time, or frames at a
/// rate), at what scale, and where the pixels go. Both commands run it
/// with `run(renderer:images:)`, so a batch job writes the bytes that the
/// render command writes for the same job.
package struct RenderJob {
  /// Where the scene comes from.
  package enum Source {
    /// A scene file; its image paths are relative to its folder.
    case file(URL)
    /// A scene object inside another document (a batch job line), named
    /// `name` in errors; its image paths are relative to `base`, or to the
    /// working directory when nil, and confined to that folder.
    case inline(JSON, base: URL?, name: String)
    /// A scene file's bytes, already read (`batch --scene-root`), named
    /// `name` in errors; its image paths are relative to `base`.
    case data(Data, base: URL, name: String)
  }

  /// What is rendered, and to where.
  package enum Output {
    /// One PNG of the scene at `time` seconds.
    case image(path: String, time: Double)
    /// Frames `range` at `fps` (frame n at n / fps seconds) to PNG files
    /// named by `pattern`, or to a video at `video` (its extension names
    /// the format: `VideoFormat`; encoded with the job's `videoSettings`).
    case sequence(FrameRange, fps: Double, pattern: FramePattern?, video: String?)
    /// The frame at `time` planned and drawn, nothing written (`--dump-plan`).
    case plan(time: Double)
  }

  package var source: Source
  package var output: Output
  /// Pixels per point; nil for the canvas's own scale.
  package var scale: Double?
  /// `--codec`, `--crf`, `--bitrate` of an encoded video.
  package var videoSettings = VideoSettings()
  /// Which image files the scene may read (its own folder and below
  /// unless `--assets` or `--allow-any-path` allow more).
  package var access = FileAccessPolicy.confined
  /// What a Lottie document's expressions do (`--expressions`); nil: the
  /// import's default.
  package var expressions: LottieExpressionPolicy? = nil
  /// What only the loaded document answers (a Lottie frame number, every
  /// frame, a marker's range, the default rate), the background and the
  /// notes on what was left out: `DocumentRequest.swift`.
  package var document = DocumentRequest()
  /// A sequence reports its wall time per frame and its PNG encoding.
  package var verbose = false

  package init(
    source: Source, output: Output, scale: Double?, videoSettings: VideoSettings = VideoSettings()
  ) {
    self.source = source
    self.output = output
    self.scale = scale
    self.videoSettings = videoSettings
  }

  /// The times, rates and scales a job may ask for.
  package static let timeRange = 0.0...1e9
  package static let fpsRange = 0.001...10_000.0
  package static let scaleRange = 0.01...8.0

  /// Throws when the last frame of `range` at `fps` is past `Limits.maxTime`
  /// (`text` is the range as the user wrote it).
  package static func checkTimes(_ range: FrameRange, fps: Double, frames text: String) throws {
    let last = Double(range.last) / fps
    guard last <= Limits.maxTime else {
      throw UsageError(
        "--frames \(text) at --fps \(fps) reaches t=\(last) s, past the largest time \(Int(saturating: Limits.maxTime)) s"
      )
    }
  }

  /// Loads the scene and renders it. Every frame is checked against the
  /// scene's limits at its time and the frame limits before it is drawn,
  /// and for a lost GL context before it is written
  /// (`RendererError.contextLost`); a job that fails leaves no output
  /// behind. Errors name the scene file and the frame.
  /// - Parameters:
  ///   - images: decoded images shared across jobs (nil: this job decodes
  ///     its own).
  ///   - watchdog: times every frame against the frame budget (ending the
  ///     process when one overruns it: `lamina render`'s, not batch's).
  /// Returns the frames rendered.
  @discardableResult
  package func run(renderer: Renderer, images: ImageCache? = nil, watchdog: FrameWatchdog? = nil)
    throws
    -> Int
  {
    if case .sequence(let range, let fps, _, let video) = output {
      if document.frames == nil, document.fpsGiven {
        try Self.checkTimes(range, fps: fps, frames: "\(range.first)..\(range.last)")
      }
      // The format, the settings and the encoder, before the scene loads.
      if let video { try VideoEncoder.check(path: video, settings: videoSettings) }
    }
    let loaded = try loadDocument(maxImageDimension: renderer.maxTextureSize, images: images)
    if !document.quiet { for line in loaded.leftOutSummary { printError(line) } }
    let output = try document.resolve(output, for: loaded)
    let scene = loaded.scene(scale: scale, background: document.background)
    if let scale { try scene.canvas.checkPixels(scale: CGFloat(scale), file: scene.fileName) }
    if document.dryRun {
      print(DocumentRequest.plan(output, for: loaded).joined(separator: "\n"))
      return 0
    }
    switch output {
    case .image(let path, let time):
      let image = try frame(of: scene, at: time, watchdog: watchdog) {
        try renderer.render(scene: scene, time: time, scale: scale)
      }
      try renderer.checkContext()
      try image.writePNG(to: URL(fileURLWithPath: path))
      return 1
    case .plan(let time):
      try frame(of: scene, at: time, watchdog: watchdog) {
        var frames = SceneFrames(scene: scene, scale: scale, caches: renderer.caches)
        try renderer.draw(frames.checkedFrame(at: time))
      }
      return 1
    case .sequence(let range, let fps, let pattern, let video):
      try Self.checkTimes(range, fps: fps, frames: "\(range.first)..\(range.last)")
      try renderSequence(
        scene: scene, renderer: renderer, range: range, fps: fps, scale: scale, pattern: pattern,
        videoPath: video, video: videoSettings, watchdog: watchdog, verbose: verbose)
      return range.count
    }
  }

  /// Runs `body`, the one frame of `scene` at `time`, timed by `watchdog`;
  /// its errors name the file and the time (`FrameError.naming`).
  private func frame<T>(
    of scene: Scene, at time: Double, watchdog: FrameWatchdog?, _ body: () throws -> T
  ) throws -> T {
    watchdog?.begin("frame at t=\(Scene.seconds(time)) s")
    defer { watchdog?.end() }
    return try FrameError.naming(file: scene.fileName, frame: nil, time: time, body)
  }

  /// The document (a scene or a Lottie animation), its images taken from
  /// `images` when given. This is the one place where the command's loads
  /// meet a shared image cache.
  package func loadDocument(maxImageDimension: Int, images: ImageCache?) throws -> Document {
    switch source {
    case .file(let url):
      return try Document.load(
        contentsOf: url, maxImageDimension: maxImageDimension, images: images, access: access,
        expressions: expressions)
    case .inline(let json, let base, let name):
      return try Document.load(
        json: json, data: { Data(json.serialized.utf8) }, base: base, name: name,
        maxImageDimension: maxImageDimension, images: images, access: access,
        expressions: expressions)
    case .data(let data, let base, let name):
      return try Document.load(
        data: data, base: base, name: name, maxImageDimension: maxImageDimension, images: images,
        access: access, expressions: expressions)
    }
  }
}
