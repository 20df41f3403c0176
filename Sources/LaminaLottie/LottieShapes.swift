import Foundation
import Lamina

/// A shape that makes a path: `sh`, `rc`, `el`, `sr`.
enum GeometrySource {
  case path(Property)
  case rect(position: Property, size: Property, roundness: Property, reversed: Bool)
  case ellipse(position: Property, size: Property, reversed: Bool)
  case star(
    star: Bool, points: Property, position: Property, rotation: Property, outer: Property,
    inner: Property, outerRoundness: Property, innerRoundness: Property, reversed: Bool,
    maxVertices: Int)

  var properties: [Property] {
    switch self {
    case .path(let p): return [p]
    case .rect(let a, let b, let c, _): return [a, b, c]
    case .ellipse(let a, let b, _): return [a, b]
    case .star(_, let a, let b, let c, let d, let e, let f, let g, _, _): return [a, b, c, d, e, f, g]
    }
  }

  func shape(at f: Double) -> BezierShape {
    switch self {
    case .path(let p): return BezierShape(vector: p.value(at: f), closed: p.closed)
    case .rect(let p, let s, let r, let reversed):
      let pv = p.value(at: f)
      let sv = s.value(at: f)
      return Geometry.rect(
        center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]),
        roundness: r.scalar(at: f), reversed: reversed)
    case .ellipse(let p, let s, let reversed):
      let pv = p.value(at: f)
      let sv = s.value(at: f)
      return Geometry.ellipse(
        center: CGPoint(x: pv[0], y: pv[1]), size: CGSize(width: sv[0], height: sv[1]), reversed: reversed)
    case .star(let star, let pt, let p, let r, let or, let ir, let os, let is_, let reversed, let maxV):
      let pv = p.value(at: f)
      return Geometry.polystar(
        star: star, points: pt.scalar(at: f), center: CGPoint(x: pv[0], y: pv[1]),
        rotation: r.scalar(at: f), outerRadius: or.scalar(at: f), innerRadius: ir.scalar(at: f),
        outerRoundness: os.scalar(at: f), innerRoundness: is_.scalar(at: f), reversed: reversed,
        maxVertices: maxV)
    }
  }
}

/// A shape modifier: changes the paths above it.
final class Modifier {
  enum Kind {
    case trim(start: Property, end: Property, offset: Property, individually: Bool)
    case round(Property)
    case puckerBloat(Property)
    case zigZag(size: Property, ridges: Property, smooth: Bool)
    case offset(amount: Property, join: Int, miterLimit: Property)
  }
  let kind: Kind
  init(_ kind: Kind) { self.kind = kind }

  var properties: [Property] {
    switch kind {
    case .trim(let s, let e, let o, _): return [s, e, o]
    case .round(let r): return [r]
    case .puckerBloat(let a): return [a]
    case .zigZag(let s, let r, _): return [s, r]
    case .offset(let a, _, let m): return [a, m]
    }
  }

  var isTrim: Bool {
    if case .trim = kind { return true }
    return false
  }

  func apply(_ s: BezierShape, at f: Double) -> BezierShape {
    switch kind {
    case .trim: return s
    case .round(let r): return Geometry.roundCorners(s, radius: r.scalar(at: f))
    case .puckerBloat(let a): return Geometry.puckerBloat(s, amount: a.scalar(at: f))
    case .zigZag(let size, let ridges, let smooth):
      return Geometry.zigZag(s, amplitude: size.scalar(at: f), ridges: ridges.scalar(at: f), smooth: smooth)
    case .offset(let a, let join, let ml):
      return Geometry.offset(s, amount: a.scalar(at: f), join: join, miterLimit: ml.scalar(at: f))
    }
  }
}

/// A fill, stroke, gradient fill or gradient stroke.
struct Style {
  enum Kind { case fill, stroke, gradientFill, gradientStroke }
  var kind: Kind
  var node: Node
  var color = Property(constant: [0, 0, 0, 1])
  var opacity = Property(constant: [100])
  var width = Property(constant: [1])
  var cap = 2
  var join = 2
  var miterLimit = 4.0
  var dashes: [(String, Property)] = []
  var evenOdd = false
  var blend = 0
  // Gradients.
  var radial = false
  var start = Property(constant: [0, 0])
  var end = Property(constant: [0, 0])
  var highlight = Property(constant: [0])
  var highlightAngle = Property(constant: [0])
  var stops = Property(constant: [])
  var colorStops = 0

  var isStroke: Bool { kind == .stroke || kind == .gradientStroke }
}

/// A path item with the modifiers that apply to it (nearest first).
struct SourceRef {
  var source: GeometrySource
  var modifiers: [Modifier]
}

extension Builder {
  /// Builds a shape group's items into layers, bottom first.
  func shapeGroup(
    items: [Node], itemsPath: String, timeline: Timeline, inheritedStyles: [Style],
    inheritedModifiers: [Modifier], repeats: Int
  ) throws -> [CALayer] {
    // Parse the items once.
    enum Item {
      case group(Node)
      case geometry(GeometrySource)
      case style(Style)
      case modifier(Modifier)
      case repeater(Node, Int)
      /// Merge paths other than "merge" (2 add, 3 subtract, 4 intersect, 5 exclude).
      case merge(Int, Node)
      case other
    }
    var parsed: [Item] = []
    for n in items {
      guard n.isObject else { throw n.wrongType("a shape object") }
      if n.bool("hd") {
        parsed.append(.other)
        continue
      }
      let ty = try n.string("ty") ?? ""
      switch ty {
      case "gr": parsed.append(.group(n))
      case "sh": parsed.append(.geometry(.path(try pathProperty(try n.required("ks")))))
      case "rc":
        parsed.append(
          .geometry(
            .rect(
              position: try property(n.child("p"), [0, 0]), size: try property(n.child("s"), [0, 0]),
              roundness: try property(n.child("r"), [0]), reversed: try n.int("d", default: 1) == 3)))
      case "el":
        parsed.append(
          .geometry(
            .ellipse(
              position: try property(n.child("p"), [0, 0]), size: try property(n.child("s"), [0, 0]),
              reversed: try n.int("d", default: 1) == 3)))
      case "sr":
        let points = try property(n.child("pt"), [5])
        for k in points.keyframes where k.value[0] > Double(limits.maxPathVertices / 2) {
          try limit(n.child("pt") ?? n, "vertices of one path", Int(saturating: min(k.value[0] * 2, 1e9)), limits.maxPathVertices, "maxPathVertices")
        }
        parsed.append(
          .geometry(
            .star(
              star: try n.int("sy", default: 1) == 1, points: points,
              position: try property(n.child("p"), [0, 0]), rotation: try property(n.child("r"), [0]),
              outer: try property(n.child("or"), [0]), inner: try property(n.child("ir"), [0]),
              outerRoundness: try property(n.child("os"), [0]),
              innerRoundness: try property(n.child("is"), [0]), reversed: try n.int("d", default: 1) == 3,
              maxVertices: limits.maxPathVertices)))
      case "fl", "st", "gf", "gs":
        parsed.append(.style(try style(n, ty)))
      case "tm":
        parsed.append(
          .modifier(
            Modifier(
              .trim(
                start: try property(n.child("s"), [0]), end: try property(n.child("e"), [100]),
                offset: try property(n.child("o"), [0]), individually: try n.int("m", default: 1) == 2))))
      case "rd": parsed.append(.modifier(Modifier(.round(try property(n.child("r"), [0])))))
      case "pb": parsed.append(.modifier(Modifier(.puckerBloat(try property(n.child("a"), [0])))))
      case "zz":
        parsed.append(
          .modifier(
            Modifier(
              .zigZag(
                size: try property(n.child("s"), [0]), ridges: try property(n.child("r"), [0]),
                smooth: try property(n.child("pt"), [1]).first[0] == 2))))
      case "op":
        parsed.append(
          .modifier(
            Modifier(
              .offset(
                amount: try property(n.child("a"), [0]), join: try n.int("lj", default: 1),
                miterLimit: try property(n.child("ml"), [4])))))
      case "rp":
        let copies = try property(n.child("c"), [1])
        let c = Int(saturating: min(max(copies.keyframes.map { $0.value[0] }.max() ?? 1, 0), 1e9), rounding: .up)
        try limit(n.child("c") ?? n, "repeater copies multiplied through nesting", repeats * max(c, 1), limits.maxRepeaterCopies, "maxRepeaterCopies")
        parsed.append(.repeater(n, c))
      case "tr":
        parsed.append(.other)
      case "mm":
        let mode = try n.int("mm", default: 1)
        if (2...5).contains(mode) {
          parsed.append(.merge(mode, n))
        } else {
          if mode != 1 { report("merge paths mode \(mode) (paths kept as they are)", n.path) }
          parsed.append(.other)
        }
      default:
        report("shape '\(ty)'", n.path)
        parsed.append(.other)
      }
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
      let tail = Array(items[(last + 1)...])
      if !tail.isEmpty {
        layers += try shapeGroup(
          items: tail, itemsPath: itemsPath, timeline: timeline, inheritedStyles: inheritedStyles,
          inheritedModifiers: inheritedModifiers, repeats: repeats)
      }
      for (n, k) in repeaterAt.enumerated().reversed() {
        guard case .repeater(let node, let copies) = parsed[k] else { continue }
        let from = n == 0 ? 0 : repeaterAt[n - 1] + 1
        let stylesBelow = styleAt[firstAfter(styleAt, k)...].compactMap { i -> Style? in
          if case .style(let s) = parsed[i] { return s } else { return nil }
        }
        layers.append(
          try repeated(
            Array(items[from..<k]), node: node, copies: copies, itemsPath: itemsPath, timeline: timeline,
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
        if m > 0, case .merge(let mode, let node) = parsed[mergeAt[m - 1]] {
          let j = mergeAt[m - 1]
          let merged = self.sourcesCount(sources, before: j, geometryAt)
          let rest = Array(sources.dropFirst(merged.count))
          if let g = groupAt.first, g < j {
            report("merge paths mode \(mode) across groups (the groups' paths kept as they are)", node.path)
          }
          if style.isStroke || merged.isEmpty {
            if style.isStroke { report("merge paths mode \(mode) on a stroke (paths stroked as they are)", node.path) }
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
        let g = try group(
          n, timeline: timeline, inheritedStyles: styles + inheritedStyles,
          inheritedModifiers: modifiers(after: k) + inheritedModifiers, repeats: repeats)
        layers.append(g)
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

  /// A group (`gr`): its transform (`tr` among its items) and its items.
  func group(
    _ n: Node, timeline: Timeline, inheritedStyles: [Style], inheritedModifiers: [Modifier], repeats: Int
  ) throws -> CALayer {
    let it = try n.required("it")
    let items = try it.array()
    try madeShapeLayers(2, n.path)
    let outer = CALayer()
    outer.name = (try? n.string("nm")) ?? nil
    let inner = CALayer()
    outer.addSublayer(inner)
    if let tr = items.last(where: { (try? $0.string("ty")) == "tr" }) {
      let t = try transform(tr, layer3D: false)
      try apply(t, outer: outer, inner: inner, timeline: timeline, path: tr.path)
      try applyOpacity(t.opacity, inner, timeline)
    }
    for l in try shapeGroup(
      items: items, itemsPath: it.path, timeline: timeline, inheritedStyles: inheritedStyles,
      inheritedModifiers: inheritedModifiers, repeats: repeats)
    {
      inner.addSublayer(l)
    }
    return outer
  }

  /// The copies of a repeater (`rp`): each copy of the items above it moved
  /// by the repeater's transform once more, opacity from `so` to `eo`.
  func repeated(
    _ items: [Node], node: Node, copies: Int, itemsPath: String, timeline: Timeline, inheritedStyles: [Style],
    inheritedModifiers: [Modifier], repeats: Int
  ) throws -> CALayer {
    let holder = CALayer()
    holder.name = "repeater"
    let offset = try property(node.child("o"), [0])
    let tr = node.child("tr")
    let t = try transform(tr, layer3D: false)
    let so = try property(tr?.child("so"), [100])
    let eo = try property(tr?.child("eo"), [100])
    let above = try node.int("m", default: 1) == 1
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
      try madeShapeLayers(1, node.path)
      let copy = CALayer()
      copy.transform = matrix(i, f)
      copy.opacity = Float(opacity(i, f))
      if let (a, b) = animated {
        // An animated repeater: each copy's transform and opacity sampled per frame.
        try budget(from: a, to: b, path: node.path)
        try budget(from: a, to: b, path: node.path)
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
        items: items, itemsPath: itemsPath, timeline: timeline, inheritedStyles: inheritedStyles,
        inheritedModifiers: inheritedModifiers, repeats: repeats * max(n, 1))
      {
        copy.addSublayer(l)
      }
      made.append(copy)
    }
    for c in above ? made : made.reversed() { holder.addSublayer(c) }
    return holder
  }

  func style(_ n: Node, _ ty: String) throws -> Style {
    let kind: Style.Kind = ty == "fl" ? .fill : ty == "st" ? .stroke : ty == "gf" ? .gradientFill : .gradientStroke
    var s = Style(kind: kind, node: n)
    s.opacity = try property(n.child("o"), [100])
    s.evenOdd = try n.int("r", default: 1) == 2
    s.blend = try n.int("bm", default: 0)
    if kind == .fill || kind == .stroke { s.color = try property(n.child("c"), [0, 0, 0, 1]) }
    if s.isStroke {
      s.width = try property(n.child("w"), [1])
      s.cap = try n.int("lc", default: 2)
      s.join = try n.int("lj", default: 2)
      s.miterLimit = try n.number("ml", default: 4)
      if let d = n.child("d") {
        for e in try d.array() {
          s.dashes.append((try e.string("n") ?? "d", try property(e.child("v"), [0])))
        }
      }
    }
    if kind == .gradientFill || kind == .gradientStroke {
      s.radial = try n.int("t", default: 1) == 2
      s.start = try property(n.child("s"), [0, 0])
      s.end = try property(n.child("e"), [0, 0])
      s.highlight = try property(n.child("h"), [0])
      s.highlightAngle = try property(n.child("a"), [0])
      let g = try n.required("g")
      s.colorStops = try g.int("p", default: 0)
      if s.colorStops < 0, let p = g.child("p") {
        throw p.invalid(
          "a gradient's colour-stop count must not be negative (found \(s.colorStops))")
      }
      s.stops = try property(g.child("k"), [])
      try limit(g, "gradient stops", s.colorStops, Limits.maxGradientStops, "maxGradientStops")
    }
    return s
  }

  // MARK: Style layers

  func styleLayer(_ style: Style, _ sources: [SourceRef], _ timeline: Timeline) throws -> CALayer {
    try madeShapeLayers(style.kind == .gradientFill || style.kind == .gradientStroke ? 2 : 1, style.node.path)
    try styled(sources.count, style.node.path)
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
    blendMode(style.blend, layer, style.node.path + ".bm")
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
    try madeShapeLayers(sources.count + 2, style.node.path)
    for (i, ref) in sources.enumerated() {
      let shape = CAShapeLayer()
      shape.fillRule = style.evenOdd ? .evenOdd : .nonZero
      let props = ref.source.properties + ref.modifiers.flatMap(\.properties)
      shape.path = path([ref], at: props.map(\.firstFrame).min() ?? 0)
      if let (a, b) = range(props) {
        try budget(from: a, to: b, elements: shape.path?.elements.count ?? 0, path: style.node.path)
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
      try budget(from: a, to: b, path: style.node.path + ".d")
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
    try budget(from: a, to: b, elements: shape.path?.elements.count ?? 0, path: style.node.path)
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
    if !alphaStops.isEmpty { positions = Array(Set(positions + alphaCurve.positions)).sorted() }
    var colors: [CGColor] = []
    for x in positions {
      let c = colorCurve.value(x)
      let alpha = alphaStops.isEmpty ? 1 : alphaCurve.value(x)[0]
      colors.append(color(c + [alpha]))
    }
    _ = interpolate(colorStops, 0) { a, _, _ in a }
    return (colors, positions.map { NSNumber(value: $0) })
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
        try budget(from: a, to: b, path: style.node.path)
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
      try budget(from: a, to: b, path: style.node.path)
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
