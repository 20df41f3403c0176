import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaDisplay
@testable import LaminaRender
import XCTest

/// A card that exists only in the test.
struct FakeCard: KMSDevice {
  let path = "/dev/dri/card7"
  var list: [KMSConnector]
  func connectors() throws -> [KMSConnector] { list }
}

/// Connector and mode selection for `lamina show` on DRM/KMS, the rotation
/// of portrait screens, and the real libdrm binding where no card exists.
final class KMSSelectionTests: XCTestCase {
  let card = FakeCard(list: [
    KMSConnector(id: 31, name: "eDP-1", connected: false, modes: []),
    KMSConnector(
      id: 32, name: "HDMI-A-1", connected: true,
      modes: [
        DisplayMode(width: 1280, height: 720, refreshRate: 60),
        DisplayMode(width: 1920, height: 1080, refreshRate: 59.94),
        DisplayMode(width: 1920, height: 1080, refreshRate: 60, preferred: true),
        DisplayMode(width: 1920, height: 1080, refreshRate: 75),
        DisplayMode(width: 3840, height: 2160, refreshRate: 30),
      ]),
    KMSConnector(
      id: 33, name: "DP-2", connected: true,
      modes: [DisplayMode(width: 2560, height: 1440, refreshRate: 144)]),
  ])

  func testFirstConnectedConnectorAndItsPreferredMode() throws {
    let (connector, mode) = try KMSSelection.choose(on: card)
    XCTAssertEqual(connector.name, "HDMI-A-1")
    XCTAssertEqual(mode, DisplayMode(width: 1920, height: 1080, refreshRate: 60, preferred: true))
  }

  func testRequestedConnectorAndModes() throws {
    XCTAssertEqual(try KMSSelection.choose(on: card, connector: "DP-2").mode.refreshRate, 144)
    let fastest = try KMSSelection.choose(on: card, mode: ModeRequest("1920x1080"))
    XCTAssertEqual(fastest.mode.description, "1920x1080@75")
    let ntsc = try KMSSelection.choose(on: card, mode: ModeRequest("1920x1080@59.94"))
    XCTAssertEqual(ntsc.mode.description, "1920x1080@59.94")
    var noPreferred = card
    noPreferred.list[1] = KMSConnector(
      id: 32, name: "HDMI-A-1", connected: true,
      modes: card.list[1].modes.map {
        DisplayMode(width: $0.width, height: $0.height, refreshRate: $0.refreshRate)
      })
    XCTAssertEqual(
      try KMSSelection.choose(on: noPreferred).mode.description, "3840x2160@30",
      "the largest mode when none is preferred")
  }

  func testSelectionErrors() {
    func message(_ body: () throws -> Void) -> String {
      do {
        try body()
        return "no error"
      } catch { return "\(error)" }
    }
    XCTAssertEqual(
      message { _ = try KMSSelection.choose(on: card, connector: "VGA-1") },
      "/dev/dri/card7: no connector named 'VGA-1'; the card has 'eDP-1', 'HDMI-A-1', 'DP-2'")
    XCTAssertEqual(
      message { _ = try KMSSelection.choose(on: card, connector: "eDP-1") },
      "/dev/dri/card7: connector 'eDP-1' has no display connected")
    XCTAssertEqual(
      message { _ = try KMSSelection.choose(on: card, mode: ModeRequest("1920x1080@50")) },
      "HDMI-A-1: no mode 1920x1080@50; the display offers 3840x2160@30, 1920x1080@75, "
        + "1920x1080@60, 1920x1080@59.94, 1280x720@60")
    XCTAssertEqual(
      message { _ = try KMSSelection.choose(on: FakeCard(list: [card.list[0]])) },
      "/dev/dri/card7: no connector has a display connected")
    for bad in ["1920", "1920x", "x1080", "1920x1080@", "1920x1080@0", "0x10", "1x2@3@4"] {
      XCTAssertNil(ModeRequest(bad), bad)
    }
    XCTAssertEqual(ModeRequest("800x600@60")?.refreshRate, 60)
  }

  func testRotationMapsTheCanvasOntoThePanel() {
    // A 1920×1080 panel turned a quarter: a 1080×1920 canvas. Its top-left
    // corner lands at the panel's top-right; its bottom-left at the origin.
    let r = DisplayRotation.quarter
    XCTAssertTrue(r.canvasSize(panelWidth: 1920, height: 1080) == (1080, 1920))
    let t = r.canvasToPanel(panelWidth: 1920, height: 1080)
    XCTAssertEqual(CGPoint(x: 0, y: 0).applying(t), CGPoint(x: 1920, y: 0))
    XCTAssertEqual(CGPoint(x: 0, y: 1920).applying(t), CGPoint(x: 0, y: 0))
    XCTAssertEqual(CGPoint(x: 1080, y: 1920).applying(t), CGPoint(x: 0, y: 1080))
    let half = DisplayRotation.half.canvasToPanel(panelWidth: 1920, height: 1080)
    XCTAssertEqual(CGPoint(x: 0, y: 0).applying(half), CGPoint(x: 1920, y: 1080))
    let three = DisplayRotation.threeQuarters.canvasToPanel(panelWidth: 1920, height: 1080)
    XCTAssertEqual(CGPoint(x: 0, y: 0).applying(three), CGPoint(x: 0, y: 1080))
    XCTAssertEqual(CGPoint(x: 1080, y: 0).applying(three), CGPoint(x: 0, y: 0))
    for rotation in DisplayRotation.allCases {
      // Every corner of the canvas lands on a corner of the panel.
      let size = rotation.canvasSize(panelWidth: 1920, height: 1080)
      let m = rotation.canvasToPanel(panelWidth: 1920, height: 1080)
      for corner in [(0, 0), (size.width, 0), (0, size.height), (size.width, size.height)] {
        let p = CGPoint(x: corner.0, y: corner.1).applying(m)
        XCTAssertTrue([0, 1920].contains(p.x) && [0, 1080].contains(p.y), "\(rotation) \(p)")
      }
    }
  }

  func testTheRealBindingWithoutACard() {
    XCTAssertEqual(DRMCard.cardPaths(in: "/nonexistent"), [])
    XCTAssertThrowsError(try DRMCard(path: "/nonexistent/card0")) {
      XCTAssertEqual(
        "\($0)", "/nonexistent/card0: cannot open the DRM device: No such file or directory")
    }
    // A file that is not a DRM device opens but has no modesetting resources.
    if let card = try? DRMCard(path: "/dev/null") {
      XCTAssertThrowsError(try card.connectors()) {
        XCTAssertEqual("\($0)", "/dev/null: cannot open the DRM device: not a modesetting device")
      }
    }
  }
}
