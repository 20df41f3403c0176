import Foundation
import Lamina
import LaminaDraw
import LaminaFrame
import LaminaRender
import XCTest

/// What a distinct font size keeps (issue 41, item 3): text whose
/// `fontSize` changes every frame once added glyphs to the atlas every
/// frame, and each frame's re-made 4 MiB page became a new texture that the
/// texture cache kept for 120 frames (790 MiB for a 320x120 scene). Such
/// text is drawn as a bitmap of its own, in the budgeted caches.
final class FontSizeMemoryTests: XCTestCase {
  private func scene() -> (root: CALayer, text: CATextLayer) {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 320, height: 120)
    root.position = CGPoint(x: 160, y: 60)
    let text = CATextLayer()
    text.string = "Hello 0123"
    text.font = "DejaVu Sans"
    text.frame = CGRect(x: 10, y: 10, width: 300, height: 100)
    root.addSublayer(text)
    return (root, text)
  }

  /// 500 frames at 500 distinct sizes: the atlas rasterizes the glyphs of
  /// the first few sizes only and re-makes its page images as often, and the
  /// CPU caches stay within their share of a small budget.
  func testAnimatedFontSizeStopsAddingAtlasPages() {
    let (root, text) = scene()
    let caches = RenderCaches(maxBytes: 16 << 20)
    for i in 0..<500 {
      text.fontSize = 8 + CGFloat(i) * 0.07
      Renderer.commit(root)
      var builder = FrameBuilder(size: root.bounds.size, scale: 1, caches: caches)
      _ = builder.build(root: root, background: nil)
    }
    let sizes = GlyphAtlas.maxRecentSizes + 1
    XCTAssertGreaterThan(caches.glyphs.rasterizedGlyphs, 0, "the first sizes from the atlas")
    XCTAssertGreaterThan(caches.usage.drawnCount, 0, "the later ones as bitmaps")
    XCTAssertLessThanOrEqual(
      caches.glyphs.rasterizedGlyphs, sizes * 10, "glyphs of the first sizes")
    XCTAssertLessThanOrEqual(caches.glyphs.imagesVersion, sizes + 1, "page images re-made")
    XCTAssertLessThanOrEqual(caches.usage.budgetedBytes, caches.cpuBytes)
    XCTAssertLessThanOrEqual(caches.glyphs.followedStyles, 1)
  }

  /// Three layers of one string at three sizes, frame after frame, stay
  /// glyph quads from the atlas: a few sizes at once are not a changing size.
  func testAFewSizesOfOneStringStayInTheAtlas() {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 320, height: 120)
    root.position = CGPoint(x: 160, y: 60)
    for (i, size) in [12.0, 18.0, 24.0].enumerated() {
      let text = CATextLayer()
      text.string = "same"
      text.fontSize = size
      text.frame = CGRect(x: 10, y: 10 + CGFloat(i) * 35, width: 300, height: 34)
      root.addSublayer(text)
    }
    let caches = RenderCaches()
    var images: [CGImage] = []
    for _ in 0..<30 {
      root.sublayers?[0].opacity = root.sublayers?[0].opacity == 1 ? 0.9 : 1
      Renderer.commit(root)
      var builder = FrameBuilder(size: root.bounds.size, scale: 1, caches: caches)
      let frame = builder.build(root: root, background: nil)
      images = frame.allItems.compactMap { item -> CGImage? in
        if case .image(let image, _) = item.material { return image }
        return nil
      }
    }
    XCTAssertEqual(images.count, 12, "four glyph quads a layer")
    XCTAssertTrue(images.allSatisfy { $0.width == GlyphAtlas.side }, "all from an atlas page")
  }

  /// Rendered through a renderer: after 300 distinct sizes the textures
  /// held are the text's own bitmaps (300x100 each, at most 120 frames'),
  /// not 300 atlas pages of 4 MiB (about 200 MiB held before).
  func testAnimatedFontSizeKeepsFewTextureBytes() throws {
    let renderer = try Renderer()
    let (root, text) = scene()
    for i in 0..<300 {
      text.fontSize = 30 + CGFloat(i) * 0.17
      _ = try renderer.render(layer: root, size: root.bounds.size)
    }
    let report = renderer.cacheReport
    XCTAssertLessThanOrEqual(report.textureBytes, 32 << 20, "\(report)")
  }

  /// What a size keeps outside the caches: Pango's font map made a font,
  /// a fontset and a pattern for every size and kept them all (about
  /// 16 KiB a size, and the long-lived fonts among freed bitmaps kept the
  /// allocator from returning 60 KiB more: 74 KiB a size measured over
  /// 1,500 sizes, 0.15 KiB now). The map's caches are cleared after
  /// `PangoText.maxFontSizesPerMap` new sizes, and text drawn after a clear
  /// is the text drawn before it.
  func testNewFontSizesClearTheFontMapsCachesAndDrawTheSame() throws {
    let renderer = try Renderer()
    let (root, text) = scene()
    text.fontSize = 31
    let before = try renderer.render(layer: root, size: root.bounds.size)
    let clears = PangoText.fontMapClears
    let sizes = 3 * PangoText.maxFontSizesPerMap
    for i in 0..<sizes {
      text.fontSize = 40 + CGFloat(i) * 0.11
      _ = try renderer.render(layer: root, size: root.bounds.size)
    }
    XCTAssertGreaterThanOrEqual(PangoText.fontMapClears - clears, 2, "cleared every 64 sizes")
    XCTAssertLessThanOrEqual(PangoText.fontMapClears - clears, 4)
    // A fresh renderer: nothing cached of the first render.
    text.fontSize = 31
    let after = try Renderer().render(layer: root, size: root.bounds.size)
    XCTAssertEqual(before.premultipliedPixels, after.premultipliedPixels)
    XCTAssertTrue(before.premultipliedPixels.contains { $0 != 0 }, "text drawn")
  }
}
