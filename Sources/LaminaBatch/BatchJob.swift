import Foundation
import LaminaRender
import Lamina
import LaminaScene

/// One line of a `lamina batch` jobs file, read into the `RenderJob` that
/// `lamina render` would run for the same options:
///
///     {"scene": "card.json", "time": 1.5, "output": "card.png"}
///     {"scene": "intro.json", "frames": "0..59", "fps": 30, "output": "intro/%04d.png"}
///     {"scene": "intro.json", "frames": [60, 119], "fps": 30, "scale": 1, "output": "b.y4m"}
///     {"scene": "intro.json", "frames": "0..59", "fps": 30, "output": "intro.mp4", "crf": 20}
///     {"scene": {"lamina": 1, "canvas": {...}, "root": {...}}, "base": "assets",
///      "output": "inline.png"}
///
/// `scene` is a scene file's path or a scene object; an inline scene's image
/// paths are relative to `base` when given, else to the working directory.
/// `output` ending in a video extension (`.mp4`, `.webm`, `.gif`, `.apng`,
/// `.mov`, `.y4m`) is a video (`--video`, with `codec`, `crf` and `bitrate`
/// as `--codec`, `--crf`, `--bitrate`), one with a `%d` (or `%04d`) a PNG
/// sequence, anything else one PNG. Relative paths
/// are relative to the working directory, as for `lamina render`.
package enum BatchJob {
  package static let keys = [
    "scene", "base", "time", "frame", "frames", "marker", "fps", "scale", "background", "quiet",
    "output", "codec", "crf", "bitrate",
  ]

  /// Why a job line is not a job: the message names the jobs file, the
  /// line and the key.
  package struct Invalid: Error, CustomStringConvertible {
    package let description: String
  }

  /// The job in `text`, line `line` (from 1) of the jobs file `file`, and
  /// the output it names.
  package static func parse(_ text: Data, line: Int, file: String) throws -> (
    job: RenderJob, output: String
  ) {
    let place = "\(file):\(line)"
    func invalid(_ message: String) -> Invalid { Invalid(description: "\(place): \(message)") }
    let json: JSON
    do {
      json = try SceneLoader.parseJSON(text, fileName: file)
    } catch SceneError.syntax(_, _, let column, let message) {
      // A job is one line: its line is the file's, the column the parser's.
      throw Invalid(description: "\(place):\(column): \(message)")
    }
    guard case .object(let members) = json else {
      throw invalid("expected a job object, found \(json.kindDescription)")
    }
    for (key, _) in members where !keys.contains(key) {
      throw invalid("unknown key '\(key)' (a job has \(keys.joined(separator: ", ")))")
    }
    func number(_ key: String, _ range: ClosedRange<Double>) throws -> Double? {
      guard let value = json[key] else { return nil }
      guard case .number(let v) = value else {
        throw invalid("\(key): expected a number, found \(value.kindDescription)")
      }
      guard range.contains(v) else {
        throw invalid("\(key): must be between \(range.lowerBound) and \(range.upperBound)")
      }
      return v
    }
    func string(_ key: String) throws -> String? {
      guard let value = json[key] else { return nil }
      guard case .string(let s) = value, !s.isEmpty else {
        throw invalid("\(key): expected a non-empty string, found \(value.kindDescription)")
      }
      return s
    }

    let base = try string("base")
    let source: RenderJob.Source
    switch json["scene"] {
    case .none: throw invalid("missing key 'scene' (a scene file's path or a scene object)")
    case .string(let path) where !path.isEmpty:
      guard base == nil else { throw invalid("base: only an inline scene takes a base folder") }
      source = .file(URL(fileURLWithPath: path))
    case .object(let scene):
      source = .inline(.object(scene), base: base.map { URL(fileURLWithPath: $0) }, name: place)
    case .some(let other):
      throw invalid(
        "scene: expected a scene file's path or a scene object, found \(other.kindDescription)")
    }
    guard let output = try string("output") else {
      throw invalid(
        "missing key 'output' (a PNG path, a numbered PNG pattern or a video path such as .mp4)")
    }
    guard output != "-" else {
      throw invalid("output: standard output carries the batch's results; name a file")
    }
    let scale = try number("scale", RenderJob.scaleRange)
    var request = DocumentRequest()
    if let color = try string("background") {
      guard let parsed = CGColor(hex: color) else {
        throw invalid("background: expected a color \"#rrggbb\" or \"#rrggbbaa\", got '\(color)'")
      }
      request.background = parsed
    }
    switch json["quiet"] {
    case .none: break
    case .bool(let quiet)?: request.quiet = quiet
    case let other?: throw invalid("quiet: expected true or false, found \(other.kindDescription)")
    }
    let marker = try string("marker")
    if marker != nil && json["frames"] != nil { throw invalid("marker: does not go with 'frames'") }
    if let marker {
      request.frames = .marker(marker)
    } else if case .string("all")? = json["frames"] {
      request.frames = .all
    }
    let frames =
      request.frames != nil
      ? FrameRange(first: 0, last: 0) : try json["frames"].map { try range($0, invalid) }
    let isVideo = VideoFormat.isVideoPath(output)
    var settings = VideoSettings(codec: try string("codec"), bitrate: try string("bitrate"))
    if let crf = try number("crf", 0...63) {
      guard crf == crf.rounded() else { throw invalid("crf: expected a whole number") }
      settings.crf = Int(crf)
    }
    guard let frames else {
      if isVideo {
        let ext = URL(fileURLWithPath: output).pathExtension.lowercased()
        throw invalid("output: a .\(ext) video needs 'frames' (or 'marker')")
      }
      if !settings.isDefault { throw invalid("codec, crf, bitrate: go with a video output") }
      if json["fps"] != nil { throw invalid("fps: goes with 'frames'") }
      if json["time"] != nil && json["frame"] != nil {
        throw invalid("frame: does not go with 'time'")
      }
      let time = try number("time", RenderJob.timeRange) ?? 0
      request.frame = try number("frame", -1e9...1e9)
      var job = RenderJob(source: source, output: .image(path: output, time: time), scale: scale)
      job.document = request
      return (job, output)
    }
    if json["time"] != nil { throw invalid("time: does not go with 'frames'") }
    if json["frame"] != nil { throw invalid("frame: does not go with 'frames'") }
    request.fpsGiven = json["fps"] != nil
    let fps = try number("fps", RenderJob.fpsRange) ?? 60
    let pattern: FramePattern?
    if isVideo {
      pattern = nil
      do {
        try VideoEncoder.check(path: output, settings: settings)
      } catch let error as VideoError {
        throw invalid("output: \(error)")
      }
    } else {
      if !settings.isDefault { throw invalid("codec, crf, bitrate: go with a video output") }
      do {
        pattern = try FramePattern(output)
      } catch {
        throw invalid(
          "output: frames go to a video (\(VideoFormat.extensionList)) or to PNG files named"
            + " with a %d (or %04d) for the frame number, got '\(output)'")
      }
    }
    var job = RenderJob(
      source: source,
      output: .sequence(frames, fps: fps, pattern: pattern, video: isVideo ? output : nil),
      scale: scale, videoSettings: settings)
    job.document = request
    return (job, output)
  }

  /// `"A..B"`, `"N"`, `N` or `[A, B]`: frames A to B inclusive.
  private static func range(_ json: JSON, _ invalid: (String) -> Invalid) throws -> FrameRange {
    let expected =
      "frames: expected \"FIRST..LAST\", [FIRST, LAST], N (whole numbers ≥ 0) or \"all\""
    var numbers: [Double] = []
    switch json {
    case .string(let text):
      let parts = text.components(separatedBy: "..")
      guard parts.count <= 2, let values = Optional(parts.compactMap { Double($0) }),
        values.count == parts.count
      else { throw invalid(expected + ", got '\(text)'") }
      numbers = values
    case .number(let n): numbers = [n]
    case .array(let items) where items.count == 2:
      for item in items {
        guard case .number(let n) = item else { throw invalid(expected) }
        numbers.append(n)
      }
    default: throw invalid(expected + ", found \(json.kindDescription)")
    }
    guard numbers.allSatisfy({ $0 >= 0 && $0 < 1e15 && $0 == $0.rounded() }) else {
      throw invalid(expected)
    }
    let first = Int(numbers[0])
    let last = Int(numbers[numbers.count - 1])
    guard last >= first else {
      throw invalid("frames: the last frame (\(last)) comes before the first (\(first))")
    }
    guard last - first < FrameRange.maxCount else { throw invalid("frames: too many frames") }
    return FrameRange(first: first, last: last)
  }
}
