import Foundation
import Lamina
import LaminaLottie
import LaminaRender
import LaminaScene

/// What a render job asks that only the loaded document answers, and how
/// it is shown: a Lottie frame number, every frame or a marker's range,
/// the rate a Lottie sequence defaults to, the background, the notes on
/// what was left out, a dry run.
package struct DocumentRequest {
  /// Which frames of a sequence, beyond a `FrameRange`.
  package enum Frames: Equatable {
    /// Every frame from `ip` up to, not including, `op` (`--frames all`).
    case all
    /// The range of the named marker (`--marker NAME`).
    case marker(String)
  }

  /// `--frame F`: the Lottie frame to render (on the document's numbering),
  /// instead of the image's time.
  package var frame: Double?
  /// Replaces the sequence's range once the document is known.
  package var frames: Frames?
  /// Whether `--fps` was given; when not, a Lottie sequence runs at the
  /// document's `fr` (a scene at 60).
  package var fpsGiven = true
  /// `--background COLOR`: the color behind the canvas (scenes and Lottie).
  package var background: CGColor?
  /// `--quiet`: no notes on what a Lottie import left out.
  package var quiet = false
  /// `--dry-run`: print the frames and times chosen, render nothing.
  package var dryRun = false

  package init() {}

  /// `output` with the document's answers: a Lottie frame number made a
  /// time, `all` or a marker made a range of frames, the default rate.
  /// Throws a usage error when the document cannot answer (a scene has no
  /// frame numbers or markers; an unknown marker lists the known ones).
  package func resolve(_ output: RenderJob.Output, for document: Document) throws
    -> RenderJob.Output
  {
    let file = document.fileName
    switch output {
    case .image(let path, _):
      guard let frame else { return output }
      return .image(path: path, time: try self.time(ofFrame: frame, in: document))
    case .plan(let time):
      guard let frame else { return .plan(time: time) }
      return .plan(time: try self.time(ofFrame: frame, in: document))
    case .sequence(let range, let given, let pattern, let video):
      let fps = fpsGiven ? given : document.lottie?.frameRate ?? given
      guard let frames else { return .sequence(range, fps: fps, pattern: pattern, video: video) }
      guard let lottie = document.lottie else {
        let what = frames == .all ? "--frames all" : "--marker"
        throw UsageError(
          "\(what) needs a Lottie document (in and out points, markers); \(file) is a scene")
      }
      // DrawList n shows Lottie frame ip + n · fr / fps: the frames whose
      // times fall in [start, end) frames of the document.
      let perFrame = lottie.frameRate / fps
      func index(_ documentFrame: Double) -> Int {
        Int(saturating: ((documentFrame - lottie.inPoint) / perFrame - 1e-9).rounded(.up))
      }
      var first = 0
      var end = index(lottie.outPoint)
      if case .marker(let name) = frames {
        guard let marker = lottie.markers.first(where: { $0.name == name }) else {
          let known = lottie.markers.map { "'\($0.name)'" }
          throw UsageError(
            "\(file) has no marker '\(name)'; "
              + (known.isEmpty
                ? "it has no markers" : "its markers: " + known.joined(separator: ", ")))
        }
        first = max(0, index(marker.startFrame))
        end = min(end, index(marker.startFrame + marker.durationFrames))
        if marker.durationFrames <= 0 { end = first + 1 }
        guard first < index(lottie.outPoint) else {
          throw UsageError(
            "\(file): the marker '\(name)' (frame \(Scene.seconds(marker.startFrame))) is outside"
              + " the animation's frames \(Scene.seconds(lottie.inPoint))..\(Scene.seconds(lottie.outPoint))"
          )
        }
      }
      end = max(end, first + 1)
      guard end - first <= FrameRange.maxCount else {
        throw UsageError("--frames: too many frames")
      }
      return .sequence(
        FrameRange(first: first, last: end - 1), fps: fps, pattern: pattern, video: video)
    }
  }

  private func time(ofFrame frame: Double, in document: Document) throws -> Double {
    guard let lottie = document.lottie else {
      throw UsageError(
        "--frame needs a Lottie document (its frame numbers); \(document.fileName) is a scene: use --time"
      )
    }
    let time = lottie.time(ofFrame: frame)
    guard RenderJob.timeRange.contains(time) else {
      throw UsageError(
        "--frame \(Scene.seconds(frame)) is outside \(Scene.seconds(lottie.inPoint))..1e9 (the in-point ip"
          + " of \(document.fileName) and on)")
    }
    return time
  }

  /// What a dry run prints: one line per frame, `PATH t=SECONDS frame=F`
  /// (F the Lottie frame, for a Lottie document).
  package static func plan(_ output: RenderJob.Output, for document: Document) -> [String] {
    func line(_ target: String, _ time: Double) -> String {
      var text = "\(target) t=\(Scene.seconds(time))"
      if let lottie = document.lottie {
        text += " frame=\(Scene.seconds(lottie.inPoint + time * lottie.frameRate))"
      }
      return text
    }
    switch output {
    case .image(let path, let time): return [line(path, time)]
    case .plan(let time): return [line("plan", time)]
    case .sequence(let range, let fps, let pattern, let video):
      var lines = ["\(range.count) frames at \(Scene.seconds(fps)) fps"]
      // Long sequences: the first and last few.
      let numbers = Array(range.first...range.last)
      let shown = numbers.count <= 200 ? numbers : Array(numbers.prefix(100) + numbers.suffix(100))
      for n in shown {
        lines.append(line(pattern?.path(n) ?? "\(video ?? "video") frame \(n)", Double(n) / fps))
      }
      return lines
    }
  }
}

extension JSON {
  /// The value as JSON text (an inline document handed to a loader that
  /// reads bytes).
  package var serialized: String {
    switch self {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .number(let n):
      return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : "\(n)"
    case .string(let s): return jsonString(s)
    case .array(let items): return "[" + items.map(\.serialized).joined(separator: ",") + "]"
    case .object(let members):
      return "{"
        + members.map { jsonString($0.key) + ":" + $0.value.serialized }.joined(
          separator: ",") + "}"
    }
  }
}
