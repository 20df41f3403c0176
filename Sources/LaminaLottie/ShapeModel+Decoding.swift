import Foundation
import Lamina

/// Decoding a shape layer's `shapes` into the typed `ShapeItem` model:
/// one decoder per kind (`ty`), found through `shapeDecoders`. Errors name
/// the file and JSON path as before; the limits on what one item asks for
/// (keyframes, vertices, gradient stops) are checked here, before any work.
extension Decoder {
  typealias ShapeDecoder = (Decoder, Node) throws -> ShapeItem

  /// The decoder of each shape kind, by `ty`.
  static let shapeDecoders: [String: ShapeDecoder] = [
    "gr": { b, n in .group(try b.shapeGroupModel(n)) },
    "sh": { b, n in .geometry(.path(try b.pathProperty(try n.required("ks")))) },
    "rc": { b, n in
      .geometry(
        .rect(
          position: try b.property(n.child("p"), [0, 0]),
          size: try b.property(n.child("s"), [0, 0]),
          roundness: try b.property(n.child("r"), [0]), reversed: try n.int("d", default: 1) == 3))
    },
    "el": { b, n in
      .geometry(
        .ellipse(
          position: try b.property(n.child("p"), [0, 0]),
          size: try b.property(n.child("s"), [0, 0]),
          reversed: try n.int("d", default: 1) == 3))
    },
    "sr": { b, n in try b.polystar(n) },
    "fl": { b, n in .style(try b.style(n, "fl")) },
    "st": { b, n in .style(try b.style(n, "st")) },
    "gf": { b, n in .style(try b.style(n, "gf")) },
    "gs": { b, n in .style(try b.style(n, "gs")) },
    "tm": { b, n in
      .modifier(
        Modifier(
          .trim(
            start: try b.property(n.child("s"), [0]), end: try b.property(n.child("e"), [100]),
            offset: try b.property(n.child("o"), [0]), individually: try n.int("m", default: 1) == 2
          )))
    },
    "rd": { b, n in .modifier(Modifier(.round(try b.property(n.child("r"), [0])))) },
    "pb": { b, n in .modifier(Modifier(.puckerBloat(try b.property(n.child("a"), [0])))) },
    "zz": { b, n in
      .modifier(
        Modifier(
          .zigZag(
            size: try b.property(n.child("s"), [0]), ridges: try b.property(n.child("r"), [0]),
            smooth: try b.property(n.child("pt"), [1]).first[0] == 2)))
    },
    "op": { b, n in
      .modifier(
        Modifier(
          .offset(
            amount: try b.property(n.child("a"), [0]), join: try n.int("lj", default: 1),
            miterLimit: try b.property(n.child("ml"), [4]))))
    },
    "rp": { b, n in .repeater(try b.repeater(n)) },
    // A group's transform: its group reads the last one.
    "tr": { _, _ in .inert },
    "mm": { b, n in
      let mode = try n.int("mm", default: 1)
      if (2...5).contains(mode) { return .merge(mode: mode, path: n.path) }
      if mode != 1 { b.report("merge paths mode \(mode) (paths kept as they are)", n.path) }
      return .inert
    },
  ]

  /// The items of a shape list (a layer's `shapes`, a group's `it`), each
  /// decoded once; what is left out goes into the list's notes.
  func shapeList(_ node: Node, transform: ((Node) throws -> Void)? = nil) throws -> ShapeList {
    let nodes = try node.array()
    var notes: [LottieUnsupported] = []
    let items = try collectingReports(into: &notes) { () throws -> [ShapeItem] in
      try transform?(node)
      var items: [ShapeItem] = []
      items.reserveCapacity(nodes.count)
      for n in nodes {
        guard n.isObject else { throw n.wrongType("a shape object") }
        if n.bool("hd") {
          items.append(.inert)
          continue
        }
        let ty = try n.string("ty") ?? ""
        if let decode = Self.shapeDecoders[ty] {
          items.append(try decode(self, n))
        } else {
          report("shape '\(ty)'", n.path)
          items.append(.inert)
        }
      }
      return items
    }
    return ShapeList(items: items, notes: notes)
  }

  /// A group (`gr`): its transform (the last `tr` among its items) and items.
  func shapeGroupModel(_ n: Node) throws -> ShapeGroup {
    let it = try n.required("it")
    var transform: (spec: TransformSpec, path: String)?
    let contents = try shapeList(it) { it in
      if let tr = try it.array().last(where: { (try? $0.string("ty")) == "tr" }) {
        transform = (try self.transform(tr, layer3D: false), tr.path)
      }
    }
    return ShapeGroup(
      name: (try? n.string("nm")) ?? nil, path: n.path, transform: transform, contents: contents)
  }

  /// A polystar (`sr`): its points within `maxPathVertices` before any path is made.
  func polystar(_ n: Node) throws -> ShapeItem {
    let points = try property(n.child("pt"), [5])
    for k in points.keyframes where k.value[0] > Double(limits.maxPathVertices / 2) {
      try limit(
        n.child("pt") ?? n, "vertices of one path", Int(saturating: min(k.value[0] * 2, 1e9)),
        limits.maxPathVertices, "maxPathVertices")
    }
    return .geometry(
      .star(
        star: try n.int("sy", default: 1) == 1, points: points,
        position: try property(n.child("p"), [0, 0]), rotation: try property(n.child("r"), [0]),
        outer: try property(n.child("or"), [0]), inner: try property(n.child("ir"), [0]),
        outerRoundness: try property(n.child("os"), [0]),
        innerRoundness: try property(n.child("is"), [0]), reversed: try n.int("d", default: 1) == 3,
        maxVertices: limits.maxPathVertices))
  }

  /// A repeater (`rp`). Its copies multiplied through nesting are checked
  /// against `maxRepeaterCopies` when its list is built (nesting is the builder's).
  func repeater(_ n: Node) throws -> Repeater {
    let copies = try property(n.child("c"), [1])
    let c = Int(
      saturating: min(max(copies.keyframes.map { $0.value[0] }.max() ?? 1, 0), 1e9), rounding: .up)
    let tr = n.child("tr")
    return Repeater(
      path: n.path, copies: copies, maxCopies: c, copiesPath: (n.child("c") ?? n).path,
      offset: try property(n.child("o"), [0]), transform: try transform(tr, layer3D: false),
      startOpacity: try property(tr?.child("so"), [100]),
      endOpacity: try property(tr?.child("eo"), [100]),
      above: try n.int("m", default: 1) == 1)
  }

  func style(_ n: Node, _ ty: String) throws -> Style {
    let kind: Style.Kind =
      ty == "fl" ? .fill : ty == "st" ? .stroke : ty == "gf" ? .gradientFill : .gradientStroke
    var s = Style(kind: kind, path: n.path)
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

}
