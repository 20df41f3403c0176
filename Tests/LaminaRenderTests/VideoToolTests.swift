import Foundation
import Lamina
import XCTest

/// The YUV4MPEG2 output as video tools read it: ffmpeg (Debian's package,
/// installed by scripts/install-deps.sh) decodes the stream to the same
/// planes, to the renderer's own colors, and through a lossless MP4 back to
/// the same planes (the command docs/servers.md gives, with -qp 0).
final class VideoToolTests: XCTestCase {
  var scratch: URL!
  var ffmpeg: String!
  var scene: String {
    RenderTestSupport.fixtures.appendingPathComponent("batch/show.json").path
  }

  override func setUpWithError() throws {
    guard
      let found = ["/usr/bin/ffmpeg", "/usr/local/bin/ffmpeg"].first(where: {
        FileManager.default.isExecutableFile(atPath: $0)
      })
    else {
      throw XCTSkip("ffmpeg is not installed (scripts/install-deps.sh installs it)")
    }
    ffmpeg = found
    scratch = try RenderTestSupport.commandScratch("lamina-video")
  }

  override func tearDownWithError() throws {
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
  }

  func path(_ name: String) -> String { scratch.appendingPathComponent(name).path }

  /// Runs ffmpeg quietly; its standard output.
  func ffmpeg(_ arguments: [String]) throws -> Data {
    let r = try RenderTestSupport.run(
      URL(fileURLWithPath: ffmpeg), ["-v", "error", "-nostdin"] + arguments)
    XCTAssertEqual(r.status, 0, "ffmpeg \(arguments): \(r.stderr)")
    return r.stdout
  }

  func testFFmpegDecodesTheStreamToTheRenderersFrames() throws {
    let frames = 10
    let video = path("show.y4m")
    let render = try RenderTestSupport.runLamina([
      "render", scene, "--frames", "0..\(frames - 1)", "--fps", "10", "--video", video,
    ])
    XCTAssertEqual(render.status, 0, render.stderr)
    let ours = try SequenceTests.Y4M(Data(contentsOf: URL(fileURLWithPath: video)))
    XCTAssertEqual(ours.frames.count, frames)
    let (w, h) = (ours.width, ours.height)
    XCTAssertEqual([w, h], [160, 100])

    // The planes, as ffmpeg reads them: the same bytes, frame for frame.
    let planes = try ffmpeg(["-i", video, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"])
    let frameBytes = w * h * 3 / 2
    XCTAssertEqual(planes.count, frames * frameBytes)
    for (n, frame) in ours.frames.enumerated() {
      let start = planes.startIndex + n * frameBytes
      XCTAssertEqual(
        [UInt8](planes[start..<start + frameBytes]), frame.y + frame.u + frame.v, "frame \(n)")
    }

    // Through a lossless H.264 MP4 and back: the same planes again.
    let mp4 = path("show.mp4")
    _ = try ffmpeg([
      "-i", video, "-c:v", "libx264", "-qp", "0", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
      mp4,
    ])
    XCTAssertEqual(try ffmpeg(["-i", mp4, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]), planes)

    // The colors ffmpeg shows (BT.601, limited range, as the header says)
    // against the renderer's own frames over black. Chroma is shared by 2×2
    // pixels, so detailed areas (the photo, the checker, text) differ by up
    // to ~80; three pixels in four agree within rounding, and no channel is
    // off on average. Read as full range, the median pixel is 12 off; with
    // the BT.709 matrix, the upper quartile 6.
    let rgb = try ffmpeg([
      "-i", video, "-f", "rawvideo", "-pix_fmt", "rgb24", "-sws_flags",
      "bilinear+accurate_rnd+full_chroma_int", "-",
    ])
    XCTAssertEqual(rgb.count, frames * w * h * 3)
    for n in [0, 4, 9] {
      let png = path("f\(n).png")
      let single = try RenderTestSupport.runLamina([
        "render", scene, "--time", String(Double(n) / 10), "-o", png,
      ])
      XCTAssertEqual(single.status, 0, single.stderr)
      let image = try CGImage.decode(fileAt: png)
      var bias = [0.0, 0.0, 0.0]
      var worst: [Double] = []
      for i in 0..<(w * h) {
        let a = Double(image.pixels[i * 4 + 3]) / 255
        var pixel = 0.0
        for c in 0..<3 {
          let expected = Double(image.pixels[i * 4 + c]) * a
          let decoded = Double(rgb[rgb.startIndex + (n * w * h + i) * 3 + c])
          bias[c] += (decoded - expected) / Double(w * h)
          pixel = max(pixel, abs(decoded - expected))
        }
        worst.append(pixel)
      }
      worst.sort()
      XCTAssertLessThanOrEqual(worst[worst.count / 2], 1.5, "frame \(n): median pixel")
      XCTAssertLessThanOrEqual(worst[worst.count * 3 / 4], 2, "frame \(n): upper quartile")
      XCTAssertLessThan(bias.map(abs).max() ?? 0, 1, "frame \(n): mean difference \(bias)")
    }
  }
}
