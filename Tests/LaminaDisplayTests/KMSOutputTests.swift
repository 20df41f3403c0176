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

/// The KMS output's state machine against a recording driver and surface
/// (no card, no GPU): CRTC choice, modeset then flips, buffer release
/// order, framebuffer caching, atomic and legacy, restore on close and after
/// errors; then a display loop stopped by SIGTERM, and the real libdrm
/// binding where no card exists.
final class KMSOutputTests: XCTestCase {
  private func message(_ body: () throws -> Void) -> String {
    do {
      try body()
      return "no error"
    } catch { return "\(error)" }
  }

  /// Two frames: the modeset (its completion taken), then a flip left pending.
  private func modesetThenFlip(_ scanout: KMSScanout) throws {
    try scanout.present(damage: [])
    _ = scanout.waitForEvents(timeout: 0, alsoWatching: [])
    try scanout.present(damage: [])
  }

  private func makeScanout(
    _ driver: RecordingDriver, _ surface: RecordingSurface = RecordingSurface(),
    log: @escaping (String) -> Void = { _ in }
  ) throws -> KMSScanout {
    let connector = driver.list[1]
    let scanout = try KMSScanout(
      driver: driver, connector: connector, mode: connector.modes[0], log: log
    ) { width, height in
      driver.calls.append("makeSurface \(width)x\(height)")
      return surface
    }
    scanout.clock = { 50 }
    return scanout
  }

  func testCRTCIsTheConnectorsOwnElseAFreeOneNeverAnotherDisplays() throws {
    let driver = RecordingDriver()
    let scanout = try makeScanout(driver)
    XCTAssertEqual(scanout.crtc, 41, "the CRTC the connector's encoder drives")
    XCTAssertEqual(scanout.saved.framebuffer, 7)
    XCTAssertEqual(
      driver.calls,
      ["becomeMaster", "crtcs 32", "crtcState 41", "enableAtomic 41 32", "makeSurface 64x48"])

    let spare = RecordingDriver()
    spare.candidates = [
      CRTCCandidate(id: 40, current: false, active: true),
      CRTCCandidate(id: 42, current: false, active: false),
    ]
    let second = try makeScanout(spare)
    XCTAssertEqual(second.crtc, 42, "not 40, which shows another display")
    XCTAssertNil(second.saved.mode, "42 was off: it is switched off again on close")

    let busy = RecordingDriver()
    busy.candidates = [CRTCCandidate(id: 40, current: false, active: true)]
    XCTAssertEqual(
      message { _ = try makeScanout(busy) },
      "/dev/dri/card7: no free CRTC can drive connector 'HDMI-A-1' (each one drives another display)"
    )
    XCTAssertEqual(busy.calls.last, "dropMaster", "master is given back when setup fails")
  }

  func testSetupErrorsGiveMasterBack() {
    let driver = RecordingDriver()
    driver.failing = ["crtcState"]
    XCTAssertEqual(
      message { _ = try makeScanout(driver) }, "/dev/dri/card7: crtcState failed: Invalid argument")
    XCTAssertEqual(driver.calls, ["becomeMaster", "crtcs 32", "crtcState 41", "dropMaster"])

    let noSurface = RecordingDriver()
    XCTAssertThrowsError(
      try KMSScanout(
        driver: noSurface, connector: noSurface.list[1], mode: noSurface.list[1].modes[0]
      ) {
        _, _ in throw KMSError.failed(device: "/dev/dri/card7", step: "gbm", reason: "no memory")
      })
    XCTAssertEqual(noSurface.calls.last, "dropMaster")

    let notMaster = RecordingDriver()
    notMaster.master = false
    var lines: [String] = []
    notMaster.failing = ["crtcs"]
    _ = try? makeScanout(notMaster, log: { lines.append($0) })
    XCTAssertFalse(
      notMaster.calls.contains("dropMaster"), "master that was never held is not dropped")
    XCTAssertEqual(
      lines, ["/dev/dri/card7: not DRM master; setting the mode fails if a display server runs"])
  }

  func testLegacyModesetFirstThenOneFlipAtATimeReleasingTheBufferItReplaces() throws {
    let driver = RecordingDriver()
    let surface = RecordingSurface()
    let scanout = try makeScanout(driver, surface)
    driver.calls = []

    try scanout.present(damage: [])
    XCTAssertEqual(
      driver.calls, ["addFB handle 1", "setCRTC 41 connector 32 64x48@60 fb 101", "hideCursor 41"])
    XCTAssertEqual(surface.calls, ["swap ", "lock 1"])
    // The modeset is synchronous: done at once, without waiting on the card.
    let first = scanout.waitForEvents(timeout: 5, alsoWatching: [])
    XCTAssertEqual(first.events, [.frameDone(time: 50)])
    XCTAssertEqual(scanout.shown?.handle, 1)

    driver.calls = []
    try scanout.present(damage: [])
    XCTAssertEqual(driver.calls, ["addFB handle 2", "pageFlip 41 fb 102"])
    XCTAssertEqual(scanout.pending?.handle, 2)
    XCTAssertEqual(
      message { try scanout.present(damage: []) }, "a page flip was queued while another is pending"
    )
    XCTAssertEqual(scanout.waitForEvents(timeout: 0, alsoWatching: []).events, [])

    driver.completeFlip(at: 100.5)
    XCTAssertEqual(
      scanout.waitForEvents(timeout: 5, alsoWatching: []).events, [.frameDone(time: 100.5)])
    XCTAssertEqual(surface.calls.suffix(2), ["lock 2", "release 1"], "1 left the screen")
    XCTAssertNil(scanout.pending)

    for time in [101.0, 102.0] {
      try scanout.present(damage: [])
      driver.completeFlip(at: time)
      _ = scanout.waitForEvents(timeout: 5, alsoWatching: [])
    }
    XCTAssertEqual(
      driver.calls.filter { $0.hasPrefix("addFB") }, ["addFB handle 2", "addFB handle 3"],
      "buffer 1 came round again and kept its framebuffer")
    XCTAssertEqual(
      driver.calls.filter { $0.hasPrefix("pageFlip") },
      ["pageFlip 41 fb 102", "pageFlip 41 fb 103", "pageFlip 41 fb 101"])
    XCTAssertEqual(
      surface.calls,
      [
        "swap ", "lock 1", "swap ", "lock 2", "release 1", "swap ", "lock 3", "release 2",
        "swap ", "lock 1", "release 3",
      ])
  }

  func testDamageGoesToEGLBottomUp() throws {
    let surface = RecordingSurface()
    let scanout = try makeScanout(RecordingDriver(), surface)
    try scanout.present(damage: [PixelRect(x: 10, y: 0, width: 20, height: 8)])
    XCTAssertEqual(surface.calls.first, "swap 10,40 20x8", "48 − 0 − 8: the top rows")
  }

  func testWatchedDescriptorsAreReportedWithTheEvents() throws {
    let driver = RecordingDriver()
    let scanout = try makeScanout(driver)
    var ends: [Int32] = [-1, -1]
    XCTAssertEqual(pipe(&ends), 0)
    defer { ends.forEach { _ = Foundation.close($0) } }
    var byte: UInt8 = 1
    _ = write(ends[1], &byte, 1)
    let result = scanout.waitForEvents(timeout: 5, alsoWatching: [ends[0]])
    XCTAssertEqual(result.events, [])
    XCTAssertEqual(result.readable, [ends[0]])
    XCTAssertFalse(result.readable.contains(driver.fd))
  }

  func testAtomicCommitsAndTheLegacyFallbackWhenTheModesetIsRefused() throws {
    let driver = RecordingDriver()
    driver.hasAtomic = true
    let scanout = try makeScanout(driver)
    XCTAssertTrue(scanout.usesAtomic)
    driver.calls = []
    try modesetThenFlip(scanout)
    XCTAssertEqual(
      driver.calls,
      [
        "addFB handle 1", "commitModeset 41 connector 32 64x48@60 fb 101 64x48", "hideCursor 41",
        "addFB handle 2", "commitFlip 41 fb 102",
      ])

    let refusing = RecordingDriver()
    refusing.hasAtomic = true
    refusing.failing = ["commitModeset"]
    var lines: [String] = []
    let fallback = try makeScanout(refusing, log: { lines.append($0) })
    refusing.calls = []
    try modesetThenFlip(fallback)
    XCTAssertFalse(fallback.usesAtomic)
    XCTAssertEqual(
      refusing.calls,
      [
        "addFB handle 1", "commitModeset 41 connector 32 64x48@60 fb 101 64x48",
        "setCRTC 41 connector 32 64x48@60 fb 101", "hideCursor 41", "addFB handle 2",
        "pageFlip 41 fb 102",
      ])
    XCTAssertEqual(
      lines, ["/dev/dri/card7: commitModeset failed: Invalid argument; using legacy modesetting"])
  }

  func testCloseRestoresTheCRTCThenRemovesFramebuffersReleasesBuffersAndDropsMasterOnce() throws {
    let driver = RecordingDriver()
    let surface = RecordingSurface()
    let scanout = try makeScanout(driver, surface)
    try modesetThenFlip(scanout)
    scanout.closeTimeout = 0.05
    driver.calls = []
    surface.calls = []
    scanout.close()
    XCTAssertEqual(
      driver.calls,
      ["restore 41 connector 32 fb 7 1024x768@60", "rmFB 101", "rmFB 102", "dropMaster"],
      "the flip never completed: after a short wait the console comes back all the same")
    XCTAssertEqual(surface.calls, ["release 2", "release 1"])
    XCTAssertEqual(driver.states[41]?.framebuffer, 7)

    driver.calls = []
    scanout.close()
    XCTAssertEqual(driver.calls, [], "a second close does nothing")
    XCTAssertEqual(
      scanout.waitForEvents(timeout: 0, alsoWatching: []).events, [.closed])
    XCTAssertEqual(
      message { try scanout.present(damage: []) },
      "/dev/dri/card7: presenting failed: the output is closed")
  }

  func testCloseLetsAPendingFlipLandFirst() throws {
    let driver = RecordingDriver()
    let surface = RecordingSurface()
    let scanout = try makeScanout(driver, surface)
    try modesetThenFlip(scanout)
    driver.completeFlip(at: 120)
    driver.calls = []
    surface.calls = []
    scanout.close()
    XCTAssertEqual(
      driver.calls.prefix(2), ["handleEvents", "restore 41 connector 32 fb 7 1024x768@60"])
    XCTAssertEqual(surface.calls, ["release 1", "release 2"], "1 on landing, then 2 on close")
  }

  func testCloseBeforeAnyFrameLeavesTheScreenAlone() throws {
    let driver = RecordingDriver()
    let scanout = try makeScanout(driver)
    driver.calls = []
    scanout.close()
    XCTAssertEqual(driver.calls, ["dropMaster"])
  }

  func testAFreeCRTCIsSwitchedOffAgain() throws {
    let driver = RecordingDriver()
    driver.candidates = [CRTCCandidate(id: 42, current: false, active: false)]
    let scanout = try makeScanout(driver)
    try scanout.present(damage: [])
    driver.calls = []
    scanout.close()
    XCTAssertEqual(driver.calls.first, "restore 42 connector 32 fb 0 off")
  }

  func testFailuresMidwayReleaseTheBufferAndCloseStillRestores() throws {
    let driver = RecordingDriver()
    let surface = RecordingSurface()
    let scanout = try makeScanout(driver, surface)
    try scanout.present(damage: [])
    _ = scanout.waitForEvents(timeout: 0, alsoWatching: [])
    driver.failing = ["pageFlip"]
    XCTAssertEqual(
      message { try scanout.present(damage: []) },
      "/dev/dri/card7: pageFlip failed: Invalid argument")
    XCTAssertEqual(surface.calls.last, "release 2", "the buffer that never reached the screen")
    XCTAssertNil(scanout.pending)
    driver.failing = ["restore"]
    var lines: [String] = []
    scanout.log = { lines.append($0) }
    scanout.close()
    XCTAssertEqual(
      lines,
      [
        "/dev/dri/card7: restore failed: Invalid argument; the display keeps the last frame until"
          + " another program sets a mode"
      ])
    XCTAssertEqual(driver.calls.suffix(3), ["rmFB 101", "rmFB 102", "dropMaster"])

    let unmodeset = RecordingDriver()
    unmodeset.failing = ["setCRTC"]
    let surface2 = RecordingSurface()
    let first = try makeScanout(unmodeset, surface2)
    XCTAssertThrowsError(try first.present(damage: []))
    XCTAssertFalse(first.modeIsSet)
    XCTAssertEqual(surface2.calls, ["swap ", "lock 1", "release 1"])
    unmodeset.calls = []
    first.close()
    XCTAssertEqual(
      unmodeset.calls, ["rmFB 101", "dropMaster"], "nothing shown: nothing to restore")
  }

  func testUnreadableEventsCloseTheOutput() throws {
    let driver = RecordingDriver()
    var lines: [String] = []
    let scanout = try makeScanout(driver, log: { lines.append($0) })
    try modesetThenFlip(scanout)
    driver.failing = ["handleEvents"]
    driver.completeFlip(at: 1)
    XCTAssertEqual(scanout.waitForEvents(timeout: 5, alsoWatching: []).events, [.closed])
    XCTAssertEqual(lines, ["/dev/dri/card7: handleEvents failed: Invalid argument"])
  }

  func testFirstCardWithADisplay() throws {
    let empty = RecordingDriver()
    empty.list = [KMSConnector(id: 1, name: "DP-1", connected: false, modes: [])]
    let good = RecordingDriver()
    var opened: [String] = []
    let chosen = try KMSOutput.firstCard(
      in: "/dev/dri", paths: ["/dev/dri/card0", "/dev/dri/card1", "/dev/dri/card2"]
    ) { path -> RecordingDriver in
      opened.append(path)
      if path.hasSuffix("0") {
        throw KMSError.cannotOpen(device: path, reason: "Permission denied")
      }
      return path.hasSuffix("1") ? empty : good
    }
    XCTAssertTrue(chosen === good)
    XCTAssertEqual(opened.count, 3)
    XCTAssertEqual(
      message {
        _ = try KMSOutput.firstCard(in: "/dev/dri", paths: ["/dev/dri/card0", "/dev/dri/card1"]) {
          path -> RecordingDriver in
          if path.hasSuffix("0") {
            throw KMSError.cannotOpen(device: path, reason: "Permission denied")
          }
          return empty
        }
      },
      "no DRM card has a connected display: /dev/dri/card0: cannot open the DRM device:"
        + " Permission denied; /dev/dri/card1 (no display connected)")
    XCTAssertEqual(
      message {
        _ = try KMSOutput.firstCard(in: "/dev/dri", paths: []) { try DRMDriver(path: $0) }
      },
      "/dev/dri: no DRM card found (is a GPU driver loaded? --drm names a card)")
  }

  func testRealBindingNamesAMissingCard() {
    XCTAssertEqual(
      message { _ = try DRMDriver(path: "/dev/dri/card9") },
      "/dev/dri/card9: cannot open the DRM device: No such file or directory")
    XCTAssertEqual(
      message {
        _ = try KMSOutput.open(device: "/dev/dri/card9", connector: nil, mode: nil, rotation: .none)
      }, "/dev/dri/card9: cannot open the DRM device: No such file or directory")
    if DRMCard.cardPaths().isEmpty {
      XCTAssertEqual(
        message { _ = try KMSOutput.open(device: nil, connector: nil, mode: nil, rotation: .none) },
        "/dev/dri: no DRM card found (is a GPU driver loaded? --drm names a card)")
    }
  }

  /// A display loop on a fake card, stopped by SIGTERM at its third flip:
  /// the loop returns and `use` gives the console back; an error thrown in
  /// the body gives it back too.
  func testSIGTERMDuringTheLoopRestoresTheCRTC() throws {
    let renderer = try Renderer(replacesLostContext: false)
    let context = renderer.context
    context.makeCurrent()
    // The fake has no window surface: the loop presents into a
    // framebuffer of the panel's size (the binding is put back for the
    // renderer's state cache).
    var previous: GLint = 0
    glGetIntegerv(GLenum(GL_FRAMEBUFFER_BINDING), &previous)
    var framebuffer: GLuint = 0
    var color: GLuint = 0
    glGenFramebuffers(1, &framebuffer)
    glGenRenderbuffers(1, &color)
    glBindRenderbuffer(GLenum(GL_RENDERBUFFER), color)
    glRenderbufferStorage(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), 64, 48)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), framebuffer)
    glFramebufferRenderbuffer(
      GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
    glBindFramebuffer(GLenum(GL_FRAMEBUFFER), GLuint(previous))
    defer {
      glDeleteFramebuffers(1, &framebuffer)
      glDeleteRenderbuffers(1, &color)
    }

    let scene = FileManager.default.temporaryDirectory
      .appendingPathComponent("kms-loop-\(getpid()).json")
    try """
    { "lamina": 1, "canvas": { "width": 64, "height": 48, "background": "#202020" },
      "root": { "sublayers": [
        { "name": "box", "bounds": [0, 0, 10, 10], "position": [10, 24], "backgroundColor": "#ff0000",
          "animations": [ { "keyPath": "position", "fromValue": [10, 24], "toValue": [54, 24],
                            "duration": 0.2, "repeatCount": 1000 } ] } ] } }
    """.write(to: scene, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: scene) }

    let driver = RecordingDriver()
    driver.completesFlips = true
    driver.onFlip = { if $0 == 3 { raise(SIGTERM) } }
    let output = KMSOutput(
      scanout: try makeScanout(driver), context: context, rotation: .none,
      presentFramebuffer: framebuffer)
    XCTAssertEqual(output.summary, "HDMI-A-1 64x48@60 on /dev/dri/card7 (legacy)")
    XCTAssertEqual(output.refreshRate, 60)
    let loop = DisplayLoop(
      output: output, watcher: try SceneWatcher(url: scene), renderer: renderer,
      options: DisplayLoop.Options(maxFrames: 40, duration: 10))
    let stop = try StopSignal()
    try output.use { _ in try loop.run(stop: stop) }
    XCTAssertTrue(stop.isRaised)
    XCTAssertEqual(loop.framesPresented, 4, "the modeset and three flips, then the signal")
    XCTAssertEqual(driver.calls.filter { $0.hasPrefix("setCRTC") }.count, 1)
    XCTAssertEqual(driver.calls.filter { $0.hasPrefix("pageFlip") }.count, 3)
    XCTAssertEqual(
      Array(driver.calls.suffix(5)),
      [
        "restore 41 connector 32 fb 7 1024x768@60", "rmFB 101", "rmFB 102", "rmFB 103",
        "dropMaster",
      ])
    XCTAssertEqual(driver.states[41]?.framebuffer, 7, "the console is back")

    // An error in the middle of the loop gives the console back as well.
    struct Broke: Error {}
    let other = RecordingDriver()
    let second = KMSOutput(
      scanout: try makeScanout(other), context: context, rotation: .none,
      presentFramebuffer: framebuffer)
    XCTAssertThrowsError(
      try second.use { output in
        try output.present(damage: [])
        throw Broke()
      })
    XCTAssertEqual(
      other.calls.suffix(3), ["restore 41 connector 32 fb 7 1024x768@60", "rmFB 101", "dropMaster"])
  }
}
