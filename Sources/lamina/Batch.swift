import Foundation
import Lamina
import LaminaBatch
import LaminaRender
import LaminaScene

let batchUsage = """
  usage: lamina batch JOBS.jsonl [--memory-budget BYTES] [--output-root DIR]
                     [--scene-root DIR] [--assets DIR]... [--allow-any-path]
         lamina batch - [...]      (jobs on standard input)

  Renders many jobs in one process: the GL context, the compiled shaders,
  decoded images and their textures are kept from job to job. Each line of
  JOBS.jsonl is one job, a JSON object:

    {"scene": "card.json", "time": 1.5, "scale": 2, "output": "card.png"}
    {"scene": "intro.json", "frames": "0..59", "fps": 30, "output": "intro/%04d.png"}
    {"scene": "intro.json", "frames": [60, 119], "fps": 30, "output": "part2.y4m"}
    {"scene": "intro.json", "frames": "0..59", "fps": 30, "output": "intro.webm", "crf": 30}
    {"scene": {"lamina": 1, ...}, "base": "assets", "output": "inline.png"}
    {"scene": "anim.json", "frames": "all", "output": "anim.y4m"}
    {"scene": "sticker.tgs", "frame": 30, "background": "#ffffff", "output": "s.png"}

  scene      a scene file or a Lottie animation (.json, .lottie, .tgs), or a scene
             or Lottie object (its images relative to "base", else to the
             working directory, and confined to that folder)
  time       seconds (one PNG; default 0; a Lottie document: from its in-point)
  frame      a Lottie frame number (one PNG), instead of "time"
  frames     "FIRST..LAST", [FIRST, LAST], N or (Lottie) "all", with "fps" (default
             60; a Lottie document's frame rate)
  marker     (Lottie) the frames of that marker's range, instead of "frames"
  scale      pixels per point (default: the canvas's scale)
  background the color behind the canvas, "#rrggbb" or "#rrggbbaa"
  quiet      true: no notes on standard error on what a Lottie import left out
  output     a PNG path, a PNG pattern with %d or %04d (frames), or a video path (frames):
             .mp4, .webm, .gif, .apng, .mov or .y4m, as for lamina render --video
  codec, crf, bitrate
             a video's encoder, quality or bitrate, as render's --codec, --crf, --bitrate

  Each job writes one JSON line to standard output, in order:
    {"job": 3, "ok": true, "ms": 12.5, "output": "card.png", "frames": 1}
    {"job": 4, "ok": false, "ms": 0.8, "error": "card.json: root.sublayers[3]..."}
  "job" is the line number in JOBS.jsonl (blank lines are skipped). A failed
  job leaves no output and the batch goes on. SIGTERM or SIGINT lets the
  running job finish, then stops.

  --memory-budget BYTES  decoded images and the renderer's caches (textures,
                         drawn bitmaps, meshes) kept across jobs, half
                         each, least recently used dropped first
                         (suffixes K, M, G; default 1G)
  --output-root DIR      every job's output must lie in DIR (by the rule scenes
                         read by: no absolute path elsewhere, no '..' or links
                         leading out); a job writing elsewhere fails, writing
                         nothing
  --scene-root DIR       every job's scene file, and every inline scene's base
                         (or the working directory), must lie in DIR (the same
                         rule); a job reading elsewhere fails
  --assets DIR           let scenes read the files in DIR and below too
                         (repeatable); by default a scene reads only files in
                         its own folder (an inline scene: in its base) and below
  --allow-any-path       let scenes read any file the process can (trusted
                         input only)

  Exit status: 0 when every job succeeded, 1 when one failed, 2 for a usage
  error, 128 + the signal when stopped by SIGTERM or SIGINT before the end.
  """

/// `lamina batch JOBS.jsonl`: jobs in order, one result line each. See
/// `batchUsage` and docs/servers.md.
func runBatch(_ arguments: [String]) -> Int32 {
  Allocator.keepLargeBlocksMapped()
  return exitStatus {
    let options = try Options(
      arguments,
      valued: AccessOptions.valued.union(ExpressionOptions.valued).union(["--memory-budget", "--output-root", "--scene-root"]),
      switches: AccessOptions.switches, command: "batch", usage: batchUsage)
    guard options.positional.count == 1 else {
      throw UsageError("batch needs one jobs file (or - for standard input)\n" + batchUsage)
    }
    let budget = try options.string("--memory-budget").map(parseByteCount) ?? (1 << 30)
    let access = try AccessOptions.policy(options)
    let outputRoot = try OutputRoot(options)
    let sceneRoot = try SceneRoot(options)
    let path = options.positional[0]
    let fd: Int32 = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw BatchError(
        description: "cannot read the jobs file '\(path)': \(String(cString: strerror(errno)))")
    }
    defer { if fd != 0 { close(fd) } }
    let stop = try BatchStop()
    var batch = Batch(
      fileName: path == "-" ? "stdin" : URL(fileURLWithPath: path).lastPathComponent,
      budgetBytes: budget, access: access, outputRoot: outputRoot, sceneRoot: sceneRoot,
      expressions: try ExpressionOptions.policy(options))
    var reader = LineReader(fd: fd, stop: stop)
    var number = 0
    while stop.signal == nil, let line = try reader.next() {
      number += 1
      switch line {
      case .tooLong:
        batch.report(
          number,
          .failure(
            "\(batch.fileName):\(number): the line is longer than \(LineReader.maxLineBytes) bytes"),
          ms: 0)
      case .text(let text):
        guard text.contains(where: { ![0x20, 0x09, 0x0D].contains($0) }) else { continue }
        batch.run(text, number: number)
      }
    }
    if let signal = stop.signal {
      printError("batch: stopped by signal \(signal) after job \(number)")
      return 128 + signal
    }
    if batch.failed > 0 {
      printError("batch: \(batch.failed) of \(batch.jobs) jobs failed")
      return 1
    }
    return 0
  }
}

/// `512M`, `2G`, `65536`: a byte count (K, M, G are powers of 1024).
func parseByteCount(_ text: String) throws -> Int {
  let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
  var digits = Substring(text.uppercased())
  var unit = 1
  if let last = digits.last, let u = units[last] {
    unit = u
    digits = digits.dropLast()
  }
  guard let value = Int(digits), value >= 0, value <= (1 << 50) / unit else {
    throw UsageError("--memory-budget expects bytes with an optional K, M or G, got '\(text)'")
  }
  return value * unit
}
