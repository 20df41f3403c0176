import Foundation
import LaminaFrame

/// A request that cannot be met as asked (an option the command cannot
/// parse, a frame pattern without a `%d`, frames past the largest time): a
/// message for the user, which the command reports with exit status 2.
package struct UsageError: Error, CustomStringConvertible {
  package let description: String
  package init(_ description: String) { self.description = description }
}
