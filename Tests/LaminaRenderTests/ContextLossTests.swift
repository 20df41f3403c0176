import CEGL
import Foundation
import Lamina
import LaminaDisplay
import LaminaFrame
import LaminaGL
import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// A lost or wedged GL context under a renderer (docs/rendering.md, "A lost
/// context"): the frame that finds it fails naming what was lost, the
/// renderer makes a new context, and the next frame is the one a fresh
/// renderer draws. Each renderer here has a context of its own: the
/// process's shared one is left alone.
final class ContextLossTests: XCTestCase {
  /// A scene that leaves something on the context of each kind a renderer
  /// keeps: an image texture, a gradient ramp, path buffers, an offscreen
  /// pass (a shadow and a mask) and the targets of the pool.
  func scene() -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
    root.position = CGPoint(x: 32, y: 24)
    root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    var rgba: [UInt8] = []
    for y in 0..<8 {
      for x in 0..<8 { rgba += [UInt8(x * 32), UInt8(y * 32), 200, 255] }
    }
    let image = CALayer()
    image.frame = CGRect(x: 4, y: 4, width: 24, height: 24)
    image.contents = CGImage(width: 8, height: 8, rgba: rgba)
    image.shadowOpacity = 0.6
    image.shadowRadius = 3
    image.shadowOffset = CGSize(width: 2, height: 2)
    root.addSublayer(image)
    let gradient = CAGradientLayer()
    gradient.frame = CGRect(x: 34, y: 4, width: 26, height: 20)
    gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor.black]
    gradient.cornerRadius = 6
    let mask = CALayer()
    mask.frame = CGRect(x: 0, y: 0, width: 13, height: 20)
    mask.backgroundColor = CGColor.black
    gradient.mask = mask
    root.addSublayer(gradient)
    let ring = CAShapeLayer()
    ring.frame = root.bounds
    let path = CGMutablePath()
    path.addArc(
      center: CGPoint(x: 46, y: 36), radius: 8, startAngle: 0, endAngle: 5, clockwise: false)
    ring.path = path
    ring.fillColor = nil
    ring.strokeColor = CGColor(red: 0, green: 0.5, blue: 0, alpha: 0.8)
    ring.lineWidth = 3
    root.addSublayer(ring)
    return root
  }

  let size = CGSize(width: 64, height: 48)

  /// The scene as a renderer on a context of its own draws it first.
  func expected() throws -> RenderedImage {
    try Renderer(context: GPUContext.create()).render(layer: scene(), size: size, scale: 2)
  }

  /// A renderer on a new context of its own that replaces it when lost,
  /// having drawn the scene once (its caches are full).
  func warmRenderer() throws -> Renderer {
    let renderer = try Renderer(context: GPUContext.create(), replacesLostContext: true)
    _ = try renderer.render(layer: scene(), size: size, scale: 2)
    return renderer
  }

  /// Pixels of `a` that differ from `b` (every pixel when the sizes differ).
  func differing(_ a: RenderedImage, _ b: RenderedImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return max(a.width * a.height, 1) }
    var count = 0
    for i in stride(from: 0, to: a.premultipliedPixels.count, by: 4)
    where a.premultipliedPixels[i..<i + 4] != b.premultipliedPixels[i..<i + 4] {
      count += 1
    }
    return count
  }

  func lossReason(_ error: Error) -> String? {
    guard case .contextLost(let reason) = error as? RendererError else { return nil }
    return reason
  }

  func testAContextMadeNotCurrentDuringAFrameFailsItAndTheNextFrameRendersRight() throws {
    let renderer = try warmRenderer()
    let lost = renderer.context
    // Other code (a cache's delete, before 7bcb2c0) leaves no context
    // current while the frame runs: every call after goes nowhere.
    renderer.planObserver = { _ in _ = eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil) }
    XCTAssertThrowsError(try renderer.render(layer: scene(), size: size, scale: 2)) { error in
      let reason = lossReason(error)
      XCTAssertNotNil(reason, "not a lost context: \(error)")
      XCTAssertTrue(reason?.contains("no longer current") ?? false, "\(error)")
      XCTAssertTrue("\(error)".hasPrefix("the GL context was lost ("), "\(error)")
    }
    renderer.planObserver = nil
    let image = try renderer.render(layer: scene(), size: size, scale: 2)
    XCTAssertEqual(renderer.contextsReplaced, 1)
    XCTAssertFalse(renderer.context === lost)
    XCTAssertEqual(differing(image, try expected()), 0)
    XCTAssertNoThrow(try renderer.checkContext())
  }

  func testADestroyedContextFailsOneFrameAndTheNextRendersRight() throws {
    let renderer = try warmRenderer()
    // Destroyed under the renderer between two frames.
    let display = eglGetCurrentDisplay()
    let context = eglGetCurrentContext()
    XCTAssertTrue(renderer.context.isCurrent)
    eglMakeCurrent(display, nil, nil, nil)
    XCTAssertEqual(eglDestroyContext(display, context), EGLBoolean(EGL_TRUE))
    XCTAssertThrowsError(try renderer.render(layer: scene(), size: size, scale: 2)) { error in
      XCTAssertEqual(
        "\(error)",
        "the GL context was lost (eglMakeCurrent failed with EGL_BAD_CONTEXT:"
          + " the context was destroyed)")
    }
    XCTAssertEqual(renderer.contextsReplaced, 0)
    let image = try renderer.render(layer: scene(), size: size, scale: 2)
    XCTAssertEqual(renderer.contextsReplaced, 1)
    XCTAssertEqual(differing(image, try expected()), 0)
    // And it goes on: a third frame, the same.
    XCTAssertEqual(differing(try renderer.render(layer: scene(), size: size, scale: 2), image), 0)
  }

  func testAContextLeftCurrentOnAnotherThreadFailsOneFrameAndTheNextRendersRight() throws {
    let renderer = try warmRenderer()
    let held = renderer.context
    // Another thread takes the context and keeps it: EGL will not make it
    // current here any more (before, every frame after drew with no
    // context: "framebuffer … incomplete (0x0000)" from then on).
    eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil)
    let taken = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      XCTAssertTrue(held.makeCurrent())
      taken.signal()
      release.wait()
      eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil)
      done.signal()
    }
    thread.start()
    taken.wait()
    defer {
      release.signal()
      done.wait()
    }
    XCTAssertThrowsError(try renderer.render(layer: scene(), size: size, scale: 2)) { error in
      XCTAssertEqual(
        "\(error)",
        "the GL context was lost (eglMakeCurrent failed with EGL_BAD_ACCESS:"
          + " it is current on another thread)")
    }
    let image = try renderer.render(layer: scene(), size: size, scale: 2)
    XCTAssertEqual(renderer.contextsReplaced, 1)
    XCTAssertEqual(differing(image, try expected()), 0)
  }

  func testAContextReleasedBetweenFramesIsTakenBackWithoutALoss() throws {
    let renderer = try warmRenderer()
    eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil)
    let image = try renderer.render(layer: scene(), size: size, scale: 2)
    XCTAssertEqual(renderer.contextsReplaced, 0)
    XCTAssertEqual(differing(image, try expected()), 0)
  }

  func testAResetTheContextReportsIsALossAndTheNextFrameRendersRight() throws {
    let renderer = try warmRenderer()
    // What a GPU reset makes EGL answer, for drivers that never reset.
    renderer.context.simulateLoss(reason: "EGL_CONTEXT_LOST")
    XCTAssertThrowsError(try renderer.checkContext()) { error in
      XCTAssertEqual("\(error)", "the GL context was lost (EGL_CONTEXT_LOST)")
    }
    let image = try renderer.render(layer: scene(), size: size, scale: 2)
    XCTAssertEqual(renderer.contextsReplaced, 1)
    XCTAssertNil(renderer.context.lostReason())
    XCTAssertEqual(differing(image, try expected()), 0)
  }

  func testARendererGivenItsContextReportsTheLossAndLeavesTheContextToItsOwner() throws {
    let given = try GPUContext.create()
    let renderer = try Renderer(context: given)
    XCTAssertFalse(renderer.replacesLostContext)
    _ = try renderer.render(layer: scene(), size: size, scale: 2)
    let display = eglGetCurrentDisplay()
    let context = eglGetCurrentContext()
    eglMakeCurrent(display, nil, nil, nil)
    eglDestroyContext(display, context)
    for _ in 0..<2 {
      XCTAssertThrowsError(try renderer.render(layer: scene(), size: size, scale: 2)) { error in
        XCTAssertTrue(
          lossReason(error)?.hasPrefix("eglMakeCurrent failed with EGL_BAD_CONTEXT") ?? false,
          "\(error)")
      }
    }
    XCTAssertEqual(renderer.contextsReplaced, 0)
    XCTAssertTrue(renderer.context === given)
  }

  func testADisplayEndsWithTheLossOfItsContextInsteadOfShowingAStaleFrame() throws {
    let context = try GPUContext.create()
    let renderer = try Renderer(context: context)
    let output = try HeadlessOutput(width: 64, height: 48, paced: false, context: context)
    let scene = FileManager.default.temporaryDirectory
      .appendingPathComponent("context-loss-\(getpid()).json")
    try """
    { "lamina": 1, "canvas": { "width": 64, "height": 48, "background": "#202020" },
      "root": { "sublayers": [
        { "bounds": [0, 0, 10, 10], "position": [10, 24], "backgroundColor": "#ff0000",
          "animations": [ { "keyPath": "position", "fromValue": [10, 24], "toValue": [54, 24],
                            "duration": 1, "repeatCount": 1000 } ] } ] } }
    """.write(to: scene, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: scene) }
    let loop = DisplayLoop(
      output: output, watcher: try SceneWatcher(url: scene), renderer: renderer)
    var logged: [String] = []
    loop.log = { logged.append($0) }
    // A frame, then its page flip's event (as ControlChannelTests steps).
    func step(_ t: Double) throws {
      XCTAssertTrue(try loop.step(now: t))
      try loop.handle(try output.waitForEvents(timeout: 0, alsoWatching: []).events)
    }
    try step(0)
    try step(0.1)
    let display = eglGetCurrentDisplay()
    let made = eglGetCurrentContext()
    eglMakeCurrent(display, nil, nil, nil)
    eglDestroyContext(display, made)
    XCTAssertThrowsError(try loop.step(now: 0.2)) { error in
      XCTAssertTrue(
        lossReason(error)?.hasPrefix("eglMakeCurrent failed with EGL_BAD_CONTEXT") ?? false,
        "\(error)")
    }
    XCTAssertEqual(logged, [])
  }
}
