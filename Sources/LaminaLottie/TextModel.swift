import Foundation
import Lamina

/// One text document (`t.d.k[i].s`): its text and how it is set.
struct TextDocument {
  /// The JSON path of `s`.
  var path: String
  /// The text, its line breaks (`\r`, `\r\n`, ETX) as `\n`, upper-cased
  /// when all caps (`ca` 1).
  var text: String
  /// `s`: font size in points.
  var size: Double
  /// `j`: 0 left, 1 right, 2 centred.
  var justify: Int
  /// `f`: the font's name in `fonts.list`.
  var fontName: String
  /// `lh` (default 1.2 × size).
  var lineHeight: Double
  /// `tr`: thousandths of an em.
  var tracking: Double
  /// `fc`: the fill colour's components (0–1, or 0–255), nil when absent.
  var fill: [Double]?
  /// `sw`.
  var strokeWidth: Double
  /// `sc`: the stroke colour's components, nil unless the stroke width is positive.
  var stroke: [Double]?
  /// `of`: the stroke over the fill (the default) or under it.
  var strokeOverFill: Bool
}

/// A text layer's documents over time (`t.d.k`, or what its `sourceText`
/// expression gave): each shown from its keyframe's frame on.
struct TextKeyframe {
  /// The keyframe's `t` (the first document shows from the start).
  var frame: Double
  var document: TextDocument
  /// The keyframe's JSON path (`t.d.k[i]`).
  var path: String
}

/// Text on a path (`t.p`): the mask path the text follows, its margins and
/// options.
struct TextPathModel {
  /// The mask's path (`masksProperties[m].pt`).
  var shape: Property
  /// `f`, `l`: the first and last margins.
  var firstMargin: Property
  var lastMargin: Property
  /// `r`: the path reversed.
  var reversed: Bool
  /// `p`: characters perpendicular to the path (the default).
  var perpendicular: Bool
  /// `t.p` itself, for reports.
  var node: Node
}

extension Decoder {
  /// A text layer's documents (`docs`: the keyframes of `t.d.k`, `k`),
  /// within `maxKeyframes`, their characters together within
  /// `maxTextLength`, their frames finite and in range.
  func textKeyframes(_ docs: [Node], of k: Node) throws -> [TextKeyframe] {
    try limit(k, "keyframes of one property", docs.count, limits.maxKeyframes, "maxKeyframes")
    // The characters of all the layer's documents count against one budget.
    var characters = 0
    for doc in docs {
      characters += (try doc.child("s")?.string("t") ?? "").unicodeScalars.count
      try limit(
        doc.child("s")?.child("t") ?? doc, "characters of one text layer", characters,
        limits.maxTextLength, "maxTextLength")
    }
    var out: [TextKeyframe] = []
    for doc in docs {
      let f = try doc.number("t", default: 0)
      guard f.isFinite, abs(f) <= Limits.maxMagnitude else {
        throw doc.invalid("keyframe time \(f) is out of range")
      }
      out.append(
        TextKeyframe(
          frame: f, document: try textDocument(try doc.required("s")), path: doc.path))
    }
    return out
  }

  /// Text on a path (`t.p` with a mask index `m`) of a layer whose masks
  /// are `masks`; nil when there is none, or (reported) when its mask is
  /// missing.
  func textPath(_ p: Node?, masks: Node?) throws -> TextPathModel? {
    guard let p, p.isObject, p.has("m") else { return nil }
    let index = try p.int("m", default: 0)
    let list = try masks?.array() ?? []
    guard index >= 0, index < list.count else {
      report("text on a path without its mask", p.path + ".m")
      return nil
    }
    return TextPathModel(
      shape: try pathProperty(try list[index].required("pt")),
      firstMargin: try property(p.child("f"), [0]), lastMargin: try property(p.child("l"), [0]),
      reversed: p.bool("r"), perpendicular: p.has("p") ? p.bool("p") : true, node: p)
  }

  /// A text document (`s`), its characters within `maxTextLength`.
  func textDocument(_ s: Node) throws -> TextDocument {
    var text = try s.string("t") ?? ""
    try limit(
      s.child("t") ?? s, "characters of one text layer", text.unicodeScalars.count,
      limits.maxTextLength, "maxTextLength")
    let size = try s.number("s", default: 12)
    guard size.isFinite, size >= 0, size <= Double(Limits.maxFontSize) else {
      throw (s.child("s") ?? s).invalid("font size \(size) is out of range")
    }
    text = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
      of: "\r", with: "\n"
    )
    .replacingOccurrences(of: "\u{3}", with: "\n")
    if try s.int("ca", default: 0) == 1 { text = text.uppercased() }
    let justify = try s.int("j", default: 0)
    let fontName = try s.string("f") ?? ""
    let lineHeight = try s.number("lh", default: size * 1.2)
    let tracking = try s.number("tr", default: 0)
    guard lineHeight.isFinite, abs(lineHeight) <= Limits.maxMagnitude, tracking.isFinite,
      abs(tracking) <= Limits.maxMagnitude
    else { throw s.invalid("line height or tracking is out of range") }
    let fill = try s.child("fc").map { try $0.numbers() }
    let strokeWidth = try s.number("sw", default: 0)
    let stroke =
      strokeWidth > 0 && strokeWidth.isFinite ? try s.child("sc").map { try $0.numbers() } : nil
    return TextDocument(
      path: s.path, text: text, size: size, justify: justify, fontName: fontName,
      lineHeight: lineHeight, tracking: tracking, fill: fill, strokeWidth: strokeWidth,
      stroke: stroke,
      strokeOverFill: s.has("of") ? s.bool("of") : true)
  }

  /// A text layer's animators (`t.a`): each with a range selector (`s`)
  /// and its position, scale, rotation, opacity and fill colour (`a`);
  /// other selectors and properties reported.
  func textAnimators(_ node: Node?) throws -> (path: String, list: [TextAnimator])? {
    guard let node, let items = node.items, !items.isEmpty else { return nil }
    var list: [TextAnimator] = []
    for item in items where item.isObject {
      let sel = item.child("s")
      // An expression selector (`t` 1, its expression its own `x`): the
      // values lamina-expr gave, one per character a frame.
      var perCharacter: Property?
      if let sel, try sel.int("t", default: 0) == 1, case .string? = sel.child("x")?.json {
        perCharacter = try expressionProperty(sel, [0])
      } else if let sel, try sel.int("t", default: 0) != 0 {
        report("text animator selector type (expression or wiggly)", sel.path)
      }
      if let sel {
        for key in ["xe", "ne"]
        where try property(sel.child(key), [0]).keyframes.contains(where: { $0.value[0] != 0 }) {
          report("text selector ease (high and low)", sel.path + "." + key)
        }
      }
      if let sel, try sel.int("sh", default: 1) > 4 {
        report("text selector shape round or smooth (drawn square)", sel.path + ".sh")
      }
      if let sel, try sel.int("b", default: 1) != 1 {
        report("text selector based on words or lines (characters used)", sel.path + ".b")
      }
      let a = item.child("a")
      for key in ["a", "sk", "sa", "sc", "sw", "t", "fh", "fs", "fb", "rx", "ry"]
      where a?.has(key) == true {
        report("text animator property '\(key)'", (a?.path ?? item.path) + "." + key)
      }
      list.append(
        TextAnimator(
          start: try property(sel?.child("s"), [0]), end: try property(sel?.child("e"), [100]),
          offset: try property(sel?.child("o"), [0]), amount: try property(sel?.child("a"), [100]),
          byIndex: try sel?.int("r", default: 1) == 2, shape: try sel?.int("sh", default: 1) ?? 1,
          position: try a?.child("p").map { try property($0, [0, 0, 0]) },
          scale: try a?.child("s").map { try property($0, [100, 100, 100]) },
          rotation: try a?.child("r").map { try property($0, [0]) },
          opacity: try a?.child("o").map { try property($0, [100]) },
          fillColor: try a?.child("fc").map { try property($0, [0, 0, 0, 1]) },
          perCharacter: perCharacter))
    }
    return list.isEmpty ? nil : (node.path, list)
  }
}
