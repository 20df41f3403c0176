import Foundation
import Lamina
import LaminaDisplay
import LaminaRender
import LaminaScene
import XCTest

/// The control channel against a headless display stepped by hand: each
/// test sends commands over a real Unix socket, steps the loop at chosen
/// scene times (so animations are checked at exact times, not raced
/// against a clock), and reads the replies.
final class ControlChannelTests: XCTestCase {
  private var folder: URL!
  private var loop: DisplayLoop!
  private var output: HeadlessOutput!
  private var server: ControlServer!
  private var client: TestClient!
  /// The scene time the loop was last stepped at.
  private var now = 0.0

  nonisolated(unsafe) private static var sharedRenderer: Renderer?

  static func renderer() throws -> Renderer {
    if let sharedRenderer { return sharedRenderer }
    // Its context is the headless panel's too: a loss must end the loop,
    // not move the renderer to a context the panel is not on.
    let made = try Renderer(replacesLostContext: false)
    sharedRenderer = made
    return made
  }

  /// 200×100: an orange 20×20 `box` at (0, 40), a text layer `price`, and
  /// a replicator `rep` of 2 instances.
  static let scene = """
    {"lamina": 1, "canvas": {"width": 200, "height": 100, "background": "#204060"},
     "root": {"sublayers": [
       {"name": "box", "frame": [0, 40, 20, 20], "backgroundColor": "#ff8000"},
       {"name": "price", "class": "CATextLayer", "frame": [100, 10, 90, 30], "string": "1.00",
        "fontSize": 20, "foregroundColor": "#ffffff"},
       {"name": "rep", "class": "CAReplicatorLayer", "frame": [0, 0, 10, 10], "instanceCount": 2,
        "sublayers": [{"name": "cell", "class": "CAReplicatorLayer", "instanceCount": 2}]}
     ]}}
    """

  override func setUpWithError() throws {
    // A short path: sun_path holds 107 bytes.
    folder = URL(fileURLWithPath: "/tmp/lamina-ctl-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    chmod(folder.path, 0o700)
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("out"), withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    client?.close()
    server?.stop()
    server = nil
    loop = nil
    try? FileManager.default.removeItem(at: folder)
  }

  @discardableResult
  private func write(_ text: String, name: String = "scene.json") throws -> URL {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  /// A loop on a 200×100 headless panel showing `scene`, its channel
  /// listening, one client connected, the first frame drawn at t = 0.
  private func start(_ scene: String = ControlChannelTests.scene, token: String? = nil) throws {
    let renderer = try Self.renderer()
    output = try HeadlessOutput(
      width: 200, height: 100, paced: false, context: renderer.context)
    let watcher = try SceneWatcher(url: try write(scene))
    loop = DisplayLoop(output: output, watcher: watcher, renderer: renderer)
    loop.log = { print("loop: \($0)") }
    let policy = ControlPolicy(
      outputRoot: folder.appendingPathComponent("out"), token: token)
    server = try ControlServer(
      address: .unix(path: folder.appendingPathComponent("c.sock").path), loop: loop,
      policy: policy)
    server.start()
    client = try TestClient(server.address)
    try step(at: 0)
  }

  /// Steps the loop at scene time `t` (a frame boundary, then the frame).
  private func step(at t: Double) throws {
    now = t
    try loop.step(now: t)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
  }

  /// Sends `line` and returns its reply, stepping the loop at `t` (the
  /// current time by default) once the command reaches it.
  private func send(_ line: String, at t: Double? = nil, client: TestClient? = nil) throws
    -> [String: Any]
  {
    let client = client ?? self.client!
    try client.send(line)
    let deadline = monotonicSeconds() + 5
    while monotonicSeconds() < deadline {
      if let reply = client.line(timeout: 0.005) { return try Self.parse(reply) }
      if loop.pendingChanges > 0 { try step(at: t ?? now) }
    }
    XCTFail("no reply to \(line)")
    return [:]
  }

  static func parse(_ line: String) throws -> [String: Any] {
    try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line)
  }

  /// Asserts an error reply: its message and path.
  private func assertError(
    _ line: String, _ message: String, path: String, file: StaticString = #filePath,
    line number: UInt = #line
  ) throws {
    let reply = try send(line)
    XCTAssertNil(reply["ok"], "\(line) → \(reply)", file: file, line: number)
    XCTAssertEqual(reply["error"] as? String, message, line, file: file, line: number)
    XCTAssertEqual(reply["path"] as? String, path, line, file: file, line: number)
  }

  /// The canvas as the last frame drew it.
  private func frame() throws -> RenderedImage {
    var image: RenderedImage?
    loop.schedule(disableActions: true) { editor in
      editor.afterFrame { image = $0.snapshot() }
    }
    try step(at: now)
    return try XCTUnwrap(image)
  }

  private func isOrange(_ image: RenderedImage, _ x: Int, _ y: Int) -> Bool {
    let p = image.pixel(x, y)
    return p.r > 240 && (120...135).contains(Int(p.g)) && p.b < 10
  }

  // MARK: Changes

  func testATextChangeAppearsInTheNextFrame() throws {
    try start()
    let before = try frame()
    let reply = try send(#"{"set": {"layer": "price", "key": "string", "value": "3.99"}}"#, at: 0.5)
    XCTAssertEqual(reply["ok"] as? Bool, true)
    XCTAssertEqual(reply["time"] as? Double, 0.5)
    // The frame of that boundary shows it: a snapshot taken after it.
    let snapshot = try send(#"{"snapshot": {"file": "after.png"}}"#)
    XCTAssertEqual(snapshot["width"] as? Int, 200)
    let after = try frame()
    XCTAssertNotEqual(before.premultipliedPixels, after.premultipliedPixels)
    // The same pixels as a display that showed 3.99 from the start.
    let written = try CGImage.decode(fileAt: folder.appendingPathComponent("out/after.png").path)
    XCTAssertEqual(written.width, 200)
    client.close()
    server.stop()
    server = nil
    try start(Self.scene.replacingOccurrences(of: "1.00", with: "3.99"))
    let expected = try frame()
    let differing = zip(after.premultipliedPixels, expected.premultipliedPixels).filter { $0 != $1 }
    XCTAssertEqual(differing.count, 0)
    XCTAssertEqual(try send(#"{"get": {"layer": "price", "key": "string"}}"#)["value"] as? String, "1.00".replacingOccurrences(of: "1.00", with: "3.99"))
  }

  func testAPositionChangeInA04SecondTransactionIsHalfwayAt02Seconds() throws {
    try start()
    let reply = try send(
      #"{"transaction": {"changes": [{"set": {"layer": "box", "key": "position.x", "value": 170}}], "duration": 0.4, "timingFunction": "linear", "completion": true}, "id": "slide"}"#,
      at: 1.0)
    XCTAssertEqual(reply["ok"] as? Bool, true)
    XCTAssertEqual(reply["id"] as? String, "slide")
    XCTAssertEqual(reply["time"] as? Double, 1.0)
    // The model has the new value at once; the screen gets there in 0.4 s.
    XCTAssertEqual(
      try send(#"{"get": {"layer": "box", "key": "position.x"}}"#)["value"] as? Double, 170)
    try step(at: 1.2)
    let halfway = try send(#"{"get": {"layer": "box", "key": "position.x", "presentation": true}}"#)
    XCTAssertEqual(try XCTUnwrap(halfway["value"] as? Double), 90, accuracy: 1e-6)
    // On screen: the 20-point box spans x 80...100 at 0.2 s.
    let image = try frame()
    XCTAssertTrue(isOrange(image, 81, 50))
    XCTAssertTrue(isOrange(image, 98, 50))
    XCTAssertFalse(isOrange(image, 78, 50))
    XCTAssertFalse(isOrange(image, 102, 50))
    XCTAssertFalse(isOrange(image, 10, 50))
    // The completion event comes once the animation has ended.
    XCTAssertNil(client.line(timeout: 0.05))
    try step(at: 1.45)
    let finished = try Self.parse(try XCTUnwrap(client.line(timeout: 2)))
    XCTAssertEqual(finished["event"] as? String, "finished")
    XCTAssertEqual(finished["id"] as? String, "slide")
    let end = try frame()
    XCTAssertTrue(isOrange(end, 165, 50))
    XCTAssertFalse(isOrange(end, 90, 50))
  }

  func testASetWithDisableActionsShowsAtOnceAndOneWithADurationAnimates() throws {
    try start()
    _ = try send(
      #"{"set": {"layer": "box", "key": "opacity", "value": 0, "disableActions": true}}"#, at: 2)
    XCTAssertEqual(
      try send(#"{"get": {"layer": "box", "key": "opacity", "presentation": true}}"#)["value"]
        as? Double, 0)
    _ = try send(
      #"{"set": {"layer": "box", "key": "opacity", "value": 1, "duration": 1, "timingFunction": "linear"}}"#,
      at: 3)
    try step(at: 3.25)
    let value = try send(#"{"get": {"layer": "box", "key": "opacity", "presentation": true}}"#)
    XCTAssertEqual(try XCTUnwrap(value["value"] as? Double), 0.25, accuracy: 1e-4)
  }

  func testAddAnimationAndRemoveAnimation() throws {
    try start()
    let added = try send(
      #"{"add-animation": {"layer": "box", "key": "spin", "animation": {"keyPath": "position.y", "fromValue": 0, "toValue": 100, "duration": 1, "timingFunction": "linear"}}}"#,
      at: 1)
    XCTAssertEqual(added["ok"] as? Bool, true)
    try step(at: 1.5)
    let halfway = try send(#"{"get": {"layer": "box", "key": "position.y", "presentation": true}}"#)
    XCTAssertEqual(try XCTUnwrap(halfway["value"] as? Double), 50, accuracy: 1e-6)
    XCTAssertEqual(
      try send(#"{"remove-animation": {"layer": "box", "key": "spin"}}"#)["ok"] as? Bool, true)
    try step(at: 1.6)
    let model = try send(#"{"get": {"layer": "box", "key": "position.y", "presentation": true}}"#)
    XCTAssertEqual(model["value"] as? Double, 50)
    try assertError(
      #"{"remove-animation": {"layer": "box", "key": "spin"}}"#,
      "command: remove-animation.key: the layer has no animation 'spin'",
      path: "remove-animation.key")
  }

  func testAddAndRemoveALayer() throws {
    try start()
    let reply = try send(
      ##"{"add": {"parent": "root", "index": 0, "layer": {"name": "badge", "frame": [150, 60, 30, 30], "backgroundColor": "#ff8000"}}}"##,
      at: 0.5)
    XCTAssertEqual(reply["ok"] as? Bool, true)
    XCTAssertEqual(reply["index"] as? Int, 0)
    XCTAssertTrue(isOrange(try frame(), 165, 75))
    XCTAssertEqual(
      try send(#"{"get": {"layer": "root.sublayers[0]", "key": "name"}}"#)["value"] as? String,
      "badge")
    XCTAssertEqual(try send(#"{"remove": {"layer": "badge"}}"#, at: 0.6)["ok"] as? Bool, true)
    let damage = loop.lastDamage
    let presented = loop.framesPresented
    XCTAssertFalse(isOrange(try frame(), 165, 75), "\(damage) \(presented) \(loop.framesPresented) \(loop.scene.root.sublayers?.count ?? -1)")
    try assertError(
      #"{"get": {"layer": "badge", "key": "opacity"}}"#,
      "command: get.layer: no layer named 'badge' in the scene", path: "get.layer")
  }

  func testReplaceShowsAnotherSceneFileConfinedToTheScenesFolder() throws {
    try start()
    try write(
      """
      {"lamina": 1, "canvas": {"width": 200, "height": 100, "background": "#ff8000"},
       "root": {"sublayers": [{"name": "only", "frame": [0, 0, 10, 10]}]}}
      """, name: "other.json")
    let reply = try send(#"{"replace": {"file": "other.json"}}"#, at: 1)
    XCTAssertEqual(reply["file"] as? String, "other.json")
    let presentedBefore = loop.framesPresented
    let damageBefore = loop.lastDamage
    let replaced = try frame()
    let again = try frame()
    XCTAssertTrue(
      isOrange(replaced, 100, 50),
      "\(replaced.pixel(100, 50)) again \(again.pixel(100, 50)) panel \(output.panelImage().pixel(100, 50)) presented \(presentedBefore) \(loop.framesPresented) \(damageBefore) \(loop.scene.fileName) \(replaced.width) canvas \(String(describing: loop.renderer.canvasFramebuffer)) panel \(output.presentFramebuffer)")
    XCTAssertEqual(
      try send(#"{"get": {"layer": "only", "key": "bounds"}}"#)["value"] as? [Double],
      [0, 0, 10, 10])
    try assertError(
      #"{"replace": {"file": "../x.json"}}"#,
      "command: replace.file: cannot read '../x.json': not allowed, missing or unreadable; \(FileAccessError.rule)",
      path: "replace.file")
    try write("{\"lamina\": 1, \"canvas\": {}}", name: "bad.json")
    try assertError(
      #"{"replace": {"file": "bad.json"}}"#,
      "bad.json: canvas: missing required key 'width'", path: "canvas")
  }

  func testSubscribeDeliversFramesTapsAndReloads() throws {
    try start()
    let reply = try send(#"{"subscribe": ["frames", "taps", "reloads"]}"#)
    XCTAssertEqual(reply["topics"] as? [String], ["frames", "reloads", "taps"])
    _ = try send(#"{"set": {"layer": "box", "key": "position.x", "value": 50, "disableActions": true}}"#, at: 1)
    var frameEvent: [String: Any]?
    while let line = client.line(timeout: 0.5) {
      let event = try Self.parse(line)
      if event["event"] as? String == "frame" { frameEvent = event }
    }
    XCTAssertEqual(frameEvent?["time"] as? Double, 1)
    XCTAssertGreaterThan(try XCTUnwrap(frameEvent?["damage"] as? Int), 0)
    loop.report(tapAtPanelX: 50, y: 50)
    let tap = try Self.parse(try XCTUnwrap(client.line(timeout: 2)))
    XCTAssertEqual(tap["event"] as? String, "tap")
    XCTAssertEqual(tap["layer"] as? String, "box")
    XCTAssertEqual(tap["x"] as? Double, 50)
    try write(Self.scene.replacingOccurrences(of: "1.00", with: "2.00"))
    // A new modification time, for the watcher.
    let later = Date().addingTimeInterval(5)
    try FileManager.default.setAttributes(
      [.modificationDate: later], ofItemAtPath: folder.appendingPathComponent("scene.json").path)
    loop.checkForReload(now: 10)
    let reload = try Self.parse(try XCTUnwrap(client.line(timeout: 2)))
    XCTAssertEqual(reload["event"] as? String, "reload")
    XCTAssertEqual(reload["file"] as? String, "scene.json")
    XCTAssertEqual(try send(#"{"unsubscribe": "frames"}"#)["topics"] as? [String], ["reloads", "taps"])
  }

  func testSeveralClientsGetTheirOwnRepliesInOrder() throws {
    try start()
    let second = try TestClient(server.address)
    defer { second.close() }
    try client.send(#"{"ping": {}, "id": 1}"#)
    try second.send(#"{"ping": {}, "id": 2}"#)
    try client.send(#"{"get": {"layer": "box", "key": "opacity"}, "id": 3}"#)
    try client.send(#"{"bad json"#)
    var deadline = monotonicSeconds() + 5
    while loop.pendingChanges < 3 && monotonicSeconds() < deadline { usleep(1000) }
    try step(at: 0.1)
    var first: [String] = []
    deadline = monotonicSeconds() + 5
    while first.count < 3 && monotonicSeconds() < deadline {
      if let line = client.line(timeout: 0.1) { first.append(line) }
    }
    let ids = try first.map { try Self.parse($0)["id"] as? Int }
    XCTAssertEqual(ids, [1, 3, nil])
    XCTAssertTrue(first[2].contains("\"error\""))
    XCTAssertEqual(try Self.parse(try XCTUnwrap(second.line(timeout: 2)))["id"] as? Int, 2)
  }

  // MARK: Error replies

  func testEveryErrorReplyNamesThePath() throws {
    try start()
    try assertError(
      #"{"set": 3"#, "command:1:10: expected ',' or '}', found the end of the document", path: "")
    try assertError(
      "[1]", "command: expected a command object such as {\"set\": {…}}, found an array",
      path: "")
    let known =
      "set, transaction, add, remove, add-animation, remove-animation, replace, get, snapshot, ping, auth, subscribe, unsubscribe"
    try assertError(
      #"{"frob": 1}"#, "command: unknown command 'frob'; expected one of \(known)", path: "frob")
    try assertError(
      #"{"ping": {}, "get": {}}"#,
      "command: expected exactly one command (\(known)) and an optional id", path: "")
    try assertError(
      #"{"ping": {}, "id": [1]}"#,
      "command: id: expected a number or a string of at most 256 bytes, found an array", path: "id")
    try assertError(
      #"{"set": {"layer": "nope", "key": "opacity", "value": 1}}"#,
      "command: set.layer: no layer named 'nope' in the scene", path: "set.layer")
    try assertError(
      #"{"set": {"layer": 4, "key": "opacity", "value": 1}}"#,
      "command: set.layer: expected a layer name or JSON path string, found a number",
      path: "set.layer")
    try assertError(
      #"{"set": {"layer": "box", "key": "wobble", "value": 1}}"#,
      "command: set: unknown key 'wobble' for CALayer", path: "set")
    try assertError(
      #"{"set": {"layer": "box", "key": "opacity"}}"#,
      "command: set: missing required key 'value'", path: "set")
    try assertError(
      #"{"set": {"layer": "box", "key": "opacity", "value": "x"}}"#,
      "command: set.value: expected a number, found a string", path: "set.value")
    try assertError(
      #"{"set": {"layer": "box", "key": "bounds", "value": [0, 0, 1e8, 1]}}"#,
      "command: set.value: expected sizes ≥ 0 and ≤ 1000000 points, found 100000000",
      path: "set.value")
    try assertError(
      #"{"set": {"layer": "box", "key": "position.x", "value": 1e300}}"#,
      try messageOfScene(#"{"name": "b", "position": [1e300, 0]}"#, key: "position[0]"),
      path: "set.value")
    try assertError(
      ##"{"set": {"layer": "box", "key": "backgroundColor", "value": "#12"}}"##,
      "command: set.value: expected a color (\"#rrggbb\", \"#rrggbbaa\", [r, g, b, a] or null), found \"#12\"",
      path: "set.value")
    try assertError(
      #"{"set": {"layer": "box", "key": "opacity", "value": 1, "text": "1"}}"#,
      "command: set: give value or text, not both", path: "set.text")
    try assertError(
      #"{"set": {"layer": "box", "key": "opacity", "value": 1, "duration": -1}}"#,
      "command: set.duration: expected a duration ≥ 0 and ≤ 1000000000 seconds, found -1",
      path: "set.duration")
    try assertError(
      #"{"set": {"layer": "box", "key": "opacity", "value": 1, "color": 1}}"#,
      "command: set: unknown key 'color' for the set command", path: "set")
    // A total past a limit once applied: replicators multiply.
    let limit = try send(#"{"set": {"layer": "rep", "key": "instanceCount", "value": 50000}}"#)
    XCTAssertEqual(limit["path"] as? String, "set")
    XCTAssertEqual(
      limit["error"] as? String,
      "command: set: \(LimitExceeded(what: "replicator instances in the tree, multiplied through nesting", found: 150000, limit: Limits.maxInstances, name: "maxInstances")) (at root.sublayers[2].sublayers[0].instanceCount once applied)")
    XCTAssertEqual(
      try send(#"{"get": {"layer": "rep", "key": "instanceCount"}}"#)["value"] as? Int, 2)
    try assertError(
      #"{"add": {"parent": "box", "index": 3, "layer": {}}}"#,
      "command: add.index: expected a whole number from 0 to 0 (the parent's sublayer count), found 3",
      path: "add.index")
    try assertError(
      #"{"add": {"layer": {"class": "CAWhatever"}}}"#,
      "command: add.layer.class: unknown class 'CAWhatever'; expected one of \(SceneLoader.layerClasses.map { "'\($0.name)'" }.joined(separator: ", "))",
      path: "add.layer.class")
    try assertError(
      #"{"add": {"layer": {"sublayers": [{"opacity": true}]}}}"#,
      "command: add.layer.sublayers[0].opacity: expected a number, found a boolean",
      path: "add.layer.sublayers[0].opacity")
    try assertError(
      #"{"remove": {"layer": "root"}}"#,
      "command: remove.layer: only a sublayer can be removed (not the root or a mask)",
      path: "remove.layer")
    try assertError(
      #"{"add-animation": {"layer": "box", "animation": {"keyPath": "wobble"}}}"#,
      "command: add-animation.animation.keyPath: 'wobble' is not an animatable key path of CALayer",
      path: "add-animation.animation.keyPath")
    try assertError(
      #"{"transaction": {"changes": [{"set": {"layer": "box", "key": "opacity", "value": 0}}, {"set": {"layer": "box", "key": "opacity", "value": "x"}}]}}"#,
      "command: transaction.changes[1].set.value: expected a number, found a string",
      path: "transaction.changes[1].set.value")
    // Nothing of a refused transaction was applied.
    XCTAssertEqual(
      try send(#"{"get": {"layer": "box", "key": "opacity"}}"#)["value"] as? Double, 1)
    try assertError(
      #"{"transaction": {"changes": [{"frob": {}}]}}"#,
      "command: transaction.changes[0]: unknown key 'frob' for an edit (set, add, remove, add-animation, remove-animation)",
      path: "transaction.changes[0]")
    try assertError(
      #"{"transaction": {"changes": {}}}"#,
      "command: transaction.changes: expected a list of edits, found an object",
      path: "transaction.changes")
    try assertError(
      #"{"transaction": {"changes": [], "timingFunction": "wobbly"}}"#,
      "command: transaction.timingFunction: 'wobbly' is not one of \(CAMediaTimingFunctionName.all.map { "'\($0.rawValue)'" }.joined(separator: ", "))",
      path: "transaction.timingFunction")
    try assertError(
      #"{"get": {"layer": "box", "key": "wobble"}}"#,
      "command: get: unknown key 'wobble' for CALayer", path: "get")
    try assertError(
      #"{"snapshot": {"file": "/etc/x.png"}}"#,
      "command: snapshot.file: cannot write '/etc/x.png': a snapshot is a .png file beneath --output-root (no absolute paths, no '..' or links that lead out)",
      path: "snapshot.file")
    try assertError(
      #"{"snapshot": {"file": "frame.jpg"}}"#,
      "command: snapshot.file: cannot write 'frame.jpg': a snapshot is a .png file beneath --output-root (no absolute paths, no '..' or links that lead out)",
      path: "snapshot.file")
    try assertError(
      #"{"subscribe": ["frames", "weather"]}"#,
      "command: subscribe[1]: 'weather' is not one of 'taps', 'frames', 'stats', 'reloads'",
      path: "subscribe[1]")
    // The scene kept running: it still answers and draws.
    XCTAssertEqual(try send(#"{"ping": {}}"#)["ok"] as? Bool, true)
  }

  func testATransactionRefusedAtTheLimitsLeavesTheModelAsItWas() throws {
    try start(
      Self.scene.replacingOccurrences(
        of: ##""backgroundColor": "#ff8000"}"##,
        with: ##""backgroundColor": "#ff8000", "transform": [{"rotate": [30, 0, 0, 1]}]}"##))
    let bounds = try send(#"{"get": {"layer": "box", "key": "bounds"}}"#)["value"] as? [Double]
    let position = try send(#"{"get": {"layer": "box", "key": "position"}}"#)["value"] as? [Double]
    let refused = try send(
      #"{"transaction": {"changes": [{"set": {"layer": "box", "key": "frame", "value": [5, 5, 50, 30]}}, {"set": {"layer": "box", "key": "transform.rotation.z", "value": 1}}, {"set": {"layer": "rep", "key": "instanceCount", "value": 50000}}]}}"#,
      at: 1)
    XCTAssertEqual(refused["path"] as? String, "transaction")
    XCTAssertEqual(
      try send(#"{"get": {"layer": "box", "key": "bounds"}}"#)["value"] as? [Double], bounds)
    XCTAssertEqual(
      try send(#"{"get": {"layer": "box", "key": "position"}}"#)["value"] as? [Double], position)
    // 30 radians, as the transform keeps it.
    let angle = try send(#"{"get": {"layer": "box", "key": "transform.rotation.z"}}"#)["value"]
    XCTAssertEqual(try XCTUnwrap(angle as? Double), atan2(sin(30), cos(30)), accuracy: 1e-9)
    XCTAssertEqual(
      try send(#"{"get": {"layer": "rep", "key": "instanceCount"}}"#)["value"] as? Int, 2)
  }

  /// What the scene loader says of a value in a file, with the command's
  /// place instead of the file's.
  private func messageOfScene(_ layer: String, key: String) throws -> String {
    let json = """
      {"lamina": 1, "canvas": {"width": 10, "height": 10}, "root": {"sublayers": [\(layer)]}}
      """
    do {
      _ = try SceneLoader.load(data: Data(json.utf8), baseURL: nil, fileName: "command")
    } catch let error as SceneError {
      return "\(error)".replacingOccurrences(
        of: "root.sublayers[0].\(key)", with: "set.value")
    }
    XCTFail("the scene loaded")
    return ""
  }


  func testSnapshotsAreOffWithoutAnOutputRoot() throws {
    let renderer = try Self.renderer()
    output = try HeadlessOutput(width: 200, height: 100, paced: false, context: renderer.context)
    loop = DisplayLoop(
      output: output, watcher: try SceneWatcher(url: try write(Self.scene)), renderer: renderer)
    server = try ControlServer(
      address: .unix(path: folder.appendingPathComponent("c.sock").path), loop: loop,
      policy: ControlPolicy())
    server.start()
    client = try TestClient(server.address)
    try step(at: 0)
    try assertError(
      #"{"snapshot": {"file": "a.png"}}"#,
      "command: snapshot: snapshots are off; start lamina show with --output-root DIR",
      path: "snapshot")
  }

  // MARK: Floods and tokens

  func testPastItsQueueAClientGetsErrorsInOrder() throws {
    try start()
    let count = ControlServer.maxInFlight + 6
    try client.send(String(repeating: #"{"ping": {}}"# + "\n", count: count - 1) + #"{"ping": {}}"#)
    var deadline = monotonicSeconds() + 5
    while loop.pendingChanges < ControlServer.maxInFlight && monotonicSeconds() < deadline {
      usleep(1000)
    }
    usleep(50_000)
    XCTAssertEqual(loop.pendingChanges, ControlServer.maxInFlight)
    try step(at: 0.5)
    var replies: [[String: Any]] = []
    deadline = monotonicSeconds() + 5
    while replies.count < count && monotonicSeconds() < deadline {
      if let line = client.line(timeout: 0.1) { replies.append(try Self.parse(line)) }
    }
    XCTAssertEqual(replies.count, count)
    XCTAssertEqual(replies.prefix(ControlServer.maxInFlight).filter { $0["ok"] as? Bool == true }.count, 64)
    for reply in replies.suffix(6) {
      XCTAssertEqual(
        reply["error"] as? String,
        "command: 64 commands are already waiting for the display; wait for their replies")
    }
  }

  func testAFloodingClientIsDisconnectedAndTheDisplayRuns() throws {
    try start()
    // Never read; the loop does not step: commands pile up.
    let flood = String(
      repeating: #"{"ping": {}}"# + "\n",
      count: ControlServer.maxInFlight + ControlServer.maxRefusals + 10)
    try? client.send(String(flood.dropLast()))
    XCTAssertTrue(client.isClosed(timeout: 5))
    XCTAssertEqual(loop.pendingChanges, ControlServer.maxInFlight)
    // The loop drains what was accepted (no one to answer), and a new
    // client is served.
    try step(at: 0.5)
    XCTAssertEqual(loop.pendingChanges, 0)
    client = try TestClient(server.address)
    XCTAssertEqual(try send(#"{"ping": {}}"#)["ok"] as? Bool, true)
    // Lines past the longest are refused, and the client can go on.
    try client.send(String(repeating: "x", count: ControlServer.maxLineBytes + 10))
    let long = try Self.parse(try XCTUnwrap(client.line(timeout: 5)))
    XCTAssertEqual(
      long["error"] as? String,
      "a command line is longer than \(ControlServer.maxLineBytes) bytes; the rest of it is skipped")
    XCTAssertEqual(try send(#"{"ping": {}}"#)["ok"] as? Bool, true)
  }

  func testATokenIsRequiredFirstWhenConfigured() throws {
    try start(token: "0123456789abcdef-secret")
    try assertError(
      #"{"ping": {}}"#, "command: auth: this display needs {\"auth\": TOKEN} first", path: "auth")
    XCTAssertTrue(client.isClosed(timeout: 2))
    client = try TestClient(server.address)
    try assertError(
      #"{"auth": "wrong"}"#, "command: auth: this display needs {\"auth\": TOKEN} first",
      path: "auth")
    client = try TestClient(server.address)
    XCTAssertEqual(try send(#"{"auth": "0123456789abcdef-secret"}"#)["ok"] as? Bool, true)
    XCTAssertEqual(try send(#"{"ping": {}}"#)["ok"] as? Bool, true)
  }

  // MARK: The Swift API

  func testScheduleAppliesAChangeSetAtTheNextFrameBoundaryFromAnyThread() throws {
    try start()
    let done = expectation(description: "applied")
    let finished = Flag()
    DispatchQueue.global().async {
      var change = DisplayChange(duration: 0.5, timingFunction: CAMediaTimingFunction(name: .linear)) {
        editor in
        editor.layer(named: "box")?.position.x = 110
      }
      change.applied = { error in
        XCTAssertNil(error)
        done.fulfill()
      }
      change.finished = { finished.value = true }
      XCTAssertTrue(self.loop.schedule(change))
    }
    let deadline = monotonicSeconds() + 5
    while loop.pendingChanges == 0 && monotonicSeconds() < deadline { usleep(1000) }
    try step(at: 2)
    wait(for: [done], timeout: 1)
    try step(at: 2.25)
    let box = try XCTUnwrap(loop.scene.layer(named: "box"))
    let shown = try XCTUnwrap(loop.scene.root.sublayers?.first).position.x
    XCTAssertEqual(shown, 110)
    var presented: CGFloat?
    loop.schedule { editor in presented = editor.presentationLayer(for: box)?.position.x }
    try step(at: 2.25)
    XCTAssertEqual(try XCTUnwrap(presented), 60, accuracy: 1e-6)
    XCTAssertFalse(finished.value)
    try step(at: 2.6)
    XCTAssertTrue(finished.value)
  }
}

/// A flag set on one thread, read on another.
final class Flag: @unchecked Sendable {
  private let lock = NSLock()
  private var stored = false
  var value: Bool {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// A blocking client of the channel, with timeouts.
final class TestClient {
  let descriptor: Int32
  private var buffer: [UInt8] = []
  private var closed = false

  init(_ address: ControlAddress) throws {
    descriptor = try ControlListener.connect(address)
  }

  func send(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes {
        Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard n > 0 else { throw ControlSetupError("send failed") }
      offset += n
    }
  }

  /// The next line, or nil when none comes within `timeout` seconds.
  func line(timeout: Double) -> String? {
    let deadline = monotonicSeconds() + timeout
    while true {
      if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
      }
      let left = deadline - monotonicSeconds()
      guard left > 0, !closed else { return nil }
      var fd = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&fd, 1, Int32(max(1, left * 1000))) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let n = recv(descriptor, &chunk, chunk.count, 0)
      if n <= 0 {
        closed = true
        return nil
      }
      buffer += chunk[..<n]
    }
  }

  /// Whether the server closed the connection (lines still waiting are read and dropped).
  func isClosed(timeout: Double) -> Bool {
    while line(timeout: timeout) != nil {}
    return closed
  }

  func close() { Glibc.close(descriptor) }
}
