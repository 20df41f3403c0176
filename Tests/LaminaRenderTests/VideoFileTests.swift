import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// The video files `lamina render --video` writes (MP4, WebM, GIF, APNG,
/// MOV, encoded by the ffmpeg program): what ffprobe says of each (codec,
/// frames, rate, size, pixel format, alpha, color tags), and the decoded
/// frames against PNG renders of the same times: exact for APNG, PSNR above
/// 40 dB for H.264, VP9 and ProRes 4444, above 30 dB for GIF. Videos are
/// 128×96, 8 frames at 10 fps, of two scenes: `card.json` (an opaque canvas)
/// and `badge.json` (a transparent one, for the formats with alpha).
final class VideoFileTests: XCTestCase {
  static let frames = 8
  static let fps = 10
  var scratch: URL!

  override func setUpWithError() throws {
    for tool in ["/usr/bin/ffmpeg", "/usr/bin/ffprobe"]
    where !FileManager.default.isExecutableFile(atPath: tool) {
      throw XCTSkip("\(tool) is not installed (scripts/install-deps.sh installs it)")
    }
    scratch = try RenderTestSupport.commandScratch("lamina-videofile")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  static func scene(_ name: String) -> String {
    RenderTestSupport.fixtures.appendingPathComponent("video/\(name).json").path
  }

  /// Runs a tool quietly; its standard output.
  func tool(_ name: String, _ arguments: [String]) throws -> Data {
    let r = try RenderTestSupport.run(URL(fileURLWithPath: "/usr/bin/\(name)"), arguments)
    XCTAssertEqual(r.status, 0, "\(name) \(arguments): \(r.stderr)")
    return r.stdout
  }

  /// Renders `scene`'s frames 0..<frames at 10 fps to `name`; the path.
  func render(_ scene: String, _ name: String, _ extra: [String] = []) throws -> String {
    let out = path(name)
    let r = try RenderTestSupport.runLamina(
      [
        "render", Self.scene(scene), "--frames", "0..\(Self.frames - 1)", "--fps", "\(Self.fps)",
        "--video", out,
      ] + extra)
    XCTAssertEqual(r.status, 0, r.stderr)
    XCTAssertEqual(try leftovers(), [], "temporary files left beside the video")
    return out
  }

  /// Hidden (temporary) files in the scratch folder.
  func leftovers() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") }
  }

  /// The PNG renders (straight RGBA) of `scene` at the video's frame times.
  func references(_ scene: String, scale: String? = nil) throws -> [CGImage] {
    let pattern = path("\(scene)-ref/f-%d.png")
    let r = try RenderTestSupport.runLamina(
      [
        "render", Self.scene(scene), "--frames", "0..\(Self.frames - 1)", "--fps", "\(Self.fps)",
        "-o", pattern,
      ] + (scale.map { ["--scale", $0] } ?? []))
    XCTAssertEqual(r.status, 0, r.stderr)
    return try (0..<Self.frames).map {
      try CGImage.decode(fileAt: path("\(scene)-ref/f-\($0).png"))
    }
  }

  /// ffprobe's view of the video stream, with the frames counted.
  func probe(_ file: String) throws -> [String: Any] {
    let json = try tool(
      "ffprobe", ["-v", "error", "-count_frames", "-show_streams", "-of", "json", file])
    let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
    let streams = object?["streams"] as? [[String: Any]] ?? []
    XCTAssertEqual(streams.count, 1, "one stream")
    return streams.first ?? [:]
  }

  /// The presentation times of the frames, in seconds.
  func times(_ file: String) throws -> [Double] {
    let text = String(
      decoding: try tool(
        "ffprobe",
        ["-v", "error", "-show_entries", "frame=pts_time", "-of", "csv=p=0", file]),
      as: UTF8.self)
    // One line per frame: "0.100000," (a comma before side data).
    return text.split(separator: "\n").compactMap {
      $0.split(separator: ",").first.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
  }

  /// The decoded frames as straight RGBA, converted from YUV with the
  /// matrix the file's tags name (so a tag that disagrees with the
  /// conversion shows as a low PSNR).
  func decode(_ file: String, matrix: String?, width: Int, height: Int, vp9Alpha: Bool = false)
    throws -> [[UInt8]]
  {
    var arguments = ["-v", "error", "-nostdin"]
    if vp9Alpha { arguments += ["-c:v", "libvpx-vp9"] }
    arguments += ["-i", file]
    if let matrix {
      arguments += [
        "-vf", "scale=in_color_matrix=\(matrix):in_range=tv:flags=accurate_rnd+full_chroma_int",
      ]
    }
    arguments += ["-f", "rawvideo", "-pix_fmt", "rgba", "-"]
    let data = [UInt8](try tool("ffmpeg", arguments))
    let size = width * height * 4
    XCTAssertEqual(data.count % size, 0)
    return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<$0 + size]) }
  }

  /// PSNR in dB of the premultiplied colors (and of alpha) of two
  /// straight-RGBA images.
  static func psnr(_ a: [UInt8], _ b: [UInt8]) -> (color: Double, alpha: Double) {
    var color = 0.0
    var alpha = 0.0
    for i in stride(from: 0, to: min(a.count, b.count), by: 4) {
      let aa = Double(a[i + 3]) / 255
      let ba = Double(b[i + 3]) / 255
      for c in 0..<3 {
        let d = Double(a[i + c]) * aa - Double(b[i + c]) * ba
        color += d * d
      }
      alpha += pow(Double(a[i + 3]) - Double(b[i + 3]), 2)
    }
    let pixels = Double(a.count / 4)
    func db(_ mse: Double) -> Double { mse == 0 ? .infinity : 10 * log10(255 * 255 / mse) }
    return (db(color / (3 * pixels)), db(alpha / pixels))
  }

  /// Checks the stream and the frames of `file` against `refs`.
  func check(
    _ file: String, refs: [CGImage], codec: String, pixelFormat: String, colorSpace: String?,
    minimumPSNR: Double, alpha: Bool, vp9Alpha: Bool = false, profile: String? = nil,
    line: UInt = #line
  ) throws {
    let stream = try probe(file)
    let width = refs[0].width
    let height = refs[0].height
    XCTAssertEqual(stream["codec_name"] as? String, codec, line: line)
    XCTAssertEqual(stream["width"] as? Int, width, line: line)
    XCTAssertEqual(stream["height"] as? Int, height, line: line)
    XCTAssertEqual(stream["pix_fmt"] as? String, pixelFormat, line: line)
    XCTAssertEqual(stream["r_frame_rate"] as? String, "\(Self.fps)/1", line: line)
    XCTAssertEqual(stream["nb_read_frames"] as? String, "\(Self.frames)", line: line)
    if let profile { XCTAssertEqual(stream["profile"] as? String, profile, line: line) }
    let times = try self.times(file)
    XCTAssertEqual(times.count, Self.frames, line: line)
    for (n, t) in times.enumerated() {
      XCTAssertEqual(t, Double(n) / Double(Self.fps), accuracy: 0.001, "frame \(n)", line: line)
    }
    var matrix: String?
    if let colorSpace {
      XCTAssertEqual(stream["color_space"] as? String, colorSpace, line: line)
      XCTAssertEqual(stream["color_primaries"] as? String, colorSpace, line: line)
      XCTAssertEqual(stream["color_transfer"] as? String, colorSpace, line: line)
      XCTAssertEqual(stream["color_range"] as? String, "tv", line: line)
      matrix = colorSpace == "bt709" ? "bt709" : "bt601"
    }
    let decoded = try decode(
      file, matrix: matrix, width: width, height: height, vp9Alpha: vp9Alpha)
    XCTAssertEqual(decoded.count, Self.frames, line: line)
    for (n, frame) in decoded.enumerated() where n < refs.count {
      let (color, a) = Self.psnr(frame, refs[n].pixels)
      XCTAssertGreaterThan(color, minimumPSNR, "frame \(n): color PSNR", line: line)
      if alpha {
        XCTAssertGreaterThan(a, minimumPSNR, "frame \(n): alpha PSNR", line: line)
        XCTAssertTrue(
          stride(from: 3, to: frame.count, by: 4).contains { frame[$0] < 200 },
          "frame \(n): transparent pixels decoded", line: line)
      }
    }
  }

  func testMP4IsH264InYUV420WithBT601TagsAndMatchesTheFrames() throws {
    let refs = try references("card")
    let file = try render("card", "card.mp4")
    try check(
      file, refs: refs, codec: "h264", pixelFormat: "yuv420p", colorSpace: "smpte170m",
      minimumPSNR: 40, alpha: false)
    // +faststart: the index (moov) comes before the frames (mdat).
    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
    let moov = bytes.range(of: Data("moov".utf8))
    let mdat = bytes.range(of: Data("mdat".utf8))
    XCTAssertNotNil(moov)
    XCTAssertLessThan(moov?.lowerBound ?? .max, mdat?.lowerBound ?? 0, "moov before mdat")
  }

  /// A canvas of an odd size (a phone-sized Lottie document is 375×667)
  /// to H.264: the frames are padded to even on the right and at the
  /// bottom, said once on standard error, and the picture is the PNG
  /// render's; `--no-pad` refuses instead (testErrorsComeBeforeAnyFrame…).
  func testAnOddSizedCanvasIsPaddedToEven() throws {
    let refs = try references("card", scale: "0.99")
    let (w, h) = (refs[0].width, refs[0].height)
    XCTAssertTrue(w % 2 == 1 || h % 2 == 1, "the card at 0.99 is \(w)×\(h)")
    let out = path("odd.mp4")
    let r = try RenderTestSupport.runLamina(
      [
        "render", Self.scene("card"), "--frames", "0..\(Self.frames - 1)", "--fps", "\(Self.fps)",
        "--scale", "0.99", "--video", out,
      ])
    XCTAssertEqual(r.status, 0, r.stderr)
    let (pw, ph) = (w + w % 2, h + h % 2)
    XCTAssertEqual(
      r.stderr.components(separatedBy: "padded to \(pw)×\(ph)").count - 1, 1,
      "said once: \(r.stderr)")
    let stream = try probe(out)
    XCTAssertEqual(stream["width"] as? Int, pw)
    XCTAssertEqual(stream["height"] as? Int, ph)
    XCTAssertEqual(stream["nb_read_frames"] as? String, "\(Self.frames)")
    let frames = try decode(out, matrix: "bt601", width: pw, height: ph)
    // The picture, without the padding, is the PNG render's.
    for (n, frame) in frames.enumerated() {
      var inner: [UInt8] = []
      for y in 0..<h { inner += frame[(y * pw * 4)..<(y * pw * 4 + w * 4)] }
      XCTAssertGreaterThan(Self.psnr(inner, refs[n].pixels).color, 40, "frame \(n)")
    }
  }

  func testHDVideoIsTaggedAndConvertedAsBT709() throws {
    // hd.json: 160×90 points at scale 8, 1280×720; two frames.
    let out = path("hd.mp4")
    let r = try RenderTestSupport.runLamina(
      ["render", Self.scene("hd"), "--frames", "0..1", "--fps", "10", "--video", out])
    XCTAssertEqual(r.status, 0, r.stderr)
    let stream = try probe(out)
    XCTAssertEqual(stream["height"] as? Int, 720)
    XCTAssertEqual(stream["color_space"] as? String, "bt709")
    XCTAssertEqual(stream["color_primaries"] as? String, "bt709")
    XCTAssertEqual(stream["color_transfer"] as? String, "bt709")
    XCTAssertEqual(stream["color_range"] as? String, "tv")
    let png = path("hd.png")
    let still = try RenderTestSupport.runLamina(
      ["render", Self.scene("hd"), "--time", "0.1", "-o", png])
    XCTAssertEqual(still.status, 0, still.stderr)
    let ref = try CGImage.decode(fileAt: png)
    let frames = try decode(out, matrix: "bt709", width: 1280, height: 720)
    XCTAssertEqual(frames.count, 2)
    XCTAssertGreaterThan(Self.psnr(frames[1], ref.pixels).color, 40)
    // Read with the BT.601 matrix instead, the colors are visibly off.
    let wrong = try decode(out, matrix: "bt601", width: 1280, height: 720)
    XCTAssertLessThan(Self.psnr(wrong[1], ref.pixels).color, 35)
  }

  func testWebMIsVP9WithAlphaOnATransparentCanvasOnly() throws {
    let refs = try references("badge")
    let file = try render("badge", "badge.webm")
    let stream = try probe(file)
    XCTAssertEqual((stream["tags"] as? [String: Any])?["alpha_mode"] as? String, "1")
    // ffprobe's own VP9 decoder shows yuv420p; libvpx-vp9 decodes the alpha.
    try check(
      file, refs: refs, codec: "vp9", pixelFormat: "yuv420p", colorSpace: "smpte170m",
      minimumPSNR: 40, alpha: true, vp9Alpha: true)

    let opaque = try render("card", "card.webm")
    XCTAssertNil((try probe(opaque)["tags"] as? [String: Any])?["alpha_mode"])
    try check(
      opaque, refs: try references("card"), codec: "vp9", pixelFormat: "yuv420p",
      colorSpace: "smpte170m", minimumPSNR: 40, alpha: false)
  }

  func testMOVIsProRes4444WithAlpha() throws {
    let refs = try references("badge")
    let file = try render("badge", "badge.mov")
    // Encoded from yuva444p10le; ffmpeg's ProRes decoder gives 4444 as 12-bit.
    try check(
      file, refs: refs, codec: "prores", pixelFormat: "yuva444p12le", colorSpace: "smpte170m",
      minimumPSNR: 40, alpha: true, profile: "4444")
  }

  func testAPNGIsLosslessWithAlpha() throws {
    let refs = try references("badge")
    let file = try render("badge", "badge.apng")
    try check(
      file, refs: refs, codec: "apng", pixelFormat: "rgba", colorSpace: nil,
      minimumPSNR: 100, alpha: true)
    let decoded = try decode(file, matrix: nil, width: 128, height: 96)
    for (n, frame) in decoded.enumerated() {
      XCTAssertEqual(frame, refs[n].pixels, "frame \(n) exactly as the PNG")
    }
  }

  func testGIFUsesAPaletteFromASampleAndMatchesTheFrames() throws {
    let refs = try references("card")
    let file = try render("card", "card.gif")
    try check(
      file, refs: refs, codec: "gif", pixelFormat: "bgra", colorSpace: nil, minimumPSNR: 30,
      alpha: false)
    XCTAssertEqual(VideoEncoder.Plan.paletteSample(count: 8), Array(0..<8))
    XCTAssertEqual(VideoEncoder.Plan.paletteSample(count: 1), [0])
    let long = VideoEncoder.Plan.paletteSample(count: 10_000)
    XCTAssertEqual(long.count, VideoEncoder.Plan.maxPaletteSample)
    XCTAssertEqual(long.first, 0)
    XCTAssertEqual(long.last, 9_999)
  }

  func testCodecAndCRFOverrideTheDefaults() throws {
    let file = try render("card", "card-x265.mp4", ["--codec", "libx265", "--crf", "20"])
    XCTAssertEqual(try probe(file)["codec_name"] as? String, "hevc")
    let small = try render("card", "card-small.webm", ["--bitrate", "50k"])
    XCTAssertEqual(try probe(small)["codec_name"] as? String, "vp9")
  }

  /// Each failure before work: a non-zero exit, a message naming the
  /// problem, nothing written.
  func testErrorsComeBeforeAnyFrameAndLeaveNothing() throws {
    let cases: [([String], String)] = [
      (["--video", path("out.xyz")], "unknown extension '.xyz'"),
      (["--video", path("out")], "has no extension"),
      (
        ["--video", path("out.mp4"), "--scale", "0.99", "--no-pad"],
        "needs an even width and height"
      ),
      (
        ["--video", path("out.mp4"), "--codec", "no_such_encoder"],
        "has no encoder 'no_such_encoder'"
      ),
      (["--video", path("out.gif"), "--crf", "20"], "do not apply to gif"),
      (["--video", path("out.mp4"), "--crf", "80"], "out of libx264's range 0...51"),
      (["--video", path("out.mp4"), "--bitrate", "fast"], "--bitrate expects"),
      (["--video", path("out.y4m"), "--crf", "20"], "not a YUV4MPEG2 stream"),
      (["--video", "/dev/null.mp4/x.mp4"], "x.mp4"),
    ]
    for (arguments, message) in cases {
      let r = try RenderTestSupport.runLamina(
        ["render", Self.scene("card"), "--frames", "0..3", "--fps", "10"] + arguments)
      XCTAssertNotEqual(r.status, 0, "\(arguments)")
      XCTAssertTrue(r.stderr.contains(message), "\(arguments): \(r.stderr)")
      XCTAssertEqual(
        try FileManager.default.contentsOfDirectory(atPath: scratch.path), [], "\(arguments)")
    }
  }

  func testAnEncoderFailingMidwayLeavesNoFile() throws {
    // An ffmpeg that lists the real encoders, then takes some frames of
    // the video (the real encoder writing the temporary file) and fails.
    let wrapper = path("failing-ffmpeg")
    try """
    #!/bin/sh
    case "$*" in *-encoders*) exec /usr/bin/ffmpeg "$@" ;; esac
    for last; do :; done
    head -c 200000 | /usr/bin/ffmpeg -v error -f rawvideo -pix_fmt rgb0 -s 128x96 -i - \
      -f mp4 -y "$last"
    echo 'simulated encoder failure' >&2
    exit 1
    """.write(toFile: wrapper, atomically: true, encoding: .utf8)
    chmod(wrapper, 0o755)
    let out = path("out.mp4")
    let r = try RenderTestSupport.run(
      RenderTestSupport.laminaBinary,
      ["render", Self.scene("card"), "--frames", "0..59", "--fps", "10", "--video", out],
      environment: ["LAMINA_FFMPEG": wrapper])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(r.stderr.contains("out.mp4: ffmpeg failed (exit status 1)"), r.stderr)
    XCTAssertTrue(r.stderr.contains("simulated encoder failure"), r.stderr)
    XCTAssertEqual(
      try FileManager.default.contentsOfDirectory(atPath: scratch.path), ["failing-ffmpeg"])
  }

  func testAFIFOOrDeviceTakesOnlyTheY4MStream() throws {
    let fifo = path("pipe.mp4")
    XCTAssertEqual(mkfifo(fifo, 0o600), 0)
    let r = try RenderTestSupport.runLamina(
      ["render", Self.scene("card"), "--frames", "0..1", "--video", fifo])
    XCTAssertEqual(r.status, 1)
    XCTAssertTrue(
      r.stderr.contains("pipe.mp4: a .mp4 video is written to a file; streams and devices take"),
      r.stderr)
    var info = stat()
    XCTAssertEqual(lstat(fifo, &info), 0)
    XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is still a FIFO")
  }

  func testSIGTERMMidwayLeavesNoFile() throws {
    let out = path("long.mp4")
    let process = Process()
    process.executableURL = RenderTestSupport.laminaBinary
    process.arguments = [
      "render", Self.scene("card"), "--frames", "0..100000", "--fps", "10", "--video", out,
    ]
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Wait until the encoder is writing its temporary file.
    let deadline = Date().addingTimeInterval(60)
    while try leftovers().isEmpty, Date() < deadline { usleep(50_000) }
    XCTAssertFalse(try leftovers().isEmpty, "the temporary file appeared")
    usleep(300_000)
    kill(process.processIdentifier, SIGTERM)
    process.waitUntilExit()
    XCTAssertEqual(process.terminationReason, .uncaughtSignal)
    usleep(200_000)
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: scratch.path), [])
  }

  func testBatchJobsWriteTheSameVideos() throws {
    let jobs = [
      #"{"scene": "\#(Self.scene("card"))", "frames": "0..7", "fps": 10, "output": "\#(path("b.mp4"))"}"#,
      #"{"scene": "\#(Self.scene("badge"))", "frames": [0, 7], "fps": 10, "output": "\#(path("b.apng"))"}"#,
      #"{"scene": "\#(Self.scene("card"))", "frames": "0..7", "fps": 10, "output": "\#(path("b.webm"))", "crf": 30}"#,
      #"{"scene": "\#(Self.scene("card"))", "frames": "0..7", "output": "\#(path("b.xyz"))"}"#,
      #"{"scene": "\#(Self.scene("card"))", "frames": "0..7", "output": "\#(path("c.gif"))", "crf": 3}"#,
      #"{"scene": "\#(Self.scene("card"))", "output": "\#(path("d.mov"))"}"#,
    ].joined(separator: "\n")
    let r = try RenderTestSupport.run(
      RenderTestSupport.laminaBinary, ["batch", "-"], input: Data((jobs + "\n").utf8))
    let results = String(decoding: r.stdout, as: UTF8.self).split(separator: "\n")
    XCTAssertEqual(results.count, 6, r.stderr)
    for (i, result) in results.enumerated() {
      XCTAssertEqual(
        result.contains(#""ok":true"#) || result.contains(#""ok": true"#), i < 3, "\(result)")
    }
    XCTAssertTrue(results[3].contains("frames go to a video"), "\(results[3])")
    XCTAssertTrue(results[4].contains("do not apply to gif"), "\(results[4])")
    XCTAssertTrue(results[5].contains("a .mov video needs 'frames'"), "\(results[5])")
    XCTAssertEqual(try probe(path("b.mp4"))["codec_name"] as? String, "h264")
    XCTAssertEqual(try probe(path("b.webm"))["codec_name"] as? String, "vp9")
    let refs = try references("badge")
    let decoded = try decode(path("b.apng"), matrix: nil, width: 128, height: 96)
    XCTAssertEqual(decoded, refs.map(\.pixels))
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("c.gif")))
  }
}
