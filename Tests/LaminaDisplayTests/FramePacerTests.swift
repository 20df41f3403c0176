import Foundation
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaDisplay
@testable import LaminaRender
import XCTest

/// The vblank-paced flip state machine and its statistics, driven by a
/// fake sequence of flip events.
final class FramePacerTests: XCTestCase {
  let period = 1.0 / 60

  func testOneFlipPendingAtMost() throws {
    var pacer = FramePacer(refreshRate: 60)
    XCTAssertTrue(pacer.canDraw)
    try pacer.flipQueued(damageArea: 100)
    XCTAssertFalse(pacer.canDraw)
    XCTAssertThrowsError(try pacer.flipQueued(damageArea: 100)) {
      XCTAssertEqual($0 as? FramePacer.PacingError, .flipWhilePending)
      XCTAssertEqual("\($0)", "a page flip was queued while another is pending")
    }
    try pacer.flipCompleted(at: 1)
    XCTAssertTrue(pacer.canDraw)
    XCTAssertThrowsError(try pacer.flipCompleted(at: 1 + period)) {
      XCTAssertEqual($0 as? FramePacer.PacingError, .unexpectedCompletion)
    }
  }

  func testMissedVblanksAndPercentiles() throws {
    var pacer = FramePacer(refreshRate: 60)
    // Vblanks 0, 1, 2, 4 (one missed), 5, 8 (two missed).
    for (n, vblank) in [0, 1, 2, 4, 5, 8].enumerated() {
      try pacer.flipQueued(damageArea: 1000 * (n + 1))
      try pacer.flipCompleted(at: 10 + Double(vblank) * period)
    }
    let s = pacer.statistics
    XCTAssertEqual(s.presented, 6)
    XCTAssertEqual(s.missedVblanks, 3)
    XCTAssertEqual(s.frameTimes.count, 5)
    XCTAssertEqual(s.frameTime(percentile: 0.5)!, period, accuracy: 1e-9)
    XCTAssertEqual(s.frameTime(percentile: 0.95)!, 3 * period, accuracy: 1e-9)
    XCTAssertEqual(s.fps!, 5 / (8 * period), accuracy: 1e-6)
    XCTAssertEqual(s.damageAreas, [1000, 2000, 3000, 4000, 5000, 6000])
    XCTAssertEqual(
      s.description,
      "presented 6 frames, 37.5 fps, missed vblanks 3, frame ms p50 16.67 p95 50.00 "
        + "p99 50.00, mean damage 3500 px")
  }

  func testAnIdleDisplayMissesNothing() throws {
    var pacer = FramePacer(refreshRate: 60)
    try pacer.flipQueued(damageArea: 1)
    try pacer.flipCompleted(at: 0)
    pacer.idle()  // nothing animates for ten seconds
    try pacer.flipQueued(damageArea: 1)
    try pacer.flipCompleted(at: 10)
    XCTAssertEqual(pacer.statistics.missedVblanks, 0)
    XCTAssertEqual(pacer.statistics.presented, 2)
    XCTAssertTrue(pacer.statistics.frameTimes.isEmpty)
  }
}
