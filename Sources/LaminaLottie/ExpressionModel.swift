import Foundation
import LaminaScene

/// What a document's expressions can see, decoded before any layer is
/// built: its compositions, their layers (name, index, parent, in and out
/// points, transform and effect properties) and every property that has an
/// expression, each a keyframed `Property` with its JSON path. The
/// expressions run over this model in one child process (`ExpressionRunner`);
/// the builder then reads their values by path.
struct ExpressionModel {
  struct Composition {
    var name: String
    var width: Double
    var height: Double
    var inPoint: Double
    var outPoint: Double
    var layers: [Layer]
    /// Its markers (`thisComp.marker`): frame, duration in frames and
    /// comment of each. A document keeps only its own composition's.
    var markers: [(frame: Double, duration: Double, comment: String)] = []
  }

  struct Layer {
    var name: String
    var index: Int
    var parent: Int?
    var inPoint: Double
    var outPoint: Double
    var startTime: Double
    /// Its kind, the layer's `ty` (0 precomposition, 1 solid, 2 image, 3
    /// null, 4 shape, 5 text): what `sourceRectAtTime` measures.
    var kind: Int = 3
    /// Its source's size: a precomposition's `w` × `h`, a solid's, else the
    /// composition's.
    var width: Double = 0
    var height: Double = 0
    /// The layer's properties as After Effects groups them: contents
    /// (index 2), masks (3), effects (4) and transform (6), each group and
    /// property with its name, match name and index.
    var tree: [Group]
  }

  /// A property group (a layer's transform, a shape group, its contents,
  /// an effect) or, with `property`, one property: an id into
  /// `properties`, -1 for one that is not numbers (a path).
  struct Group {
    var name: String
    var matchName: String
    var index: Int
    var children: [Group] = []
    var property: Int?
    /// A shape item's kind, its `ty` (`gr`, `sh`, `rc`, `st`, …), for
    /// `sourceRectAtTime`.
    var type: String? = nil
    /// A shape item's fields that are not properties, for
    /// `sourceRectAtTime`: its direction `d` (rect, ellipse, star), star
    /// type `sy`, a trim's mode `m`.
    var options: [(key: String, value: Int)] = []

    var json: String {
      var s =
        "{\"n\":\(ExpressionModel.string(name)),\"m\":\(ExpressionModel.string(matchName)),\"i\":\(index)"
      if let type { s += ",\"t\":\(ExpressionModel.string(type))" }
      if !options.isEmpty {
        s += ",\"o\":{" + options.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
      }
      if let property { return s + ",\"p\":\(property)}" }
      s += ",\"c\":[" + children.map(\.json).joined(separator: ",") + "]}"
      return s
    }
  }

  struct Entry {
    var property: Property
    /// The expression's source, when the property has one.
    var expression: String?
    /// Where it is evaluated: composition and layer (indices into `compositions`).
    var layer: (composition: Int, layer: Int)?
    /// The frames its values are sampled at: `from`, `from + step`, … (`count` of them).
    var from: Double = 0
    var step: Double = 1
    var count: Int = 0
    /// A path: each value its vertices, then in and out tangents (x, y each).
    var isPath = false
    /// A text document (`t.d`): its texts from each keyframe's frame on;
    /// values are UTF-16 code units.
    var texts: [(frame: Double, text: String)]?
    /// A text animator's expression selector (`t.a[i].s` with `t` 1): the
    /// characters it is evaluated for (`textIndex` 1…, `textTotal`), three
    /// values each a frame (its Amount's x, y and z).
    var characters: Int?
  }

  var frameRate: Double
  var compositions: [Composition] = []
  var properties: [Entry] = []
  /// Ids of the properties with an expression, in document order.
  var jobs: [Int] = []

  /// The program `lamina-expr` runs for `jobs`: the expression library,
  /// then the model as one JSON value, in a string the program parses
  /// (`JSON.parse`): as a literal, each of its numbers would be a constant
  /// of the program, and Duktape compiles no function with more than 65,536
  /// ("const limit": lottie-web's `navidad.json`).
  func program(jobs: [Int]) -> String {
    ExpressionLibrary.source + "\n__run(JSON.parse(" + Self.string(data(jobs: jobs)) + "));\n"
  }

  /// The model as one JSON value: compositions, properties and `jobs`.
  func data(jobs: [Int]) -> String {
    var s = ""
    s.reserveCapacity(properties.count * 64)
    s += "{\"fr\":\(Self.number(frameRate)),\"comps\":["
    for (ci, c) in compositions.enumerated() {
      if ci > 0 { s += "," }
      s +=
        "{\"name\":\(Self.string(c.name)),\"w\":\(Self.number(c.width)),\"h\":\(Self.number(c.height))"
      s += ",\"ip\":\(Self.number(c.inPoint)),\"op\":\(Self.number(c.outPoint)),\"markers\":["
      s += c.markers.map {
        "[\(Self.number($0.frame)),\(Self.number($0.duration)),\(Self.string($0.comment))]"
      }.joined(separator: ",")
      s += "],\"layers\":["
      for (li, l) in c.layers.enumerated() {
        if li > 0 { s += "," }
        s +=
          "{\"name\":\(Self.string(l.name)),\"ind\":\(l.index),\"parent\":\(l.parent.map(String.init) ?? "null")"
        s +=
          ",\"ip\":\(Self.number(l.inPoint)),\"op\":\(Self.number(l.outPoint)),\"st\":\(Self.number(l.startTime))"
          + ",\"w\":\(Self.number(l.width)),\"h\":\(Self.number(l.height)),\"ty\":\(l.kind)"
        s += ",\"tree\":[" + l.tree.map(\.json).joined(separator: ",") + "]}"
      }
      s += "]}"
    }
    s += "],\"props\":["
    for (i, e) in properties.enumerated() {
      if i > 0 { s += ",\n" }
      let p = e.property
      s += "{\"path\":\(Self.string(p.path)),\"k\":["
      s += (p.isAnimated ? p.keyframes.map { Self.number($0.t) } : []).joined(separator: ",")
      let (f0, step, values) = Self.samples(p)
      s += "],\"f0\":\(Self.number(f0)),\"s\":\(Self.number(step)),\"v\":["
      s += values.map { "[" + $0.map(Self.number).joined(separator: ",") + "]" }.joined(
        separator: ",")
      s += "],\"x\":" + (e.expression.map(Self.string) ?? "null")
      if e.isPath { s += ",\"shape\":true,\"c\":\(p.closed)" }
      if let texts = e.texts {
        s +=
          ",\"text\":true,\"texts\":["
          + texts.map { "[\(Self.number($0.frame)),\(Self.string($0.text))]" }.joined(
            separator: ",") + "]"
      }
      if let n = e.characters { s += ",\"chars\":\(n)" }
      if let l = e.layer { s += ",\"layer\":[\(l.composition),\(l.layer)]" }
      s += ",\"from\":\(Self.number(e.from)),\"step\":\(Self.number(e.step)),\"n\":\(e.count)}"
    }
    s += "],\"jobs\":[" + jobs.map(String.init).joined(separator: ",") + "]}"
    return s
  }

  /// Sampled keyframed values, one a frame from the first key to the last
  /// (fewer, evenly, past 5,000 frames): expressions read values between
  /// frames linearly from these.
  static func samples(_ p: Property) -> (Double, Double, [[Double]]) {
    guard p.isAnimated else { return (0, 1, [p.first]) }
    let a = p.firstFrame.rounded(.down)
    let b = p.lastFrame.rounded(.up)
    let step = max(1, ((b - a) / 5000).rounded(.up))
    var out: [[Double]] = []
    var f = a
    while f < b + step {
      out.append(p.value(at: f))
      f += step
    }
    return (a, step, out)
  }

  static func number(_ x: Double) -> String {
    guard x.isFinite else { return "0" }
    if x == x.rounded(), abs(x) < 1e15, let whole = Int64(exactly: x) { return String(whole) }
    return "\(x)"
  }

  /// A JSON string (also a JavaScript string literal).
  static func string(_ s: String) -> String {
    var out = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        // Control characters and the two line separators JavaScript
        // does not allow in a string literal.
        if u.value < 0x20 || u.value == 0x2028 || u.value == 0x2029 {
          out += String(format: "\\u%04x", u.value)
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    return out + "\""
  }
}
