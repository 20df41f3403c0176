import Foundation

// CALayer adopts CAMediaTiming as in Core Animation: a layer's beginTime,
// speed and timeOffset map its superlayer's time to its own, which its
// sublayers and its animations run in. A layer with no `duration` (the
// default) has no end; with one, its time repeats, autoreverses and fills
// as an animation's does.
extension CALayer: CAMediaTiming {
  // The eight properties are declared in the class body (CALayer.swift),
  // so that subclasses may override them.

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
