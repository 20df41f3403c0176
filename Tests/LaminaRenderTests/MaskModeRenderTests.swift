import Foundation
import XCTest

/// `maskMode` reaches the composite in both mask paths: the atlas (four
/// masked layers of `reftests/mask_modes.json` share it) and targets of
/// their own (`mask_modes_3d.json`: mattes of mattes). The pixels are the
/// reftests'; this checks the plans that drew them.
final class MaskModeRenderTests: XCTestCase {
  func plan(_ name: String) throws -> [String] {
    _ = try RenderTestSupport.commandScratch("lamina-mask-modes")
    let scene = RenderTestSupport.fixtures.appendingPathComponent("reftests/\(name)").path
    let run = try RenderTestSupport.runLamina(["render", scene, "--dump-plan"])
    XCTAssertEqual(run.status, 0, run.stderr)
    return String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  func composites(_ lines: [String]) -> [String] {
    lines.compactMap { line in
      guard let range = line.range(of: "effect textured masked") else { return nil }
      let rest = line[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
      return rest.hasPrefix("T") ? "alpha" : rest
    }
  }

  func testEveryModeIsCompositedInTheAtlasAndOutsideIt() throws {
    let atlas = try plan("mask_modes.json")
    XCTAssertTrue(atlas.contains { $0.contains("mask atlas") && $0.contains("4 entries") })
    XCTAssertEqual(
      composites(atlas), ["alpha", "alphaInverted", "luminance", "luminanceInverted"])
    let own = try plan("mask_modes_3d.json")
    XCTAssertFalse(own.contains { $0.contains("mask atlas") })
    // Each cell's matte is masked by alpha itself (four), then the cells'
    // composites; the masks off their layer make no group at all.
    XCTAssertEqual(
      composites(own).sorted(),
      ["alpha", "alpha", "alpha", "alpha", "alpha", "alphaInverted", "luminance",
       "luminanceInverted"])
  }
}
