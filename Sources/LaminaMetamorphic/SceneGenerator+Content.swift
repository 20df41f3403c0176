import Foundation
import Lamina
import LaminaScene

// The keys of the layer classes, filters, colors and paths.
extension SceneGenerator {
  // MARK: Values

  /// A color in one of the scene format's forms, sometimes translucent.
  mutating func color(translucent: Double = 0.3) -> JSON {
    let alpha = random.chance(translucent) ? random.number(0.15...0.9) : 1
    return color(
      random.number(0...1, step: 1.0 / 255), random.number(0...1, step: 1.0 / 255),
      random.number(0...1, step: 1.0 / 255), alpha)
  }

  mutating func opaqueColor() -> JSON { color(translucent: 0) }

  /// A mask's color: only its alpha counts, so alpha varies more.
  mutating func maskColor() -> JSON {
    color(0, 0, 0, random.chance(0.5) ? 1 : random.number(0.2...0.9))
  }

  mutating func color(_ r: Double, _ g: Double, _ b: Double, _ a: Double) -> JSON {
    func byte(_ v: Double) -> String {
      let text = String(Int(clamping: v * 255, to: 0...255, rounding: .toNearestOrAwayFromZero), radix: 16)
      return text.count == 1 ? "0" + text : text
    }
    switch random.int(0...9) {
    case 0...4 where a == 1: return .string("#" + byte(r) + byte(g) + byte(b))
    case 0...6: return .string("#" + byte(r) + byte(g) + byte(b) + byte(a))
    default:
      let round = { (v: Double) in (v * 100).rounded() / 100 }
      return .array([round(r), round(g), round(b), round(a)].map(JSON.number))
    }
  }

  /// SVG path data inside a `width`×`height` box: polygons, curves, arcs,
  /// absolute and relative commands.
  mutating func svgPath(width w: Double, height h: Double) -> String {
    func n(_ v: Double) -> String { JSON.format((v * 4).rounded() / 4) }
    func px() -> Double { random.number(0...w, step: 0.5) }
    func py() -> Double { random.number(0...h, step: 0.5) }
    switch random.int(0...5) {
    case 0:
      let x = random.number(0...w / 2, step: 1)
      let y = random.number(0...h / 2, step: 1)
      return
        "M \(n(x)) \(n(y)) H \(n(random.number(x...w, step: 1))) V \(n(random.number(y...h, step: 1))) H \(n(x)) Z"
    case 1:
      var d = "M \(n(px())) \(n(py()))"
      for _ in 0..<random.int(2...5) { d += " L \(n(px())) \(n(py()))" }
      return d + (random.chance(0.7) ? " Z" : "")
    case 2:
      let r = max(1, min(w, h) / 2 - 1)
      return
        "M \(n(w / 2 - r)) \(n(h / 2)) A \(n(r)) \(n(r)) 0 1 0 \(n(w / 2 + r)) \(n(h / 2)) A \(n(r)) \(n(r)) 0 1 0 \(n(w / 2 - r)) \(n(h / 2)) Z"
    case 3:
      return
        "M \(n(px())) \(n(py())) C \(n(px())) \(n(py())) \(n(px())) \(n(py())) \(n(px())) \(n(py())) S \(n(px())) \(n(py())) \(n(px())) \(n(py()))"
    case 4:
      return
        "M \(n(px())) \(n(py())) Q \(n(px())) \(n(py())) \(n(px())) \(n(py())) T \(n(px())) \(n(py())) Z"
    default:
      // Relative commands, and a second subpath (a hole under evenOdd).
      let x = random.number(0...w / 3, step: 1)
      let y = random.number(0...h / 3, step: 1)
      let a = random.number(w / 4...max(w / 4 + 1, w - x), step: 1)
      let b = random.number(h / 4...max(h / 4 + 1, h - y), step: 1)
      return
        "M \(n(x)) \(n(y)) h \(n(a)) v \(n(b)) h \(n(-a)) z m \(n(a / 4)) \(n(b / 4)) l \(n(a / 2)) 0 l 0 \(n(b / 2)) l \(n(-a / 2)) 0 z"
    }
  }

  // MARK: Filters

  /// One or two filters with random inputs (inputs left out keep their defaults).
  mutating func filters(blur: Bool) -> JSON {
    var list: [JSON] = []
    for _ in 0..<random.int(1...2) {
      let names = SpecKeys.filters.map(\.name).filter { blur || $0 != "CIGaussianBlur" }
      list.append(filter(random.pick(names)))
    }
    return .array(list)
  }

  mutating func filter(_ name: String) -> JSON {
    var m: [(String, JSON)] = [("name", .string(name))]
    func maybe(_ key: String, _ value: @autoclosure () -> JSON) {
      if random.chance(0.7) { m.append((key, value())) }
    }
    switch name {
    case "CIGaussianBlur":
      maybe("inputRadius", .number(self.random.number(0...6, step: 0.5)))
    case "CIColorMatrix":
      for (i, key) in ["inputRVector", "inputGVector", "inputBVector", "inputAVector"].enumerated()
      where random.chance(0.5) {
        var row = [0.0, 0, 0, 0]
        row[i] = random.number(0.3...1.2)
        row[(i + 1) % 4] = random.chance(0.4) ? random.number(-0.5...0.5) : 0
        m.append((key, .array(row.map(JSON.number))))
      }
      maybe(
        "inputBiasVector",
        .array(
          [
            self.random.number(-0.2...0.3), self.random.number(-0.2...0.3),
            self.random.number(-0.2...0.3), self.random.chance(0.7) ? 0 : 0.2,
          ].map(JSON.number)))
    case "CIColorControls":
      maybe("inputSaturation", .number(self.random.number(0...2)))
      maybe("inputBrightness", .number(self.random.number(-0.3...0.3)))
      maybe("inputContrast", .number(self.random.number(0.5...1.5)))
    case "CIHueAdjust":
      maybe("inputAngle", .number(self.random.number(-3.1...3.1)))
    case "CISepiaTone":
      maybe("inputIntensity", .number(self.random.number(0...1)))
    default:
      break
    }
    return .object(m)
  }

  // MARK: Classes

  mutating func gradientKeys(_ m: inout [(String, JSON)], width: Double, height: Double) {
    let count = random.int(2...4)
    m.append(("colors", .array((0..<count).map { _ in color(translucent: 0.4) })))
    if random.chance(0.5) {
      var stops = (0..<count).map { _ in random.number(0...1, step: 0.05) }.sorted()
      if random.chance(0.5) {
        stops[0] = 0
        stops[count - 1] = 1
      }
      m.append(("locations", .array(stops.map(JSON.number))))
    } else if random.chance(0.2) {
      m.append(("locations", .null))
    }
    if random.chance(0.7) {
      m.append(
        (
          "startPoint",
          .array(
            [random.number(0...1, step: 0.05), random.number(0...1, step: 0.05)].map(JSON.number))
        ))
    }
    if random.chance(0.7) {
      m.append(
        (
          "endPoint",
          .array(
            [random.number(0...1, step: 0.05), random.number(0...1, step: 0.05)].map(JSON.number))
        ))
    }
    if random.chance(0.75) { m.append(("type", .string(random.pick(SpecKeys.gradientTypes)))) }
  }

  mutating func shapeKeys(_ m: inout [(String, JSON)], width w: Double, height h: Double) {
    m.append(("path", .string(svgPath(width: w, height: h))))
    if random.chance(0.7) { m.append(("fillColor", random.chance(0.1) ? .null : color())) }
    if random.chance(0.3) { m.append(("fillRule", .string(random.pick(SpecKeys.fillRules)))) }
    if random.chance(0.55) {
      m.append(("strokeColor", color()))
      if random.chance(0.7) { m.append(("lineWidth", .number(random.number(0.5...6, step: 0.5)))) }
      if random.chance(0.4) { m.append(("lineCap", .string(random.pick(SpecKeys.lineCaps)))) }
      if random.chance(0.4) { m.append(("lineJoin", .string(random.pick(SpecKeys.lineJoins)))) }
      if random.chance(0.2) { m.append(("miterLimit", .number(random.number(1...10, step: 0.5)))) }
      if random.chance(0.3) {
        let dashes = (0..<random.pick([2, 4])).map { _ in random.number(1...8, step: 1) }
        m.append(("lineDashPattern", .array(dashes.map(JSON.number))))
        if random.chance(0.5) {
          m.append(("lineDashPhase", .number(random.number(0...6, step: 0.5))))
        }
      }
    }
    if random.chance(0.25) {
      let start = random.number(0...0.5, step: 0.05)
      m.append(("strokeStart", .number(start)))
      m.append(("strokeEnd", .number(random.number(start...1, step: 0.05))))
    } else if random.chance(0.1) {
      m.append(("strokeEnd", .number(random.number(0...1, step: 0.05))))
    }
  }

  static let words = [
    "Lamina", "layer", "Core", "Animation", "glass", "fox", "quartz", "tree", "ÅÉ", "42",
  ]

  mutating func textKeys(_ m: inout [(String, JSON)]) {
    let count = random.int(1...4)
    m.append(
      ("string", .string((0..<count).map { _ in random.pick(Self.words) }.joined(separator: " "))))
    if random.chance(0.6) {
      m.append(("font", .string(random.pick(["DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono"]))))
    }
    if random.chance(0.8) { m.append(("fontSize", .number(random.number(6...18, step: 1)))) }
    if random.chance(0.7) { m.append(("foregroundColor", color())) }
    if random.chance(0.5) {
      m.append(("alignmentMode", .string(random.pick(SpecKeys.alignmentModes))))
    }
    if random.chance(0.4) { m.append(("isWrapped", .bool(random.chance(0.8)))) }
    if random.chance(0.3) {
      m.append(("truncationMode", .string(random.pick(SpecKeys.truncationModes))))
    }
  }

  mutating func replicatorKeys(_ m: inout [(String, JSON)], width w: Double, height h: Double) {
    m.append(("instanceCount", .number(Double(random.int(0...5)))))
    if random.chance(0.85) {
      var steps: [JSON] = [
        .object([
          (
            "translate",
            .array(
              [random.number(-w / 3...w / 3, step: 1), random.number(-h / 3...h / 3, step: 1), 0]
                .map(
                  JSON.number))
          )
        ])
      ]
      if random.chance(0.3) {
        steps.append(
          .object([("rotate", .array([random.number(-0.8...0.8), 0, 0, 1].map(JSON.number)))]))
      }
      if random.chance(0.15) {
        steps.append(
          .object([("rotate", .array([random.number(-0.6...0.6), 0, 1, 0].map(JSON.number)))]))
      }
      m.append(("instanceTransform", .array(steps)))
    }
    if random.chance(0.3) {
      m.append(("instanceDelay", .number(random.number(0...0.5, step: 0.05))))
    }
    if random.chance(0.3) { m.append(("instanceColor", color(translucent: 0.3))) }
    for key in [
      "instanceRedOffset", "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
    ]
    where random.chance(0.2) {
      m.append((key, .number(random.number(-0.3...0.1, step: 0.05))))
    }
    if random.chance(0.15) { m.append(("preservesDepth", .bool(true))) }
  }

  mutating func scrollKeys(_ m: inout [(String, JSON)]) {
    if random.chance(0.6) { m.append(("scrollMode", .string(random.pick(SpecKeys.scrollModes)))) }
    if random.chance(0.6) {
      // The bounds origin is the scroll offset.
      m.append(
        (
          "bounds.origin",
          .array(
            [random.number(-10...20, step: 1), random.number(-10...20, step: 1)].map(JSON.number))
        ))
    }
  }

  mutating func emitterKeys(_ m: inout [(String, JSON)], width w: Double, height h: Double) {
    m.append(
      (
        "emitterPosition",
        .array([random.number(0...w, step: 1), random.number(0...h, step: 1)].map(JSON.number))
      ))
    if random.chance(0.6) {
      m.append(
        (
          "emitterSize",
          .array([random.number(0...w, step: 1), random.number(0...h, step: 1)].map(JSON.number))
        ))
    }
    if random.chance(0.7) {
      m.append(("emitterShape", .string(random.pick(SpecKeys.emitterShapes))))
    }
    if random.chance(0.5) { m.append(("emitterMode", .string(random.pick(SpecKeys.emitterModes)))) }
    if random.chance(0.5) { m.append(("renderMode", .string(random.pick(SpecKeys.renderModes)))) }
    if random.chance(0.4) { m.append(("birthRate", .number(random.number(0.5...2, step: 0.25)))) }
    if random.chance(0.4) { m.append(("lifetime", .number(random.number(0.5...2, step: 0.25)))) }
    m.append(("seed", .number(Double(random.int(0...100_000)))))
    var cells: [JSON] = []
    for _ in 0..<random.int(1...2) {
      var cell: [(String, JSON)] = [
        ("birthRate", .number(random.number(4...30, step: 1))),
        ("lifetime", .number(random.number(0.5...3, step: 0.25))),
        ("contents", .string(random.pick(["dot", "quads", "oriented"]))),
      ]
      func maybe(_ p: Double, _ key: String, _ value: @autoclosure () -> JSON) {
        if random.chance(p) { cell.append((key, value())) }
      }
      maybe(0.2, "name", .string("cell"))
      maybe(0.2, "lifetimeRange", .number(self.random.number(0...1, step: 0.25)))
      maybe(0.7, "velocity", .number(self.random.number(0...40, step: 1)))
      maybe(0.4, "velocityRange", .number(self.random.number(0...20, step: 1)))
      maybe(0.5, "emissionLongitude", .number(self.random.number(-3.1...3.1)))
      maybe(0.2, "emissionLatitude", .number(self.random.number(-1...1)))
      maybe(0.5, "emissionRange", .number(self.random.number(0...6.28)))
      maybe(0.3, "yAcceleration", .number(self.random.number(-20...20, step: 1)))
      maybe(0.2, "xAcceleration", .number(self.random.number(-20...20, step: 1)))
      maybe(0.8, "scale", .number(self.random.number(0.1...0.6, step: 0.05)))
      maybe(0.3, "scaleRange", .number(self.random.number(0...0.2, step: 0.05)))
      maybe(0.2, "scaleSpeed", .number(self.random.number(-0.1...0.1, step: 0.01)))
      maybe(0.3, "spin", .number(self.random.number(-3...3)))
      maybe(0.2, "spinRange", .number(self.random.number(0...2)))
      maybe(0.5, "color", self.color(translucent: 0.3))
      maybe(0.2, "redRange", .number(self.random.number(0...0.5, step: 0.05)))
      maybe(0.2, "alphaRange", .number(self.random.number(0...0.5, step: 0.05)))
      maybe(0.3, "alphaSpeed", .number(self.random.number(-0.5...0, step: 0.05)))
      maybe(0.1, "greenSpeed", .number(self.random.number(-0.5...0.5, step: 0.05)))
      cells.append(.object(cell))
    }
    m.append(("emitterCells", .array(cells)))
  }
}
