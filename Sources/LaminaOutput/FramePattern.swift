import Foundation
import LaminaFrame

/// A file name pattern with one `%d`, `%Nd` or `%0Nd` for the frame number
/// (`%%` is a literal %).
package struct FramePattern {
  package let prefix: String, suffix: String
  package let width: Int, zeroPadded: Bool

  package init(_ pattern: String) throws {
    var prefix = ""
    var rest = Substring(pattern)
    var found: (Int, Bool)?
    var suffix = ""
    while let c = rest.first {
      rest = rest.dropFirst()
      guard c == "%" else {
        if found == nil { prefix.append(c) } else { suffix.append(c) }
        continue
      }
      if rest.first == "%" {
        rest = rest.dropFirst()
        if found == nil { prefix.append("%") } else { suffix.append("%") }
        continue
      }
      let zero = rest.first == "0"
      let digits = rest.prefix { $0.isNumber }
      rest = rest.dropFirst(digits.count)
      guard rest.first == "d", found == nil else {
        throw UsageError(
          "-o for frames needs one %d (or %04d) for the frame number, got '\(pattern)'")
      }
      rest = rest.dropFirst()
      found = (Int(digits) ?? 0, zero)
    }
    guard let (width, zero) = found else {
      throw UsageError("-o for frames needs a %d (or %04d) for the frame number, got '\(pattern)'")
    }
    self.prefix = prefix
    self.suffix = suffix
    self.width = min(width, 32)
    zeroPadded = zero
  }

  package func path(_ frame: Int) -> String {
    var number = String(frame)
    if number.count < width {
      number = String(repeating: zeroPadded ? "0" : " ", count: width - number.count) + number
    }
    return prefix + number + suffix
  }
}
