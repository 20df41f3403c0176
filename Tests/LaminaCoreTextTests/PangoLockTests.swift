import Foundation
import XCTest

@testable import Lamina

/// Pango's objects are used under `PangoText.lock` only (they are not
/// thread-safe): releasing a font is a use (the font map drops it from its
/// cache), so a font released on one thread waits for a layout another
/// thread is making.
final class PangoLockTests: XCTestCase {
  final class Holder: @unchecked Sendable { var font: CTFont? }

  func testAFontIsReleasedUnderPangosLock() {
    let holder = Holder()
    holder.font = CTFontCreateWithName("DejaVu Sans" as CFString, 17.25, nil)
    XCTAssertGreaterThan(CTFontGetAscent(holder.font!), 0, "loaded")
    let released = expectation(description: "released")
    let done = NSLock()
    nonisolated(unsafe) var finished = false
    PangoText.lock.lock()
    DispatchQueue.global().async {
      holder.font = nil
      done.lock()
      finished = true
      done.unlock()
      released.fulfill()
    }
    Thread.sleep(forTimeInterval: 0.3)
    done.lock()
    XCTAssertFalse(finished, "the release waits for Pango's lock")
    done.unlock()
    PangoText.lock.unlock()
    wait(for: [released], timeout: 5)
  }
}
