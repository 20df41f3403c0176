import Foundation
import LaminaRender

/// One subcommand: its name, a one-line summary for `lamina help`, its
/// usage (every option explained, kept beside the subcommand's code) and
/// its entry point.
struct Subcommand {
  let name: String
  let summary: String
  let usage: String
  let run: ([String]) -> Int32
}

/// The version of the command and the library it is built with.
let laminaVersion = "0.1.0"

/// The overview `lamina help` prints: each subcommand with its summary.
func overview(_ commands: [Subcommand]) -> String {
  let rows =
    commands.map { ($0.name, $0.summary) } + [
      ("help [COMMAND]", "print this overview, or COMMAND's usage and options")
    ]
  let width = rows.map(\.0.count).max() ?? 0
  func line(_ row: (String, String)) -> String {
    "  " + row.0.padding(toLength: width, withPad: " ", startingAt: 0) + "   " + row.1
  }
  return """
    usage: lamina COMMAND [OPTIONS]

    Renders, shows and benchmarks Lamina scene files (JSON layer trees) and Lottie
    animations (Bodymovin JSON, .lottie archives, .tgs stickers).

    commands:
    \(rows.map(line).joined(separator: "\n"))

    options:
    \(line(("-h, --help", "print this overview (after a command: its usage and options)")))
    \(line(("--version", "print the version and the GL renderer lamina would use")))
    \(line(("--verbose", "with any command: also print what the GL driver and text libraries say")))
    """
}

/// `lamina --version`: the version, and what `Renderer()` would draw with
/// (the EGL platform and GL renderer chosen, or why none could be).
func versionReport() -> String {
  var lines = ["lamina \(laminaVersion)"]
  do {
    let info = try GPUContext.shared().info
    lines.append("GL renderer: \(info.glRenderer) (\(info.glVersion))")
    lines.append("EGL platform: \(info.platform)")
  } catch {
    lines.append("GL renderer: none available: \(error)")
  }
  return lines.joined(separator: "\n")
}

/// Asked for with `-h`/`--help` among a subcommand's arguments: its usage
/// is printed and the command succeeds.
struct HelpRequest: Error {
  let usage: String
}

/// The candidate closest to `word` by edit distance (insertions,
/// deletions, substitutions and swaps of neighbours), when it is close
/// enough to be a likely typo.
func closest(to word: String, in candidates: [String]) -> String? {
  let scored = candidates.map { ($0, editDistance(word, $0)) }
  guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
  let allowed = max(2, min(word.count, best.0.count) / 3)
  return best.1 <= allowed ? best.0 : nil
}

/// The optimal-string-alignment distance between `a` and `b`.
func editDistance(_ a: String, _ b: String) -> Int {
  let x = Array(a)
  let y = Array(b)
  if x.isEmpty { return y.count }
  if y.isEmpty { return x.count }
  var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
  for i in 0...x.count { d[i][0] = i }
  for j in 0...y.count { d[0][j] = j }
  for i in 1...x.count {
    for j in 1...y.count {
      let cost = x[i - 1] == y[j - 1] ? 0 : 1
      d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
      if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
        d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
      }
    }
  }
  return d[x.count][y.count]
}
