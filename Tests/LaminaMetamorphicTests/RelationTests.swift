import Foundation
import Lamina
@testable import LaminaMetamorphic
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
import LaminaScene
import XCTest

/// The relations' transformations, the shrinker and the renderer knobs the
/// relations turn, each on hand-made scenes.
final class RelationTests: XCTestCase {
  static func scene(_ root: String, width: Int = 64, height: Int = 64) throws -> JSON {
    try JSON.parse(
      """
      { "lamina": 1, "canvas": { "width": \(width), "height": \(height), "background": "#ffffff" },
        "images": \(SceneGenerator.imageTable.compact()), "root": \(root) }
      """)
  }

  /// Where regrouping would change what Core Animation draws, it is not offered.
  func testRegroupingSkipsTransformLayersReplicatorsAndSublayerTransforms() throws {
    let root = try JSON.parse(
      """
      { "sublayers": [
        { "class": "CATransformLayer", "sublayers": [{}, {}] },
        { "class": "CAReplicatorLayer", "sublayers": [{}, {}] },
        { "sublayerTransform": [{ "perspective": 300 }], "sublayers": [{}, {}] },
        { "sublayers": [{ "animations": [{ "keyPath": "zPosition", "toValue": 3 }] }, {}] },
        { "sublayers": [{}, {}] } ] }
      """)
    XCTAssertEqual(
      Relation.regroupable(root, minimumSublayers: 2).map(\.description),
      ["root", "root.sublayers[4]"])
  }

  func testDrawingOrderIsStableByZPosition() throws {
    let children = try JSON.parse(
      """
      [{ "name": "a", "zPosition": 2 }, { "name": "b" }, { "name": "c", "zPosition": -1 },
       { "name": "d" }]
      """
    ).elements
    XCTAssertEqual(
      Relation.drawingOrder(children).compactMap { $0["name"]?.string }, ["c", "b", "d", "a"])
  }

  /// The footprint tree keeps only placement on the way down and the siblings at the end.
  func testTheFootprintTreeKeepsPlacementOnly() throws {
    let root = try JSON.parse(
      """
      { "backgroundColor": "#ff0000", "sublayers": [
        { "class": "CAGradientLayer", "colors": ["#000000", "#ffffff"], "frame": [1, 2, 30, 40],
          "opacity": 0.5, "masksToBounds": true,
          "sublayers": [{ "name": "a" }, { "name": "b" }] } ] }
      """)
    let path = LayerPath([.sublayer(0)])
    let tree = Relation.footprintTree(
      root, path: path, sublayers: [.object([("name", .string("b"))])])
    XCTAssertEqual(
      tree.compact(),
      #"{ "sublayers": [{ "frame": [1, 2, 30, 40], "masksToBounds": true, "sublayers": [{ "name": "b" }] }] }"#
    )
  }

  /// A rasterized ancestor keeps its rasterization in the footprint tree, so
  /// the siblings' footprint spreads as the full rendering's upsampled
  /// raster does (finding alone-footprint-of-rasterized-siblings: at
  /// rasterizationScale 0.5 a wrapped text showed 4 pixels past a sharp
  /// footprint, 8/255).
  func testTheFootprintTreeKeepsRasterization() throws {
    let root = try JSON.parse(
      """
      { "sublayers": [{ "shouldRasterize": true, "rasterizationScale": 0.5, "opacity": 0.5,
        "sublayers": [{ "name": "a" }, { "name": "b" }] }] }
      """)
    let tree = Relation.footprintTree(
      root, path: LayerPath([.sublayer(0)]), sublayers: [.object([("name", .string("b"))])])
    XCTAssertEqual(
      tree.compact(),
      #"{ "sublayers": [{ "shouldRasterize": true, "rasterizationScale": 0.5, "sublayers": [{ "name": "b" }] }] }"#
    )
  }

  /// A case that fails while it holds a red layer shrinks to (about) that layer.
  func testTheShrinkerKeepsWhatTheFailureNeeds() {
    var generated = SceneGenerator.generate(seed: 31)
    let red = JSON.object([
      ("frame", .array([3, 4, 10, 10].map(JSON.number))), ("backgroundColor", .string("#ff0000")),
    ])
    let root = generated.root
    let children = root["sublayers"]?.elements ?? []
    generated = generated.withRoot(root.setting("sublayers", .array(children + [red])))
    var shrinker = Shrinker(maxChecks: 2000) { $0.scene.compact().contains("\"#ff0000\"") }
    let minimal = shrinker.shrink(generated)
    XCTAssertTrue(minimal.scene.compact().contains("#ff0000"))
    XCTAssertEqual(minimal.root.layerCount, 2, minimal.scene.serialized())
    XCTAssertEqual(minimal.time, 0)
    XCTAssertLessThan(minimal.scene.compact().count, generated.scene.compact().count / 2)
  }

  func testPixelDifferenceCountsPixelsAboveTheThreshold() {
    let a = RenderedImage(width: 2, height: 1, premultipliedPixels: [10, 10, 10, 255, 0, 0, 0, 0])
    let b = RenderedImage(width: 2, height: 1, premultipliedPixels: [12, 10, 10, 255, 0, 0, 9, 9])
    let d = PixelDifference(a, b, threshold: 2)
    XCTAssertEqual(d.maxDifference, 9)
    XCTAssertEqual(d.pixelsOff, 1)
    XCTAssertEqual(d.firstOff?.x, 1)
    XCTAssertFalse(d.accepted(by: .structural))
    XCTAssertEqual(PixelDifference(a, a, threshold: 0).pixelsOff, 0)
    XCTAssertEqual(
      PixelDifference(a, b, threshold: 0, include: [true, false]).pixelsOff, 1)
  }

  func testHalvingAveragesBlocks() {
    let image = RenderedImage(
      width: 2, height: 2,
      premultipliedPixels: [0, 0, 0, 255, 255, 0, 0, 255, 0, 0, 0, 255, 255, 0, 0, 255])
    XCTAssertEqual(image.halved().premultipliedPixels, [128, 0, 0, 255])
  }

  /// `scale-2` takes out the contents of layers that the linear filter
  /// minifies by more than 2× (a pixel's 2×2 texels skip those between
  /// pixels, and scale 2 reads others): the 64×64 `quads` shown 5 points
  /// tall (12.8×, finding linear-minification-aliases-at-scale-2), or 20
  /// points wide under a rotation and a scale of 1/2; not at 2× or less,
  /// nor in 40 or 34 points (1.6×, 1.9×), nor with the nearest filter.
  func testScale2TakesOutContentsMinifiedPastTheLinearFootprint() throws {
    let harness = try Harness()
    let scene = try Self.scene(
      """
      { "sublayers": [ { "frame": [20, 0, 40, 5], "contents": "quads" },
        { "frame": [0, 10, 40, 40], "contents": "quads" },
        { "frame": [0, 10, 34, 34], "contents": "quads" },
        { "frame": [10, 20, 20, 20], "contents": "quads", "transform": [{ "rotate": [0.5, 0, 0, 1] }, { "scale": [0.5, 0.5, 1] }] },
        { "frame": [0, 0, 64, 64], "sublayers": [{ "frame": [0, 0, 10, 10], "contents": "quads" }] },
        { "frame": [0, 0, 10, 10], "contents": "quads", "minificationFilter": "nearest" } ] }
      """)
    let found = try harness.layersMinifyingPastTheLinearFootprint(scene, time: 0)
    XCTAssertEqual(
      found.map(\.description),
      ["root.sublayers[0]", "root.sublayers[3]", "root.sublayers[4].sublayers[0]"])
  }

  /// Scale 2 takes out the blend modes that are not affine in each color,
  /// and keeps multiply, screen, exclusion and Porter–Duff operators
  /// (findings nonlinear-blend-of-edges-at-scale-2 and
  /// nonlinear-color-blend-under-filter-at-scale-2: color burn and color
  /// over edges that the two scales average at different points).
  func testScale2TakesOutBlendModesNotAffineInEachColor() throws {
    let root = try JSON.parse(
      """
      { "sublayers": [
        { "name": "burn", "compositingFilter": "CIColorBurnBlendMode" },
        { "name": "color", "compositingFilter": "CIColorBlendMode",
          "sublayers": [{ "name": "overlay", "compositingFilter": "CIOverlayBlendMode" }] },
        { "name": "multiply", "compositingFilter": "CIMultiplyBlendMode" },
        { "name": "screen", "compositingFilter": "CIScreenBlendMode" },
        { "name": "exclusion", "compositingFilter": "CIExclusionBlendMode" },
        { "name": "xor", "compositingFilter": "xor" } ] }
      """)
    let kept = Relation.scaleInvariant(root)
    func mode(_ path: [Int]) -> String? {
      kept.layer(at: LayerPath(path.map { .sublayer($0) }))?["compositingFilter"]?.string
    }
    XCTAssertNil(mode([0]))
    XCTAssertNil(mode([1]))
    XCTAssertNil(mode([1, 0]))
    XCTAssertEqual(mode([2]), "CIMultiplyBlendMode")
    XCTAssertEqual(mode([3]), "CIScreenBlendMode")
    XCTAssertEqual(mode([4]), "CIExclusionBlendMode")
    XCTAssertEqual(mode([5]), "xor")
    let removed = SpecKeys.blendModes.filter {
      !Relation.blendModesAffineInEachColor.contains($0)
    }
    XCTAssertEqual(removed.count, 12, "the other twelve of the fifteen")
  }

  /// `batchesDraws = false` draws each item on its own: more draw calls, the same pixels.
  func testUnbatchedDrawingTakesOneCallPerItem() throws {
    let harness = try Harness()
    let renderer = harness.renderer
    let scene = try Self.scene(
      """
      { "sublayers": [ { "frame": [0, 0, 10, 10], "backgroundColor": "#ff0000" },
        { "frame": [20, 0, 10, 10], "backgroundColor": "#00ff00" },
        { "frame": [40, 0, 10, 10], "backgroundColor": "#0000ff" } ] }
      """)
    let batched = try harness.render(scene, time: 0, with: renderer)
    let batchedCalls = renderer.counters.drawCalls
    renderer.batchesDraws = false
    let unbatched = try harness.render(scene, time: 0, with: renderer)
    XCTAssertEqual(batchedCalls, 1)
    XCTAssertEqual(renderer.counters.drawCalls, 3)
    XCTAssertEqual(batched, unbatched)
  }

  /// `offscreenPoolLimit` bounds the idle targets kept.
  func testThePoolKeepsAtMostItsLimit() throws {
    let harness = try Harness()
    let renderer = harness.renderer
    let groups = (0..<6).map {
      """
      { "frame": [\($0 * 10), \($0 * 3), \(10 + $0), 8], "opacity": 0.5,
        "sublayers": [{ "frame": [0, 0, 6, 6], "backgroundColor": "#ff0000" },
                      { "frame": [3, 2, 6, 6], "backgroundColor": "#0000ff" }] }
      """
    }
    let scene = try Self.scene(#"{ "sublayers": [\#(groups.joined(separator: ", "))] }"#)
    let many = try harness.render(scene, time: 0, with: renderer)
    XCTAssertGreaterThan(renderer.pool.count, 1)
    renderer.offscreenPoolLimit = 1
    let one = try harness.render(scene, time: 0, with: renderer)
    XCTAssertLessThanOrEqual(renderer.pool.count, 1)
    XCTAssertEqual(many, one)
  }
}
