import CGLES3
import Foundation
import Lamina
@testable import LaminaDisplay
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// A display made of offscreen framebuffers on the test context: a swap
/// chain of `bufferCount` buffers with true buffer ages, so that what the
/// loop repairs in each buffer is checked pixel for pixel.
final class FakeOutput: DisplayOutput {
  let context: GPUContext
  private(set) var bufferWidth: Int
  private(set) var bufferHeight: Int
  let rotation: DisplayRotation
  let refreshRate = 60.0
  var summary: String { "fake \(bufferWidth)x\(bufferHeight)" }
  private var framebuffers: [GLuint] = []
  private var textures: [GLuint] = []
  /// Presents since each buffer was last shown (0: never drawn).
  private var lastShown: [Int?]
  private var presents = 0
  private var back = 0
  private(set) var front: Int?
  var queued: [DisplayEvent] = []
  private(set) var presentedDamage: [[PixelRect]] = []
  private(set) var closed = false
  /// Report age 0 always (a driver without EGL_EXT_buffer_age).
  var ageUnknown = false

  init(
    context: GPUContext, width: Int, height: Int, rotation: DisplayRotation = .none,
    bufferCount: Int = 3
  ) {
    self.context = context
    bufferWidth = width
    bufferHeight = height
    self.rotation = rotation
    lastShown = Array(repeating: nil, count: bufferCount)
    allocate(count: bufferCount)
  }

  /// New buffers of the new size, never drawn, and a `.resized` event (a
  /// window the compositor configured anew).
  func resize(width: Int, height: Int) {
    context.makeCurrent()
    glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
    glDeleteTextures(GLsizei(textures.count), textures)
    framebuffers = []
    textures = []
    bufferWidth = width
    bufferHeight = height
    lastShown = Array(repeating: nil, count: lastShown.count)
    allocate(count: lastShown.count)
    queued.append(.resized)
  }

  private func allocate(count bufferCount: Int) {
    let (width, height) = (bufferWidth, bufferHeight)
    context.makeCurrent()
    for _ in 0..<bufferCount {
      var texture: GLuint = 0
      glGenTextures(1, &texture)
      glBindTexture(GLenum(GL_TEXTURE_2D), texture)
      glTexStorage2D(GLenum(GL_TEXTURE_2D), 1, GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
      var framebuffer: GLuint = 0
      glGenFramebuffers(1, &framebuffer)
      glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
      glFramebufferTexture2D(
        GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
      // Garbage a buffer never drawn would show: loud magenta.
      glClearColor(1, 0, 1, 1)
      glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
      textures.append(texture)
      framebuffers.append(framebuffer)
    }
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
  }

  deinit {
    context.makeCurrent()
    glDeleteFramebuffers(GLsizei(framebuffers.count), framebuffers)
    glDeleteTextures(GLsizei(textures.count), textures)
  }

  var presentFramebuffer: UInt32 { framebuffers[back] }

  func bufferAge() -> Int {
    guard !ageUnknown, let shown = lastShown[back] else { return 0 }
    // 1: the buffer holds the frame presented last.
    return presents - shown + 1
  }

  func present(damage: [PixelRect]) throws {
    presents += 1
    lastShown[back] = presents
    front = back
    back = (back + 1) % framebuffers.count
    presentedDamage.append(damage)
    queued.append(.frameDone(time: Double(presents) / 60))
  }

  func waitForEvents(timeout: Double?, alsoWatching: [Int32]) throws -> (
    events: [DisplayEvent], readable: Set<Int32>
  ) {
    defer { queued.removeAll() }
    return (queued, [])
  }

  func close() { closed = true }

  /// The buffer on screen, as panel rows top-down, RGBA.
  func frontPixels() -> [UInt8] {
    guard let front else { return [] }
    context.makeCurrent()
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffers[front])
    var pixels = [UInt8](repeating: 0, count: bufferWidth * bufferHeight * 4)
    glReadPixels(
      0, 0, GLsizei(bufferWidth), GLsizei(bufferHeight), GLenum(GL_RGBA),
      GLenum(GL_UNSIGNED_BYTE), &pixels)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
    // GL rows run bottom-up.
    var flipped = [UInt8](repeating: 0, count: pixels.count)
    let row = bufferWidth * 4
    for y in 0..<bufferHeight {
      flipped[(bufferHeight - 1 - y) * row..<(bufferHeight - y) * row] =
        pixels[y * row..<(y + 1) * row]
    }
    return flipped
  }
}

final class DisplayLoopTests: XCTestCase {
  private var folder: URL!

  override func setUpWithError() throws {
    folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("lamina-loop-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: folder)
  }

  /// A 200×100 scene: a gradient backdrop, a shadowed card that never
  /// moves, and a 10×10 square (`dot`) sliding right 2 points a frame
  /// (at 60 fps) for one second; then everything rests.
  private let movingScene = """
    {"lamina": 1, "canvas": {"width": 200, "height": 100, "background": "#204060"},
     "root": {"sublayers": [
       {"class": "CAGradientLayer", "frame": [0, 0, 200, 100],
        "colors": ["#102030", "#305070"], "startPoint": [0, 0], "endPoint": [1, 1]},
       {"name": "card", "frame": [120, 20, 60, 60], "backgroundColor": "#f0f0f0",
        "cornerRadius": 8, "shadowOpacity": 0.5, "shadowRadius": 4},
       {"name": "dot", "frame": [10, 45, 10, 10], "backgroundColor": "#ff8000",
        "animations": [{"keyPath": "position.x", "fromValue": 15, "toValue": 135,
                        "duration": 1, "timingFunction": "linear", "fillMode": "both"}]}
     ]}}
    """

  private func write(_ text: String, name: String = "scene.json") throws -> URL {
    let url = folder.appendingPathComponent(name)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url
  }

  private func makeLoop(
    _ scene: String, width: Int = 200, height: Int = 100, rotation: DisplayRotation = .none,
    showDamage: Bool = false
  ) throws -> (DisplayLoop, FakeOutput) {
    let renderer = try RenderTestSupport.renderer()
    let output = FakeOutput(
      context: renderer.context, width: width, height: height, rotation: rotation)
    let watcher = try SceneWatcher(url: try write(scene))
    let loop = DisplayLoop(
      output: output, watcher: watcher, renderer: renderer,
      options: DisplayLoop.Options(showDamage: showDamage))
    return (loop, output)
  }

  private func expectedPanel(
    _ url: URL, time: Double, width: Int, height: Int, rotation: DisplayRotation = .none
  ) throws -> [UInt8] {
    try RenderTestSupport.panel(url, time: time, width: width, height: height, rotation: rotation)
  }

  private func assertSame(
    _ actual: [UInt8], _ expected: [UInt8], _ what: String, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let comparison = ImageComparison(actual: actual, expected: expected, threshold: 0)
    XCTAssertEqual(comparison.pixelsOff, 0, "\(what): \(comparison.summary)", file: file, line: line)
  }

  func testAMovingDotRedrawsOnlyItsOldAndNewBoundsAndEveryBufferMatchesAFullRender() throws {
    let (loop, output) = try makeLoop(movingScene)
    let url = folder.appendingPathComponent("scene.json")
    XCTAssertTrue(try loop.step(now: 0))
    XCTAssertEqual(loop.lastDamage, [PixelRect(x: 0, y: 0, width: 200, height: 100)])
    assertSame(
      output.frontPixels(), try expectedPanel(url, time: 0, width: 200, height: 100), "frame 0")
    for n in 1...6 {
      try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
      let time = Double(n) / 60
      XCTAssertTrue(try loop.step(now: time))
      // The dot's old and new bounds, 2 points apart (edge coverage
      // reaches a pixel past each side): 12×12 each, nothing else of the
      // 20,000 pixels of the panel.
      let x = 9 + 2 * n
      XCTAssertEqual(
        loop.lastDamage,
        [PixelRect(x: x, y: 44, width: 12, height: 12), PixelRect(x: x - 2, y: 44, width: 12, height: 12)],
        "frame \(n)")
      // Buffers are reused three frames on: each repair adds what the
      // buffer missed, and the screen is always the full frame.
      assertSame(
        output.frontPixels(), try expectedPanel(url, time: time, width: 200, height: 100),
        "frame \(n)")
    }
    XCTAssertEqual(loop.pacer.statistics.damageAreas.count, 7)
  }

  func testWithoutBufferAgeEveryPresentCopiesTheWholePanel() throws {
    let (loop, output) = try makeLoop(movingScene)
    output.ageUnknown = true
    try loop.step(now: 0)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    try loop.step(now: 1.0 / 60)
    XCTAssertLessThan(loop.lastDamage.reduce(0) { $0 + $1.area }, 300)
    XCTAssertEqual(loop.lastRepair, [PixelRect(x: 0, y: 0, width: 200, height: 100)])
  }

  func testAStaticSceneDrawsOnceAndASettledOneStopsBuildingFrames() throws {
    let (loop, output) = try makeLoop(movingScene)
    try loop.step(now: 0)
    // Past the animation's end: drawn once more (the dot's final place)…
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    XCTAssertTrue(try loop.step(now: 1.5))
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    // …then nothing changes: no damage, no present.
    XCTAssertFalse(try loop.step(now: 1.6))
    let built = loop.framesBuilt
    // Settled: later vblanks do not even build a frame.
    for t in [2.0, 10.0, 1000.0] { XCTAssertFalse(try loop.step(now: t)) }
    XCTAssertEqual(loop.framesBuilt, built)
    XCTAssertEqual(loop.framesPresented, 2)
    XCTAssertEqual(output.presentedDamage.count, 2)
  }

  func testRotatedAndLetterboxedPanelsMatchAFullRender() throws {
    // A 200×100 scene on a 120×320 portrait panel turned 90°: it fits
    // 240×120 of the turned panel... scaled to 320 wide at most: 1.2×.
    for rotation in DisplayRotation.allCases {
      let (loop, output) = try makeLoop(
        movingScene, width: 120, height: 320, rotation: rotation)
      let url = folder.appendingPathComponent("scene.json")
      try loop.step(now: 0.25)
      assertSame(
        output.frontPixels(),
        try expectedPanel(url, time: 0.25, width: 120, height: 320, rotation: rotation),
        "rotation \(rotation.rawValue)")
    }
  }

  func testAResizedWindowIsRedrawnWholeAtItsNewSize() throws {
    let (loop, output) = try makeLoop(movingScene)
    let url = folder.appendingPathComponent("scene.json")
    try loop.step(now: 0)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    output.resize(width: 300, height: 300)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    XCTAssertTrue(try loop.step(now: 0.1))
    XCTAssertEqual(loop.lastDamage, [PixelRect(x: 0, y: 0, width: 300, height: 300)])
    assertSame(
      output.frontPixels(), try expectedPanel(url, time: 0.1, width: 300, height: 300), "resized")
  }

  func testShowDamageTintsOnlyTheRedrawnRects() throws {
    let (loop, output) = try makeLoop(movingScene, showDamage: true)
    let url = folder.appendingPathComponent("scene.json")
    try loop.step(now: 0)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    try loop.step(now: 0.5)
    let shown = output.frontPixels()
    let plain = try expectedPanel(url, time: 0.5, width: 200, height: 100)
    let damage = loop.lastDamage
    var tinted = 0
    var differsOutside = 0
    for y in 0..<100 {
      for x in 0..<200 {
        let i = (y * 200 + x) * 4
        let differs = (0..<3).contains { shown[i + $0] != plain[i + $0] }
        if damage.contains(where: { $0.intersects(PixelRect(x: x, y: y, width: 1, height: 1)) }) {
          if differs { tinted += 1 }
        } else if differs {
          differsOutside += 1
        }
      }
    }
    // The dot where it was (x 10) and where it is (x 70): two apart rects.
    XCTAssertEqual(damage.count, 2)
    XCTAssertFalse(damage[0].intersects(damage[1]))
    XCTAssertEqual(tinted, damage[0].area + damage[1].area)
    // This buffer was never shown: it is repaired whole, untinted.
    XCTAssertEqual(differsOutside, 0)
  }

  func testTapsNameTheLayerHitInScenePoints() throws {
    // The 200×100 scene on a 400×400 panel: scale 2, 100 px letterbox above and below.
    let (loop, output) = try makeLoop(movingScene, width: 400, height: 400)
    var lines: [String] = []
    loop.eventHandler = { lines.append($0) }
    try loop.step(now: 0)
    // Inside the card at (150, 50) points: panel (300, 200).
    loop.report(tapAtPanelX: 300, y: 200)
    // The gradient and the root have no name: nothing to report.
    loop.report(tapAtPanelX: 20, y: 120)
    // The letterbox: outside the scene.
    loop.report(tapAtPanelX: 200, y: 50)
    // The dot at time 0 sits at x 10…20.
    loop.report(tapAtPanelX: 31, y: 201)
    XCTAssertEqual(lines, ["tap card 150.0 50.0", "tap dot 15.5 50.5"])
    _ = output
  }

  func testRunStopsAfterTheFramesAskedAndReportsStatistics() throws {
    let (loop, output) = try makeLoop(movingScene)
    var now = 0.0
    loop.clock = {
      now += 1.0 / 60
      return now
    }
    var logged: [String] = []
    loop.log = { logged.append($0) }
    loop.options.maxFrames = 10
    loop.options.statsInterval = 1000
    try loop.run()
    XCTAssertEqual(loop.framesPresented, 10)
    XCTAssertEqual(output.presentedDamage.count, 10)
    XCTAssertEqual(loop.pacer.statistics.presented, 10)
    XCTAssertTrue(logged.last?.hasPrefix("stats: presented 10 frames") == true, "\(logged)")
  }

  func testAnEditReplacesTheSceneAndABadOneKeepsIt() throws {
    let (loop, output) = try makeLoop(movingScene)
    var logged: [String] = []
    loop.log = { logged.append($0) }
    try loop.step(now: 0)
    try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    let url = folder.appendingPathComponent("scene.json")
    // Another size on disk (stamps differ by size even within a second).
    let edited = movingScene.replacingOccurrences(of: "#ff8000", with: "#00ff80ff")
    try edited.write(to: url, atomically: true, encoding: .utf8)
    loop.checkForReload(now: 10)
    XCTAssertEqual(logged, ["reloaded scene.json"])
    XCTAssertTrue(try loop.step(now: 10))
    // Only the recolored dot changed: the old frame stays the base.
    XCTAssertLessThan(loop.lastDamage.reduce(0) { $0 + $1.area }, 200)
    assertSame(output.frontPixels(), try expectedPanel(url, time: 0, width: 200, height: 100), "edit")

    try "{\"lamina\": 1, \"canvas\": {\"width\": 200}}".write(
      to: url, atomically: true, encoding: .utf8)
    loop.checkForReload(now: 20)
    XCTAssertEqual(logged.count, 2)
    XCTAssertTrue(logged[1].contains("canvas"), logged[1])
    XCTAssertTrue(logged[1].hasSuffix("still showing the last scene that loaded"), logged[1])
    XCTAssertEqual(loop.watcher.scene.canvas.width, 200)
  }

  func testSettledTimeIsTheEndOfTheLastAnimation() throws {
    let scene = try SceneLoader.load(contentsOf: try write(movingScene))
    XCTAssertEqual(try XCTUnwrap(scene.root.settledTime()), 1, accuracy: 1e-9)
    let forever = movingScene.replacingOccurrences(
      of: "\"duration\": 1,", with: "\"duration\": 1, \"repeatCount\": \"infinity\",")
    XCTAssertNil(try SceneLoader.load(contentsOf: try write(forever, name: "f.json")).root.settledTime())
    let delayed = movingScene.replacingOccurrences(
      of: "\"duration\": 1,", with: "\"duration\": 1, \"beginTime\": 2, \"speed\": 2,")
    XCTAssertEqual(
      try XCTUnwrap(SceneLoader.load(contentsOf: try write(delayed, name: "d.json")).root.settledTime()),
      2.5, accuracy: 1e-9)
  }
}
