import Foundation
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import XCTest

/// DrawList patterns and the sequence writer, without the command: nothing
/// under a final name before `finish()`, nothing at all after `abandon()`.
final class SequenceWriterTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "SequenceWriterTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func testPatternNumbersFrames() throws {
    XCTAssertEqual(try FramePattern("out/frame-%04d.png").path(7), "out/frame-0007.png")
    XCTAssertEqual(try FramePattern("f%d.png").path(12), "f12.png")
    XCTAssertEqual(try FramePattern("f%3d.png").path(5), "f  5.png")
    XCTAssertEqual(try FramePattern("100%%-%d.png").path(2), "100%-2.png")
  }

  func testPatternWithoutOrWithTwoNumbersIsAUsageError() {
    XCTAssertThrowsError(try FramePattern("frame.png")) { error in
      XCTAssertTrue(error is UsageError)
      XCTAssertEqual(
        "\(error)", "-o for frames needs a %d (or %04d) for the frame number, got 'frame.png'")
    }
    XCTAssertThrowsError(try FramePattern("%d-%d.png")) { error in
      XCTAssertEqual(
        "\(error)", "-o for frames needs one %d (or %04d) for the frame number, got '%d-%d.png'")
    }
  }

  private func image(_ gray: UInt8, width: Int = 2, height: Int = 2) -> RenderedImage {
    RenderedImage(
      width: width, height: height,
      premultipliedPixels: [UInt8](repeating: gray, count: width * height * 4))
  }

  private func files(_ url: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
  }

  func testPNGFramesAppearOnlyAtFinish() throws {
    let pattern = try FramePattern(folder.path + "/made/f%02d.png")
    let writer = SequenceWriter(pattern: pattern)
    // Out of order, as the writer threads may hand them.
    try writer.write(frame: 1, image: image(200), fps: 30)
    try writer.write(frame: 0, image: image(100), fps: 30)
    let made = folder.appendingPathComponent("made")
    XCTAssertFalse(files(made).contains("f00.png"))
    XCTAssertFalse(files(made).contains("f01.png"))
    try writer.finish()
    XCTAssertEqual(files(made), ["f00.png", "f01.png"])
    let data = try Data(contentsOf: made.appendingPathComponent("f01.png"))
    XCTAssertEqual(data, try image(200).pngData())
  }

  func testAbandonLeavesNothingAndRemovesTheFoldersItMade() throws {
    let pattern = try FramePattern(folder.path + "/a/b/f%d.png")
    let writer = SequenceWriter(pattern: pattern)
    try writer.write(frame: 0, image: image(10), fps: 30)
    XCTAssertEqual(files(folder), ["a"])
    writer.abandon()
    XCTAssertEqual(files(folder), [])
  }

  func testY4MStreamIsHeaderThenFrames() throws {
    let path = folder.appendingPathComponent("v.y4m").path
    let writer = try SequenceWriter(videoPath: path, fps: 25)
    try writer.write(frame: 0, image: image(0), fps: 25)
    try writer.write(frame: 1, image: image(255), fps: 25)
    XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    try writer.finish()
    let y4m = Y4MWriter(width: 2, height: 2)
    var expected = y4m.header(fps: 25)
    expected += y4m.frame(image(0))
    expected += y4m.frame(image(255))
    XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), expected)
  }

  func testY4MFrameOfAnotherSizeFailsAndAbandonRemovesTheStream() throws {
    let path = folder.appendingPathComponent("v.y4m").path
    let writer = try SequenceWriter(videoPath: path, fps: 25)
    try writer.write(frame: 0, image: image(0), fps: 25)
    XCTAssertThrowsError(try writer.write(frame: 1, image: image(0, width: 4), fps: 25)) { error in
      XCTAssertEqual(
        error as? OutputError,
        .write(path: path, reason: "frame size changed within the stream"))
    }
    writer.abandon()
    XCTAssertEqual(files(folder), [])
  }
}

/// The writer threads: every frame handed over is written, and the first
/// failure comes back to the caller.
final class SequenceWriterQueueTests: XCTestCase {
  func testFramesWrittenOnWriterThreadsAppearAtFinish() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "SequenceWriterQueueTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let output = SequenceWriter(pattern: try FramePattern(folder.path + "/f%03d.png"))
    let count = Counter()
    let writers = SequenceWriterQueue(
      output: output, inOrder: false, fps: 10, written: { count.add() })
    let image = RenderedImage(
      width: 1, height: 1, premultipliedPixels: [255, 0, 0, 255])
    for n in 0..<20 { writers.write(frame: n, image: image) }
    try writers.finish()
    XCTAssertNil(writers.error)
    XCTAssertEqual(count.value, 20)
    let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    XCTAssertEqual(names, (0..<20).map { String(format: "f%03d.png", $0) })
  }

  func testAWriterFailureComesBackAndNothingIsLeft() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "SequenceWriterQueueTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    // A regular file where the frames' folder should be.
    let file = folder.appendingPathComponent("plain")
    try Data("x".utf8).write(to: file)
    let output = SequenceWriter(pattern: try FramePattern(folder.path + "/f%d.png"))
    let writers = SequenceWriterQueue(output: output, inOrder: true, fps: 10, written: {})
    let image = RenderedImage(width: 1, height: 1, premultipliedPixels: [0, 0, 0, 255])
    writers.write(frame: 0, image: image)
    let bad = SequenceWriter(pattern: try FramePattern(file.path + "/f%d.png"))
    let failing = SequenceWriterQueue(output: bad, inOrder: true, fps: 10, written: {})
    failing.write(frame: 0, image: image)
    XCTAssertThrowsError(try failing.finish()) { error in
      XCTAssertTrue(error is OutputError, "\(error)")
      XCTAssertTrue("\(error)".contains("plain/f0.png"), "\(error)")
    }
    XCTAssertNotNil(failing.error)
    writers.abandon()
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["plain"])
  }
}

/// A count shared with the writer threads.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
  func add() {
    lock.lock()
    count += 1
    lock.unlock()
  }
}
