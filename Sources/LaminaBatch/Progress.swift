import Foundation

/// A progress line on standard error when it is a terminal (frames done,
/// frames per second, time left); nothing otherwise.
package final class Progress: @unchecked Sendable {
  package let total: Int
  private let enabled = isatty(2) != 0
  private let start = DispatchTime.now().uptimeNanoseconds
  private var done = 0
  private let lock = NSLock()

  package init(total: Int) { self.total = total }

  package func frameDone() {
    lock.lock()
    done += 1
    let done = self.done
    lock.unlock()
    guard enabled else { return }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let fps = seconds > 0 ? Double(done) / seconds : 0
    let left = fps > 0 ? Double(total - done) / fps : 0
    let width = 30
    let filled = total > 0 ? width * done / total : width
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let line = String(
      format: "\r[%@] %d/%d frames  %.1f fps  %.1f s left ", bar, done, total, fps, left)
    FileHandle.standardError.write(Data(line.utf8))
  }

  package func finish() {
    if enabled { FileHandle.standardError.write(Data("\n".utf8)) }
  }
}
