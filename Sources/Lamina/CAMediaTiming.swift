import Foundation

/// Timing of animations (and of layers, in Core Animation): when an object
/// begins, how long it lasts, how fast and how often it plays.
public protocol CAMediaTiming: AnyObject {
  /// Seconds after the parent's time 0 when the object begins.
  var beginTime: CFTimeInterval { get set }
  /// Length of one repetition in seconds (0: the default 0.25 s for animations).
  var duration: CFTimeInterval { get set }
  /// Time scale relative to the parent.
  var speed: Float { get set }
  /// Offset added to the object's local time.
  var timeOffset: CFTimeInterval { get set }
  /// Number of repetitions (may be fractional, or `.infinity`).
  var repeatCount: Float { get set }
  /// Seconds to repeat for (an alternative to `repeatCount`).
  var repeatDuration: CFTimeInterval { get set }
  /// Whether each repetition plays backward after forward.
  var autoreverses: Bool { get set }
  /// What shows before and after the active time.
  var fillMode: CAMediaTimingFillMode { get set }
}
