import Foundation

/// Where a timed object is at a moment of its parent's time: inside one
/// repetition, or filling before or after its active period.
struct TimingPoint: Equatable {
  /// Progress through the current repetition, 0…1, before the timing function
  /// (already reversed on the way back of an autoreversing cycle).
  var progress: Double
  /// Completed repetitions before this one (for `isCumulative`).
  var iteration: Int
}

/// The timing of a layer, as Core Animation's `CAMediaTiming` adoption by
/// `CALayer`: grouped in one value so that copying a layer copies it at once.
struct LayerTiming: Equatable {
  var beginTime: CFTimeInterval = 0
  var duration: CFTimeInterval = 0
  var speed: Float = 1
  var timeOffset: CFTimeInterval = 0
  var repeatCount: Float = 0
  var repeatDuration: CFTimeInterval = 0
  var autoreverses = false
  var fillMode: CAMediaTimingFillMode = .removed

  /// A layer's local time from its superlayer's: `(t − beginTime) × speed +
  /// timeOffset`. A layer whose `duration` is set plays like an animation:
  /// its subtree's time runs through each repetition (backward on the way
  /// back when it autoreverses), and outside its active period, unless it
  /// fills, it is far in the past, where no animation applies.
  @inline(__always)
  func localTime(_ parentTime: CFTimeInterval) -> CFTimeInterval {
    if duration > 0 { return cycledLocalTime(parentTime) }
    if speed == 1 && beginTime == 0 && timeOffset == 0 { return parentTime }
    return (parentTime - beginTime) * Double(speed) + timeOffset
  }
}

extension LayerTiming {
  /// The local time of a layer with a duration (see `localTime`).
  func cycledLocalTime(_ parentTime: CFTimeInterval) -> CFTimeInterval {
    let model = TimingModel(
      beginTime: beginTime, speed: Double(speed), timeOffset: timeOffset, duration: duration,
      autoreverses: autoreverses, repeatCount: repeatCount, repeatDuration: repeatDuration,
      fillMode: fillMode)
    guard let point = model.point(atParentTime: parentTime) else {
      return -.greatestFiniteMagnitude
    }
    return point.progress * duration
  }
}

/// The duration an animation with `duration` 0 plays for.
let defaultAnimationDuration: CFTimeInterval = 0.25

extension CAMediaTiming {
  /// The length of one repetition: `duration`, or 0.25 s when it is 0 (or negative).
  var simpleDuration: CFTimeInterval { duration > 0 ? duration : defaultAnimationDuration }

  /// The length of the active period in the object's own time: repetitions
  /// (`repeatDuration` wins over `repeatCount`), each twice as long when
  /// autoreversing; infinite when the count is.
  var activeDuration: CFTimeInterval { activeDuration(simple: simpleDuration) }

  /// The active period when one repetition lasts `simple` seconds.
  func activeDuration(simple: CFTimeInterval) -> CFTimeInterval {
    let cycle = simple * (autoreverses ? 2 : 1)
    if repeatDuration > 0 { return repeatDuration }
    if repeatCount > 0 { return repeatCount.isInfinite ? .infinity : Double(repeatCount) * cycle }
    return cycle
  }

  /// Where the object is at its parent's time `parentTime`, or nil when it
  /// does not apply (see `TimingModel.point(atParentTime:)`).
  func timingPoint(atParentTime parentTime: CFTimeInterval) -> TimingPoint? {
    TimingModel(self).point(atParentTime: parentTime)
  }
}

/// The timing values of an animation, read once (animations do not change
/// once added), with the conversion from parent time.
struct TimingModel {
  let beginTime: Double
  let speed: Double
  let timeOffset: Double
  /// One repetition.
  let duration: Double
  /// One cycle: twice the duration when autoreversing.
  let cycle: Double
  let active: Double
  let autoreverses: Bool
  let fillsBackwards: Bool
  let fillsForwards: Bool

  /// The timing of values that are not a `CAMediaTiming` object (a layer's).
  init(
    beginTime: Double, speed: Double, timeOffset: Double, duration: Double, autoreverses: Bool,
    repeatCount: Float, repeatDuration: Double, fillMode: CAMediaTimingFillMode
  ) {
    self.beginTime = beginTime
    self.speed = speed
    self.timeOffset = timeOffset
    self.duration = duration
    self.autoreverses = autoreverses
    cycle = autoreverses ? 2 * duration : duration
    if repeatDuration > 0 {
      active = repeatDuration
    } else if repeatCount > 0 {
      active = repeatCount.isInfinite ? .infinity : Double(repeatCount) * cycle
    } else {
      active = cycle
    }
    fillsBackwards = fillMode == .backwards || fillMode == .both
    fillsForwards = fillMode == .forwards || fillMode == .both
  }

  /// The timing of `t`; a `duration` of 0 plays for `unsetDuration` (0.25 s
  /// at the top level; the group's duration for an animation in a group,
  /// which Apple's guide relies on: children without a duration span it).
  init(_ t: CAMediaTiming, unsetDuration: CFTimeInterval = defaultAnimationDuration) {
    beginTime = t.beginTime
    speed = Double(t.speed)
    timeOffset = t.timeOffset
    duration = t.duration > 0 ? t.duration : unsetDuration
    autoreverses = t.autoreverses
    cycle = autoreverses ? 2 * duration : duration
    active = t.activeDuration(simple: duration)
    fillsBackwards = t.fillMode == .backwards || t.fillMode == .both
    fillsForwards = t.fillMode == .forwards || t.fillMode == .both
  }

  /// Whether the active period is over at `parentTime`.
  @inline(__always)
  func hasEnded(atParentTime parentTime: CFTimeInterval) -> Bool {
    if speed < 0 { return timeOffset + (parentTime - beginTime) * speed < 0 }
    return speed != 0 && (parentTime - beginTime) * speed >= active
  }

  /// Where the object is at its parent's time `parentTime`, or nil when it
  /// does not apply (outside its active period with no fill that way).
  ///
  /// As in Core Animation: elapsed active time `e = (parentTime − beginTime)
  /// × speed`; before `e = 0` the object fills backward (`backwards`,
  /// `both`), from `e = activeDuration` on it fills forward (`forwards`,
  /// `both`) with its final state. Inside, `timeOffset` shifts the local time
  /// `e + timeOffset`, which wraps around the active period (an animation
  /// with an offset still plays for its whole active duration, starting part
  /// way through). Each cycle plays forward, then back when autoreversing.
  func point(atParentTime parentTime: CFTimeInterval) -> TimingPoint? {
    let d = duration
    let elapsed = speed == 0 ? 0 : (parentTime - beginTime) * speed
    var local: Double
    var atEnd = false
    if speed < 0 {
      // Playing backward: local time `timeOffset + elapsed` falls from the
      // offset (typically the end) toward 0. Past 0 the first state fills
      // (as backwards fill), above the active period the last one.
      let backward = timeOffset + elapsed
      if backward < 0 {
        guard fillsBackwards else { return nil }
        local = 0
      } else if backward >= active {
        guard fillsForwards else { return nil }
        local = active
        atEnd = true
      } else {
        local = backward
      }
    } else if elapsed < 0 {
      guard fillsBackwards else { return nil }
      local = timeOffset
    } else if elapsed >= active {
      guard fillsForwards else { return nil }
      local = active
      atEnd = true
    } else {
      local = elapsed + timeOffset
    }
    if !atEnd && active.isFinite && active > 0 {
      if local >= active || local < 0 {
        local = local.truncatingRemainder(dividingBy: active)
        if local < 0 { local += active }
      }
    } else if !atEnd && local < 0 {
      local = local.truncatingRemainder(dividingBy: cycle) + cycle
    }
    var iteration: Int
    var inCycle: Double
    if atEnd {
      // The final state: the end of the last (possibly partial) cycle.
      let cycles = active / cycle
      let whole = cycles.rounded(.down)
      if cycles == whole && whole > 0 {
        iteration = Int(clamping: whole, to: 0...Int(Int32.max)) - 1
        inCycle = cycle
      } else {
        iteration = Int(clamping: whole, to: 0...Int(Int32.max))
        inCycle = active - whole * cycle
      }
    } else if local < cycle {
      iteration = 0
      inCycle = local
    } else {
      let k = (local / cycle).rounded(.down)
      iteration = k.isFinite ? Int(clamping: k, to: 0...Int(Int32.max)) : 0
      inCycle = local - k * cycle
    }
    let t = autoreverses && inCycle > d ? 2 * d - inCycle : min(inCycle, d)
    return TimingPoint(progress: max(0, min(1, t / d)), iteration: iteration)
  }
}

extension CALayer {
  /// Converts `t` from the time space of `layer` (nil: the root's parent
  /// time, the clock's) to this layer's, through every `beginTime`, `speed`
  /// and `timeOffset` on the way.
  func convertTimeImpl(_ t: CFTimeInterval, from layer: CALayer?) -> CFTimeInterval {
    let absolute = layer.map { $0.absoluteTime(fromLocal: t) } ?? t
    return localTime(fromAbsolute: absolute)
  }

  /// Converts `t` from this layer's time space to that of `layer` (nil: the
  /// root's parent time).
  func convertTimeImpl(_ t: CFTimeInterval, to layer: CALayer?) -> CFTimeInterval {
    let absolute = absoluteTime(fromLocal: t)
    return layer.map { $0.localTime(fromAbsolute: absolute) } ?? absolute
  }

  /// The chain from the root down to this layer.
  private var timingAncestry: [CALayer] {
    var chain: [CALayer] = []
    var layer: CALayer? = self
    while let l = layer {
      chain.append(l)
      layer = l.storedSuperlayer ?? l.maskOwner
    }
    return chain.reversed()
  }

  func localTime(fromAbsolute t: CFTimeInterval) -> CFTimeInterval {
    timingAncestry.reduce(t) { $1.timing.localTime($0) }
  }

  func absoluteTime(fromLocal t: CFTimeInterval) -> CFTimeInterval {
    timingAncestry.reversed().reduce(t) { time, layer in
      let s = Double(layer.timing.speed)
      return s == 0
        ? layer.timing.beginTime : (time - layer.timing.timeOffset) / s + layer.timing.beginTime
    }
  }
}
