import Foundation
import Lamina

extension Builder {
  /// Builds a shape list's items into layers, bottom first.
  func shapeGroup(
    _ list: ShapeList, timeline: Timeline, inheritedStyles: [Style], inheritedModifiers: [Modifier],
    repeats: Int
  ) throws -> [CALayer] {
    for note in list.notes { report(note.feature, note.path) }
    let parsed = list.items
    for case .repeater(let r) in parsed {
      try limit(
        at: r.copiesPath, "repeater copies multiplied through nesting", repeats * max(r.maxCopies, 1),
        limits.maxRepeaterCopies, "maxRepeaterCopies")
    }

    // Where each kind of item is, so that what comes after (or before) an
    // item is found by a binary search, not a pass over all items (a group
    // of many thousand items would otherwise cost their count squared).
    var styleAt: [Int] = []
    var modifierAt: [Int] = []
    var geometryAt: [Int] = []
    var mergeAt: [Int] = []
    var groupAt: [Int] = []
    for (i, item) in parsed.enumerated() {
      switch item {
      case .style: styleAt.append(i)
      case .modifier: modifierAt.append(i)
      case .geometry: geometryAt.append(i)
      case .merge: mergeAt.append(i)
      case .group: groupAt.append(i)
      default: break
      }
    }
    /// The position in `list` (ascending indices) of the first index over `k`.
    func firstAfter(_ list: [Int], _ k: Int) -> Int {
      var lo = 0
      var hi = list.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if list[mid] <= k { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
    func modifiers(after index: Int) -> [Modifier] {
      modifierAt[firstAfter(modifierAt, index)...].compactMap { i -> Modifier? in
        if case .modifier(let m) = parsed[i] { return m } else { return nil }
      }
    }
    /// The geometry items before `k`, each with the modifiers after it.
    func sources(before k: Int) -> [SourceRef] {
      geometryAt[..<firstAfter(geometryAt, k - 1)].compactMap { i -> SourceRef? in
        guard case .geometry(let g) = parsed[i] else { return nil }
        return SourceRef(source: g, modifiers: modifiers(after: i) + inheritedModifiers)
      }
    }

    // A repeater repeats everything above it (back to the repeater before
    // it): those items become one repeated sub-group in their place; the
    // items after the last repeater are drawn as usual, below the copies.
    // One pass over the repeaters (not one nested call per repeater, which
    // parsed the rest of the list again for each).
    let repeaterAt = parsed.indices.filter { if case .repeater = parsed[$0] { return true } else { return false } }
    if let last = repeaterAt.last {
      var layers: [CALayer] = []
      let tail = Array(parsed[(last + 1)...])
      if !tail.isEmpty {
        layers += try shapeGroup(
          ShapeList(items: tail), timeline: timeline, inheritedStyles: inheritedStyles,
          inheritedModifiers: inheritedModifiers, repeats: repeats)
      }
      for (n, k) in repeaterAt.enumerated().reversed() {
        guard case .repeater(let repeater) = parsed[k] else { continue }
        let from = n == 0 ? 0 : repeaterAt[n - 1] + 1
        let stylesBelow = styleAt[firstAfter(styleAt, k)...].compactMap { i -> Style? in
          if case .style(let s) = parsed[i] { return s } else { return nil }
        }
        layers.append(
          try repeated(
            ShapeList(items: Array(parsed[from..<k])), repeater, timeline: timeline,
            inheritedStyles: stylesBelow + inheritedStyles, inheritedModifiers: modifiers(after: k) + inheritedModifiers,
            repeats: repeats))
      }
      return layers
    }

    var layers: [CALayer] = []
    // Inherited styles draw this group's paths first (below its own content).
    for style in inheritedStyles.reversed() {
      let sources = sources(before: parsed.count)
      if !sources.isEmpty { layers.append(try styleLayer(style, sources, timeline)) }
    }
    for k in stride(from: parsed.count - 1, through: 0, by: -1) {
      switch parsed[k] {
      case .style(let style):
        let sources = sources(before: k)
        // The nearest merge paths above this style merges the paths above it.
        let m = firstAfter(mergeAt, k - 1)
        if m > 0, case .merge(let mode, let mergePath) = parsed[mergeAt[m - 1]] {
          let j = mergeAt[m - 1]
          let merged = self.sourcesCount(sources, before: j, geometryAt)
          let rest = Array(sources.dropFirst(merged.count))
          if let g = groupAt.first, g < j {
            report("merge paths mode \(mode) across groups (the groups' paths kept as they are)", mergePath)
          }
          if style.isStroke || merged.isEmpty {
            if style.isStroke { report("merge paths mode \(mode) on a stroke (paths stroked as they are)", mergePath) }
            if !sources.isEmpty { layers.append(try styleLayer(style, sources, timeline)) }
          } else {
            if !rest.isEmpty { layers.append(try styleLayer(style, rest, timeline)) }
            layers.append(try mergedFill(style, merged, mode: mode, timeline))
          }
          continue
        }
        if !sources.isEmpty { layers.append(try styleLayer(style, sources, timeline)) }
      case .group(let n):
        let styles = styleAt[firstAfter(styleAt, k)...].compactMap { i -> Style? in
          if case .style(let s) = parsed[i] { return s } else { return nil }
        }
        layers += try group(
          n, timeline: timeline, inheritedStyles: styles + inheritedStyles,
          inheritedModifiers: modifiers(after: k) + inheritedModifiers, repeats: repeats)
      default:
        break
      }
    }
    return layers
  }

  /// The first of `sources` (made from the geometry at `geometryAt`, in
  /// order) whose items come before index `j`.
  func sourcesCount(_ sources: [SourceRef], before j: Int, _ geometryAt: [Int]) -> [SourceRef] {
    Array(sources.prefix(geometryAt.prefix { $0 < j }.count))
  }

  /// A group (`gr`): its transform and its items. A group whose transform
  /// changes nothing (none, or `TransformSpec.isIdentity`) is its items'
  /// layers alone, in its place.
  func group(
    _ g: ShapeGroup, timeline: Timeline, inheritedStyles: [Style], inheritedModifiers: [Modifier],
    repeats: Int
  ) throws -> [CALayer] {
    try madeShapeLayers(2, g.path)
    let items = try shapeGroup(
      g.contents, timeline: timeline, inheritedStyles: inheritedStyles,
      inheritedModifiers: inheritedModifiers, repeats: repeats)
    guard let (t, path) = g.transform, !t.isIdentity else { return items }
    let (outer, inner) = try transformLayers(t, timeline: timeline, path: path)
    try applyOpacity(t.opacity, inner, timeline)
    outer.name = g.name
    for l in items { inner.addSublayer(l) }
    return [outer]
  }

  /// The copies of a repeater (`rp`): each copy of the items above it moved
  /// by the repeater's transform once more, opacity from `so` to `eo`.
  func repeated(
    _ items: ShapeList, _ repeater: Repeater, timeline: Timeline, inheritedStyles: [Style],
    inheritedModifiers: [Modifier], repeats: Int
  ) throws -> CALayer {
    let holder = CALayer()
    holder.name = "repeater"
    let offset = repeater.offset
    let t = repeater.transform
    let so = repeater.startOpacity
    let eo = repeater.endOpacity
    let above = repeater.above
    let copies = repeater.maxCopies
    let props = [offset, so, eo] + t.geometryProperties
    let f = props.map(\.firstFrame).min() ?? 0
    let n = max(copies, 0)
    // Copy i at frame g: the repeater transform applied i + o times, opacity
    // from so to eo along the copies.
    func matrix(_ i: Int, _ g: Double) -> CATransform3D {
      let amount = Double(i) + offset.scalar(at: g)
      var m = Matrix4()
      let a = t.anchor.value(at: g)
      let p = t.positionValue(at: g)
      let s = t.scale.value(at: g)
      m.translate(-a[0], -a[1], 0)
      m.scale(pow(s[0] / 100, amount), pow(s[1] / 100, amount), 1)
      m.rotateZ(-t.rotation.scalar(at: g) * amount * .pi / 180)
      m.translate(a[0], a[1], 0)
      m.translate(p[0] * amount, p[1] * amount, 0)
      return m.transform
    }
    func opacity(_ i: Int, _ g: Double) -> Double {
      let fraction = n > 1 ? Double(i) / Double(n - 1) : 0
      return (min(max((so.scalar(at: g) + (eo.scalar(at: g) - so.scalar(at: g)) * fraction) / 100, 0), 1))
    }
    let animated = range(props)
    var made: [CALayer] = []
    for i in 0..<n {
      try madeShapeLayers(1, repeater.path)
      let copy = CALayer()
      copy.transform = matrix(i, f)
      copy.opacity = Float(opacity(i, f))
      if let (a, b) = animated {
        // An animated repeater: each copy's transform and opacity sampled per frame.
        try budget(from: a, to: b, path: repeater.path)
        try budget(from: a, to: b, path: repeater.path)
        let keyframes = [offset, so, eo].flatMap { $0.keyframes.map(\.t) }
        copy.add(
          Animations.sampled(
            keyPath: LayerKey.transform.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false, extraFrames: keyframes + t.geometryProperties.flatMap { $0.keyframes.map(\.t) }
          ) { matrix(i, $0) }, forKey: LayerKey.transform.rawValue)
        copy.add(
          Animations.sampled(
            keyPath: LayerKey.opacity.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false, extraFrames: keyframes
          ) { opacity(i, $0) }, forKey: LayerKey.opacity.rawValue)
      }
      for l in try shapeGroup(
        items, timeline: timeline, inheritedStyles: inheritedStyles,
        inheritedModifiers: inheritedModifiers, repeats: repeats * max(n, 1))
      {
        copy.addSublayer(l)
      }
      made.append(copy)
    }
    for c in above ? made : made.reversed() { holder.addSublayer(c) }
    return holder
  }

  // MARK: Style layers

  func styleLayer(_ style: Style, _ sources: [SourceRef], _ timeline: Timeline) throws -> CALayer {
    try madeShapeLayers(style.kind == .gradientFill || style.kind == .gradientStroke ? 2 : 1, style.path)
    try styled(sources.count, style.path)
    let shape = CAShapeLayer()
    let layer: CALayer
    switch style.kind {
    case .fill, .stroke:
      layer = shape
      if style.kind == .fill {
        shape.fillColor = color(style.color.first)
        try animate(shape, style.color, LayerKey.fillColor.rawValue, timeline) { self.color($0) }
        shape.strokeColor = nil
      } else {
        shape.fillColor = nil
        shape.strokeColor = color(style.color.first)
        try animate(shape, style.color, LayerKey.strokeColor.rawValue, timeline) { self.color($0) }
      }
    case .gradientFill, .gradientStroke:
      let gradient = CAGradientLayer()
      layer = gradient
      shape.fillColor = style.kind == .gradientFill ? .black : nil
      shape.strokeColor = style.kind == .gradientStroke ? .black : nil
      gradient.mask = shape
      try gradientSetup(gradient, style, sources, timeline)
    }
    shape.fillRule = style.evenOdd ? .evenOdd : .nonZero
    if style.isStroke {
      shape.lineWidth = CGFloat(max(style.width.first[0], 0))
      try animate(shape, style.width, LayerKey.lineWidth.rawValue, timeline) { max($0[0], 0) }
      shape.lineCap = style.cap == 1 ? .butt : style.cap == 3 ? .square : .round
      shape.lineJoin = style.join == 1 ? .miter : style.join == 3 ? .bevel : .round
      shape.miterLimit = CGFloat(max(style.miterLimit, 0))
      try dashes(style, shape, timeline)
    }
    try applyOpacity(style.opacity, layer, timeline)
    blendMode(style.blend, layer, style.path + ".bm")
    if layer.compositingFilter != nil { blendedShapeItems += 1 }
    try geometry(style, sources, shape, timeline)
    return layer
  }

  /// A fill of paths merged by merge paths mode 2 (add), 3 (subtract:
  /// the first path less the others), 4 (intersect) or 5 (exclude): the
  /// fill painted over everything, through a luminance mask that combines
  /// the paths in order as masks combine (each path white; add screens,
  /// subtract multiplies by its outside, intersect by its inside, exclude
  /// takes the difference), each path sampled per frame when animated.
  func mergedFill(_ style: Style, _ sources: [SourceRef], mode: Int, _ timeline: Timeline) throws -> CALayer {
    let big = max(width, height) * 10 + 10000
    let cover = GeometrySource.rect(
      position: Property(constant: [0, 0]), size: Property(constant: [2 * big, 2 * big]),
      roundness: Property(constant: [0]), reversed: false)
    let paint = try styleLayer(style, [SourceRef(source: cover, modifiers: [])], timeline)
    func plain(_ gray: CGFloat) -> CALayer {
      let l = CALayer()
      l.anchorPoint = .zero
      l.bounds = CGRect(x: 0, y: 0, width: 2 * big, height: 2 * big)
      l.position = CGPoint(x: -big, y: -big)
      l.backgroundColor = CGColor(red: gray, green: gray, blue: gray, alpha: 1)
      return l
    }
    let mask = CALayer()
    mask.name = "merged paths"
    mask.addSublayer(plain(0))
    try madeShapeLayers(sources.count + 2, style.path)
    for (i, ref) in sources.enumerated() {
      let shape = CAShapeLayer()
      shape.fillRule = style.evenOdd ? .evenOdd : .nonZero
      let props = ref.source.properties + ref.modifiers.flatMap(\.properties)
      shape.path = path([ref], at: props.map(\.firstFrame).min() ?? 0)
      if let (a, b) = range(props) {
        try budget(from: a, to: b, elements: shape.path?.elements.count ?? 0, path: style.path)
        shape.add(
          Animations.sampled(
            keyPath: LayerKey.path.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: true
          ) { self.path([ref], at: $0) }, forKey: LayerKey.path.rawValue)
      }
      shape.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
      var piece: CALayer = shape
      var blend = "CIScreenBlendMode"
      if i > 0 {
        switch mode {
        case 3:
          shape.fillColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
          blend = "CIMultiplyBlendMode"
        case 4:
          piece = CALayer()
          piece.addSublayer(plain(0))
          piece.addSublayer(shape)
          blend = "CIMultiplyBlendMode"
        case 5:
          blend = "CIDifferenceBlendMode"
        default:
          break
        }
      }
      piece.compositingFilter = CIFilter(name: blend)
      mask.addSublayer(piece)
    }
    let holder = CALayer()
    holder.name = "merge paths \(mode)"
    holder.addSublayer(paint)
    holder.mask = mask
    holder.maskMode = .luminance
    return holder
  }

  func dashes(_ style: Style, _ shape: CAShapeLayer, _ timeline: Timeline) throws {
    guard !style.dashes.isEmpty else { return }
    let lengths = style.dashes.filter { $0.0 != "o" }.map(\.1)
    let offset = style.dashes.first { $0.0 == "o" }?.1
    guard !lengths.isEmpty, lengths.count <= Limits.maxDashPatternLength else { return }
    func pattern(_ f: Double) -> [NSNumber] { lengths.map { NSNumber(value: max($0.scalar(at: f), 0)) } }
    let all = lengths + (offset.map { [$0] } ?? [])
    let first = all.map(\.firstFrame).min() ?? 0
    let p = pattern(first)
    // A pattern of zeros draws nothing special: skip it.
    if p.allSatisfy({ $0.doubleValue == 0 }) && !lengths.contains(where: \.isAnimated) { return }
    shape.lineDashPattern = p
    shape.lineDashPhase = CGFloat(offset?.scalar(at: first) ?? 0)
    if let (a, b) = range(lengths) {
      try budget(from: a, to: b, path: style.path + ".d")
      shape.add(
        Animations.sampled(
          keyPath: LayerKey.lineDashPattern.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
          discrete: false) { pattern($0) }, forKey: LayerKey.lineDashPattern.rawValue)
    }
    if let offset { try animate(shape, offset, LayerKey.lineDashPhase.rawValue, timeline) { $0[0] } }
  }

  /// The combined path of `sources` at frame `f` (modifiers applied, trims last).
  func path(_ sources: [SourceRef], at f: Double) -> CGPath {
    var pieces: [(path: CGPath, trims: [Modifier])] = []
    for ref in sources {
      var shape = ref.source.shape(at: f)
      for m in ref.modifiers where !m.isTrim { shape = m.apply(shape, at: f) }
      pieces.append((shape.cgPath, ref.modifiers.filter(\.isTrim)))
    }
    // Trims, nearest first.
    var trims: [Modifier] = []
    for p in pieces { for t in p.trims where !trims.contains(where: { $0 === t }) { trims.append(t) } }
    for t in trims {
      guard case .trim(let s, let e, let o, let individually) = t.kind else { continue }
      let start = s.scalar(at: f) / 100
      let end = e.scalar(at: f) / 100
      let offset = o.scalar(at: f) / 360
      if individually {
        let indices = pieces.indices.filter { pieces[$0].trims.contains { $0 === t } }
        guard let firstIndex = indices.first else { continue }
        let joined = CGMutablePath()
        for i in indices { joined.addPath(pieces[i].path) }
        let trimmed = Geometry.trim(joined, start: start, end: end, offset: offset)
        for i in indices.reversed() where i != firstIndex { pieces.remove(at: i) }
        pieces[firstIndex].path = trimmed
      } else {
        for i in pieces.indices where pieces[i].trims.contains(where: { $0 === t }) {
          pieces[i].path = Geometry.trim(pieces[i].path, start: start, end: end, offset: offset)
        }
      }
    }
    let out = CGMutablePath()
    for p in pieces { out.addPath(p.path) }
    return out
  }

  /// Sets the shape layer's path: static, the path keyframes themselves, or
  /// sampled per frame when modifiers or several animated shapes make it.
  func geometry(_ style: Style, _ sources: [SourceRef], _ shape: CAShapeLayer, _ timeline: Timeline) throws {
    let props = sources.flatMap { $0.source.properties + $0.modifiers.flatMap(\.properties) }
    let first = props.map(\.firstFrame).min() ?? 0
    shape.path = path(sources, at: first)
    guard let (a, b) = range(props) else { return }
    if sources.count == 1, sources[0].modifiers.isEmpty, case .path(let p) = sources[0].source,
      Set(p.keyframes.map(\.value.count)).count == 1
    {
      try animate(shape, p, LayerKey.path.rawValue, timeline) { BezierShape(vector: $0, closed: p.closed).cgPath }
      return
    }
    try budget(from: a, to: b, elements: shape.path?.elements.count ?? 0, path: style.path)
    let anim = Animations.sampled(
      keyPath: LayerKey.path.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames, discrete: true
    ) { self.path(sources, at: $0) }
    shape.add(anim, forKey: LayerKey.path.rawValue)
  }

  // MARK: Gradients

  /// Colors and locations of gradient stops at a value: `count` color stops
  /// (position, r, g, b), then opacity stops (position, alpha).
  func gradientStops(_ v: [Double], count: Int) -> (colors: [CGColor], locations: [NSNumber]) {
    // The parser refuses a negative count; the clamp keeps this total.
    let n = max(0, min(count, v.count / 4))
    var colorStops: [(Double, [Double])] = []
    for i in 0..<n { colorStops.append((v[4 * i], [v[4 * i + 1], v[4 * i + 2], v[4 * i + 3]])) }
    var alphaStops: [(Double, Double)] = []
    var i = 4 * n
    while i + 1 < v.count {
      alphaStops.append((v[i], v[i + 1]))
      i += 2
    }
    guard !colorStops.isEmpty else { return ([.black, .black], [0, 1]) }
    func interpolate<T>(_ stops: [(Double, T)], _ x: Double, _ mix: (T, T, Double) -> T) -> T {
      if x <= stops[0].0 { return stops[0].1 }
      for j in 1..<stops.count where x <= stops[j].0 {
        let span = stops[j].0 - stops[j - 1].0
        return mix(stops[j - 1].1, stops[j].1, span > 0 ? (x - stops[j - 1].0) / span : 1)
      }
      return stops[stops.count - 1].1
    }
    let colorCurve = Self.midpoints(colorStops.map { ($0.0, $0.1) })
    let alphaCurve = Self.midpoints(alphaStops.map { ($0.0, [$0.1]) })
    var positions = colorCurve.positions
    if !alphaStops.isEmpty { positions += alphaCurve.positions }
    positions = Array(Set(positions)).sorted()
    // Two stops at one position are a hard edge (Skottie's
    // `skottie-gradient-opacity`): the value before it, then the value
    // after it, at the same location.
    var colors: [CGColor] = []
    var locations: [NSNumber] = []
    for x in positions {
      let before = colorCurve.value(x) + [alphaStops.isEmpty ? 1 : alphaCurve.value(x)[0]]
      let after =
        colorCurve.value(after: x) + [alphaStops.isEmpty ? 1 : alphaCurve.value(after: x)[0]]
      colors.append(color(before))
      locations.append(NSNumber(value: x))
      if after != before {
        colors.append(color(after))
        locations.append(NSNumber(value: x))
      }
    }
    _ = interpolate(colorStops, 0) { a, _, _ in a }
    return (colors, locations)
  }

  /// Gradient stops with After Effects' midpoints: Bodymovin writes a
  /// midpoint between two stops as a stop of their average color; After
  /// Effects blends with a power curve that reaches half way at the
  /// midpoint `m` (of the span) and whose exponent is at least 1: `u^k`,
  /// `k = ln 0.5 / ln m`, for a midpoint past the middle, its mirror
  /// `1 − (1 − u)^k`, `k = ln 0.5 / ln (1 − m)`, for one before it (measured
  /// on the conformance frames `gradient-linear` and
  /// `gradient-linear-midpoint`). Such stops become a curve sampled into stops.
  struct StopCurve {
    var stops: [(Double, [Double])]
    /// Per segment start index: where the curve is half way (0.5 = linear).
    var midpoints: [Double]
    var positions: [Double]

    /// The fraction of the way from a stop to the next at `t` of the span.
    static func blend(_ t: Double, midpoint m: Double) -> Double {
      let t = min(max(t, 0), 1)
      if m > 0.5 { return pow(t, log(0.5) / log(m)) }
      if m < 0.5 { return 1 - pow(1 - t, log(0.5) / log(1 - m)) }
      return t
    }

    func value(_ x: Double) -> [Double] {
      guard let first = stops.first else { return [0] }
      if x <= first.0 { return first.1 }
      for j in 1..<stops.count where x <= stops[j].0 {
        let span = stops[j].0 - stops[j - 1].0
        let t = Self.blend(span > 0 ? (x - stops[j - 1].0) / span : 1, midpoint: midpoints[j - 1])
        return zip(stops[j - 1].1, stops[j].1).map { $0 + ($1 - $0) * t }
      }
      return stops[stops.count - 1].1
    }

    /// The value just after `x`: where stops share `x`, the last one's
    /// (`value` gives the first one's).
    func value(after x: Double) -> [Double] {
      guard let last = stops.last else { return [0] }
      if x >= last.0 { return last.1 }
      for j in 0..<stops.count where x < stops[j].0 {
        guard j > 0 else { return stops[0].1 }
        let span = stops[j].0 - stops[j - 1].0
        let t = Self.blend(span > 0 ? (x - stops[j - 1].0) / span : 1, midpoint: midpoints[j - 1])
        return zip(stops[j - 1].1, stops[j].1).map { $0 + ($1 - $0) * t }
      }
      return last.1
    }
  }

  static func midpoints(_ given: [(Double, [Double])]) -> StopCurve {
    var stops: [(Double, [Double])] = []
    var midpoints: [Double] = []
    var positions: [Double] = []
    var i = 0
    while i < given.count {
      stops.append(given[i])
      if i + 2 < given.count {
        let a = given[i]
        let m = given[i + 1]
        let b = given[i + 2]
        let average = zip(a.1, b.1).map { ($0 + $1) / 2 }
        let isMidpoint =
          a.1 != b.1 && zip(average, m.1).allSatisfy { abs($0 - $1) < 0.004 } && b.0 > a.0 && m.0 > a.0
          && m.0 < b.0
        if isMidpoint {
          let r = (m.0 - a.0) / (b.0 - a.0)
          midpoints.append(abs(r - 0.5) < 1e-3 ? 0.5 : r)
          i += 2
          continue
        }
      }
      midpoints.append(0.5)
      i += 1
    }
    for j in 0..<stops.count {
      positions.append(stops[j].0)
      if j + 1 < stops.count, midpoints[j] != 0.5 {
        let a = stops[j].0
        let b = stops[j + 1].0
        for k in 1..<32 { positions.append(a + (b - a) * Double(k) / 32) }
      }
    }
    return StopCurve(stops: stops, midpoints: midpoints, positions: positions)
  }

  func gradientSetup(_ g: CAGradientLayer, _ style: Style, _ sources: [SourceRef], _ timeline: Timeline) throws {
    g.type = style.radial ? .radial : .axial
    // After Effects takes a gradient's color at each pixel's corner.
    g.samplesAtPixelCorners = true
    // The gradient covers the shape's bounds (with room for strokes); the
    // layer's coordinates are its parent's.
    let props = sources.flatMap { $0.source.properties }
    var box = path(sources, at: props.map(\.firstFrame).min() ?? 0).boundingBoxOfPath
    if range(props) != nil || box.isNull || box.isEmpty {
      let big = max(width, height) * 4 + 100
      box = CGRect(x: -big, y: -big, width: 2 * big, height: 2 * big)
    }
    let pad = style.isStroke ? CGFloat(style.width.keyframes.map { $0.value[0] }.max() ?? 0) + 2 : 2
    box = box.insetBy(dx: -pad, dy: -pad)
    if style.radial {
      let side = max(box.width, box.height)
      box = CGRect(x: box.midX - side / 2, y: box.midY - side / 2, width: side, height: side)
    }
    g.anchorPoint = .zero
    g.bounds = box
    g.position = box.origin
    let stops = gradientStops(style.stops.first, count: style.colorStops)
    g.colors = stops.colors
    g.locations = stops.locations
    if style.stops.isAnimated {
      try animate(g, style.stops, LayerKey.colors.rawValue, timeline) { self.gradientStops($0, count: style.colorStops).colors }
    }
    func unit(_ v: [Double]) -> CGPoint {
      CGPoint(x: (CGFloat(v[0]) - box.minX) / box.width, y: (CGFloat(v[1]) - box.minY) / box.height)
    }
    func endPoint(_ s: [Double], _ e: [Double]) -> CGPoint {
      guard style.radial else { return unit(e) }
      let r = hypot(e[0] - s[0], e[1] - s[1])
      let u = unit(s)
      return CGPoint(x: u.x + CGFloat(r) / box.width, y: u.y + CGFloat(r) / box.height)
    }
    // The highlight: the focal point h % of the radius (within ±99 %) from
    // the start point, at a degrees from the start-to-end direction
    // (lottie-web's fx, fy; After Effects' highlight length and angle).
    let hasHighlight =
      style.radial && (style.highlight.isAnimated || style.highlight.first[0] != 0)
    func focalPoint(_ s: [Double], _ e: [Double], _ h: Double, _ a: Double) -> CGPoint {
      let r = hypot(e[0] - s[0], e[1] - s[1]) * min(max(h / 100, -0.99), 0.99)
      let angle = atan2(e[1] - s[1], e[0] - s[0]) + a * .pi / 180
      return CGPoint(x: CGFloat(cos(angle) * r) / box.width, y: CGFloat(sin(angle) * r) / box.height)
    }
    func focalPoint(at f: Double) -> CGPoint {
      focalPoint(
        style.start.value(at: f), style.end.value(at: f), style.highlight.value(at: f)[0],
        style.highlightAngle.value(at: f)[0])
    }
    g.startPoint = unit(style.start.first)
    g.endPoint = endPoint(style.start.first, style.end.first)
    if hasHighlight {
      let first = [style.start, style.end, style.highlight, style.highlightAngle].map(\.firstFrame).min() ?? 0
      g.focalPointOffset = focalPoint(at: first)
      if let (a, b) = range([style.start, style.end, style.highlight, style.highlightAngle]) {
        try budget(from: a, to: b, path: style.path)
        g.add(
          Animations.sampled(
            keyPath: LayerKey.focalPointOffset.rawValue, from: a, to: b, timeline: timeline,
            limit: limits.maxSampledFrames, discrete: false) { focalPoint(at: $0) },
          forKey: LayerKey.focalPointOffset.rawValue)
      }
    }
    if !style.radial || !style.start.isAnimated {
      try animate(g, style.start, LayerKey.startPoint.rawValue, timeline) { unit($0) }
    }
    if style.radial, let (a, b) = range([style.start, style.end]) {
      try budget(from: a, to: b, path: style.path)
      g.add(
        Animations.sampled(
          keyPath: LayerKey.startPoint.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
          discrete: false) { unit(style.start.value(at: $0)) }, forKey: LayerKey.startPoint.rawValue)
      g.add(
        Animations.sampled(
          keyPath: LayerKey.endPoint.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
          discrete: false) { endPoint(style.start.value(at: $0), style.end.value(at: $0)) }, forKey: LayerKey.endPoint.rawValue)
    } else if !style.radial {
      try animate(g, style.end, LayerKey.endPoint.rawValue, timeline) { unit($0) }
    }
    // The mask shape is in the gradient layer's coordinates (its bounds'
    // origin is the parent's point at the same place), so paths need no shift.
  }
}
