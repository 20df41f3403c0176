import Foundation
import Lamina
import LaminaScene

/// Turns a parsed Lottie document into a layer tree. One per load.
final class Builder {
  let file: String
  let options: LottieOptions
  let baseDirectory: URL?
  var limits: LottieLimits { options.limits }
  let frameRate: Double
  let width: Double
  let height: Double
  var unsupported: [LottieUnsupported] = []
  /// Feature and path of each report, so a precomposition used many times reports once.
  var reported: Set<[String]> = []
  var assets: [String: Node] = [:]
  /// The decoded model, by JSON path: each composition's layers, each
  /// layer's transform and content (decoded once however often used).
  var compositionModels: [String: CompositionModel] = [:]
  var layerTransforms: [String: (TransformSpec, [LottieUnsupported])] = [:]
  var layerContents: [String: LayerContent] = [:]
  var images: [String: CGImage?] = [:]
  var decodedImageBytes = 0
  var layerCount = 0
  /// Expanded layer counts of each composition asset (memoised).
  var expandedCounts: [String: Int] = [:]
  var sampledValues = 0
  var sampledPathElements = 0
  var shapeLayers = 0
  var styledPaths = 0
  /// Fills and strokes made with a blend mode (their layer is isolated).
  var blendedShapeItems = 0
  /// The time remapping the layers being built are under (nil: none).
  var currentRemap: TimeRemap?
  /// The document's glyph shapes (`chars`), indexed on first use by
  /// character, family and style; glyphs made, by JSON path.
  var charNodes: [Node] = []
  var charsByKey: [[String]: Node] = [:]
  var glyphCache: [String: Glyph] = [:]
  /// Fonts of `fonts.list` by name.
  var fonts: [String: (family: String, style: String)] = [:]
  /// What each expression gave, by the JSON path of its property
  /// (`evaluateExpressions`, before any layer is built).
  var expressionOutcomes: [String: ExpressionOutcome] = [:]

  init(file: String, options: LottieOptions, baseDirectory: URL?, frameRate: Double, width: Double, height: Double) {
    self.file = file
    self.options = options
    self.baseDirectory = baseDirectory
    self.frameRate = frameRate
    self.width = width
    self.height = height
  }

  /// While a model is decoded, its reports are held here (the builder
  /// reports them when it builds what they are of, in building order).
  var heldReports: [LottieUnsupported]?

  func report(_ feature: String, _ path: String) {
    if heldReports != nil {
      heldReports?.append(LottieUnsupported(feature: feature, path: path))
      return
    }
    guard reported.insert([feature, path]).inserted else { return }
    unsupported.append(LottieUnsupported(feature: feature, path: path))
  }

  func limit(_ node: Node, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    try self.limit(at: node.path, what, found, limit, name)
  }

  /// Throws `limitExceeded` at the JSON path `path` when `found` is over `limit`.
  func limit(at path: String, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    if found > limit {
      throw LottieError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(what: what, found: found, limit: limit, name: name))
    }
  }

  /// Counts `frames` sampled values (of `elements` path elements each)
  /// against the document's budgets before they are made.
  func budget(from a: Double, to b: Double, elements: Int = 0, path: String) throws {
    // Under a time remapping every sampled value is sampled over the
    // remapped layer's frames instead.
    let (a, b) = currentRemap.map { ($0.from, $0.to) } ?? (a, b)
    let frames = Int(saturating: min(max(b - a, 0), Double(limits.maxSampledFrames))) + 2
    sampledValues += frames
    try limit(
      at: path, "values sampled from keyframes", sampledValues, limits.maxSampledValues,
      "maxSampledValues")
    sampledPathElements += frames * elements
    try limit(
      at: path, "path elements sampled from keyframes", sampledPathElements,
      limits.maxSampledPathElements, "maxSampledPathElements")
  }

  /// Counts `count` layers made for shapes.
  func madeShapeLayers(_ count: Int, _ path: String) throws {
    shapeLayers += count
    try limit(
      at: path, "layers made for shapes", shapeLayers, limits.maxShapeLayers, "maxShapeLayers")
  }

  /// Counts the paths a style draws.
  func styled(_ count: Int, _ path: String) throws {
    styledPaths += count
    try limit(
      at: path, "paths drawn by fills and strokes", styledPaths, limits.maxStyledPaths,
      "maxStyledPaths")
  }

  // MARK: Properties

  /// An animatable property (`{"a": 0|1, "k": …}`), with `defaultValue`
  /// when absent: the values its expression gives when it has one that
  /// was evaluated, else its keyframed values.
  func property(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    if let node, case .string? = node.child("x")?.json,
      let p = try fallingBack(node, { try expressionProperty(node, defaultValue) })
    {
      return p
    }
    return try keyframedProperty(node, defaultValue)
  }

  /// A property's keyframed values (what an expression reads as `value`).
  func keyframedProperty(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    guard let node else { return Property(constant: defaultValue) }
    let expression = node.has("x")
    // A bare number or array stands for a static value.
    guard node.isObject else {
      var p = Property(constant: try finite(node.numbers(), node), path: node.path)
      if p.first.isEmpty { p = Property(constant: defaultValue, path: node.path) }
      return p.map { v in v.count >= defaultValue.count ? v : v + defaultValue[v.count...] }
    }
    let k = try node.required("k")
    var p: Property
    if let frames = k.items, let first = frames.first, first.isObject {
      p = Property(keyframes: try keyframes(frames, k) { try $0.numbers() }, path: node.path)
    } else {
      let value = try finite(k.numbers(), k)
      p = Property(constant: value.isEmpty ? defaultValue : value, path: node.path)
    }
    p.expression = expression
    // Pad short values (a 2D value where 3 are expected), every keyframe's.
    p = p.map { v in v.count >= defaultValue.count ? v : v + defaultValue[v.count...] }
    return p
  }

  /// Numbers within `Limits.maxMagnitude`.
  func finite(_ values: [Double], _ node: Node) throws -> [Double] {
    for x in values where !(x.isFinite && abs(x) <= Limits.maxMagnitude) {
      throw node.invalid("\(x) is out of range (at most \(Int(Limits.maxMagnitude)) in magnitude)")
    }
    return values
  }

  func keyframes(_ frames: [Node], _ k: Node, value: (Node) throws -> [Double]) throws -> [Keyframe] {
    try limit(k, "keyframes of one property", frames.count, limits.maxKeyframes, "maxKeyframes")
    var out: [Keyframe] = []
    for f in frames {
      guard f.isObject else { throw f.wrongType("a keyframe object") }
      let t = try f.required("t").number()
      guard t.isFinite, abs(t) <= Limits.maxMagnitude else { throw f.invalid("keyframe time \(t) is out of range") }
      if let last = out.last, t < last.t {
        throw f.child("t")!.invalid("keyframe times must not decrease (\(t) after \(last.t))")
      }
      var kf = Keyframe(t: t, value: [])
      if let s = f.child("s") {
        kf.value = try value(s)
      } else if let last = out.last {
        kf.value = last.end ?? last.value
      } else {
        throw LottieError.missingKey(file: file, path: f.path, key: "s")
      }
      if let e = f.child("e") { kf.end = try value(e) }
      kf.hold = f.bool("h")
      if let o = f.child("o"), let i = f.child("i") {
        kf.easeOut = try ease(o)
        kf.easeIn = try ease(i)
      }
      if let to = f.child("to") { kf.to = try to.numbers() }
      if let ti = f.child("ti") { kf.ti = try ti.numbers() }
      out.append(kf)
    }
    guard !out.isEmpty else { throw k.invalid("no keyframes") }
    for v in out.map(\.value) + out.compactMap(\.end) {
      for x in v where !(x.isFinite && abs(x) <= Limits.maxMagnitude) {
        throw k.invalid("value \(x) is out of range")
      }
    }
    return out
  }

  func ease(_ n: Node) throws -> Ease {
    Ease(x: try n.child("x")?.numbers() ?? [0], y: try n.child("y")?.numbers() ?? [0])
  }

  /// A path property (`sh.ks`, a mask's `pt`): values are shape vectors
  /// (the values its expression gives when it has one that was evaluated).
  func pathProperty(_ node: Node) throws -> Property {
    let keyframed = try keyframedPathProperty(node)
    if case .string? = node.child("x")?.json,
      let p = try fallingBack(node, { try expressionPath(node, closed: keyframed.closed) })
    {
      return p
    }
    return keyframed
  }

  /// A path's keyframed shape vectors: vertices, in and out tangents.
  func keyframedPathProperty(_ node: Node) throws -> Property {
    // (Evaluated, an expression on a path is reported by evaluateExpressions.)
    if node.has("x"), options.expressions == .keyframed { report("expression", node.path + ".x") }
    let k = try node.required("k")
    var closed = false
    func shapeVector(_ n: Node) throws -> [Double] {
      var s = n
      if let items = n.items {
        guard let first = items.first else { return [] }
        s = first
      }
      guard s.isObject else { throw s.wrongType("a bezier shape object (v, i, o, c)") }
      let v = try s.required("v").array()
      try limit(s, "vertices of one path", v.count, limits.maxPathVertices, "maxPathVertices")
      let i = try s.child("i")?.array() ?? []
      let o = try s.child("o")?.array() ?? []
      closed = s.bool("c")
      func points(_ list: [Node]) throws -> [Double] {
        var out: [Double] = []
        for index in 0..<v.count {
          if index < list.count {
            let n = try list[index].numbers()
            let x = n.count > 0 ? n[0] : 0
            let y = n.count > 1 ? n[1] : 0
            guard x.isFinite, y.isFinite, abs(x) <= 1e7, abs(y) <= 1e7 else {
              throw list[index].invalid("coordinate out of range")
            }
            out += [x, y]
          } else {
            out += [0, 0]
          }
        }
        return out
      }
      return try points(v) + points(i) + points(o)
    }
    if let frames = k.items, let first = frames.first, first.isObject, first.has("t") {
      var firstClosed: Bool?
      let kfs = try keyframes(frames, k) { n in
        let v = try shapeVector(n)
        if firstClosed == nil { firstClosed = closed }
        return v
      }
      var p = Property(keyframes: kfs, path: node.path)
      p.closed = firstClosed ?? false
      return p
    }
    let v = try shapeVector(k)
    var p = Property(constant: v, path: node.path)
    p.closed = closed
    return p
  }

  func color(_ v: [Double]) -> CGColor {
    var c = v
    while c.count < 3 { c.append(0) }
    let scale: Double = c.prefix(3).contains { $0 > 1 } ? 255 : 1
    let a = c.count > 3 ? min(max(c[3] / scale, 0), 1) : 1
    return CGColor(
      red: min(max(c[0] / scale, 0), 1), green: min(max(c[1] / scale, 0), 1),
      blue: min(max(c[2] / scale, 0), 1), alpha: a)
  }

  func transform(_ node: Node?, layer3D: Bool) throws -> TransformSpec {
    var t = TransformSpec()
    guard let node else { return t }
    t.is3D = layer3D
    t.anchor = try property(node.child("a"), [0, 0, 0])
    if let p = node.child("p") {
      if p.bool("s") {
        t.position = nil
        t.positionX = try property(p.child("x"), [0])
        t.positionY = try property(p.child("y"), [0])
        if p.has("z") { t.is3D = true }
      } else {
        t.position = try property(p, [0, 0, 0])
      }
    }
    t.scale = try property(node.child("s"), [100, 100, 100])
    t.rotation = try property(node.child("r") ?? node.child("rz"), [0])
    t.rotationX = try property(node.child("rx"), [0])
    t.rotationY = try property(node.child("ry"), [0])
    t.orientation = try property(node.child("or"), [0, 0, 0])
    t.opacity = try property(node.child("o"), [100])
    t.skew = try property(node.child("sk"), [0])
    t.skewAxis = try property(node.child("sa"), [0])
    return t
  }

  // MARK: Applying properties to layers

  func animate(
    _ layer: CALayer, _ prop: Property, _ keyPath: String, _ timeline: Timeline, dimension: Int = 0,
    _ convert: @escaping ([Double]) -> Any
  ) throws {
    guard prop.isAnimated else { return }
    if let remap = timeline.remap { try budget(from: remap.from, to: remap.to, path: prop.path) }
    let a = Animations.keyframes(
      prop, keyPath: keyPath, timeline: timeline, dimension: dimension,
      sampleLimit: limits.maxSampledFrames, convert: convert)
    layer.add(a, forKey: keyPath)
  }

  /// The frames over which any of `props` changes.
  func range(_ props: [Property]) -> (Double, Double)? {
    let animated = props.filter(\.isAnimated)
    guard !animated.isEmpty else { return nil }
    return (animated.map(\.firstFrame).min()!, animated.map(\.lastFrame).max()!)
  }

  /// Applies a transform: `outer` takes position, rotation, scale (or the
  /// whole matrix), `inner` (its sublayer, where content goes) the anchor.
  /// Opacity is left to the caller.
  func apply(_ t: TransformSpec, outer: CALayer, inner: CALayer, timeline: Timeline, path: String) throws {
    if t.needsMatrix || hasPerDimensionEase(t.position) {
      outer.transform = t.matrix(at: t.geometryProperties.map(\.firstFrame).min() ?? 0)
      if let (a, b) = range(t.geometryProperties) {
        try budget(from: a, to: b, path: path)
        let anim = Animations.sampled(
          keyPath: LayerKey.transform.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
          discrete: false, extraFrames: t.geometryProperties.flatMap { $0.keyframes.map(\.t) }
        ) { t.matrix(at: $0) }
        outer.add(anim, forKey: LayerKey.transform.rawValue)
      }
      return
    }
    let a = t.anchor.first
    inner.position = CGPoint(x: -a[0], y: -a[1])
    try animate(inner, t.anchor, LayerKey.position.rawValue, timeline) { CGPoint(x: -$0[0], y: -$0[1]) }
    if let p = t.position {
      outer.position = CGPoint(x: p.first[0], y: p.first[1])
      try animate(outer, p, LayerKey.position.rawValue, timeline) { CGPoint(x: $0[0], y: $0[1]) }
    } else if let x = t.positionX, let y = t.positionY {
      outer.position = CGPoint(x: x.first[0], y: y.first[0])
      try animate(outer, x, "position.x", timeline) { $0[0] }
      try animate(outer, y, "position.y", timeline) { $0[0] }
    }
    let s = t.scale.first
    let r = t.rotation.first[0] * .pi / 180
    var m = CATransform3DMakeRotation(CGFloat(r), 0, 0, 1)
    m = CATransform3DConcat(CATransform3DMakeScale(CGFloat(s[0] / 100), CGFloat(s[1] / 100), 1), m)
    outer.transform = m
    try animate(outer, t.rotation, "transform.rotation.z", timeline) { $0[0] * .pi / 180 }
    if t.scale.isAnimated {
      try animate(outer, t.scale, "transform.scale.x", timeline, dimension: 0) { $0[0] / 100 }
      try animate(outer, t.scale, "transform.scale.y", timeline, dimension: 1) { $0[1] / 100 }
    }
  }

  /// True when a position's easing differs between x and y (the layer
  /// model's position animation has one timing function per segment).
  func hasPerDimensionEase(_ p: Property?) -> Bool {
    guard let p, p.isAnimated else { return false }
    for k in p.keyframes {
      guard let o = k.easeOut, let i = k.easeIn else { continue }
      if o.point(0) != o.point(1) || i.point(0) != i.point(1) { return true }
    }
    return false
  }

  /// Opacity (0–100) onto a layer's `opacity`.
  func applyOpacity(_ p: Property, _ layer: CALayer, _ timeline: Timeline) throws {
    layer.opacity = Float(min(max(p.first[0] / 100, 0), 1))
    try animate(layer, p, LayerKey.opacity.rawValue, timeline) { min(max($0[0] / 100, 0), 1) }
  }

  /// Visible on [ip, op) of the composition's frames: hidden outside; on
  /// [ip, op] when `throughOutPoint` (a layer that lasts to the end of its
  /// composition, shown at the last instant as lottie-ios does).
  func applyVisibility(
    _ layer: CALayer, ip: Double, op: Double, compFrameRate fr: Double, throughOutPoint: Bool = false,
    timeline: Timeline? = nil, path: String = "ip"
  ) throws {
    let epsilon = 1e-4
    layer.isHidden = true
    guard op > ip else { return }
    if let timeline, let remap = timeline.remap {
      // Shown where the remapped frame is within [ip, op).
      try budget(from: remap.from, to: remap.to, path: path)
      let end = throughOutPoint ? op + epsilon : op
      layer.add(
        Animations.sampled(
          keyPath: LayerKey.isHidden.event, from: remap.from, to: remap.to, timeline: timeline,
          limit: limits.maxSampledFrames, discrete: true
        ) { f in !(f >= ip - epsilon && f < end) }, forKey: "lottie.visibility")
      return
    }
    let a = CAKeyframeAnimation(keyPath: LayerKey.isHidden.event)
    a.values = [false, true]
    a.keyTimes = [0, 1]
    a.calculationMode = .discrete
    a.beginTime = (ip - epsilon) / fr
    a.duration = (op - ip + (throughOutPoint ? 2 * epsilon : 0)) / fr
    a.fillMode = .forwards
    a.isRemovedOnCompletion = false
    layer.add(a, forKey: "lottie.visibility")
  }

  func blendMode(_ bm: Int, _ layer: CALayer, _ path: String) {
    let names = [
      1: "CIMultiplyBlendMode", 2: "CIScreenBlendMode", 3: "CIOverlayBlendMode", 4: "CIDarkenBlendMode",
      5: "CILightenBlendMode", 6: "CIColorDodgeBlendMode", 7: "CIColorBurnBlendMode",
      8: "CIHardLightBlendMode", 9: "CISoftLightBlendMode", 10: "CIDifferenceBlendMode",
      11: "CIExclusionBlendMode", 12: "CIHueBlendMode", 13: "CISaturationBlendMode",
      14: "CIColorBlendMode", 15: "CILuminosityBlendMode",
    ]
    guard bm != 0 else { return }
    if let name = names[bm], let filter = CIFilter(name: name) {
      layer.compositingFilter = filter
    } else {
      report("blend mode \(bm)", path)
    }
  }
}
