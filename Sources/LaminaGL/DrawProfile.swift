import CGLES3
import Foundation

/// What each program's draws cost the driver, for finding where a frame's
/// time goes on a software rasterizer (`LAMINA_PROFILE_DRAWS=1`): every
/// draw is waited for before and after (glFinish), so that its time is
/// its own rasterizing and shading; the totals per program (its shaders'
/// names and defines) are written to standard error when the process
/// exits. A diagnostic: it serializes the driver, so frame times taken
/// with it on are not the renderer's.
enum DrawProfile {
  struct Entry {
    var label: String
    var nanoseconds: UInt64 = 0
    var draws = 0
  }

  static let isOn = ProcessInfo.processInfo.environment["LAMINA_PROFILE_DRAWS"] == "1"
  nonisolated(unsafe) private static var labels: [GLuint: String] = [:]
  nonisolated(unsafe) private static var entries: [String: Entry] = [:]
  nonisolated(unsafe) private static var registered = false

  /// Names `program` by its shaders (once made).
  static func name(_ program: GLuint, _ label: String) {
    guard isOn else { return }
    labels[program] = label
  }

  /// Runs `draw` waited for on both sides, adding its time to `program`'s.
  static func measure(_ program: GLuint?, _ draw: () -> Void) {
    glFinish()
    let start = DispatchTime.now().uptimeNanoseconds
    draw()
    glFinish()
    let elapsed = DispatchTime.now().uptimeNanoseconds - start
    let label = program.flatMap { labels[$0] } ?? "program \(program.map(String.init) ?? "none")"
    entries[label, default: Entry(label: label)].nanoseconds += elapsed
    entries[label, default: Entry(label: label)].draws += 1
    if !registered {
      registered = true
      atexit { DrawProfile.report() }
    }
  }

  private static func report() {
    let total = entries.values.reduce(0) { $0 + $1.nanoseconds }
    var lines = ["draw profile: \(String(format: "%.1f", Double(total) / 1e6)) ms in all"]
    for entry in entries.values.sorted(by: { $0.nanoseconds > $1.nanoseconds }) {
      lines.append(
        String(
          format: "%9.1f ms %7d draws  %@", Double(entry.nanoseconds) / 1e6, entry.draws, entry.label))
    }
    FileHandle.standardError.write((lines.joined(separator: "\n") + "\n").data(using: .utf8)!)
  }
}
