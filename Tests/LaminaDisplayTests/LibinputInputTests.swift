import Foundation
import XCTest

@testable import LaminaDisplay

/// Input under KMS: the pointer and touch translation into taps, without
/// devices, and opening libinput on this machine (which may have no
/// /dev/input devices and no udev daemon) failing, if at all, with a
/// message rather than a crash.
final class LibinputInputTests: XCTestCase {
  func feed(
    _ translator: inout TapTranslator, _ events: [RawInputEvent], width: Int = 800,
    height: Int = 600
  ) -> [DisplayEvent] {
    events.compactMap { translator.translate($0, panelWidth: width, panelHeight: height) }
  }

  func testTheCursorStartsAtThePanelCenter() {
    var t = TapTranslator()
    XCTAssertNil(t.cursor)
    let taps = feed(&t, [.pointerButton(code: TapTranslator.leftButton, pressed: true)])
    XCTAssertEqual(taps, [.tap(x: 400, y: 300)])
  }

  func testRelativeMotionAccumulates() {
    var t = TapTranslator()
    let taps = feed(
      &t,
      [
        .pointerMotion(dx: 10, dy: -20), .pointerMotion(dx: 5.5, dy: 4),
        .pointerButton(code: TapTranslator.leftButton, pressed: true),
      ])
    XCTAssertEqual(taps, [.tap(x: 415.5, y: 284)])
  }

  func testRelativeMotionClampsAtThePanelEdges() {
    var t = TapTranslator()
    let press = RawInputEvent.pointerButton(code: TapTranslator.leftButton, pressed: true)
    var taps = feed(&t, [.pointerMotion(dx: -5000, dy: -5000), press])
    // Back from the corner at once: what went past the edge is not owed.
    taps += feed(&t, [.pointerMotion(dx: 10, dy: 20), press])
    taps += feed(&t, [.pointerMotion(dx: 9000, dy: 9000), press])
    XCTAssertEqual(taps, [.tap(x: 0, y: 0), .tap(x: 10, y: 20), .tap(x: 799, y: 599)])
  }

  func testAbsoluteMotionAndTouchMapToPanelPixels() {
    var t = TapTranslator()
    let taps = feed(
      &t,
      [
        .pointerMotionAbsolute(x: 123.25, y: 456.5),
        .pointerButton(code: TapTranslator.leftButton, pressed: true),
        .touchDown(x: 700, y: 50),
        // Beyond the panel (a touch on the bezel edge) stays on it.
        .touchDown(x: 800, y: -3),
      ])
    XCTAssertEqual(taps, [.tap(x: 123.25, y: 456.5), .tap(x: 700, y: 50), .tap(x: 799, y: 0)])
    // A touch does not move the pointer.
    XCTAssertEqual(t.cursor?.x, 123.25)
    XCTAssertEqual(t.cursor?.y, 456.5)
  }

  func testOnlyLeftButtonPressesTap() {
    var t = TapTranslator()
    let taps = feed(
      &t,
      [
        .pointerButton(code: TapTranslator.leftButton, pressed: false),
        .pointerButton(code: 0x111, pressed: true),  // BTN_RIGHT
        .pointerButton(code: 0x112, pressed: true),  // BTN_MIDDLE
        .pointerButton(code: 0x111, pressed: false),
        .pointerMotion(dx: 1, dy: 1),
        .pointerButton(code: TapTranslator.leftButton, pressed: true),
        .pointerButton(code: TapTranslator.leftButton, pressed: false),
      ])
    XCTAssertEqual(taps, [.tap(x: 401, y: 301)])
  }

  func testAResizedPanelClampsTheCursor() {
    var t = TapTranslator()
    let press = RawInputEvent.pointerButton(code: TapTranslator.leftButton, pressed: true)
    var taps = feed(&t, [.pointerMotion(dx: 300, dy: 200), press])
    taps += feed(&t, [press], width: 320, height: 240)
    taps += feed(&t, [.pointerMotion(dx: -20, dy: -10), press], width: 320, height: 240)
    XCTAssertEqual(taps, [.tap(x: 700, y: 500), .tap(x: 319, y: 239), .tap(x: 299, y: 229)])
    // An empty panel holds the cursor at its origin rather than crashing.
    XCTAssertEqual(feed(&t, [press], width: 0, height: 0), [.tap(x: 0, y: 0)])
  }

  func testErrorsNameTheSeatAndTheStep() {
    XCTAssertEqual(
      InputError.noUdev(seat: "seat1").description,
      "cannot read input on seat 'seat1': udev could not be opened (udev_new failed)")
    XCTAssertTrue(
      InputError.noLibinputContext(seat: "seat1").description.contains("udev context"))
    let assign = InputError.cannotAssignSeat(seat: "seat9").description
    XCTAssertTrue(assign.contains("'seat9'") && assign.contains("assign the seat"), assign)
  }

  func testOpeningTheSeatOpensOrExplains() {
    do {
      let source = try LibinputSource.open(seat: "seat0")
      XCTAssertGreaterThanOrEqual(source.descriptor, 0)
      // Whatever devices there are (none here), reading never blocks or
      // crashes, and any tap is on the panel.
      for event in source.readEvents(panelWidth: 640, panelHeight: 480) {
        guard case .tap(let x, let y) = event else {
          XCTFail("\(event) is not a tap")
          continue
        }
        XCTAssertTrue((0..<640).contains(x) && (0..<480).contains(y), "\(event)")
      }
    } catch let error as InputError {
      XCTAssertTrue(error.description.contains("seat 'seat0'"), error.description)
    } catch {
      XCTFail("unexpected error \(error)")
    }
  }
}
