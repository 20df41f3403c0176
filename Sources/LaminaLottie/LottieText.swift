import Foundation
import Lamina

extension Builder {
  /// A text layer's first text document as a `CATextLayer` (static text:
  /// later keyframes of the document, animators and paths are reported).
  func textLayer(_ n: Node, _ timeline: Timeline) throws -> CALayer? {
    let t = try n.required("t")
    let d = try t.required("d")
    let k = try d.required("k")
    let docs = try k.array()
    guard let firstDoc = docs.first else { return nil }
    if docs.count > 1 { report("text document keyframes (first used)", k.path) }
    if let a = t.child("a"), let list = a.items, !list.isEmpty { report("text animator", a.path) }
    if let p = t.child("p"), p.isObject, p.has("m") { report("text on a path", p.path) }
    let s = try firstDoc.required("s")
    let text = try s.string("t") ?? ""
    try limit(s.child("t") ?? s, "characters of one text layer", text.unicodeScalars.count, limits.maxTextLength, "maxTextLength")
    let size = try s.number("s", default: 12)
    guard size.isFinite, size >= 0, size <= Double(Limits.maxFontSize) else {
      throw (s.child("s") ?? s).invalid("font size \(size) is out of range")
    }
    let justify = try s.int("j", default: 0)
    let fontName = try s.string("f") ?? ""
    let layer = CATextLayer()
    layer.string = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
      .replacingOccurrences(of: "\u{3}", with: "\n")
    layer.fontSize = CGFloat(size)
    layer.font = fontFamily(fontName, path: s.path + ".f")
    layer.foregroundColor = color(try s.child("fc")?.numbers() ?? [0, 0, 0])
    if s.has("sc"), let sw = try? s.number("sw", default: 0), sw > 0 { report("text stroke", s.path + ".sc") }
    if let tr = try? s.number("tr", default: 0), tr != 0 { report("text tracking", s.path + ".tr") }
    let lines = Double(max(1, (layer.string as? String)?.split(separator: "\n", omittingEmptySubsequences: false).count ?? 1))
    let lineHeight = try s.number("lh", default: size * 1.2)
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

  /// The font family a Lottie font name stands for (`fonts.list` gives
  /// family and style); fontconfig resolves the family. Font files and URLs
  /// (`fPath`) are never fetched.
  func fontFamily(_ name: String, path: String) -> String? {
    if let f = fonts[name] {
      let style = f.style.lowercased()
      if !["", "regular", "book", "roman", "normal", "medium"].contains(style) {
        report("font style '\(f.style)' (the text layer takes a family only)", path)
      }
      return f.family
    }
    return name.isEmpty ? nil : name
  }
}
