import Foundation
import Lamina
import LaminaFrame

/// A target of a plan, by its number: `T0` is the canvas.
package struct TargetID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The target's place in `FramePlan.targets`.
  package let index: Int
  package static func < (a: TargetID, b: TargetID) -> Bool { a.index < b.index }
  package var description: String { "T\(index)" }
}
