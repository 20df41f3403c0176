import Foundation
import LaminaScene

/// What a set of scenes uses of the scene format, as tokens (`key:opacity`,
/// `CAShapeLayer.lineDashPattern`, `contentsGravity=bottomLeft`,
/// `filter:CIHueAdjust.inputAngle`, `step:perspective`, `color:#rrggbbaa`),
/// and the tokens the spec defines, so that a test can say which part of
/// the format the generator never reaches.
package enum Coverage {
  /// Every token `spec/scene-format.md` defines (see `SpecKeys`).
  package static var specified: Set<String> {
    var all = Set<String>()
    all.formUnion(SpecKeys.layer.map { "key:\($0)" })
    for (name, keys) in SpecKeys.classes {
      all.insert("class:\(name)")
      all.formUnion(keys.map { "\(name).\($0)" })
    }
    all.formUnion(SpecKeys.canvas.map { "canvas:\($0)" })
    let enumerations: [(String, [String])] = [
      ("contentsGravity", SpecKeys.gravities), ("magnificationFilter", SpecKeys.contentsFilters),
      ("minificationFilter", SpecKeys.contentsFilters), ("maskedCorners", SpecKeys.corners),
      ("type", SpecKeys.gradientTypes), ("fillRule", SpecKeys.fillRules),
      ("lineCap", SpecKeys.lineCaps), ("lineJoin", SpecKeys.lineJoins),
      ("alignmentMode", SpecKeys.alignmentModes), ("truncationMode", SpecKeys.truncationModes),
      ("scrollMode", SpecKeys.scrollModes), ("emitterShape", SpecKeys.emitterShapes),
      ("emitterMode", SpecKeys.emitterModes), ("renderMode", SpecKeys.renderModes),
      ("compositingFilter", SpecKeys.blendModes), ("fillMode", SpecKeys.fillModes),
      ("timingFunction", SpecKeys.timingFunctions),
      ("calculationMode", SpecKeys.calculationModes), ("rotationMode", SpecKeys.rotationModes),
    ]
    for (key, values) in enumerations { all.formUnion(values.map { "\(key)=\($0)" }) }
    for (name, inputs) in SpecKeys.filters {
      all.insert("filter:\(name)")
      all.formUnion(inputs.map { "filter:\(name).\($0)" })
    }
    all.formUnion(SpecKeys.transformSteps.map { "step:\($0)" })
    all.formUnion(["transform:16 numbers", "transform:key path", "timingFunction:4 numbers"])
    all.formUnion(SpecKeys.animationClasses.map { "animation:\($0)" })
    let animationKeys =
      SpecKeys.animationTiming + SpecKeys.basicAnimation + SpecKeys.keyframeAnimation
      + SpecKeys.springAnimation
    all.formUnion(animationKeys.map { "animation.\($0)" })
    all.formUnion(["repeatCount=infinity"])
    all.formUnion(SpecKeys.colorForms.map { "color:\($0)" })
    all.formUnion(["filters", "backgroundFilters"].map { "\($0) in use" })
    return all
  }

  static let colorKeys: Set<String> = [
    "backgroundColor", "borderColor", "shadowColor", "fillColor", "strokeColor",
    "foregroundColor", "instanceColor", "background", "color",
  ]

  /// The tokens `scenes` use.
  package static func tokens(of scenes: [JSON]) -> Set<String> {
    var found = Set<String>()
    for scene in scenes {
      for (key, value) in scene["canvas"]?.members ?? [] {
        found.insert("canvas:\(key)")
        if key == "background" { color(value, &found) }
      }
      guard let root = scene["root"] else { continue }
      for (_, layer) in root.layerPaths() { layerTokens(layer, &found) }
    }
    return found
  }

  static func layerTokens(_ layer: JSON, _ found: inout Set<String>) {
    let cls = layer.layerClass
    found.insert("class:\(cls)")
    let own = Set(SpecKeys.layer)
    for (key, value) in layer.members {
      if own.contains(key) { found.insert("key:\(key)") }
      if key.hasPrefix("transform.") { found.insert("key:transform") }
      found.insert("\(cls).\(key)")
      switch key {
      case "transform", "sublayerTransform", "instanceTransform": transform(value, &found)
      case "filters", "backgroundFilters":
        if !value.elements.isEmpty { found.insert("\(key) in use") }
        for f in value.elements {
          let name = f["name"]?.string ?? ""
          found.insert("filter:\(name)")
          for (input, _) in f.members where input != "name" {
            found.insert("filter:\(name).\(input)")
          }
        }
      case "animations":
        for a in value.elements { animation(a, &found) }
      case "colors":
        for c in value.elements { color(c, &found) }
      case "emitterCells":
        for cell in value.elements {
          if let c = cell["color"] { color(c, &found) }
        }
      default:
        if colorKeys.contains(key) { color(value, &found) }
      }
      if key.hasPrefix("transform.") { found.insert("transform:key path") }
      enumeration(key, value, &found)
    }
  }

  static func enumeration(_ key: String, _ value: JSON, _ found: inout Set<String>) {
    if let s = value.string { found.insert("\(key)=\(s)") }
    for item in value.elements { if let s = item.string { found.insert("\(key)=\(s)") } }
  }

  static func color(_ value: JSON, _ found: inout Set<String>) {
    switch value {
    case .null: found.insert("color:null")
    case .string(let s) where s.count == 7: found.insert("color:#rrggbb")
    case .string(let s) where s.count == 9: found.insert("color:#rrggbbaa")
    case .array(let items) where items.count == 4: found.insert("color:[r,g,b,a]")
    default: break
    }
  }

  static func transform(_ value: JSON, _ found: inout Set<String>) {
    let items = value.elements
    if items.count == 16, items.allSatisfy({ $0.number != nil }) {
      found.insert("transform:16 numbers")
    }
    for step in items { for (kind, _) in step.members { found.insert("step:\(kind)") } }
  }

  static func animation(_ a: JSON, _ found: inout Set<String>) {
    found.insert("animation:\(a["class"]?.string ?? "CABasicAnimation")")
    for (key, value) in a.members {
      found.insert("animation.\(key)")
      enumeration(key, value, &found)
      if key == "timingFunction", value.elements.count == 4 {
        found.insert("timingFunction:4 numbers")
      }
      if key == "timingFunctions" {
        for f in value.elements { if let s = f.string { found.insert("timingFunction=\(s)") } }
      }
      if key == "toValue" || key == "fromValue" {
        if a["keyPath"]?.string?.hasSuffix("Color") == true { color(value, &found) }
      }
    }
  }
}
