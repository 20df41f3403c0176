import CEGL
import Foundation
import Lamina
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// dma-buf contents: the choice and the EGL description, tested without a
/// driver that imports them; on this machine's driver the error says why.
final class DMABufTests: XCTestCase {
  let frame = DMABufFrame(
    fd: 7, width: 64, height: 32, fourcc: DMABufFrame.Format.argb8888, stride: 256, offset: 0,
    modifier: 0x0100_0000_0000_0002)

  func testAvailabilityNeedsBothExtensions() {
    let both = DMABufImport.availability(
      eglExtensions: ["EGL_EXT_image_dma_buf_import"], glExtensions: ["GL_OES_EGL_image"])
    if case .failure = both { XCTFail("both extensions are enough") }
    guard
      case .failure(let noEGL) = DMABufImport.availability(
        eglExtensions: [], glExtensions: ["GL_OES_EGL_image"]),
      case .failure(let noGL) = DMABufImport.availability(
        eglExtensions: ["EGL_EXT_image_dma_buf_import"], glExtensions: [])
    else { return XCTFail("a missing extension must refuse") }
    XCTAssertTrue(noEGL.description.contains("EGL_EXT_image_dma_buf_import"), noEGL.description)
    XCTAssertTrue(noGL.description.contains("GL_OES_EGL_image"), noGL.description)
  }

  func testAttributesDescribeThePlane() throws {
    let a = try DMABufImport.attributes(frame)
    func value(_ key: Int32) -> EGLint? {
      stride(from: 0, to: a.count - 1, by: 2).first { a[$0] == key }.map { a[$0 + 1] }
    }
    XCTAssertEqual(value(EGL_WIDTH), 64)
    XCTAssertEqual(value(EGL_HEIGHT), 32)
    XCTAssertEqual(value(EGL_LINUX_DRM_FOURCC_EXT), EGLint(bitPattern: 0x3432_5241))  // "AR24"
    XCTAssertEqual(value(EGL_DMA_BUF_PLANE0_FD_EXT), 7)
    XCTAssertEqual(value(EGL_DMA_BUF_PLANE0_PITCH_EXT), 256)
    XCTAssertEqual(value(EGL_DMA_BUF_PLANE0_MODIFIER_LO_EXT), 2)
    XCTAssertEqual(value(EGL_DMA_BUF_PLANE0_MODIFIER_HI_EXT), 0x0100_0000)
    XCTAssertEqual(a.last, EGL_NONE)
  }

  func testUnsupportedFormatIsRefused() {
    var nv12 = frame
    nv12.fourcc = DMABufFrame.Format.fourcc("NV12")
    XCTAssertThrowsError(try DMABufImport.attributes(nv12)) { error in
      XCTAssertTrue("\(error)".contains("pixel format"), "\(error)")
    }
  }

  func testThisDriverSaysWhyItCannotShowAFrame() throws {
    let renderer = try RenderTestSupport.renderer()
    let hasImport = renderer.context.info.extensions["EGL_EXT_image_dma_buf_import"] == true
    try XCTSkipIf(hasImport, "this driver imports dma-bufs")
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 64, height: 32)
    root.position = CGPoint(x: 32, y: 16)
    let video = CALayer()
    video.frame = root.bounds
    video.contents = frame
    root.addSublayer(video)
    XCTAssertThrowsError(try renderer.render(layer: root, size: root.bounds.size)) { error in
      XCTAssertEqual(
        error as? RendererError,
        .dmabufUnsupported(reason: "the EGL driver lacks EGL_EXT_image_dma_buf_import"))
    }
  }
}
