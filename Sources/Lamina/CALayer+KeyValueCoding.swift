import Foundation

extension CALayer {
  /// Applies `defaultValue(forKey:)` overrides of subclasses (filled in by KVC work).
  func applyClassDefaults() {}
}
