import Foundation
import Lamina

/// A glyph of the document's `chars`: its advance and outline at size 100.
struct Glyph {
  var width: Double
  var shapes: [BezierShape]
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
    let docs = try k.array()
    guard !docs.isEmpty else { return nil }
    try limit(k, "keyframes of one property", docs.count, limits.maxKeyframes, "maxKeyframes")
    // The characters of all the layer's documents count against one budget.
    var characters = 0
    for doc in docs {
      characters += (try doc.child("s")?.string("t") ?? "").unicodeScalars.count
      try limit(
        doc.child("s")?.child("t") ?? doc, "characters of one text layer", characters, limits.maxTextLength,
        "maxTextLength")
    }
    if let a = t.child("a"), let list = a.items, !list.isEmpty { report("text animator", a.path) }
    if let p = t.child("p"), p.isObject, p.has("m") { report("text on a path", p.path) }
    if docs.count == 1 { return try textDocument(try docs[0].required("s")) }
    // Text document keyframes: each document visible until the next one's frame.
    let holder = CALayer()
    holder.name = "text documents"
    var times: [Double] = []
    for doc in docs {
      let f = try doc.number("t", default: 0)
      guard f.isFinite, abs(f) <= Limits.maxMagnitude else { throw doc.invalid("keyframe time \(f) is out of range") }
      times.append(f)
    }
    for (i, doc) in docs.enumerated() {
      guard let content = try textDocument(try doc.required("s")) else { continue }
      let from = i == 0 ? -Limits.maxMagnitude : times[i]
      let to = i + 1 < times.count ? times[i + 1] : Limits.maxMagnitude
      let shown = CALayer()
      shown.addSublayer(content)
      try applyVisibility(shown, ip: from, op: to, compFrameRate: frameRate, timeline: timeline)
      holder.addSublayer(shown)
    }
    return holder
  }

  /// One text document (`s`): glyph shapes when `chars` has them all, else a `CATextLayer`.
  func textDocument(_ s: Node) throws -> CALayer? {
    var text = try s.string("t") ?? ""
    try limit(s.child("t") ?? s, "characters of one text layer", text.unicodeScalars.count, limits.maxTextLength, "maxTextLength")
    let size = try s.number("s", default: 12)
    guard size.isFinite, size >= 0, size <= Double(Limits.maxFontSize) else {
      throw (s.child("s") ?? s).invalid("font size \(size) is out of range")
    }
    text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .replacingOccurrences(of: "\u{3}", with: "\n")
    if try s.int("ca", default: 0) == 1 { text = text.uppercased() }
    let justify = try s.int("j", default: 0)
    let fontName = try s.string("f") ?? ""
    let lineHeight = try s.number("lh", default: size * 1.2)
    let tracking = try s.number("tr", default: 0)
    guard lineHeight.isFinite, abs(lineHeight) <= Limits.maxMagnitude, tracking.isFinite, abs(tracking) <= Limits.maxMagnitude
    else { throw s.invalid("line height or tracking is out of range") }
    let fill = try s.child("fc").map { color(try $0.numbers()) }
    let strokeWidth = try s.number("sw", default: 0)
    let stroke = strokeWidth > 0 && strokeWidth.isFinite ? try s.child("sc").map { color(try $0.numbers()) } : nil
    if let glyphs = try glyphs(for: text, font: fontName, path: s.path) {
      return try glyphText(
        text, glyphs, size: size, lineHeight: lineHeight, tracking: tracking, justify: justify, fill: fill,
        stroke: stroke, strokeWidth: min(strokeWidth, 1e4), strokeOverFill: s.has("of") ? s.bool("of") : true,
        path: s.path)
    }
    if stroke != nil { report("text stroke", s.path + ".sc") }
    if tracking != 0 { report("text tracking", s.path + ".tr") }
    let layer = CATextLayer()
    layer.string = text
    layer.fontSize = CGFloat(size)
    layer.font = fontFamily(fontName, path: s.path + ".f")
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
    guard !charsByKey.isEmpty || !charNodes.isEmpty else { return nil }
    if charsByKey.isEmpty { try indexChars() }
    let family = fonts[font]?.family ?? font
    let style = fonts[font]?.style ?? ""
    var out: [Character: Glyph] = [:]
    for c in Set(text) where c != "\n" {
      let key = String(c)
      let node = charsByKey[[key, family, style]] ?? charsByKey[[key, family, ""]] ?? charsByKey[[key, "", ""]]
      guard let node else {
        if c == " " || c == "\t" || c == "\u{a0}" {
          out[c] = Glyph(width: 100.0 / 3, shapes: [])
          continue
        }
        report("glyph shapes (chars) without '\(c)' (a font drawn instead)", path)
        return nil
      }
      out[c] = try glyph(node)
    }
    return out
  }

  /// Indexes `chars` by character, family and style (and by character alone).
  func indexChars() throws {
    for c in charNodes {
      guard c.isObject, let ch = try c.string("ch") else { continue }
      let family = try c.string("fFamily") ?? ""
      let style = try c.string("style") ?? ""
      for key in [[ch, family, style], [ch, family, ""], [ch, "", ""]] where charsByKey[key] == nil {
        charsByKey[key] = c
      }
    }
  }

  /// A glyph's advance (`w`) and outline: the paths of `data.shapes`, in groups, at size 100.
  func glyph(_ c: Node) throws -> Glyph {
    if let g = glyphCache[c.path] { return g }
    let w = try c.number("w", default: 0)
    guard w.isFinite, abs(w) <= Limits.maxMagnitude else { throw (c.child("w") ?? c).invalid("glyph width \(w) is out of range") }
    var shapes: [BezierShape] = []
    func walk(_ items: [Node], depth: Int) throws {
      guard depth < 16 else { return }
      for item in items where item.isObject {
        switch try item.string("ty") ?? "" {
        case "gr": try walk(try item.child("it")?.array() ?? [], depth: depth + 1)
        case "sh":
          let p = try pathProperty(try item.required("ks"))
          shapes.append(BezierShape(vector: p.first, closed: p.closed))
        default: break
        }
      }
    }
    try walk(try c.child("data")?.child("shapes")?.array() ?? [], depth: 0)
    let g = Glyph(width: w, shapes: shapes)
    glyphCache[c.path] = g
    return g
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
    let track = tracking / 1000 * size
    let outline = CGMutablePath()
    var elements = 0
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var width = 0.0
      for c in line { width += (glyphs[c]?.width ?? 0) * scale + track }
      if !line.isEmpty { width -= track }
      var x = justify == 1 ? -width : justify == 2 ? -width / 2 : 0
      let y = Double(index) * lineHeight
      for c in line {
        guard let g = glyphs[c] else { continue }
        let m = CGAffineTransform(a: CGFloat(scale), b: 0, c: 0, d: CGFloat(scale), tx: CGFloat(x), ty: CGFloat(y))
        for shape in g.shapes {
          shape.add(to: outline, transform: m)
          elements += shape.v.count + 1
        }
        x += g.width * scale + track
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

  /// The font a Lottie font name stands for (`fonts.list` gives family
  /// and style): the family, or for another style than regular a Pango
  /// font description, "Family, Bold Italic", whose weight and slant
  /// Pango and fontconfig find (After Effects' "SemiBold", "ExtraBold",
  /// "ExtraLight" in Pango's words). Font files and URLs (`fPath`) are
  /// never fetched.
  func fontFamily(_ name: String, path: String) -> String? {
    if let f = fonts[name] {
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
