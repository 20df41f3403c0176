import Foundation
import Lamina
import LaminaScene
import XCTest

/// A watched scene file: valid edits swap the scene, invalid ones leave the
/// last good scene and report the error once.
final class SceneWatcherTests: XCTestCase {
  var folder: URL!
  var file: URL { folder.appendingPathComponent("kiosk.json") }

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "lamina-watch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  func write(_ text: String) throws {
    // As editors do: a new file renamed over the old one.
    let temporary = folder.appendingPathComponent(".kiosk.json.tmp")
    try Data(text.utf8).write(to: temporary)
    guard rename(temporary.path, file.path) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
  }

  func scene(width: Int, opacity: String = "1") -> String {
    """
    {"lamina": 1, "canvas": {"width": \(width), "height": 40},
     "root": {"sublayers": [{"name": "card", "frame": [0, 0, 10, 10], "opacity": \(opacity)}]}}
    """
  }

  func testValidEditSwapsAndInvalidEditKeepsTheOldScene() throws {
    try write(scene(width: 100))
    let watcher = try SceneWatcher(url: file)
    XCTAssertEqual(watcher.scene.canvas.width, 100)
    guard case .unchanged = watcher.poll() else { return XCTFail("nothing changed yet") }

    try write(scene(width: 120))
    guard case .reloaded(let edited) = watcher.poll() else { return XCTFail("valid edit") }
    XCTAssertEqual(edited.canvas.width, 120)
    XCTAssertEqual(watcher.scene.canvas.width, 120)

    try write(scene(width: 140, opacity: "\"high\""))
    guard case .failed(let error) = watcher.poll() else { return XCTFail("invalid edit") }
    XCTAssertTrue(
      error.description.hasPrefix("kiosk.json: root.sublayers[0].opacity:"), error.description)
    XCTAssertEqual(watcher.scene.canvas.width, 120, "the last good scene keeps running")
    guard case .unchanged = watcher.poll() else { return XCTFail("an error is reported once") }

    // A file caught half-written is a syntax error, then the whole file loads.
    try write(String(scene(width: 160).prefix(30)))
    guard case .failed(let partial) = watcher.poll() else { return XCTFail("half-written") }
    XCTAssertTrue(partial.description.hasPrefix("kiosk.json:1:"), partial.description)
    try write(scene(width: 160))
    guard case .reloaded = watcher.poll() else { return XCTFail("completed file") }
    XCTAssertEqual(watcher.scene.canvas.width, 160)
  }

  func testARemovedFileIsReportedAndTheSceneStays() throws {
    try write(scene(width: 100))
    let watcher = try SceneWatcher(url: file)
    try FileManager.default.removeItem(at: file)
    guard case .failed(let error) = watcher.poll() else { return XCTFail("removed") }
    XCTAssertEqual(error.description, "kiosk.json: cannot read the scene file: no such file")
    XCTAssertEqual(watcher.scene.canvas.width, 100)
    try write(scene(width: 90))
    guard case .reloaded = watcher.poll() else { return XCTFail("restored") }
  }

  func testAFirstLoadThatFailsThrows() {
    XCTAssertThrowsError(try SceneWatcher(url: file)) { error in
      XCTAssertEqual("\(error)", "kiosk.json: cannot read the scene file: no such file")
    }
  }
}
