import Foundation
import Lamina

/// The document's fonts (`fonts.list`) and glyph shapes (`chars`).
struct FontTable {
  /// Family and style of each font of `fonts.list`, by its name (`fName`).
  var list: [String: (family: String, style: String)] = [:]
  /// The glyph shapes (`chars`), indexed on first use by character,
  /// family and style; the glyphs decoded, by JSON path.
  var chars: [Node] = []
  var charsByKey: [[String]: Node] = [:]
  var glyphs: [String: Glyph] = [:]
}

extension Decoder {
  /// Reads `fonts.list` (a font file or URL is reported, never fetched) and `chars`.
  func decodeFonts(_ root: Node) throws {
    if let list = root.child("fonts")?.child("list") {
      for f in try list.array() {
        guard let fName = try f.string("fName") else { continue }
        fonts.list[fName] = (try f.string("fFamily") ?? fName, try f.string("fStyle") ?? "")
        if let p = try f.string("fPath"), !p.isEmpty {
          report("font file or URL (never fetched)", f.path + ".fPath")
        }
      }
    }
    if let chars = root.child("chars") { fonts.chars = try chars.array() }
  }

  /// Indexes `chars` by character, family and style (and by character alone).
  func indexChars() throws {
    for c in fonts.chars {
      guard c.isObject, let ch = try c.string("ch") else { continue }
      let family = try c.string("fFamily") ?? ""
      let style = try c.string("style") ?? ""
      for key in [[ch, family, style], [ch, family, ""], [ch, "", ""]]
      where fonts.charsByKey[key] == nil {
        fonts.charsByKey[key] = c
      }
    }
  }

  /// A glyph's advance (`w`) and outline: the paths of `data.shapes`, in groups, at size 100.
  func glyph(_ c: Node) throws -> Glyph {
    if let g = fonts.glyphs[c.path] { return g }
    let w = try c.number("w", default: 0)
    guard w.isFinite, abs(w) <= Limits.maxMagnitude else {
      throw (c.child("w") ?? c).invalid("glyph width \(w) is out of range")
    }
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
    fonts.glyphs[c.path] = g
    return g
  }
}
