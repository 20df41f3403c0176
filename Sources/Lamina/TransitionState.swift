import Foundation

/// A transition in progress on a presentation layer, for the renderer: the
/// layer's old appearance and how far the new one has come.
package struct TransitionState {
  package let from: CALayer
  package let type: CATransitionType
  package let subtype: CATransitionSubtype
  /// 0…1, after the timing function and start/end progress.
  package let progress: Double
}
