import Foundation
import Lamina
import LaminaRender
import XCTest

/// The scenes of `../shared/reference` (copied into Fixtures/reference)
/// against the images an independent renderer made of them, at the
/// tolerance class each one names.
final class ReferenceSceneTests: XCTestCase {
  /// Scenes whose features have not landed yet, and what they wait for.
  static let pending: [String: String] = [
    "animation_timing": "animations (issue 4)",
    "gradient_axial": "CAGradientLayer (issue 7)",
    "gradient_radial": "CAGradientLayer (issue 7)",
    "replicator": "CAReplicatorLayer (issue 8)",
    "shape_fill_stroke": "CAShapeLayer (issue 7)",
    "text_basic": "CATextLayer (issue 7)",
    "filter_blur": "filters (issue 9)",
    "background_blur": "background filters (issue 9)",
    "blend_modes_separable": "blend modes (issue 9)",
  ]

  struct Entry {
    let scene: String
    let times: [Double]
    let tolerance: Tolerance
  }

  static func manifest() throws -> [Entry] {
    let url = RenderTestSupport.fixtures.appendingPathComponent("reference/manifest.json")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    let classes = json["tolerances"] as! [String: [String: Double]]
    return (json["scenes"] as! [[String: Any]]).map { scene in
      let tolerance = classes[scene["tolerance"] as! String]!
      return Entry(
        scene: scene["scene"] as! String, times: scene["times"] as! [Double],
        tolerance: .reference(maxFractionOff: tolerance["maxFractionOff"]!, minPSNR: tolerance["minPSNR"]!))
    }
  }

  func check(_ name: String, file: StaticString = #filePath, line: UInt = #line) throws {
    guard let entry = try Self.manifest().first(where: { $0.scene == name }) else {
      return XCTFail("\(name) is not in the reference manifest", file: file, line: line)
    }
    let scene = RenderTestSupport.fixtures.appendingPathComponent("reference/scenes/\(name).json")
    for time in entry.times {
      let image = try RenderTestSupport.render(scene, time: time)
      let golden = entry.times.count == 1 ? "\(name).png" : "\(name)@t\(formatTime(time)).png"
      try RenderTestSupport.assertMatches(
        image, golden: "reference/expected/" + golden, tolerance: entry.tolerance, file: file, line: line)
    }
  }

  private func formatTime(_ t: Double) -> String {
    t == t.rounded() ? String(Int(t)) : String(t)
  }

  /// Every scene of the manifest is either checked below or listed as pending.
  func testEveryReferenceSceneIsAccountedFor() throws {
    let checked: Set = [
      "geometry_anchor", "rotation_2d", "page_turn_perspective", "zposition_order",
      "contents_gravity", "magnification_filter", "flatten_nested_3d", "transform_layer_cube",
      "border_above_sublayers", "corners_masks_to_bounds", "shadow_radius", "mask_image", "nine_slice",
    ]
    for entry in try Self.manifest() {
      XCTAssertTrue(
        checked.contains(entry.scene) || Self.pending[entry.scene] != nil,
        "\(entry.scene) is neither checked nor pending")
    }
  }

  func testGeometryAnchor() throws { try check("geometry_anchor") }
  func testRotation2D() throws { try check("rotation_2d") }
  func testPageTurnPerspective() throws { try check("page_turn_perspective") }
  func testZPositionOrder() throws { try check("zposition_order") }
  func testContentsGravity() throws { try check("contents_gravity") }
  func testMagnificationFilter() throws { try check("magnification_filter") }
  func testFlattenNested3D() throws { try check("flatten_nested_3d") }
  func testTransformLayerCube() throws { try check("transform_layer_cube") }
  func testBorderAboveSublayers() throws { try check("border_above_sublayers") }
  func testCornersMasksToBounds() throws { try check("corners_masks_to_bounds") }
  func testShadowRadius() throws { try check("shadow_radius") }
  func testMaskImage() throws { try check("mask_image") }
  func testNineSlice() throws { try check("nine_slice") }
}
