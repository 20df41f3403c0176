import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender
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
      [
        "alpha", "alpha", "alpha", "alpha", "alpha", "alphaInverted", "luminance",
        "luminanceInverted",
      ])
  }

  /// A retained frame builder sees a change of `maskMode` alone: the next
  /// frame is what a new builder builds, and its pixels follow the mode.
  func testAChangeOfModeReachesARetainedFrame() throws {
    let root = CALayer()
    root.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
    root.position = CGPoint(x: 20, y: 10)
    let content = CALayer()
    content.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
    content.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    let mask = CALayer()
    mask.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
    mask.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    content.mask = mask
    root.addSublayer(content)
    let renderer = try RenderTestSupport.renderer()
    var builder = FrameBuilder(size: CGSize(width: 40, height: 20), scale: 1)
    var expected: [(CALayerMaskMode, left: UInt8, right: UInt8)] = [
      (.alpha, 255, 0), (.alphaInverted, 0, 255), (.luminance, 255, 0),
      (.luminanceInverted, 0, 255),
    ]
    expected += expected.reversed()
    for (mode, left, right) in expected {
      content.maskMode = mode
      let frame = builder.build(root: root, background: nil)
      var fresh = FrameBuilder(size: CGSize(width: 40, height: 20), scale: 1)
      XCTAssertNil(
        DrawListComparison.difference(frame, fresh.build(root: root, background: nil)), "\(mode)")
      let image = try renderer.render(frame)
      XCTAssertEqual(image.pixel(10, 10).b, left, "\(mode): under the mask")
      XCTAssertEqual(image.pixel(30, 10).b, right, "\(mode): beside it")
    }
  }
}
