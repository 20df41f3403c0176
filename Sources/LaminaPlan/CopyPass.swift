import Foundation
import Lamina
import LaminaFrame

/// `rect` of `source`'s pixels copied to the origin of `destination` (same size).
package struct CopyPass {
  /// Copied from (its texture, resolved).
  package var source: TargetID
  /// The source's pixels copied.
  package var rect: PixelRect
  /// Copied to, at its origin.
  package var destination: TargetID
  /// What is copied, for people reading the plan.
  package var label: String
}
