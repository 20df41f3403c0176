import CEGL
import CGLES3
import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// What a long-running renderer keeps bounded and watches: the byte budget
/// of image textures (least recently used go first, a frame's own never
/// under it) and a lost GL context.
final class RendererBudgetTests: XCTestCase {
  /// A 64×64 image of one color: 16 KiB of texture.
  func tile(_ n: Int) -> CGImage {
    let color: [UInt8] = [
      UInt8(40 * n % 256), UInt8((200 + 37 * n) % 256), UInt8((90 + 20 * n) % 256), 255,
    ]
    return CGImage(
      width: 64, height: 64, rgba: Array([[UInt8]](repeating: color, count: 64 * 64).joined()))!
  }

  /// A row of layers showing `images`, 8 points wide each.
  func row(_ images: [CGImage]) -> CALayer {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 8 * images.count, height: 8)
    root.position = CGPoint(x: 4 * images.count, y: 4)
    for (i, image) in images.enumerated() {
      let layer = CALayer()
      layer.frame = CGRect(x: 8 * i, y: 0, width: 8, height: 8)
      layer.contents = image
      root.addSublayer(layer)
    }
    return root
  }

  func render(_ renderer: Renderer, _ images: [CGImage]) throws -> RenderedImage {
    try renderer.render(layer: row(images), size: CGSize(width: 8 * images.count, height: 8))
  }

  func testTexturesStayWithinTheBudgetLeastRecentlyUsedFirst() throws {
    let renderer = try Renderer()
    XCTAssertEqual(renderer.textureBudgetBytes, 1 << 30, "the default")
    let tiles = (0..<6).map(tile)
    let size = 64 * 64 * 4
    renderer.textureBudgetBytes = 3 * size
    defer { renderer.textureBudgetBytes = 1 << 30 }
    let evictions = renderer.textureEvictions

    _ = try render(renderer, [tiles[0], tiles[1]])
    XCTAssertEqual(renderer.counters.textureUploads, 2)
    XCTAssertEqual(renderer.textureBytes, 2 * size)
    // The fourth texture does not fit: tile 0, the least recently used, goes.
    _ = try render(renderer, [tiles[2], tiles[3]])
    XCTAssertEqual(renderer.counters.textureUploads, 2)
    XCTAssertEqual(renderer.textureBytes, 3 * size)
    XCTAssertEqual(renderer.textureEvictions - evictions, 1)
    // Tile 1 is still there; tile 0 comes back with an upload.
    _ = try render(renderer, [tiles[1]])
    XCTAssertEqual(renderer.counters.textureUploads, 0)
    _ = try render(renderer, [tiles[0]])
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    XCTAssertEqual(renderer.textureBytes, 3 * size)
    XCTAssertEqual(renderer.textureEvictions - evictions, 2)
  }

  func testAFrameLargerThanTheBudgetStillDrawsEveryImage() throws {
    let renderer = try Renderer()
    let tiles = (6..<11).map(tile)
    renderer.textureBudgetBytes = 2 * 64 * 64 * 4
    defer { renderer.textureBudgetBytes = 1 << 30 }
    for _ in 0..<2 {
      let image = try render(renderer, tiles)
      // Five textures in a frame that keeps two: the two kept from the last
      // frame are the ones it asks for last, so they go before their turn
      // (least recently used, as a cycle longer than the cache always does).
      XCTAssertEqual(renderer.counters.textureUploads, 5)
      for (i, tile) in tiles.enumerated() {
        let p = (4 * image.width + 8 * i + 4) * 4
        XCTAssertEqual(
          Array(image.premultipliedPixels[p..<p + 4]), Array(tile.pixels[0..<4]), "tile \(i)")
      }
      // Between frames the budget holds again.
      XCTAssertLessThanOrEqual(renderer.textureBytes, renderer.textureBudgetBytes)
    }
  }

  func testScenesSharingAnImageCacheShareTextures() throws {
    // What a batch does from job to job: two loads of scenes with the same
    // image, one image cache, one renderer: the second job uploads nothing.
    let photo = RenderTestSupport.fixtures.appendingPathComponent("reftests/images/photo.png").path
    func scene(_ color: String) throws -> Scene {
      try SceneLoader.load(
        data: Data(
          """
          {"lamina": 1, "canvas": {"width": 40, "height": 30, "background": "\(color)"},
           "images": {"photo": "\(photo)"},
           "root": {"sublayers": [{"frame": [5, 5, 30, 20], "contents": "photo"}]}}
          """.utf8), baseURL: nil, fileName: "job.json", imageCache: images, access: .anyPath)
    }
    let images = ImageCache(budgetBytes: 1 << 20)
    let renderer = try Renderer()
    let first = try scene("#ffffff")
    _ = try renderer.render(layer: first.root, size: CGSize(width: 40, height: 30))
    XCTAssertEqual(renderer.counters.textureUploads, 1)
    let second = try scene("#000000")
    _ = try renderer.render(layer: second.root, size: CGSize(width: 40, height: 30))
    XCTAssertEqual(renderer.counters.textureUploads, 0)
    XCTAssertEqual([images.decodes, images.hits], [1, 1])
  }

  func testAHealthyContextPassesTheCheckAndALostOneFailsIt() throws {
    let context = try GPUContext.create()
    let renderer = try Renderer(context: context)
    _ = try render(renderer, [tile(1)])
    XCTAssertNoThrow(try renderer.checkContext())
    XCTAssertNil(context.lostReason())
    context.simulateLoss(reason: "test")
    XCTAssertEqual(context.lostReason(), "test")
    XCTAssertThrowsError(try renderer.checkContext()) { error in
      XCTAssertEqual(error as? RendererError, .contextLost(reason: "test"))
      XCTAssertEqual("\(error)", "the GL context was lost (test)")
      XCTAssertTrue((error as? RendererError)?.meansContextLost ?? false)
    }
    XCTAssertTrue(RendererError.deviceError(code: 0x0505, during: "frame").meansContextLost)
    XCTAssertTrue(RendererError.deviceError(code: 0x0507, during: "frame").meansContextLost)
    XCTAssertFalse(RendererError.deviceError(code: 0x0502, during: "frame").meansContextLost)
    // The shared context is untouched by another context's loss.
    XCTAssertNoThrow(try Renderer().checkContext())
  }

  func testContextsAskToBeToldOfResetsWhereEGLCan() throws {
    let context = try GPUContext.create()
    context.makeCurrent()
    let extensions = eglQueryString(eglGetCurrentDisplay(), EGL_EXTENSIONS).map {
      String(cString: $0)
    }
    guard let extensions, extensions.contains("EGL_EXT_create_context_robustness") else {
      throw XCTSkip("this EGL has no EGL_EXT_create_context_robustness")
    }
    var strategy: GLint = 0
    glGetIntegerv(GLenum(GL_RESET_NOTIFICATION_STRATEGY), &strategy)
    XCTAssertEqual(strategy, GL_LOSE_CONTEXT_ON_RESET)
  }
}
