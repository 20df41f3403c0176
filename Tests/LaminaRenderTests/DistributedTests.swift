import Foundation
import XCTest

/// The distributed driver's own tests (distributed/test_lamina_ray.py): a
/// local Ray with two workers renders a short animation in three shards,
/// one of which fails once and is retried, and the joined video and PNG
/// folder must equal a single `lamina render` byte for byte; the Kubernetes
/// recipe's scripts run for every index. Ray comes from PyPI through
/// scripts/install-python-deps.sh; the test is skipped, saying so, only when
/// that cannot install it.
final class DistributedTests: XCTestCase {
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Runs `arguments` in the package root, killing it after `timeout` seconds.
  func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double) throws
    -> (status: Int32, output: String)
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = Self.packageRoot
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let timer = DispatchWorkItem { [process] in
      if process.isRunning { process.terminate() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    timer.cancel()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }

  func testRayShardsJoinToASingleRenderAndTheKubernetesRecipeRuns() throws {
    let lamina = RenderTestSupport.laminaBinary
    guard FileManager.default.isExecutableFile(atPath: lamina.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    let install = try run(["bash", "scripts/install-python-deps.sh"], timeout: 600)
    guard install.status == 0 else {
      throw XCTSkip("Ray could not be installed, so the Ray driver is not tested: \(install.output)")
    }
    let tests = try run(
      ["python3", "-m", "unittest", "-v", "distributed/test_lamina_ray.py"],
      environment: ["LAMINA": lamina.path, "RAY_USAGE_STATS_ENABLED": "0"], timeout: 400)
    XCTAssertEqual(tests.status, 0, tests.output)
    XCTAssertTrue(tests.output.contains("\nOK"), tests.output)
    XCTAssertFalse(tests.output.contains("skipped"), "every part ran: \(tests.output)")
  }

  /// The render service (distributed/test_lamina_serve.py) on loopback: one
  /// replica renders a scene and a Lottie document (JSON and dotLottie) to
  /// PNG and MP4 byte-identical to `lamina render`, answers malformed,
  /// oversized and confined-path requests with their status, message and
  /// limit, ends a job past its time budget, survives its worker killed
  /// mid-request, and answers 503 with Retry-After when its queue is full.
  /// Skipped, saying so, only when Ray Serve cannot be installed.
  func testRenderServiceOnLoopbackMatchesRenderAndRefusesBadRequests() throws {
    let lamina = RenderTestSupport.laminaBinary
    guard FileManager.default.isExecutableFile(atPath: lamina.path) else {
      throw XCTSkip("lamina is not built beside the tests (swift build --build-tests builds it)")
    }
    let install = try run(["bash", "scripts/install-python-deps.sh"], timeout: 600)
    guard install.status == 0 else {
      throw XCTSkip(
        "Ray Serve could not be installed, so the render service is not tested: \(install.output)")
    }
    let tests = try run(
      ["python3", "-m", "unittest", "-v", "distributed/test_lamina_serve.py"],
      environment: ["LAMINA": lamina.path, "RAY_USAGE_STATS_ENABLED": "0"], timeout: 300)
    XCTAssertEqual(tests.status, 0, tests.output)
    XCTAssertTrue(tests.output.contains("\nOK"), tests.output)
    XCTAssertFalse(tests.output.contains("skipped"), "every part ran: \(tests.output)")
  }
}
