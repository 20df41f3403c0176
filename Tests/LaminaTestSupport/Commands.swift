import Foundation
import XCTest

/// Running the `lamina` command from tests.
public enum Commands {
  /// The `lamina` binary built beside the test executable.
  public static var laminaBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("lamina")
  }

  /// Runs `lamina` with `arguments`; standard error is read on another
  /// thread so that neither pipe can fill up and stall the command.
  public static func runLamina(_ arguments: [String]) throws -> (
    status: Int32, stdout: Data, stderr: String
  ) {
    try run(laminaBinary, arguments)
  }

  /// Runs `executable` with `arguments` (in `directory`, with `environment`
  /// added to this process's), writing `input` to its standard input on
  /// another thread and reading standard error on a third, so that no pipe
  /// can fill up and stall it.
  public static func run(
    _ executable: URL, _ arguments: [String], input: Data = Data(),
    environment: [String: String] = [:], directory: URL? = nil
  ) throws -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = directory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let stdin = Pipe()
    let out = Pipe()
    let err = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var stderr = Data()
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
      stderr = err.fileHandleForReading.readDataToEndOfFile()
    }
    DispatchQueue.global().async(group: reader) {
      stdin.fileHandleForWriting.write(input)
      try? stdin.fileHandleForWriting.close()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    reader.wait()
    process.waitUntilExit()
    return (process.terminationStatus, stdout, String(decoding: stderr, as: UTF8.self))
  }

  /// A new empty folder for one test's files, after checking that the
  /// `lamina` binary the test runs is built.
  public static func commandScratch(_ prefix: String) throws -> URL {
    guard FileManager.default.isExecutableFile(atPath: laminaBinary.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }
}
