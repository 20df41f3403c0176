import Foundation
import LaminaScene

#if canImport(Glibc)
  import Glibc
#endif

/// What came of one expression-driven property.
enum ExpressionOutcome: Equatable {
  /// Its values at frames `from`, `from + step`, … (one array each).
  case values(from: Double, step: Double, values: [[Double]])
  /// It threw, gave something other than numbers, or ran past a limit.
  case failed(String)
}

/// Runs a batch of expressions in `lamina-expr`, a child process confined
/// by CPU time, address space, a seccomp filter and a wall-clock deadline
/// (docs/limits.md): one process per document, every expression of it in
/// one program, the values of all frames back in one stream.
struct ExpressionRunner {
  var helper: String
  var cpuSeconds: Int
  var memoryBytes: Int
  var wallSeconds: Double
  var maxOutputBytes: Int
  /// The limits one run is held to (what is left of the document's).
  var enforcedCPU: Int?
  var enforcedWall: Double?

  /// The helper: `explicit`, else `LAMINA_EXPRESSION_HELPER`, else
  /// `lamina-expr` beside the running executable (the package's build
  /// folder holds the command, the tests and the helper); nil when that
  /// is not an executable file.
  static func findHelper(_ explicit: URL?) -> String? {
    if let explicit {
      return FileManager.default.isExecutableFile(atPath: explicit.path) ? explicit.path : nil
    }
    if let env = ProcessInfo.processInfo.environment["LAMINA_EXPRESSION_HELPER"], !env.isEmpty {
      return FileManager.default.isExecutableFile(atPath: env) ? env : nil
    }
    guard let folder = executableFolder else { return nil }
    let beside = folder + "/lamina-expr"
    return FileManager.default.isExecutableFile(atPath: beside) ? beside : nil
  }

  /// The running executable's folder, read once: a program rebuilt while it
  /// runs (its file replaced) still finds the helper beside it.
  static let executableFolder: String? = {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return nil }
    var path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if path.hasSuffix(" (deleted)") { path.removeLast(" (deleted)".count) }
    return (path as NSString).deletingLastPathComponent
  }()

  /// Runs `jobs` (ids into the program's properties) and returns the
  /// outcome of each. `program(jobs)` makes the whole program for a list of
  /// jobs. A batch stopped by a limit blames the property it was running;
  /// the others run again (at most `restarts` times) without it, all the
  /// runs of a document together within one wall-clock limit (and each
  /// within the CPU limit and what is left of the wall-clock one).
  func run(jobs: [Int], restarts: Int, program: ([Int]) -> String) -> [Int: ExpressionOutcome] {
    var outcomes: [Int: ExpressionOutcome] = [:]
    var pending = jobs
    var tries = 0
    let deadline = Date().addingTimeInterval(wallSeconds)
    while !pending.isEmpty {
      let left = deadline.timeIntervalSinceNow
      guard left >= 1 else {
        for id in pending {
          outcomes[id] = .failed(
            "not evaluated: the document's expressions ran past their wall-clock limit (\(wallSeconds) s)"
          )
        }
        break
      }
      var limited = self
      limited.enforcedWall = left
      // Whole seconds, up, within the CPU limit (a wall-clock budget
      // left of more than that, or not finite, is the limit).
      let leftSeconds =
        left.isFinite && left < Double(cpuSeconds)
        ? Int(exactly: left.rounded(.up)) ?? cpuSeconds : cpuSeconds
      limited.enforcedCPU = max(1, min(cpuSeconds, leftSeconds))
      let batch = limited.runOnce(program(pending), jobs: Set(pending))
      for (id, o) in batch.outcomes { outcomes[id] = o }
      if let culprit = batch.running {
        outcomes[culprit] = .failed(batch.stopped ?? "the expression process ended early")
      }
      pending = pending.filter { outcomes[$0] == nil }
      guard !pending.isEmpty else { break }
      tries += 1
      if batch.running == nil || tries > restarts {
        let why = batch.stopped ?? "the expression process ended early"
        for id in pending { outcomes[id] = .failed("not evaluated: \(why)") }
        break
      }
    }
    return outcomes
  }

  struct Batch {
    var outcomes: [Int: ExpressionOutcome] = [:]
    /// The property being evaluated when the process stopped, if it stopped.
    var running: Int?
    /// Why the process stopped before it finished, if it did.
    var stopped: String?
  }

  /// One run of `program` over `jobs`. An expression can call the output
  /// function itself: lines about other ids are ignored, and the run is
  /// done only when its last line says so.
  func runOnce(_ program: String, jobs: Set<Int>) -> Batch {
    var batch = Batch()
    let child: ChildResult
    do {
      child = try spawn(input: Array(program.utf8))
    } catch {
      batch.stopped = "the expression process could not start: \(error)"
      return batch
    }
    var done = false
    var current: Int?
    var fatal: String?
    var output = child.output[...]
    if child.outputTruncated {
      // Only whole lines within the limit: the property being written is the one stopped.
      output = output.prefix(maxOutputBytes)
      output = output[..<(output.lastIndex(of: UInt8(ascii: "\n")) ?? output.startIndex)]
    }
    for line in output.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
      guard let tag = line.first else { continue }
      let rest = line.dropFirst(2)
      switch tag {
      case UInt8(ascii: "B"):
        done = false
        if let id = Int(String(decoding: rest, as: UTF8.self)), jobs.contains(id) { current = id }
      case UInt8(ascii: "V"):
        guard let space = rest.firstIndex(of: UInt8(ascii: " ")),
          let id = Int(String(decoding: rest[..<space], as: UTF8.self)), jobs.contains(id)
        else { continue }
        done = false
        batch.outcomes[id] = Self.values(Data(rest[(space + 1)...]))
        current = nil
      case UInt8(ascii: "X"):
        let text = String(decoding: rest, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let first = parts.first, let id = Int(first), jobs.contains(id) else { continue }
        done = false
        var message = parts.count > 1 ? String(parts[1]) : "failed"
        if message.contains("alloc failed") {
          message = "ran past its memory limit (\(memoryBytes >> 20) MiB): \(message)"
        }
        batch.outcomes[id] = .failed(message)
        current = nil
      case UInt8(ascii: "D"):
        done = true
      case UInt8(ascii: "F"), UInt8(ascii: "E"):
        fatal = String(decoding: rest, as: UTF8.self)
      default:
        continue
      }
    }
    if done && !child.timedOut && !child.outputTruncated { return batch }
    batch.running = current
    if child.timedOut {
      batch.stopped = "ran past its wall-clock limit (\(wallSeconds) s)"
    } else if child.outputTruncated {
      batch.stopped = "wrote more than \(maxOutputBytes) bytes of values"
    } else if child.signal == SIGXCPU || child.signal == SIGKILL {
      batch.stopped = "ran past its CPU time limit (\(cpuSeconds) s)"
    } else if let fatal {
      batch.stopped =
        fatal.contains("alloc") || fatal.contains("memory")
        ? "ran past its memory limit (\(memoryBytes >> 20) MiB): \(fatal)"
        : "the engine stopped: \(fatal)"
    } else if child.signal != 0 {
      batch.stopped = "the expression process ended by signal \(child.signal)"
    } else {
      batch.stopped = "the expression process exited with status \(child.status)"
    }
    return batch
  }

  static func values(_ data: Data) -> ExpressionOutcome {
    guard case .array(let frames)? = try? SceneLoader.parseJSON(data, fileName: "lamina-expr")
    else {
      return .failed("the expression process sent values that are not JSON arrays")
    }
    var out: [[Double]] = []
    out.reserveCapacity(frames.count)
    for f in frames {
      guard case .array(let items) = f else { return .failed("a value that is not an array") }
      var v: [Double] = []
      for item in items {
        guard case .number(let n) = item else { return .failed("a value that is not a number") }
        v.append(n)
      }
      out.append(v)
    }
    return .values(from: 0, step: 1, values: out)
  }

  // MARK: The child process

  struct ChildResult {
    var output: [UInt8]
    var status: Int32
    var signal: Int32
    var timedOut: Bool
    var outputTruncated: Bool
  }

  enum SpawnError: Error, CustomStringConvertible {
    case system(String, Int32)
    var description: String {
      switch self {
      case .system(let call, let e): return "\(call): \(String(cString: strerror(e)))"
      }
    }
  }

  /// Starts the helper with an empty environment, standard input and
  /// output on one socket (a write to a dead reader is EPIPE, never a
  /// SIGPIPE here), standard error to /dev/null and no other descriptor;
  /// sends `input`, reads until the child closes or the deadline passes,
  /// then kills it.
  func spawn(input: [UInt8]) throws -> ChildResult {
    var fds: [Int32] = [-1, -1]
    guard
      socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0
    else {
      throw SpawnError.system("socketpair", errno)
    }
    let ours = fds[0]
    let theirs = fds[1]
    defer { close(ours) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, theirs, 0)
    posix_spawn_file_actions_adddup2(&actions, theirs, 1)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for s in [SIGPIPE, SIGXCPU, SIGTERM, SIGINT] { sigaddset(&defaults, s) }
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let args = [
      helper, String(enforcedCPU ?? cpuSeconds), String(memoryBytes), String(input.count + 1),
    ]
    var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var envp: [UnsafeMutablePointer<CChar>?] = [nil]
    var pid = pid_t()
    let spawned = posix_spawn(&pid, helper, &actions, &attributes, &argv, &envp)
    close(theirs)
    guard spawned == 0 else { throw SpawnError.system("posix_spawn \(helper)", spawned) }

    let flags = fcntl(ours, F_GETFL)
    _ = fcntl(ours, F_SETFL, flags | O_NONBLOCK)
    let deadline = Date().addingTimeInterval(enforcedWall ?? wallSeconds)
    var output: [UInt8] = []
    var sent = 0
    var timedOut = false
    var truncated = false
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    if input.isEmpty { shutdown(ours, Int32(SHUT_WR)) }
    loop: while true {
      let left = deadline.timeIntervalSinceNow
      if left <= 0 {
        timedOut = true
        break
      }
      var events = Int16(POLLIN)
      if sent < input.count { events |= Int16(POLLOUT) }
      var p = pollfd(fd: ours, events: events, revents: 0)
      let ready = poll(&p, 1, Int32(min(left * 1000, 1000)) + 1)
      if ready < 0 {
        if errno == EINTR { continue }
        break
      }
      if ready == 0 { continue }
      if sent < input.count, p.revents & Int16(POLLOUT) != 0 {
        let n = input.withUnsafeBytes { raw in
          send(ours, raw.baseAddress! + sent, min(input.count - sent, 1 << 16), Int32(MSG_NOSIGNAL))
        }
        if n > 0 {
          sent += n
          if sent == input.count { shutdown(ours, Int32(SHUT_WR)) }
        } else if n < 0 && errno != EAGAIN && errno != EINTR {
          sent = input.count  // the child is gone: read what it said
        }
      }
      if p.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
        let n = read(ours, &buffer, buffer.count)
        if n > 0 {
          output += buffer[0..<n]
          if output.count > maxOutputBytes {
            truncated = true
            break loop
          }
        } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
          break loop
        }
      }
    }
    if timedOut || truncated { kill(pid, SIGKILL) }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    // WIFEXITED / WTERMSIG are macros: their bit layout, read by hand.
    let signal = status & 0x7f
    let code = (status >> 8) & 0xff
    return ChildResult(
      output: output, status: signal == 0 ? code : -1, signal: signal, timedOut: timedOut,
      outputTruncated: truncated)
  }
}
