import Foundation
import Lamina

/// Bezier easing of one keyframe segment, per dimension (one entry applies to all).
struct Ease {
  var x: [Double]
  var y: [Double]
  func point(_ d: Int) -> (Double, Double) {
    let xi = x.isEmpty ? 0 : x[min(d, x.count - 1)]
    let yi = y.isEmpty ? 0 : y[min(d, y.count - 1)]
    return (xi, yi)
  }
}

struct Keyframe {
  var t: Double
  var value: [Double]
  /// The segment's end value when the document gives `e` (old exports).
  var end: [Double]?
  var hold = false
  var easeOut: Ease?
  var easeIn: Ease?
  var to: [Double]?
  var ti: [Double]?

  /// True when the segment after this keyframe is a curve in space (position).
  var isSpatial: Bool {
    guard let to, let ti else { return false }
    return to.contains { $0 != 0 } || ti.contains { $0 != 0 }
  }
}

/// An animatable Lottie property: one keyframe when static.
struct Property {
  var keyframes: [Keyframe]
  var path: String
  /// For path properties: whether the bezier shape is closed.
  var closed = false
  var expression = false

  init(constant: [Double], path: String = "") {
    keyframes = [Keyframe(t: 0, value: constant)]
    self.path = path
  }

  init(keyframes: [Keyframe], path: String) {
    self.keyframes = keyframes
    self.path = path
  }

  var isAnimated: Bool { keyframes.count > 1 }
  var first: [Double] { keyframes[0].value }
  var firstFrame: Double { keyframes[0].t }
  var lastFrame: Double { keyframes[keyframes.count - 1].t }
  var isSpatial: Bool { keyframes.dropLast().contains { $0.isSpatial && !$0.hold } }

  func scalar(at f: Double) -> Double { value(at: f).first ?? 0 }

  func value(at f: Double) -> [Double] {
    let k = keyframes
    if k.count == 1 || f <= k[0].t { return k[0].value }
    if f >= k[k.count - 1].t { return k[k.count - 1].value }
    var lo = 0
    var hi = k.count - 1
    while hi - lo > 1 {
      let mid = (lo + hi) / 2
      if k[mid].t <= f { lo = mid } else { hi = mid }
    }
    let a = k[lo]
    if a.hold { return a.value }
    let b = a.end ?? k[lo + 1].value
    guard a.value.count == b.count else { return a.value }
    let span = k[lo + 1].t - a.t
    let u = span > 0 ? (f - a.t) / span : 1
    if a.isSpatial, a.value.count >= 2, let to = a.to, let ti = a.ti {
      let e = Property.ease(a, 0, u)
      return Property.spatialPoint(a.value, b, to, ti, e)
    }
    var out = a.value
    for d in 0..<out.count {
      let e = Property.ease(a, d, u)
      out[d] = a.value[d] + (b[d] - a.value[d]) * e
    }
    return out
  }

  static func ease(_ k: Keyframe, _ d: Int, _ u: Double) -> Double {
    guard let o = k.easeOut, let i = k.easeIn else { return u }
    let (x1, y1) = o.point(d)
    let (x2, y2) = i.point(d)
    return cubicBezierEase(x1: x1, y1: y1, x2: x2, y2: y2, u)
  }

  /// y at x = u on the unit cubic bezier (0,0), (x1,y1), (x2,y2), (1,1).
  static func cubicBezierEase(x1: Double, y1: Double, x2: Double, y2: Double, _ u: Double) -> Double {
    let x1 = min(max(x1, 0), 1)
    let x2 = min(max(x2, 0), 1)
    if x1 == y1 && x2 == y2 { return u }
    func bx(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t }
    func by(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t }
    var lo = 0.0
    var hi = 1.0
    var t = u
    for _ in 0..<60 {
      let x = bx(t)
      if abs(x - u) < 1e-9 { break }
      if x < u { lo = t } else { hi = t }
      t = (lo + hi) / 2
    }
    return by(t)
  }

  /// The point at fraction `e` of the arc length of the cubic from `a` to `b`.
  static func spatialPoint(_ a: [Double], _ b: [Double], _ to: [Double], _ ti: [Double], _ e: Double)
    -> [Double]
  {
    let p0 = CGPoint(x: a[0], y: a[1])
    let p3 = CGPoint(x: b[0], y: b[1])
    let p1 = CGPoint(x: a[0] + (to.count > 0 ? to[0] : 0), y: a[1] + (to.count > 1 ? to[1] : 0))
    let p2 = CGPoint(x: b[0] + (ti.count > 0 ? ti[0] : 0), y: b[1] + (ti.count > 1 ? ti[1] : 0))
    let n = 64
    var lengths = [0.0]
    var prev = p0
    for s in 1...n {
      let p = Geometry.cubic(p0, p1, p2, p3, Double(s) / Double(n))
      lengths.append(lengths[s - 1] + Double(hypot(p.x - prev.x, p.y - prev.y)))
      prev = p
    }
    let total = lengths[n]
    var t = e
    if total > 0 {
      let target = min(max(e, 0), 1) * total
      var s = 1
      while s < n && lengths[s] < target { s += 1 }
      let seg = lengths[s] - lengths[s - 1]
      let f = seg > 0 ? (target - lengths[s - 1]) / seg : 0
      t = (Double(s - 1) + f) / Double(n)
      if e < 0 || e > 1 { t = e }
    }
    let p = Geometry.cubic(p0, p1, p2, p3, t)
    var out = a
    out[0] = Double(p.x)
    out[1] = Double(p.y)
    for d in 2..<min(a.count, b.count) { out[d] = a[d] + (b[d] - a[d]) * e }
    return out
  }

  /// A property with every value mapped (units, scale).
  func map(_ f: ([Double]) -> [Double]) -> Property {
    var p = self
    for i in p.keyframes.indices {
      p.keyframes[i].value = f(p.keyframes[i].value)
      if let e = p.keyframes[i].end { p.keyframes[i].end = f(e) }
    }
    return p
  }
}

/// Where a layer's animations run: keyframe frame `t` of the layer is at
/// `(t + offset) / frameRate` seconds of the layer's time.
struct Timeline {
  var frameRate: Double
  var offset: Double
  /// Inside a precomposition whose time is remapped other than linearly
  /// (eased or many time-remap keyframes): which frame of this
  /// composition shows at each frame of the composition the remapping
  /// starts in (where the animations run), over the frames sampled.
  var remap: TimeRemap?

  init(frameRate: Double, offset: Double, remap: TimeRemap? = nil) {
    self.frameRate = frameRate
    self.offset = offset
    self.remap = remap
  }

  func seconds(_ frame: Double) -> Double { (frame + offset) / frameRate }
}

/// A time remapping as a function of frames: `frame(f)` is the frame of
/// the remapped composition shown at frame `f` of the outer one, sampled
/// on `from…to` (the remapped layer's in and out points there).
struct TimeRemap {
  var from: Double
  var to: Double
  var frame: (Double) -> Double
}

/// CAAnimations from keyframed properties.
enum Animations {
  /// The keyframe animation of `prop` on `keyPath`: keyframe times, per-segment
  /// timing functions from the bezier easing of dimension `dimension`, hold
  /// keyframes as steps. Spatial position segments (curves in space) are
  /// sampled per frame (Lottie moves along them by arc length).
  static func keyframes(
    _ prop: Property, keyPath: String, timeline: Timeline, dimension: Int = 0,
    sampleLimit: Int, convert: ([Double]) -> Any
  ) -> CAKeyframeAnimation {
    if let remap = timeline.remap {
      return sampled(
        keyPath: keyPath, from: remap.from, to: remap.to, timeline: timeline, limit: sampleLimit,
        discrete: false, value: { convert(prop.value(at: $0)) })
    }
    if prop.isSpatial {
      return sampled(
        keyPath: keyPath, from: prop.firstFrame, to: prop.lastFrame, timeline: timeline,
        limit: sampleLimit, discrete: false, extraFrames: prop.keyframes.map(\.t)
      ) { convert(prop.value(at: $0)) }
    }
    var frames: [Double] = []
    var values: [Any] = []
    var functions: [CAMediaTimingFunction] = []
    let k = prop.keyframes
    let linear = CAMediaTimingFunction(name: .linear)
    for i in 0..<k.count {
      frames.append(k[i].t)
      values.append(convert(k[i].value))
      guard i + 1 < k.count else { break }
      let next = k[i + 1]
      let span = next.t - k[i].t
      let epsilon = min(1e-3, max(span, 0) / 2)
      if k[i].hold || span <= 0 {
        if span > 0 {
          functions.append(linear)
          frames.append(next.t - epsilon)
          values.append(convert(k[i].value))
        }
        functions.append(linear)
        continue
      }
      var function = linear
      if let o = k[i].easeOut, let e = k[i].easeIn {
        let (x1, y1) = o.point(dimension)
        let (x2, y2) = e.point(dimension)
        function = CAMediaTimingFunction(
          controlPoints: Float(min(max(x1, 0), 1)), Float(y1), Float(min(max(x2, 0), 1)), Float(y2))
      }
      functions.append(function)
      if let end = k[i].end, end != next.value {
        frames.append(next.t - epsilon)
        values.append(convert(end))
        functions.append(linear)
      }
    }
    return make(
      keyPath: keyPath, frames: frames, values: values, functions: functions, timeline: timeline,
      discrete: false)
  }

  /// Values sampled at every frame from `start` to `end` (and at `extraFrames`).
  /// Under a time remapping, at every frame the remapped layer shows, each
  /// the value at the frame the remapping gives.
  static func sampled(
    keyPath: String, from start: Double, to end: Double, timeline: Timeline, limit: Int,
    discrete: Bool, extraFrames: [Double] = [], value: (Double) -> Any
  ) -> CAKeyframeAnimation {
    if let remap = timeline.remap {
      var outer = timeline
      outer.remap = nil
      return sampled(
        keyPath: keyPath, from: remap.from, to: remap.to, timeline: outer, limit: limit,
        discrete: discrete, value: { value(remap.frame($0)) })
    }
    var frames: [Double] = []
    let span = max(end - start, 0)
    let step = max(1, (span / Double(max(limit - extraFrames.count - 2, 1))).rounded(.up))
    var f = start
    while f < end {
      frames.append(f)
      f += step
    }
    frames.append(end)
    if !extraFrames.isEmpty && !discrete {
      frames = Array(Set(frames + extraFrames.filter { $0 >= start && $0 <= end })).sorted()
    }
    let values = frames.map(value)
    return make(
      keyPath: keyPath, frames: frames, values: values, functions: nil, timeline: timeline,
      discrete: discrete)
  }

  static func make(
    keyPath: String, frames: [Double], values: [Any], functions: [CAMediaTimingFunction]?,
    timeline: Timeline, discrete: Bool
  ) -> CAKeyframeAnimation {
    let a = CAKeyframeAnimation(keyPath: keyPath)
    let first = frames.first ?? 0
    let last = frames.last ?? 0
    let duration = max(last - first, 1e-6)
    a.beginTime = timeline.seconds(first)
    a.duration = duration / timeline.frameRate
    a.values = values
    a.keyTimes = frames.map { NSNumber(value: min(max(($0 - first) / duration, 0), 1)) }
    if let functions, functions.count == values.count - 1 { a.timingFunctions = functions }
    a.calculationMode = discrete ? .discrete : .linear
    a.fillMode = .both
    a.isRemovedOnCompletion = false
    return a
  }
}
