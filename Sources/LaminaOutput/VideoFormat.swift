import Foundation
import LaminaFrame

/// The video files Lamina writes, chosen by the output's extension. Every
/// format but YUV4MPEG2 is encoded by the `ffmpeg` program (see
/// `VideoEncoder` and docs/video.md).
public enum VideoFormat: String, CaseIterable, Sendable {
  /// YUV4MPEG2: raw 4:2:0 frames for other tools (`--video -` too).
  case y4m
  /// MP4 with H.264 (yuv420p, `+faststart`): plays everywhere.
  case mp4
  /// WebM with VP9, with alpha when the canvas is transparent: the web's
  /// video with transparency.
  case webm
  /// GIF: 256 colors from a palette chosen over a sample of the frames,
  /// dithered; 1-bit transparency.
  case gif
  /// Animated PNG: lossless, with alpha.
  case apng
  /// QuickTime with ProRes 4444 and alpha: for editing and broadcast graphics.
  case mov

  /// The format a path's extension names. Standard output (`-`) and a
  /// device, FIFO or socket that exists (`/dev/null`, a named pipe) with no
  /// known extension take a YUV4MPEG2 stream; any other path without one of
  /// the extensions throws `VideoError.unknownExtension`.
  public init(path: String) throws {
    if path == "-" {
      self = .y4m
      return
    }
    let name = URL(fileURLWithPath: path).lastPathComponent
    let ext = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
    if let format = VideoFormat(rawValue: ext) {
      self = format
      return
    }
    var info = stat()
    if let target = try? OutputFile.resolve(path), stat(target, &info) == 0,
      (info.st_mode & S_IFMT) != S_IFREG, (info.st_mode & S_IFMT) != S_IFDIR
    {
      self = .y4m
      return
    }
    throw VideoError.unknownExtension(path: path, extension: ext)
  }

  /// True for a path whose extension names a video format.
  public static func isVideoPath(_ path: String) -> Bool { (try? VideoFormat(path: path)) != nil }

  /// The extensions, as messages list them.
  public static var extensionList: String {
    allCases.map { "." + $0.rawValue }.joined(separator: ", ")
  }

  /// The ffmpeg muxer that writes the container.
  var muxer: String {
    switch self {
    case .y4m: return "yuv4mpegpipe"
    case .mp4: return "mp4"
    case .webm: return "webm"
    case .gif: return "gif"
    case .apng: return "apng"
    case .mov: return "mov"
    }
  }

  /// The encoder used unless `--codec` names another.
  public var defaultCodec: String {
    switch self {
    case .y4m: return "rawvideo"
    case .mp4: return "libx264"
    case .webm: return "libvpx-vp9"
    case .gif: return "gif"
    case .apng: return "apng"
    case .mov: return "prores_ks"
    }
  }

  /// True for the formats whose frames are YUV (and so carry color tags).
  var isYUV: Bool { self == .mp4 || self == .webm || self == .mov || self == .y4m }
}

/// What `--codec`, `--crf` and `--bitrate` ask of an encoded video; nil
/// fields take the format's defaults.
package struct VideoSettings: Equatable, Sendable {
  /// An ffmpeg encoder's name (`libx265`, `h264_nvenc`, …).
  package var codec: String?
  /// A constant-rate factor (quality; lower is better).
  package var crf: Int?
  /// A target bitrate as ffmpeg writes it (`4M`, `800k`, `2500000`).
  package var bitrate: String?
  /// A frame of an odd width or height is padded to even for a codec with
  /// 4:2:0 chroma (true), or refused (false: `--no-pad`).
  package var pad: Bool

  package init(codec: String? = nil, crf: Int? = nil, bitrate: String? = nil, pad: Bool = true) {
    self.codec = codec
    self.crf = crf
    self.bitrate = bitrate
    self.pad = pad
  }

  /// True when nothing is overridden.
  package var isDefault: Bool { codec == nil && crf == nil && bitrate == nil && pad }

  /// The crf ranges of the encoders that take one.
  static let crfRanges: [String: ClosedRange<Int>] = [
    "libx264": 0...51, "libx265": 0...51, "libvpx-vp9": 0...63, "libvpx": 4...63,
    "libaom-av1": 0...63, "libsvtav1": 0...63,
  ]

  /// Throws when the settings cannot apply to `format` (a crf for an
  /// encoder without one, a malformed bitrate, any setting for a
  /// YUV4MPEG2 stream). `path` names the output in messages.
  package func check(for format: VideoFormat, path: String) throws {
    if format == .y4m, !isDefault {
      throw VideoError.setting(
        path: path,
        reason: "--codec, --crf and --bitrate are for encoded video (\(VideoFormat.extensionList)"
          + "), not a YUV4MPEG2 stream")
    }
    if let codec {
      guard !codec.isEmpty, codec.allSatisfy({ $0.isLetter || $0.isNumber || "_-".contains($0) })
      else {
        throw VideoError.setting(path: path, reason: "--codec '\(codec)' is not an encoder name")
      }
    }
    let codec = self.codec ?? format.defaultCodec
    if crf != nil, bitrate != nil {
      throw VideoError.setting(path: path, reason: "--crf and --bitrate: choose one")
    }
    let noRateControl = format == .gif || format == .apng || codec.hasPrefix("prores")
    if noRateControl, crf != nil || bitrate != nil {
      throw VideoError.setting(
        path: path, reason: "--crf and --bitrate do not apply to \(codec) (.\(format.rawValue))")
    }
    if let crf {
      guard let range = Self.crfRanges[codec] else {
        let takers = Self.crfRanges.keys.sorted().joined(separator: ", ")
        throw VideoError.setting(
          path: path, reason: "--crf is for \(takers), not \(codec); use --bitrate")
      }
      guard range.contains(crf) else {
        throw VideoError.setting(
          path: path,
          reason:
            "--crf \(crf) is out of \(codec)'s range \(range.lowerBound)...\(range.upperBound)"
        )
      }
    }
    if let bitrate {
      guard Self.parseBitrate(bitrate) != nil else {
        throw VideoError.setting(
          path: path,
          reason: "--bitrate expects bits per second such as 4M, 800k or 2500000, got '\(bitrate)'")
      }
    }
  }

  /// `4M` → 4 000 000, `800k` → 800 000, `2500000` → itself; nil when
  /// malformed or outside 1 kbit/s ... 10 Gbit/s.
  static func parseBitrate(_ text: String) -> Int? {
    var digits = Substring(text)
    var factor = 1.0
    if let last = digits.last, "kKmMgG".contains(last) {
      factor = last == "k" || last == "K" ? 1e3 : last == "m" || last == "M" ? 1e6 : 1e9
      digits = digits.dropLast()
    }
    guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
    let bits = value * factor
    guard (1e3...1e10).contains(bits) else { return nil }
    return Int(bits)
  }
}

/// Why a video cannot be written: each case names the output.
public enum VideoError: Error, CustomStringConvertible, Equatable {
  /// The extension names no format Lamina writes.
  case unknownExtension(path: String, extension: String)
  /// `--codec`, `--crf` or `--bitrate` do not fit the format.
  case setting(path: String, reason: String)
  /// No `ffmpeg` program was found.
  case noFFmpeg(path: String, searched: String)
  /// This machine's ffmpeg lacks the encoder.
  case missingEncoder(path: String, codec: String, ffmpeg: String)
  /// The codec's chroma subsampling needs an even width and height.
  case oddSize(path: String, codec: String, width: Int, height: Int)
  /// An encoded format needs a file to write (it seeks in it).
  case notAFile(path: String, format: String)
  /// ffmpeg failed; the end of what it said.
  case encoderFailed(path: String, status: Int32, log: String)
  /// Frames of one video changed size.
  case sizeChanged(path: String)

  public var description: String {
    switch self {
    case .unknownExtension(let path, let ext):
      let what = ext.isEmpty ? "has no extension" : "has the unknown extension '.\(ext)'"
      return "\(path): the video \(what); lamina writes \(VideoFormat.extensionList)"
        + " (and YUV4MPEG2 to - for standard output, a device or a FIFO)"
    case .setting(let path, let reason):
      return "\(path): \(reason)"
    case .noFFmpeg(let path, let searched):
      return "\(path): encoding video needs the ffmpeg program, not found in \(searched)"
        + " (scripts/install-deps.sh installs it; LAMINA_FFMPEG names another)"
    case .missingEncoder(let path, let codec, let ffmpeg):
      return "\(path): \(ffmpeg) has no encoder '\(codec)' (see ffmpeg -encoders)"
    case .oddSize(let path, let codec, let width, let height):
      return "\(path): \(codec) with 4:2:0 chroma needs an even width and height, the frames are"
        + " \(width)×\(height) (change the canvas or --scale, or leave out --no-pad to pad them)"
    case .notAFile(let path, let format):
      return "\(path): a .\(format) video is written to a file; streams and devices take .y4m"
    case .encoderFailed(let path, let status, let log):
      return "\(path): ffmpeg failed (exit status \(status))"
        + (log.isEmpty ? "" : ": " + log.trimmingCharacters(in: .whitespacesAndNewlines))
    case .sizeChanged(let path):
      return "\(path): frame size changed within the video"
    }
  }
}
