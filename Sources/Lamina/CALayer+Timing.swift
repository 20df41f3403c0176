import Foundation

// CALayer adopts CAMediaTiming as in Core Animation: a layer's beginTime,
// speed and timeOffset map its superlayer's time to its own, which its
// sublayers and its animations run in. A layer with no `duration` (the
// default) has no end; with one, its time repeats, autoreverses and fills
// as an animation's does.
extension CALayer: CAMediaTiming {
  /// Seconds of the superlayer's time at which the layer's time starts.
  public var beginTime: CFTimeInterval {
    get { timing.beginTime }
    set { timing.beginTime = newValue }
  }
  /// One repetition of the layer's time; 0 (the default) means endless.
  public var duration: CFTimeInterval {
    get { timing.duration }
    set { timing.duration = newValue }
  }
  /// How fast the layer's time (and its subtree's, and its animations') runs
  /// relative to the superlayer's; 0 freezes it at `timeOffset`.
  public var speed: Float {
    get { timing.speed }
    set { timing.speed = newValue }
  }
  /// Added to the layer's local time.
  public var timeOffset: CFTimeInterval {
    get { timing.timeOffset }
    set { timing.timeOffset = newValue }
  }
  /// Repetitions of the layer's time (with a `duration`).
  public var repeatCount: Float {
    get { timing.repeatCount }
    set { timing.repeatCount = newValue }
  }
  /// How long the layer's time repeats (with a `duration`).
  public var repeatDuration: CFTimeInterval {
    get { timing.repeatDuration }
    set { timing.repeatDuration = newValue }
  }
  /// Whether each repetition of the layer's time runs back after it ran forward.
  public var autoreverses: Bool {
    get { timing.autoreverses }
    set { timing.autoreverses = newValue }
  }
  /// What the layer's time holds outside its active period.
  public var fillMode: CAMediaTimingFillMode {
    get { timing.fillMode }
    set { timing.fillMode = newValue }
  }

  /// The accessors of the timing keys (appended to CALayer's own).
  static let timingAccessors = PropertyAccessor.mediaTiming(CALayer.self)
}

extension PropertyAccessor {
  /// The eight `CAMediaTiming` keys of a class that adopts it (layers,
  /// animations, emitter cells).
  static func mediaTiming<O: CAMediaTiming>(_: O.Type) -> [PropertyAccessor] {
    typealias C = Convert
    return [
      make("beginTime", .number, \O.beginTime, C.double),
      make("duration", .number, \O.duration, C.double),
      make("speed", .number, \O.speed, C.float),
      make("timeOffset", .number, \O.timeOffset, C.double),
      make("repeatCount", .number, \O.repeatCount, C.float),
      make("repeatDuration", .number, \O.repeatDuration, C.double),
      make("autoreverses", .bool, \O.autoreverses, C.bool),
      make(
        "fillMode", .enumeration(CAMediaTimingFillMode.all.map(\.rawValue)), \O.fillMode,
        C.enumeration(CAMediaTimingFillMode.self)),
    ]
  }
}
