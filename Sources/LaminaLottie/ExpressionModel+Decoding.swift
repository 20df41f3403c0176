import Foundation
import Lamina
import LaminaScene

/// Decoding what expressions see: the document's compositions, layers and
/// their property trees with After Effects' names, into an `ExpressionModel`.
extension Builder {
  /// What the document's expressions see (nil when it has none): decoded
  /// and sampled, nothing run.
  func expressionModel(root: Node, inPoint: Double, outPoint: Double) throws -> ExpressionModel? {
    var compositions: [(layers: Node, name: String, w: Double, h: Double, ip: Double, op: Double)] =
      []
    if let layers = root.child("layers") {
      compositions.append((layers, try root.string("nm") ?? "", width, height, inPoint, outPoint))
    }
    // The frames of each composition asset that its uses show: a
    // precomposition layer on [ip, op) of frames its composition shows
    // shows its asset's frames (ip − st) / sr to (op − st) / sr; under a
    // time remapping, any. From the document's frames inwards, one level of
    // nesting a pass.
    var shown: [String: [Double]] = [:]
    var remapped: Set<String> = []
    var assetLayers: [String: Node] = [:]
    var assetSizes: [String: (Double, Double)] = [:]
    for a in try root.child("assets")?.array() ?? [] {
      if let layers = a.child("layers") { assetLayers[Self.text(a, "id")] = layers }
      assetSizes[Self.text(a, "id")] = (
        (try? a.number("w", default: 0)) ?? 0, (try? a.number("h", default: 0)) ?? 0
      )
    }
    func uses(in layers: Node?, showing range: [Double]) {
      for l in layers?.items ?? [] where Self.text(l, "refId") != "" {
        let id = Self.text(l, "refId")
        if l.has("tm") { remapped.insert(id) }
        let sr = (try? l.number("sr", default: 1)) ?? 1
        let st = (try? l.number("st", default: 0)) ?? 0
        let ip = max((try? l.number("ip", default: 0)) ?? 0, range[0])
        let op = min((try? l.number("op", default: 0)) ?? 0, range[1])
        guard ip <= op else { continue }
        let (a, b) = ((ip - st) / (sr == 0 ? 1 : sr), (op - st) / (sr == 0 ? 1 : sr))
        let (lo, hi) = (min(a, b), max(a, b))
        shown[id] = shown[id].map { [min($0[0], lo), max($0[1], hi)] } ?? [lo, hi]
      }
    }
    uses(in: root.child("layers"), showing: [inPoint, outPoint])
    for _ in 0..<limits.maxPrecompDepth {
      let before = shown
      for (id, range) in before {
        uses(
          in: assetLayers[id],
          showing: remapped.contains(id) ? [-Limits.maxMagnitude, Limits.maxMagnitude] : range)
      }
      if shown == before { break }
    }
    for a in try root.child("assets")?.array() ?? [] {
      guard let layers = a.child("layers") else { continue }
      let id = Self.text(a, "id")
      let name = try a.string("nm") ?? a.string("id") ?? ""
      let range =
        remapped.contains(id) ? [-Limits.maxMagnitude, Limits.maxMagnitude] : shown[id] ?? [0, 0]
      let (from, to) = (range[0], range[1])
      compositions.append(
        (layers, name, try a.number("w", default: 0), try a.number("h", default: 0), from, to))
    }
    guard compositions.contains(where: { Self.hasExpression($0.layers.json) }) else { return nil }
    // The compositions expressions can reach: those with expressions, and
    // those an expression names (`comp('Palette')`).
    var sources: [String] = []
    for c in compositions { Self.expressionSources(c.layers.json, into: &sources) }
    let reachable = compositions.filter { c in
      Self.hasExpression(c.layers.json)
        || (!c.name.isEmpty
          && sources.contains { $0.contains("'\(c.name)'") || $0.contains("\"\(c.name)\"") })
    }

    var model = ExpressionModel(frameRate: frameRate)
    var ids: [String: Int] = [:]
    var shownFrames = (0.0, 0.0)
    func add(
      _ node: Node, layer: (Int, Int)?, range: (Double, Double)?, characters: Int? = nil
    ) throws -> Int? {
      if let id = ids[node.path] { return id }
      let code = node.child("x").flatMap { n -> String? in
        guard case .string(let s) = n.json else { return nil }
        return s
      }
      var p: Property
      var isPath = false
      var texts: [(frame: Double, text: String)]?
      if characters != nil {
        // An expression selector's value before its expression: 100 %.
        p = Property(constant: [100], path: node.path)
      } else {
        do {
          p = try keyframedProperty(node, [])
        } catch let error where node.path.hasSuffix(".t.d") {
          // A text document: its keyframes' texts.
          guard let docs = try? node.required("k").array(), !docs.isEmpty else { throw error }
          texts = try docs.map { doc in
            (try doc.number("t", default: 0), try doc.child("s")?.string("t") ?? "")
          }
          p = Property(constant: [0], path: node.path)
        } catch {
          // A path (a bezier shape: vertices, then in and out tangents), or
          // something else (text).
          guard let path = try? keyframedPathProperty(node) else {
            if code != nil {
              report(
                "expression on a property that is not numbers or a path (keyframed value used)",
                node.path + ".x")
            }
            return nil
          }
          p = path
          isPath = true
        }
      }
      var entry = ExpressionModel.Entry(property: p, expression: nil, layer: layer)
      entry.characters = characters
      entry.isPath = isPath
      entry.texts = texts
      // Its keyframed values go to the engine once a frame: counted like
      // any values sampled from keyframes.
      if p.isAnimated {
        try budget(
          from: p.firstFrame, to: p.lastFrame, elements: isPath ? p.first.count / 6 : 0,
          path: node.path)
      }
      if let code, let (layerIn, layerOut) = range {
        // Sampled where the layer is on and its composition shown.
        var (ip, op) = (max(layerIn, shownFrames.0), min(layerOut, shownFrames.1))
        if op < ip { (ip, op) = (layerIn, layerIn) }
        let bytes = code.utf8.count
        try limit(
          at: node.path + ".x", "bytes of one expression", bytes, limits.maxExpressionBytes,
          "maxExpressionBytes")
        entry.expression = code
        let from = ip.rounded(.down)
        let to = max(op.rounded(.up), from)
        entry.step = max(1, ((to - from) / Double(max(limits.maxSampledFrames, 1))).rounded(.up))
        entry.from = from
        entry.count = Int((to - from) / entry.step) + 1
        try budget(
          from: from, to: to, elements: isPath ? p.first.count / 6 : (characters ?? 0) * 3,
          path: node.path)
      }
      let id = model.properties.count
      model.properties.append(entry)
      ids[node.path] = id
      if entry.expression != nil { model.jobs.append(id) }
      return id
    }

    for c in reachable {
      shownFrames = (c.ip, c.op)
      let layerNodes = try c.layers.array()
      var layers: [ExpressionModel.Layer] = []
      for (li, n) in layerNodes.enumerated() {
        guard n.isObject else { throw n.wrongType("a layer object") }
        let ip = try n.number("ip", default: 0)
        let op = try n.number("op", default: 0)
        guard ip.isFinite, op.isFinite, abs(ip) <= Limits.maxMagnitude,
          abs(op) <= Limits.maxMagnitude
        else {
          throw n.invalid("in and out points must be finite")
        }
        let at = (model.compositions.count, li)
        var layer = ExpressionModel.Layer(
          name: try n.string("nm") ?? "",
          index: n.has("ind") ? try n.int("ind", default: 0) : li + 1,
          parent: n.has("parent") ? try n.int("parent", default: 0) : nil, inPoint: ip,
          outPoint: op,
          startTime: try n.number("st", default: 0), tree: [])
        layer.kind = (try? n.int("ty", default: 3)) ?? 3
        layer.width = (try? n.number("w", default: n.number("sw", default: c.w))) ?? c.w
        layer.height = (try? n.number("h", default: n.number("sh", default: c.h))) ?? c.h
        if layer.kind == 2, let (w, h) = assetSizes[Self.text(n, "refId")] {
          (layer.width, layer.height) = (w, h)
        }
        // One property of a group: its own `ix`, else its place in the table.
        func leaves(_ owner: Node, _ table: [(String, String, String)]) throws -> [ExpressionModel
          .Group]
        {
          var out: [ExpressionModel.Group] = []
          for (i, (key, name, matchName)) in table.enumerated() where !key.isEmpty {
            guard let p = owner.child(key), p.isObject, p.has("k") else { continue }
            let id = try add(p, layer: at, range: (ip, op)) ?? -1
            out.append(
              ExpressionModel.Group(
                name: name, matchName: try p.string("mn") ?? matchName,
                index: try p.int("ix", default: i + 1),
                property: id))
          }
          return out
        }
        if let ks = n.child("ks") {
          var children = try leaves(ks, Self.layerTransform)
          if let p = ks.child("p"), p.bool("s") {
            for (key, name, ix) in [
              ("x", "X Position", 3), ("y", "Y Position", 4), ("z", "Z Position", 5),
            ] {
              guard let q = p.child(key), let id = try add(q, layer: at, range: (ip, op)) else {
                continue
              }
              children.append(
                ExpressionModel.Group(
                  name: name, matchName: "ADBE Position_\(ix - 3)",
                  index: try q.int("ix", default: ix), property: id))
            }
          }
          layer.tree.append(
            ExpressionModel.Group(
              name: "Transform", matchName: "ADBE Transform Group", index: 6, children: children))
        }
        if let shapes = n.child("shapes") {
          layer.tree.append(
            ExpressionModel.Group(
              name: "Contents", matchName: "ADBE Root Vectors Group", index: 2,
              children: try shapeItems(try shapes.array(), leaves)))
        }
        if let d = n.child("t")?.child("d"), d.isObject,
          let id = try add(d, layer: at, range: (ip, op))
        {
          layer.tree.append(
            ExpressionModel.Group(
              name: "Text", matchName: "ADBE Text Properties", index: 2,
              children: [
                ExpressionModel.Group(
                  name: "Source Text", matchName: "ADBE Text Document", index: 1, property: id)
              ]))
        }
        if let masks = n.child("masksProperties") {
          var list: [ExpressionModel.Group] = []
          for (i, m) in try masks.array().enumerated() where m.isObject {
            let table = [
              ("pt", "Mask Path", "ADBE Mask Shape"), ("f", "Mask Feather", "ADBE Mask Feather"),
              ("o", "Mask Opacity", "ADBE Mask Opacity"),
              ("x", "Mask Expansion", "ADBE Mask Offset"),
            ]
            let name = Self.text(m, "nm").isEmpty ? "Mask \(i + 1)" : Self.text(m, "nm")
            list.append(
              ExpressionModel.Group(
                name: name, matchName: "ADBE Mask Atom", index: i + 1,
                children: try leaves(m, table)))
          }
          layer.tree.append(
            ExpressionModel.Group(
              name: "Masks", matchName: "ADBE Mask Parade", index: 3, children: list))
        }
        if let effects = n.child("ef") {
          var list: [ExpressionModel.Group] = []
          for (i, e) in try effects.array().enumerated() {
            var params: [ExpressionModel.Group] = []
            for (j, param) in try (e.child("ef")?.array() ?? []).enumerated() {
              guard let v = param.child("v"), v.isObject, v.has("k") else { continue }
              let id = try add(v, layer: at, range: (ip, op)) ?? -1
              params.append(
                ExpressionModel.Group(
                  name: Self.text(param, "nm"), matchName: Self.text(param, "mn"),
                  index: (try? param.int("ix", default: j + 1)) ?? j + 1, property: id))
            }
            list.append(
              ExpressionModel.Group(
                name: Self.text(e, "nm"), matchName: Self.text(e, "mn"),
                index: (try? e.int("ix", default: i + 1)) ?? i + 1, children: params))
          }
          layer.tree.append(
            ExpressionModel.Group(
              name: "Effects", matchName: "ADBE Effect Parade", index: 4, children: list))
        }
        // Text animators' expression selectors: evaluated once per
        // character of the layer's longest text document.
        if let t = n.child("t"), let animators = t.child("a")?.items {
          let characters =
            (t.child("d")?.child("k")?.items ?? []).map {
              Self.text($0.child("s") ?? $0, "t").unicodeScalars.count
            }.max() ?? 0
          for a in animators {
            guard let s = a.child("s"), s.isObject, (try? s.int("t", default: 0)) == 1,
              case .string? = s.child("x")?.json, characters > 0
            else { continue }
            _ = try add(s, layer: at, range: (ip, op), characters: characters)
          }
        }
        // Every other property of the layer with an expression (shapes,
        // masks, text animators, …).
        var stack = [n]
        while let node = stack.popLast() {
          if node.isObject, node.has("k"), case .string? = node.child("x")?.json {
            _ = try add(node, layer: at, range: (ip, op))
            continue
          }
          switch node.json {
          case .object(let pairs):
            for (key, _) in pairs.reversed() { if let c = node.child(key) { stack.append(c) } }
          case .array:
            stack += (node.items ?? []).reversed()
          default: break
          }
        }
        layers.append(layer)
      }
      var composition = ExpressionModel.Composition(
        name: c.name, width: c.w, height: c.h, inPoint: c.ip, outPoint: c.op, layers: layers)
      if c.layers.path == root.child("layers")?.path {
        for m in try root.child("markers")?.array() ?? [] where m.isObject {
          composition.markers.append(
            (
              try m.number("tm", default: 0), try m.number("dr", default: 0),
              Self.text(m, "cm")
            ))
        }
      }
      model.compositions.append(composition)
    }
    return model.jobs.isEmpty ? nil : model
  }

  /// A string member, or "" (names are optional in the document).
  static func text(_ n: Node, _ key: String) -> String {
    guard case .string(let s)? = n.child(key)?.json else { return "" }
    return s
  }

  /// A layer transform's properties, in After Effects' order (`ix` 1, 2, 6, 10, 11 in exports).
  static let layerTransform = [
    ("a", "Anchor Point", "ADBE Anchor Point"), ("p", "Position", "ADBE Position"), ("", "", ""),
    ("", "", ""),
    ("", "", ""), ("s", "Scale", "ADBE Scale"), ("or", "Orientation", "ADBE Orientation"),
    ("rx", "X Rotation", "ADBE Rotate X"), ("ry", "Y Rotation", "ADBE Rotate Y"),
    ("r", "Rotation", "ADBE Rotate Z"),
    ("o", "Opacity", "ADBE Opacity"), ("sk", "Skew", "ADBE Skew"),
    ("sa", "Skew Axis", "ADBE Skew Axis"),
  ]

  /// Each shape item's properties with After Effects' names and match names.
  static let shapeProperties: [String: [(String, String, String)]] = [
    "rc": [
      ("s", "Size", "ADBE Vector Rect Size"), ("p", "Position", "ADBE Vector Rect Position"),
      ("r", "Roundness", "ADBE Vector Rect Roundness"),
    ],
    "el": [
      ("s", "Size", "ADBE Vector Ellipse Size"), ("p", "Position", "ADBE Vector Ellipse Position"),
    ],
    "sr": [
      ("p", "Position", "ADBE Vector Star Position"), ("pt", "Points", "ADBE Vector Star Points"),
      ("r", "Rotation", "ADBE Vector Star Rotation"),
      ("ir", "Inner Radius", "ADBE Vector Star Inner Radius"),
      ("or", "Outer Radius", "ADBE Vector Star Outer Radius"),
      ("is", "Inner Roundness", "ADBE Vector Star Inner Roundess"),
      ("os", "Outer Roundness", "ADBE Vector Star Outer Roundess"),
    ],
    "sh": [("ks", "Path", "ADBE Vector Shape")],
    "fl": [("c", "Color", "ADBE Vector Fill Color"), ("o", "Opacity", "ADBE Vector Fill Opacity")],
    "st": [
      ("c", "Color", "ADBE Vector Stroke Color"), ("o", "Opacity", "ADBE Vector Stroke Opacity"),
      ("w", "Stroke Width", "ADBE Vector Stroke Width"),
    ],
    "gf": [
      ("o", "Opacity", "ADBE Vector Grad Opacity"),
      ("s", "Start Point", "ADBE Vector Grad Start Pt"),
      ("e", "End Point", "ADBE Vector Grad End Pt"),
      ("h", "Highlight Length", "ADBE Vector Grad HiLite Length"),
      ("a", "Highlight Angle", "ADBE Vector Grad HiLite Angle"),
    ],
    "gs": [
      ("o", "Opacity", "ADBE Vector Grad Opacity"),
      ("s", "Start Point", "ADBE Vector Grad Start Pt"),
      ("e", "End Point", "ADBE Vector Grad End Pt"),
      ("h", "Highlight Length", "ADBE Vector Grad HiLite Length"),
      ("a", "Highlight Angle", "ADBE Vector Grad HiLite Angle"),
      ("w", "Stroke Width", "ADBE Vector Stroke Width"),
    ],
    "tm": [
      ("s", "Start", "ADBE Vector Trim Start"), ("e", "End", "ADBE Vector Trim End"),
      ("o", "Offset", "ADBE Vector Trim Offset"),
    ],
    "rd": [("r", "Radius", "ADBE Vector RoundCorner Radius")],
    "rp": [
      ("c", "Copies", "ADBE Vector Repeater Copies"),
      ("o", "Offset", "ADBE Vector Repeater Offset"),
    ],
    "op": [
      ("a", "Amount", "ADBE Vector Offset Amount"),
      ("ml", "Miter Limit", "ADBE Vector Offset Miter Limit"),
    ],
    "pb": [("a", "Amount", "ADBE Vector PuckerBloat Amount")],
    "zz": [
      ("r", "Size", "ADBE Vector Zigzag Size"),
      ("s", "Ridges per segment", "ADBE Vector Zigzag Detail"),
    ],
    "tr": [
      ("a", "Anchor Point", "ADBE Vector Anchor"), ("p", "Position", "ADBE Vector Position"),
      ("s", "Scale", "ADBE Vector Scale"), ("sk", "Skew", "ADBE Vector Skew"),
      ("sa", "Skew Axis", "ADBE Vector Skew Axis"),
      ("r", "Rotation", "ADBE Vector Rotation"), ("o", "Opacity", "ADBE Vector Group Opacity"),
      ("so", "Start Opacity", "ADBE Vector Repeater Start Opacity"),
      ("eo", "End Opacity", "ADBE Vector Repeater End Opacity"),
    ],
  ]

  /// Shape items as After Effects groups them: a group holds its items in
  /// Contents (index 2) and its Transform (index 3).
  func shapeItems(
    _ items: [Node], _ leaves: (Node, [(String, String, String)]) throws -> [ExpressionModel.Group]
  ) throws
    -> [ExpressionModel.Group]
  {
    var out: [ExpressionModel.Group] = []
    for (i, it) in items.enumerated() where it.isObject {
      let ty = Self.text(it, "ty")
      let index = (try? it.int("ix", default: i + 1)) ?? i + 1
      var group = ExpressionModel.Group(
        name: Self.text(it, "nm"), matchName: Self.text(it, "mn"), index: index)
      group.type = ty
      let optionKeys = ["rc": ["d"], "el": ["d"], "sr": ["d", "sy"], "tm": ["m"]][ty] ?? []
      for key in optionKeys where it.has(key) {
        if let v = try? it.number(key, default: 0), v.isFinite, abs(v) < 1e6 { group.options.append((key, Int(v))) }
      }
      switch ty {
      case "gr":
        let inner = try it.child("it")?.array() ?? []
        let contents = try shapeItems(inner.filter { Self.text($0, "ty") != "tr" }, leaves)
        group.children = [
          ExpressionModel.Group(
            name: "Contents", matchName: "ADBE Vectors Group", index: 2, children: contents)
        ]
        if let tr = inner.first(where: { Self.text($0, "ty") == "tr" }) {
          group.children.append(
            ExpressionModel.Group(
              name: "Transform", matchName: "ADBE Vector Transform Group", index: 3,
              children: try leaves(tr, Self.shapeProperties["tr"] ?? [])))
        }
      case "tr":
        group.name = group.name.isEmpty ? "Transform" : group.name
        group.children = try leaves(it, Self.shapeProperties["tr"] ?? [])
      case "rp":
        group.children = try leaves(it, Self.shapeProperties["rp"] ?? [])
        if let tr = it.child("tr") {
          group.children.append(
            ExpressionModel.Group(
              name: "Transform", matchName: "ADBE Vector Repeater Transform", index: 4,
              children: try leaves(tr, Self.shapeProperties["tr"] ?? [])))
        }
      default:
        group.children = try leaves(it, Self.shapeProperties[ty] ?? [])
      }
      out.append(group)
    }
    return out
  }

  /// The source of every expression in a JSON tree.
  static func expressionSources(_ json: JSON, into out: inout [String]) {
    switch json {
    case .object(let pairs):
      for (key, value) in pairs {
        if key == "x", case .string(let s) = value { out.append(s) }
        expressionSources(value, into: &out)
      }
    case .array(let items):
      for i in items { expressionSources(i, into: &out) }
    default:
      break
    }
  }

  /// True when a JSON tree has a property with an expression.
  static func hasExpression(_ json: JSON) -> Bool {
    switch json {
    case .object(let pairs):
      for (key, value) in pairs {
        // A property's expression, or a text animator's expression
        // selector (`t` 1, no `k`).
        if key == "x", case .string = value,
          pairs.contains(where: { $0.key == "k" || ($0.key == "t" && $0.value == .number(1)) })
        {
          return true
        }
        if hasExpression(value) { return true }
      }
      return false
    case .array(let items):
      return items.contains { hasExpression($0) }
    default:
      return false
    }
  }

}
