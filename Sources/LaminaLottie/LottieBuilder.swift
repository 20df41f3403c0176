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
  /// What the import leaves out, shared with the decoder.
  let reports: ImportReports
  /// The document's typed model, decoded from its JSON (and kept by path).
  let decoder: Decoder
  var unsupported: [LottieUnsupported] { reports.unsupported }
  /// The document's assets by id: the decoder's.
  var assets: [String: Node] {
    get { decoder.assets }
    set { decoder.assets = newValue }
  }
  var images: [String: CGImage?] = [:]
  var decodedImageBytes = 0
  var layerCount = 0
  /// Expanded layer counts of each composition asset (memoised).
  var expandedCounts: [String: Int] = [:]
  /// What building has made, counted against the limits.
  let counts: BuildBudget
  /// Fills and strokes made with a blend mode (their layer is isolated).
  var blendedShapeItems = 0
  /// The time remapping the layers being built are under (nil: none).
  var currentRemap: TimeRemap?
  /// What each expression gave, by the JSON path of its property
  /// (`evaluateExpressions`, before any layer is built): the decoder's.
  var expressionOutcomes: [String: ExpressionOutcome] {
    get { decoder.expressionOutcomes }
    set { decoder.expressionOutcomes = newValue }
  }

  init(file: String, options: LottieOptions, baseDirectory: URL?, frameRate: Double, width: Double, height: Double) {
    self.file = file
    self.options = options
    self.baseDirectory = baseDirectory
    self.frameRate = frameRate
    self.width = width
    self.height = height
    reports = ImportReports()
    counts = BuildBudget(file: file, limits: options.limits)
    decoder = Decoder(file: file, options: options, reports: reports)
  }

  func report(_ feature: String, _ path: String) { reports.report(feature, path) }

  func limit(_ node: Node, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    try decoder.limit(node, what, found, limit, name)
  }

  func limit(at path: String, _ what: String, _ found: Int, _ limit: Int, _ name: String) throws {
    try decoder.limit(at: path, what, found, limit, name)
  }

  // The model's decoding, for what the builder still reads from JSON
  // (text layers, masks, images).
  func property(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    try decoder.property(node, defaultValue)
  }

  func keyframedProperty(_ node: Node?, _ defaultValue: [Double]) throws -> Property {
    try decoder.keyframedProperty(node, defaultValue)
  }

  func pathProperty(_ node: Node) throws -> Property { try decoder.pathProperty(node) }

  func keyframedPathProperty(_ node: Node) throws -> Property { try decoder.keyframedPathProperty(node) }

  func finite(_ values: [Double], _ node: Node) throws -> [Double] { try decoder.finite(values, node) }

  /// Counts the values sampled over frames `a` to `b` (of `elements` path
  /// elements each) against the document's budgets before they are made.
  func budget(from a: Double, to b: Double, elements: Int = 0, path: String) throws {
    // Under a time remapping every sampled value is sampled over the
    // remapped layer's frames instead.
    let (a, b) = currentRemap.map { ($0.from, $0.to) } ?? (a, b)
    try counts.sampled(from: a, to: b, elements: elements, path: path)
  }

  /// Counts `count` layers made for shapes.
  func madeShapeLayers(_ count: Int, _ path: String) throws { try counts.madeShapeLayers(count, path) }

  /// Counts the paths a style draws.
  func styled(_ count: Int, _ path: String) throws { try counts.styled(count, path) }

  func color(_ v: [Double]) -> CGColor {
    var c = v
    while c.count < 3 { c.append(0) }
    let scale: Double = c.prefix(3).contains { $0 > 1 } ? 255 : 1
    let a = c.count > 3 ? min(max(c[3] / scale, 0), 1) : 1
    return CGColor(
      red: min(max(c[0] / scale, 0), 1), green: min(max(c[1] / scale, 0), 1),
      blue: min(max(c[2] / scale, 0), 1), alpha: a)
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

  /// The layers of a transform: `outer` takes position, rotation, scale
  /// (or the whole matrix) and `content` is where the content and the
  /// opacity go. One layer is both wherever the anchor holds still: a
  /// layer of zero size turns and scales about its bounds' origin and
  /// places its sublayers from there, so the anchor is that origin
  /// (`position + M · (p − anchor)`, lottie-web's order); a whole matrix
  /// (`takesWholeMatrix`) holds the anchor itself. A pair (`inner` at
  /// `position = −anchor`) is made only for an animated anchor outside a
  /// whole matrix, and where `alone` is false. Half the layers for every Lottie layer and
  /// group: the presentation update and frame building visit each.
  func transformLayers(
    _ t: TransformSpec, alone: Bool = true, timeline: Timeline, path: String
  ) throws -> (outer: CALayer, content: CALayer) {
    let outer = CALayer()
    let matrix = takesWholeMatrix(t)
    // A whole matrix holds the anchor itself, animated or not.
    if alone && (matrix || !t.anchor.isAnimated) {
      if !matrix {
        let a = t.anchor.first
        outer.bounds = CGRect(x: a[0], y: a.count > 1 ? a[1] : 0, width: 0, height: 0)
      }
      try apply(t, outer: outer, inner: nil, timeline: timeline, path: path)
      return (outer, outer)
    }
    let inner = CALayer()
    outer.addSublayer(inner)
    try apply(t, outer: outer, inner: inner, timeline: timeline, path: path)
    return (outer, inner)
  }

  /// Applies a transform: `outer` takes position, rotation, scale (or the
  /// whole matrix), `inner` (its sublayer, where content goes) the anchor
  /// (without one, `outer`'s bounds hold it: `transformLayers`). Opacity
  /// is left to the caller.
  func apply(
    _ t: TransformSpec, outer: CALayer, inner: CALayer?, timeline: Timeline, path: String
  ) throws {
    if takesWholeMatrix(t) {
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
    if let inner {
      let a = t.anchor.first
      inner.position = CGPoint(x: -a[0], y: -a[1])
      try animate(inner, t.anchor, LayerKey.position.rawValue, timeline) {
        CGPoint(x: -$0[0], y: -$0[1])
      }
    }
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

  /// Whether `t` goes on its layer as one `transform` sampled per frame
  /// (skew, 3D, auto-orient, a flip, or a position eased apart in x and
  /// y), the anchor in it, rather than as position, rotation and scale.
  func takesWholeMatrix(_ t: TransformSpec) -> Bool {
    t.needsMatrix || hasPerDimensionEase(t.position) || t.hasNegativeScale
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
