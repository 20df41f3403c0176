import Foundation
import Lamina
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

  --memory-budget BYTES  decoded images and GPU textures kept across jobs,
                         half each, least recently used dropped first
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
  exitStatus {
    let options = try Options(
      arguments,
      valued: AccessOptions.valued.union(["--memory-budget", "--output-root", "--scene-root"]),
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
      budgetBytes: budget, access: access, outputRoot: outputRoot, sceneRoot: sceneRoot)
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

/// A batch that cannot start (its jobs cannot be read).
struct BatchError: Error, CustomStringConvertible {
  let description: String
}

/// The state a batch keeps from job to job: the renderer (with its context
/// and programs), the decoded images, the counts.
struct Batch {
  let fileName: String
  let images: ImageCache
  let textureBudget: Int
  /// What every job's scene may read, and where its output may go.
  let access: FileAccessPolicy
  let outputRoot: OutputRoot?
  let sceneRoot: SceneRoot?
  private var renderer: Renderer?
  /// Set when a context was lost: the next renderer gets a context of its own.
  private var needsFreshContext = false
  private(set) var jobs = 0
  private(set) var failed = 0
  /// Jobs whose attempts lose the context on purpose: each attempt of job N
  /// takes one N out (`LAMINA_SIMULATE_CONTEXT_LOSS=3,3,7`), for testing
  /// the recovery on a driver that never loses one.
  private var simulatedLosses: [Int]

  init(
    fileName: String, budgetBytes: Int, access: FileAccessPolicy = .confined,
    outputRoot: OutputRoot? = nil, sceneRoot: SceneRoot? = nil
  ) {
    self.fileName = fileName
    self.access = access
    self.outputRoot = outputRoot
    self.sceneRoot = sceneRoot
    // One decoded-image cache for every job; RenderJob.load hands it to the
    // scene loader (the one place where loads meet it).
    images = ImageCache(budgetBytes: budgetBytes / 2)
    textureBudget = budgetBytes - budgetBytes / 2
    let simulate = ProcessInfo.processInfo.environment["LAMINA_SIMULATE_CONTEXT_LOSS"] ?? ""
    simulatedLosses = simulate.split(separator: ",").compactMap { Int($0) }
  }

  enum Outcome {
    case success(output: String, frames: Int, retried: String?)
    case failure(String)
  }

  /// Runs the job on `line` and writes its result line. A job that fails
  /// because the GL context was lost runs once more on a new context.
  mutating func run(_ line: Data, number: Int) {
    let start = DispatchTime.now().uptimeNanoseconds
    let outcome: Outcome
    do {
      let parsed = try BatchJob.parse(line, line: number, file: fileName)
      var job = parsed.job
      let output = parsed.output
      job.access = access
      try outputRoot?.check(job, output: output, place: "\(fileName):\(number)")
      if let sceneRoot { job = try sceneRoot.confine(job, place: "\(fileName):\(number)") }
      outcome = attempt(job, number: number, output: output)
    } catch {
      outcome = .failure("\(error)")
    }
    report(number, outcome, ms: Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
  }

  private mutating func attempt(_ job: RenderJob, number: Int, output: String) -> Outcome {
    var lost: String?
    for _ in 0..<2 {
      let renderer: Renderer
      do {
        renderer = try current()
      } catch {
        return .failure(lost.map { "\(error) (making a new context after: \($0))" } ?? "\(error)")
      }
      if let i = simulatedLosses.firstIndex(of: number) {
        simulatedLosses.remove(at: i)
        renderer.context.simulateLoss(reason: "simulated by LAMINA_SIMULATE_CONTEXT_LOSS")
      }
      do {
        let frames = try job.run(renderer: renderer, images: images)
        return .success(output: output, frames: frames, retried: lost)
      } catch {
        // A lost context shows as its own error, or as any other failure
        // of the GL calls: ask the context whichever it was.
        let loss: String?
        if let e = error as? RendererError, e.meansContextLost {
          loss = "\(e)"
        } else {
          do {
            try renderer.checkContext()
            loss = nil
          } catch {
            loss = "\(error)"
          }
        }
        guard let loss else { return .failure("\(error)") }
        // Drop the renderer (and with it the context) before making another.
        self.renderer = nil
        needsFreshContext = true
        if lost != nil { return .failure("\(error); it was lost again after a retry") }
        printError("batch: job \(number): \(loss); retrying on a new GL context")
        lost = loss
      }
    }
    return .failure(lost ?? "the GL context was lost")
  }

  /// The renderer, made on first use and again after a lost context.
  private mutating func current() throws -> Renderer {
    if let renderer { return renderer }
    // The process's shared context first; one of its own after a loss.
    let made = needsFreshContext ? try Renderer(context: GPUContext.create()) : try Renderer()
    made.textureBudgetBytes = textureBudget
    renderer = made
    return made
  }

  /// Writes job `number`'s result line to standard output, at once.
  mutating func report(_ number: Int, _ outcome: Outcome, ms: Double) {
    jobs += 1
    var fields = ["\"job\": \(number)"]
    switch outcome {
    case .success(let output, let frames, let retried):
      fields += [
        "\"ok\": true", "\"ms\": \(formatMilliseconds(ms))", "\"output\": \(jsonString(output))",
        "\"frames\": \(frames)",
      ]
      if let retried { fields.append("\"retried\": \(jsonString(retried))") }
    case .failure(let message):
      failed += 1
      fields += [
        "\"ok\": false", "\"ms\": \(formatMilliseconds(ms))", "\"error\": \(jsonString(message))",
      ]
    }
    FileHandle.standardOutput.write(Data(("{" + fields.joined(separator: ", ") + "}\n").utf8))
  }
}

/// Milliseconds with three decimals.
private func formatMilliseconds(_ ms: Double) -> String {
  String(format: "%.3f", ms)
}

/// `text` as a JSON string literal.
func jsonString(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    switch scalar {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\r": out += "\\r"
    case "\t": out += "\\t"
    case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
    default: out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
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
