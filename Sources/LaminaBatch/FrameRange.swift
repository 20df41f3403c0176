import Foundation
import LaminaRender

/// Frames to render: `A..B` (inclusive) or a single `N`.
package struct FrameRange {
  package let first: Int
  package let last: Int
  package var count: Int { last - first + 1 }

  package init(_ text: String) throws {
    let parts = text.components(separatedBy: "..")
    let numbers = parts.map { Int($0) }
    guard parts.count == 1 || parts.count == 2, numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else {
      throw UsageError("--frames expects FIRST..LAST or N (whole numbers ≥ 0), got '\(text)'")
    }
    first = numbers[0]!
    last = numbers[numbers.count - 1]!
    guard last >= first else {
      throw UsageError("--frames: the last frame (\(last)) comes before the first (\(first))")
    }
    guard last - first < 10_000_000 else { throw UsageError("--frames: too many frames") }
  }
}

extension FrameRange {
  /// The most frames one sequence renders.
  package static let maxCount = 10_000_000

  /// Frames `first` to `last` inclusive, already checked.
  package init(first: Int, last: Int) {
    self.first = first
    self.last = last
  }
}
