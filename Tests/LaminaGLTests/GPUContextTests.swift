import CEGL
import CGLES3
import Foundation
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Tests on the machine's real EGL. They hold on llvmpipe (no GPU, no
/// /dev/dri) and on a GPU server; the ones that depend on which it is say so.
final class GPUContextTests: XCTestCase {
  private var hasRenderNode: Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
    return names.contains { $0.hasPrefix("renderD") }
  }

  func testSharedContextIsCurrentES3() throws {
    let context = try GPUContext.shared()
    let info = context.info
    XCTAssertGreaterThanOrEqual(info.glesVersion.major, 3, info.glVersion)
    XCTAssertTrue(info.glVersion.hasPrefix("OpenGL ES 3"), info.glVersion)
    XCTAssertGreaterThanOrEqual(info.maxTextureSize, 2048)
    XCTAssertGreaterThanOrEqual(info.maxRenderbufferSize, 2048)
    XCTAssertGreaterThanOrEqual(info.maxSamples, 1)
    XCTAssertGreaterThanOrEqual(info.maxViewportWidth, 2048)
    XCTAssertFalse(info.glRenderer.isEmpty)
    XCTAssertEqual(info.selectionLog, context.selectionLog)
    XCTAssertEqual(info.platform, context.platform)
    XCTAssertTrue(context.selectionLog.last?.hasSuffix("(selected)") ?? false)
    // Current on this thread: GL answers.
    XCTAssertNotNil(glGetString(GLenum(GL_RENDERER)))
    XCTAssertTrue(try GPUContext.shared() === context)
  }

  func testDefaultSelectionWithoutRenderNodeIsSurfaceless() throws {
    try XCTSkipIf(hasRenderNode, "this machine has a render node; GBM or a device may win")
    let context = try GPUContext.create(environment: [:])
    XCTAssertEqual(context.platform, .surfaceless, context.selectionLog.joined(separator: "\n"))
    XCTAssertTrue(
      context.selectionLog.first?.hasPrefix("gbm: no /dev/dri/renderD* node") ?? false,
      context.selectionLog.joined(separator: "\n"))
  }

  func testUnknownPlatformIsRejected() {
    XCTAssertThrowsError(try GPUContext.create(environment: ["LAMINA_EGL_PLATFORM": "bogus"])) {
      let message = "\($0)"
      XCTAssertTrue(message.contains("LAMINA_EGL_PLATFORM=bogus"), message)
      XCTAssertTrue(message.contains("gbm, device, surfaceless"), message)
    }
  }

  func testGBMFailsWithoutRenderNode() throws {
    try XCTSkipIf(hasRenderNode, "this machine has a render node")
    XCTAssertThrowsError(try GPUContext.create(environment: ["LAMINA_EGL_PLATFORM": "gbm"])) {
      let message = "\($0)"
      XCTAssertTrue(message.contains("no /dev/dri/renderD* node"), message)
      XCTAssertFalse(message.contains("surfaceless"), message)
    }
  }

  func testDevicePlatformWorks() throws {
    let context = try GPUContext.create(environment: ["LAMINA_EGL_PLATFORM": "device"])
    XCTAssertEqual(context.platform, .device)
    XCTAssertGreaterThanOrEqual(context.info.glesVersion.major, 3)
  }

  func testDisplayOutlivesOneOfTwoContexts() throws {
    let environment = ["LAMINA_EGL_PLATFORM": "surfaceless"]
    let first = try GPUContext.create(environment: environment)
    var second: GPUContext? = try GPUContext.create(environment: environment)
    XCTAssertEqual(first.display, second?.display)
    second = nil
    // Were the display terminated with the second context, this would fail.
    XCTAssertTrue(first.makeCurrent())
    XCTAssertNotNil(glGetString(GLenum(GL_VERSION)))
    _ = try GPUContext.shared()
  }

  /// One renderer's cache letting go of an object while another renderer's
  /// context is current (mid-frame) deletes it in its own context and
  /// leaves the other current: before, the other context lost its
  /// currency and the rest of its frame ran on the wrong context.
  func testDeletingOnAnotherContextLeavesTheCurrentOneCurrent() throws {
    let environment = ["LAMINA_EGL_PLATFORM": "surfaceless"]
    let drawing = try GPUContext.create(environment: environment)
    let other = try GPUContext.create(environment: environment)
    defer { _ = try? GPUContext.shared() }
    XCTAssertTrue(other.makeCurrent())
    let theirs = other.device.makeTexture(width: 4, height: 4, multisampled: false)
    XCTAssertTrue(drawing.makeCurrent())
    let ours = drawing.device.makeTexture(width: 4, height: 4, multisampled: false)
    XCTAssertEqual(ours, theirs, "both contexts number their first texture alike")
    other.device.deleteTexture(theirs)
    XCTAssertTrue(eglGetCurrentContext() == drawing.context, "the drawing context is still current")
    XCTAssertEqual(glIsTexture(ours), GLboolean(GL_TRUE), "and its texture of the same name lives")
    XCTAssertTrue(other.makeCurrent())
    XCTAssertEqual(glIsTexture(theirs), GLboolean(GL_FALSE), "deleted where it was made")
  }

  func testReportAndJSONCarryEverything() throws {
    let info = try GPUContext.shared().info
    let report = info.report()
    for label in ["platform", "EGL vendor", "GL renderer", "GLSL version", "max samples"] {
      XCTAssertTrue(report.contains(label), label)
    }
    for name in GPUInfo.trackedExtensions {
      XCTAssertTrue(report.contains(name), name)
      XCTAssertNotNil(info.extensions[name], name)
    }
    for step in info.selectionLog { XCTAssertTrue(report.contains(step), step) }
    for line in info.features { XCTAssertTrue(report.contains("\n  \(line)"), line) }
    // The dma-buf line follows the two extensions it needs.
    let both = info.has("EGL_EXT_image_dma_buf_import") && info.has("GL_OES_EGL_image")
    XCTAssertEqual(info.features[0] == "dma-buf contents: yes", both)
    if !info.has("EGL_EXT_image_dma_buf_import") {
      XCTAssertEqual(
        info.features[0],
        "dma-buf contents: no (the EGL driver lacks EGL_EXT_image_dma_buf_import)")
    }
    let decoded = try JSONDecoder().decode(GPUInfo.self, from: Data(try info.json().utf8))
    XCTAssertEqual(decoded, info)
  }

  #if DEBUG
    func testCheckErrorReportsGLErrors() throws {
      _ = try GPUContext.shared()
      XCTAssertEqual(glCheckError("clean"), [])
      glEnable(0xFFFF)
      XCTAssertEqual(glCheckError("glEnable(0xFFFF)"), [GLenum(GL_INVALID_ENUM)])
      XCTAssertEqual(glCheckError("after"), [])
    }
  #endif

  func testDebugCallbackWritesToStderr() throws {
    let context = try GPUContext.create(environment: [
      "LAMINA_GL_DEBUG": "1", "LAMINA_EGL_PLATFORM": "surfaceless",
    ])
    guard context.debugOutput else { throw XCTSkip("no KHR_debug on this context") }
    let written = try capturingStderr {
      glEnable(0xFFFF)
      _ = glGetError()
    }
    XCTAssertTrue(written.contains("[GL error]"), written)
    XCTAssertTrue(written.contains("API"), written)
    _ = try GPUContext.shared()
  }

  /// Runs `body` with file descriptor 2 going into a pipe; returns what it wrote.
  private func capturingStderr(_ body: () -> Void) throws -> String {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { throw XCTSkip("pipe failed") }
    let saved = dup(2)
    dup2(ends[1], 2)
    close(ends[1])
    body()
    dup2(saved, 2)
    close(saved)
    let data = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true).readDataToEndOfFile()
    return String(decoding: data, as: UTF8.self)
  }
}
