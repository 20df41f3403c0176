import Foundation
import Lamina

/// A glyph of the document's `chars`: its advance and outline at size 100.
struct Glyph {
  var width: Double
  var shapes: [BezierShape]
}

/// A text layer's path (`t.p`: a mask's path): where characters go along it.
struct TextPath {
  /// Points along the path and their distances from its start.
  var polyline: [(point: CGPoint, distance: Double)]
  var firstMargin: Double
  var lastMargin: Double
  var perpendicular: Bool
  var node: Node

  var length: Double { polyline.last?.distance ?? 0 }

  /// The path as 32 straight pieces per segment, with distances.
  static func flatten(_ s: BezierShape) -> [(point: CGPoint, distance: Double)] {
    guard let first = s.v.first else { return [] }
    var out: [(point: CGPoint, distance: Double)] = [(first, 0)]
    let n = s.count
    let segments = s.closed ? n : n - 1
    for k in 0..<max(segments, 0) {
      let a = s.v[k]
      let b = s.v[(k + 1) % n]
      let c1 = CGPoint(x: a.x + s.o[k].x, y: a.y + s.o[k].y)
      let c2 = CGPoint(x: b.x + s.i[(k + 1) % n].x, y: b.y + s.i[(k + 1) % n].y)
      for step in 1...32 {
        let p = Geometry.cubic(a, c1, c2, b, Double(step) / 32)
        let last = out[out.count - 1]
        out.append((p, last.distance + Double(hypot(p.x - last.point.x, p.y - last.point.y))))
      }
    }
    return out
  }

  /// The point at `distance` along the path and the path's direction
  /// there (radians); past either end, the line goes on straight.
  func point(at distance: Double) -> (CGPoint, Double) {
    guard polyline.count > 1 else { return (polyline.first?.point ?? .zero, 0) }
    var k = 1
    while k < polyline.count - 1 && polyline[k].distance < distance { k += 1 }
    let a = polyline[k - 1]
    let b = polyline[k]
    let span = b.distance - a.distance
    let u = span > 0 ? (distance - a.distance) / span : 0
    let p = CGPoint(
      x: a.point.x + (b.point.x - a.point.x) * CGFloat(u), y: a.point.y + (b.point.y - a.point.y) * CGFloat(u))
    return (p, atan2(Double(b.point.y - a.point.y), Double(b.point.x - a.point.x)))
  }
}

/// A text animator (`t.a[i]`) with a range selector, on glyph text: how
/// much it applies to each character (`influence`) and what it changes.
struct TextAnimator {
  var start: Property
  var end: Property
  var offset: Property
  var amount: Property
  /// Units: percent (1) or index (2) of the characters.
  var byIndex: Bool
  /// Shape: 1 square, 2 ramp up, 3 ramp down, 4 triangle (others as square).
  var shape: Int
  var position: Property?
  var scale: Property?
  var rotation: Property?
  var opacity: Property?
  var fillColor: Property?
  /// An expression selector's amount (percent) for each character at a
  /// frame, in place of the range: three numbers a character (After
  /// Effects' Amount [x, y, z]); nil for a range selector.
  var perCharacter: Property? = nil

  var properties: [Property] {
    [start, end, offset, amount]
      + [position, scale, rotation, opacity, fillColor, perCharacter].compactMap { $0 }
  }

  /// The share (0–1, times the amount) of the animator that character
  /// `index` of `count` takes at frame `f`: the part of its unit interval
  /// [index, index + 1] the selected range covers, shaped.
  func influence(_ index: Int, of count: Int, at f: Double) -> Double {
    influences(index, of: count, at: f)[0]
  }

  /// The influence on character `index` in each dimension (x, y, z): an
  /// expression selector's three numbers for it, a range selector's one
  /// share three times. As lottie-web applies them: position and scale x
  /// and y take x and y, rotation takes z, opacity and fill colour x.
  func influences(_ index: Int, of count: Int, at f: Double) -> [Double] {
    if let perCharacter {
      let values = perCharacter.value(at: f)
      return (0..<3).map { d in
        3 * index + d < values.count ? min(max(values[3 * index + d] / 100, -1), 1) : 0
      }
    }
    let w = rangeInfluence(index, of: count, at: f)
    return [w, w, w]
  }

  /// A range selector's share for character `index`.
  func rangeInfluence(_ index: Int, of count: Int, at f: Double) -> Double {
    let total = Double(count)
    let scale = byIndex ? 1 : total / 100
    let o = offset.scalar(at: f) * scale
    var a = start.scalar(at: f) * scale + o
    var b = end.scalar(at: f) * scale + o
    if a > b { swap(&a, &b) }
    let x0 = Double(index)
    let covered = max(0, min(b, x0 + 1) - max(a, x0))
    guard covered > 0 else { return 0 }
    var m = min(covered, 1)
    if shape >= 2 && shape <= 4 && b > a {
      let u = (x0 + 0.5 - a) / (b - a)
      let t = min(max(u, 0), 1)
      switch shape {
      case 2: m *= t
      case 3: m *= 1 - t
      default: m *= 1 - abs(2 * t - 1)
      }
    }
    return m * min(max(amount.scalar(at: f) / 100, -1), 1)
  }
}

extension Builder {
  /// A text layer: each text document (`t.d.k`) shown from its keyframe's
  /// frame to the next one's; each drawn from the glyph shapes of the
  /// document's `chars` when they hold every character of it (as After
  /// Effects, lottie-web and rlottie draw them: size, tracking, stroke,
  /// justification, line height), else as a `CATextLayer` (family, size,
  /// fill colour, justification). Animators and text on a path are reported.
  func textLayer(_ n: Node, _ timeline: Timeline) throws -> CALayer? {
    let t = try n.required("t")
    let d = try t.required("d")
    let k = try d.required("k")
    var docs = try k.array()
    guard !docs.isEmpty else { return nil }
    if case .string? = d.child("x")?.json, let texts = try expressionTexts(d, docs) { docs = texts }
    let keyframes = try decoder.textKeyframes(docs, of: k)
    let animators = try decoder.textAnimators(t.child("a"))
    var onPath: TextPath?
    if let p = try decoder.textPath(t.child("p"), masks: n.child("masksProperties")) {
      if p.shape.isAnimated || p.firstMargin.isAnimated || p.lastMargin.isAnimated {
        report("text on an animated path or margins (first values used)", p.node.path)
      }
      var bezier = BezierShape(vector: p.shape.first, closed: p.shape.closed)
      if p.reversed { bezier = bezier.closed ? bezier : bezier.reversedOpen() }
      onPath = TextPath(
        polyline: TextPath.flatten(bezier), firstMargin: p.firstMargin.first[0],
        lastMargin: p.lastMargin.first[0], perpendicular: p.perpendicular, node: p.node)
    }
    if keyframes.count == 1 {
      return try textDocument(keyframes[0].document, animators, timeline, onPath: onPath)
    }
    // Text document keyframes: each document visible until the next one's frame.
    let holder = CALayer()
    holder.name = "text documents"
    for (i, keyframe) in keyframes.enumerated() {
      guard
        let content = try textDocument(keyframe.document, animators, timeline, onPath: onPath)
      else { continue }
      let from = i == 0 ? -Limits.maxMagnitude : keyframe.frame
      let to = i + 1 < keyframes.count ? keyframes[i + 1].frame : Limits.maxMagnitude
      let shown = CALayer()
      shown.addSublayer(content)
      try applyVisibility(
        shown, ip: from, op: to, compFrameRate: frameRate, timeline: timeline,
        path: keyframe.path + ".t")
      holder.addSublayer(shown)
    }
    return holder
  }

  /// One text document: glyph shapes when `chars` has them all, else a `CATextLayer`.
  func textDocument(
    _ d: TextDocument, _ animators: (path: String, list: [TextAnimator])? = nil, _ timeline: Timeline,
    onPath: TextPath? = nil
  ) throws -> CALayer? {
    let (text, size, justify, fontName) = (d.text, d.size, d.justify, d.fontName)
    let (lineHeight, tracking, strokeWidth) = (d.lineHeight, d.tracking, d.strokeWidth)
    let fill = d.fill.map { color($0) }
    let stroke = d.stroke.map { color($0) }
    if let glyphs = try glyphs(for: text, font: fontName, path: d.path) {
      if animators != nil || onPath != nil {
        return try animatedGlyphText(
          text, glyphs, size: size, lineHeight: lineHeight, tracking: tracking, justify: justify,
          fill: fill ?? color([0, 0, 0]), stroke: stroke, strokeWidth: min(strokeWidth, 1e4),
          strokeOverFill: d.strokeOverFill, animators: animators?.list ?? [], timeline,
          onPath: onPath, path: d.path)
      }
      return try glyphText(
        text, glyphs, size: size, lineHeight: lineHeight, tracking: tracking, justify: justify, fill: fill,
        stroke: stroke, strokeWidth: min(strokeWidth, 1e4), strokeOverFill: d.strokeOverFill,
        path: d.path)
    }
    if let animators { report("text animator (without glyph shapes)", animators.path) }
    if let onPath { report("text on a path (without glyph shapes)", onPath.node.path) }
    if stroke != nil { report("text stroke", d.path + ".sc") }
    if tracking != 0 { report("text tracking", d.path + ".tr") }
    let layer = CATextLayer()
    layer.string = text
    layer.fontSize = CGFloat(size)
    layer.font = fontFamily(fontName, path: d.path + ".f")
    layer.foregroundColor = fill ?? color([0, 0, 0])
    let lines = Double(max(1, text.split(separator: "\n", omittingEmptySubsequences: false).count))
    let width = max(size * Double(text.count) + 100, 10)
    let height = max(lineHeight * lines + size, 10)
    layer.anchorPoint = .zero
    layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    // Lottie puts the first baseline at y = 0; the ascent is about 0.75 em.
    let top = -size * 0.75 - (lineHeight - size) / 2
    switch justify {
    case 1:
      layer.alignmentMode = .right
      layer.position = CGPoint(x: -width, y: top)
    case 2:
      layer.alignmentMode = .center
      layer.position = CGPoint(x: -width / 2, y: top)
    default:
      layer.alignmentMode = .left
      layer.position = CGPoint(x: 0, y: top)
    }
    return layer
  }

  /// The glyph of every character of `text` in the font `font` (by
  /// `fonts.list` family and style), or nil when the document has no
  /// `chars` or lacks one (a space or tab lacking has a third of an em).
  func glyphs(for text: String, font: String, path: String) throws -> [Character: Glyph]? {
    guard !decoder.fonts.charsByKey.isEmpty || !decoder.fonts.chars.isEmpty else { return nil }
    if decoder.fonts.charsByKey.isEmpty { try decoder.indexChars() }
    let fonts = decoder.fonts.list
    let family = fonts[font]?.family ?? font
    let style = fonts[font]?.style ?? ""
    var out: [Character: Glyph] = [:]
    for c in Set(text) where c != "\n" {
      let key = String(c)
      let charsByKey = decoder.fonts.charsByKey
      let node = charsByKey[[key, family, style]] ?? charsByKey[[key, family, ""]] ?? charsByKey[[key, "", ""]]
      guard let node else {
        if c == " " || c == "\t" || c == "\u{a0}" {
          out[c] = Glyph(width: 100.0 / 3, shapes: [])
          continue
        }
        report("glyph shapes (chars) without '\(c)' (a font drawn instead)", path)
        return nil
      }
      out[c] = try decoder.glyph(node)
    }
    return out
  }

  /// Text laid out from glyph shapes as lottie-web lays it out: each glyph
  /// scaled by size / 100, advanced by its width and the tracking
  /// (`tr` / 1000 em), lines `lh` apart from the first baseline at y = 0,
  /// each line moved by its width for right (1) and centred (2) text.
  func glyphText(
    _ text: String, _ glyphs: [Character: Glyph], size: Double, lineHeight: Double, tracking: Double,
    justify: Int, fill: CGColor?, stroke: CGColor?, strokeWidth: Double, strokeOverFill: Bool, path: String
  ) throws -> CALayer {
    let scale = size / 100
    let outline = CGMutablePath()
    var elements = 0
    for p in glyphLayout(text, glyphs, size: size, lineHeight: lineHeight, tracking: tracking, justify: justify) {
      let m = CGAffineTransform(a: CGFloat(scale), b: 0, c: 0, d: CGFloat(scale), tx: CGFloat(p.x), ty: CGFloat(p.y))
      for shape in p.glyph.shapes {
        shape.add(to: outline, transform: m)
        elements += shape.v.count + 1
      }
    }
    try budget(from: 0, to: 0, elements: elements, path: path)
    let holder = CALayer()
    holder.name = "glyphs"
    var layers: [CAShapeLayer] = []
    if let fill {
      let l = CAShapeLayer()
      l.path = outline
      l.fillColor = fill
      l.strokeColor = nil
      layers.append(l)
    }
    if let stroke {
      let l = CAShapeLayer()
      l.path = outline
      l.fillColor = nil
      l.strokeColor = stroke
      l.lineWidth = CGFloat(strokeWidth)
      l.lineJoin = .miter
      if strokeOverFill { layers.append(l) } else { layers.insert(l, at: 0) }
    }
    try madeShapeLayers(layers.count + 1, path)
    for l in layers { holder.addSublayer(l) }
    return holder
  }

  /// A colour's red, green, blue and alpha (black when it has fewer).
  func rgba(_ c: CGColor) -> [Double] {
    let v = (c.components ?? []).map { Double($0) }
    return v.count >= 4 ? v : [0, 0, 0, 1]
  }

  /// Where each character's glyph goes: its line's baseline origin x, y
  /// (as `glyphText` lays lines out) and its advance, in reading order.
  func glyphLayout(
    _ text: String, _ glyphs: [Character: Glyph], size: Double, lineHeight: Double, tracking: Double, justify: Int
  ) -> [(glyph: Glyph, x: Double, y: Double, width: Double)] {
    let scale = size / 100
    let track = tracking / 1000 * size
    var out: [(glyph: Glyph, x: Double, y: Double, width: Double)] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var width = 0.0
      for c in line { width += (glyphs[c]?.width ?? 0) * scale + track }
      if !line.isEmpty { width -= track }
      var x = justify == 1 ? -width : justify == 2 ? -width / 2 : 0
      let y = Double(index) * lineHeight
      for c in line {
        guard let g = glyphs[c] else { continue }
        out.append((g, x, y, g.width * scale))
        x += g.width * scale + track
      }
    }
    return out
  }

  /// Glyph text with animators: each character a layer at its baseline
  /// centre (After Effects' anchor point grouping by character), moved,
  /// scaled, turned, faded and recoloured by each animator's values times
  /// its selector's influence on it (lottie-web's order: scale, rotation,
  /// position), sampled per frame when anything in it is animated.
  func animatedGlyphText(
    _ text: String, _ glyphs: [Character: Glyph], size: Double, lineHeight: Double, tracking: Double,
    justify: Int, fill: CGColor, stroke: CGColor?, strokeWidth: Double, strokeOverFill: Bool,
    animators: [TextAnimator], _ timeline: Timeline, onPath: TextPath? = nil, path: String
  ) throws -> CALayer {
    var placed = glyphLayout(text, glyphs, size: size, lineHeight: lineHeight, tracking: tracking, justify: justify)
    // On a path: each character's centre at its distance along the path
    // (after the first margin; right or centred text from the end less the
    // last margin or the middle), turned to the path's direction there.
    var turns = [Double](repeating: 0, count: placed.count)
    if let onPath {
      if text.contains("\n") { report("text on a path of several lines (all on the path)", onPath.node.path) }
      let lineWidth = (placed.map { $0.x + $0.width }.max() ?? 0) - (placed.map(\.x).min() ?? 0)
      let left = placed.map(\.x).min() ?? 0
      let length = onPath.length
      let origin: Double
      switch justify {
      case 1: origin = length - onPath.lastMargin - lineWidth
      case 2: origin = onPath.firstMargin + (length - onPath.firstMargin - onPath.lastMargin - lineWidth) / 2
      default: origin = onPath.firstMargin
      }
      for k in placed.indices {
        let along = origin + (placed[k].x - left) + placed[k].width / 2
        let (point, angle) = onPath.point(at: along)
        placed[k].x = point.x - placed[k].width / 2
        placed[k].y = point.y
        turns[k] = onPath.perpendicular ? angle : 0
      }
    }
    let scale = size / 100
    let holder = CALayer()
    holder.name = "glyphs"
    try madeShapeLayers(placed.count * 3 + 1, path)
    let baseFill = rgba(fill)
    let props = animators.flatMap(\.properties)
    let first = props.map(\.firstFrame).min() ?? 0
    var elements = 0
    for (index, p) in placed.enumerated() {
      let outline = CGMutablePath()
      let m = CGAffineTransform(a: CGFloat(scale), b: 0, c: 0, d: CGFloat(scale), tx: CGFloat(-p.width / 2), ty: 0)
      for shape in p.glyph.shapes {
        shape.add(to: outline, transform: m)
        elements += shape.v.count + 1
      }
      let character = CALayer()
      character.position = CGPoint(x: p.x + p.width / 2, y: p.y)
      let fillLayer = CAShapeLayer()
      fillLayer.path = outline
      var layers: [CAShapeLayer] = [fillLayer]
      if let stroke {
        let l = CAShapeLayer()
        l.path = outline
        l.fillColor = nil
        l.strokeColor = stroke
        l.lineWidth = CGFloat(strokeWidth)
        l.lineJoin = .miter
        if strokeOverFill { layers.append(l) } else { layers.insert(l, at: 0) }
      }
      for l in layers { character.addSublayer(l) }
      let count = placed.count
      func transform(_ f: Double) -> CATransform3D {
        var sx = 1.0
        var sy = 1.0
        var r = 0.0
        var tx = 0.0
        var ty = 0.0
        for a in animators {
          let w = a.influences(index, of: count, at: f)
          guard w.contains(where: { $0 != 0 }) else { continue }
          if let s = a.scale?.value(at: f) {
            sx *= 1 + (s[0] / 100 - 1) * w[0]
            sy *= 1 + ((s.count > 1 ? s[1] : s[0]) / 100 - 1) * w[1]
          }
          if let rotation = a.rotation { r += rotation.scalar(at: f) * w[2] }
          if let position = a.position?.value(at: f) {
            tx += position[0] * w[0]
            ty += (position.count > 1 ? position[1] : 0) * w[1]
          }
        }
        var t = CATransform3DMakeScale(CGFloat(sx), CGFloat(sy), 1)
        t = CATransform3DConcat(t, CATransform3DMakeRotation(CGFloat(r * .pi / 180 + turns[index]), 0, 0, 1))
        return CATransform3DConcat(t, CATransform3DMakeTranslation(CGFloat(tx), CGFloat(ty), 0))
      }
      func opacity(_ f: Double) -> Float {
        var o = 1.0
        for a in animators {
          guard let op = a.opacity else { continue }
          o *= 1 + (min(max(op.scalar(at: f) / 100, 0), 1) - 1) * min(max(a.influence(index, of: count, at: f), 0), 1)
        }
        return Float(min(max(o, 0), 1))
      }
      func fillColor(_ f: Double) -> CGColor {
        var c = baseFill
        for a in animators {
          guard let fc = a.fillColor?.value(at: f) else { continue }
          let target = rgba(color(fc))
          let w = min(max(a.influence(index, of: count, at: f), 0), 1)
          for i in 0..<min(3, c.count, target.count) { c[i] += (target[i] - c[i]) * w }
        }
        return color(c)
      }
      character.transform = transform(first)
      character.opacity = opacity(first)
      fillLayer.fillColor = fillColor(first)
      if let (a, b) = range(props) {
        try budget(from: a, to: b, path: path)
        try budget(from: a, to: b, path: path)
        try budget(from: a, to: b, path: path)
        character.add(
          Animations.sampled(
            keyPath: LayerKey.transform.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false) { transform($0) }, forKey: LayerKey.transform.rawValue)
        character.add(
          Animations.sampled(
            keyPath: LayerKey.opacity.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false) { opacity($0) }, forKey: LayerKey.opacity.rawValue)
        fillLayer.add(
          Animations.sampled(
            keyPath: LayerKey.fillColor.rawValue, from: a, to: b, timeline: timeline, limit: limits.maxSampledFrames,
            discrete: false) { fillColor($0) }, forKey: LayerKey.fillColor.rawValue)
      }
      holder.addSublayer(character)
    }
    try budget(from: 0, to: 0, elements: elements, path: path)
    return holder
  }

  /// The font a Lottie font name stands for (`fonts.list` gives family
  /// and style): the family, or for another style than regular a Pango
  /// font description, "Family, Bold Italic", whose weight and slant
  /// Pango and fontconfig find (After Effects' "SemiBold", "ExtraBold",
  /// "ExtraLight" in Pango's words). Font files and URLs (`fPath`) are
  /// never fetched.
  func fontFamily(_ name: String, path: String) -> String? {
    if let f = decoder.fonts.list[name] {
      let style = f.style.lowercased()
      if ["", "regular", "book", "roman", "normal"].contains(style) { return f.family }
      var words = f.style
      for (ae, pango) in [
        ("SemiBold", "Semi-Bold"), ("Semibold", "Semi-Bold"), ("DemiBold", "Semi-Bold"),
        ("ExtraBold", "Ultra-Bold"), ("UltraBold", "Ultra-Bold"), ("ExtraLight", "Ultra-Light"),
        ("UltraLight", "Ultra-Light"),
      ] {
        words = words.replacingOccurrences(of: ae, with: pango)
      }
      return "\(f.family), \(words)"
    }
    return name.isEmpty ? nil : name
  }
}
