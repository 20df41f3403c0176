import Foundation
import Lamina
import LaminaScene
import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// On llvmpipe the device's targets and textures are BGRA and batches of
/// exact rects draw with the plain programs, for its linear rasterizer
/// (docs/rendering.md): the same bytes as RGBA targets with the programs
/// that compute edge coverage, on every reftest scene, but for a float's
/// rounding here and there.
final class TexelOrderRenderTests: XCTestCase {
  private static let reftests = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures/reftests")

  /// The frame at time `time` of `scene`, drawn by a renderer on a context
  /// of its own whose device makes textures in `order`.
  private func render(_ scene: URL, order: TexelOrder, context: GPUContext) throws -> RenderedImage
  {
    context.device.texelOrder = order
    let renderer = try Renderer(context: context)
    let loaded = try SceneLoader.load(contentsOf: scene)
    var builder = FrameBuilder(
      size: CGSize(width: loaded.canvas.width, height: loaded.canvas.height),
      scale: loaded.canvas.scale, caches: renderer.caches)
    loaded.root.layoutIfNeeded()
    let root = PresentationTree(root: loaded.root).update(time: 0.5)
    builder.time = 0.5
    return try renderer.render(builder.build(root: root, background: loaded.canvas.background))
  }

  func testBGRATargetsAndPlainProgramsDrawTheSameBytes() throws {
    let environment = ["LAMINA_EGL_PLATFORM": "surfaceless"]
    let context = try GPUContext.create(environment: environment)
    defer { _ = try? GPUContext.shared() }
    guard context.info.glRenderer.lowercased().contains("llvmpipe") else {
      throw XCTSkip("the BGRA path is llvmpipe's")
    }
    XCTAssertEqual(context.device.texelOrder, .bgra, "llvmpipe's default")
    let scenes = try FileManager.default.contentsOfDirectory(
      at: Self.reftests, includingPropertiesForKeys: nil
    ).filter { $0.pathExtension == "json" }.sorted { $0.path < $1.path }
    XCTAssertGreaterThan(scenes.count, 40)
    var compared = 0
    var totalDiffering = 0
    for scene in scenes {
      let bgra: RenderedImage
      do {
        bgra = try render(scene, order: .bgra, context: context)
      } catch {
        continue  // scenes that are refused on purpose (hostile limits)
      }
      let rgba = try render(scene, order: .rgba, context: context)
      XCTAssertEqual(bgra.width, rgba.width)
      let a = bgra.premultipliedPixels
      let b = rgba.premultipliedPixels
      var differing = 0
      var largest = 0
      for i in 0..<min(a.count, b.count) where a[i] != b[i] {
        differing += 1
        largest = max(largest, abs(Int(a[i]) - Int(b[i])))
      }
      // The same bytes but where a float lands on a rounding boundary:
      // llvmpipe generates other code for the other format (clip_nested:
      // one byte, by 1).
      XCTAssertLessThanOrEqual(largest, 1, scene.lastPathComponent)
      XCTAssertLessThanOrEqual(
        differing, 4, "\(scene.lastPathComponent): \(differing) bytes differ")
      totalDiffering += differing
      compared += 1
    }
    XCTAssertGreaterThan(compared, 40)
    XCTAssertLessThanOrEqual(totalDiffering, 8, "bytes that differ over \(compared) scenes")
  }
}
