import Foundation
import Lamina

// The range of every number a scene sets, by its key path: each number is
// finite (the JSON reader refuses the rest) and within ±`Limits.maxMagnitude`
// when read; the keys below are held to tighter limits, so that nothing
// derived from them (a matrix, a pixel size, a kernel width) overflows or
// asks for unbounded work.
extension SceneDecoder {
  /// What a number is, for its range.
  enum NumberRule: Equatable {
    /// A position, origin, offset or depth: ±`Limits.maxCoordinate` points.
    case coordinate
    /// A size, radius or width of a layer: ±`Limits.maxLayerSide` points
    /// (negative sizes are refused where they are read).
    case side
    /// A blur radius: ±`Limits.maxBlurRadius` points.
    case blur
    /// A pixels-per-point scale: `Limits.minContentsScale` to its inverse.
    case scale
    /// A font size: ±`Limits.maxFontSize` points.
    case fontSize
    /// An entry of a transform matrix: ±`Limits.maxTransformEntry`.
    case transformEntry
    /// Anything else: ±`Limits.maxMagnitude`.
    case magnitude

    var limit: (low: CGFloat, high: CGFloat, name: String, what: String) {
      switch self {
      case .coordinate:
        let c = Limits.maxCoordinate
        return (-c, c, "maxCoordinate", "a coordinate")
      case .side:
        let s = Limits.maxLayerSide
        return (-s, s, "maxLayerSide", "a length")
      case .blur:
        let b = Limits.maxBlurRadius
        return (-b, b, "maxBlurRadius", "a blur radius")
      case .scale:
        let m = Limits.minContentsScale
        return (m, 1 / m, "minContentsScale", "a scale")
      case .fontSize:
        let f = Limits.maxFontSize
        return (-f, f, "maxFontSize", "a font size")
      case .transformEntry:
        let t = Limits.maxTransformEntry
        return (-t, t, "maxTransformEntry", "a transform entry")
      case .magnitude:
        let m = CGFloat(Limits.maxMagnitude)
        return (-m, m, "maxMagnitude", "a number")
      }
    }
  }

  /// The rule for a number at `keyPath` of a layer (or of an animation of
  /// that key path): the range its property's description gives
  /// (LayerProperty.swift), narrowed to the member the path names.
  static func rule(forKeyPath keyPath: String) -> NumberRule {
    let parts = keyPath.split(separator: ".").map(String.init)
    guard let head = parts.first, let range = CALayer.valueRange(forKey: head) else {
      return .magnitude
    }
    let last = parts.last ?? head
    switch range {
    case .coordinate: return .coordinate
    case .side, .dashes: return .side
    case .blur: return .blur
    case .scale: return .scale
    case .fontSize: return .fontSize
    case .box:
      if parts.contains("size") || last == "width" || last == "height" { return .side }
      return .coordinate
    case .transform:
      guard parts.count > 1 else { return .transformEntry }
      switch parts[1] {
      case "rotation": return .magnitude
      case "translation": return .coordinate
      default: return .transformEntry
      }
    case .filters:
      return last == kCIInputRadiusKey ? .blur : .magnitude
    case .stops, .text, .count, .magnitude:
      return .magnitude
    }
  }

  /// The range of the property at the head of `keyPath`.
  static func range(ofKeyPath keyPath: String) -> LayerValueRange? {
    let head = keyPath.split(separator: ".").first.map(String.init) ?? keyPath
    return CALayer.valueRange(forKey: head)
  }

  /// Throws when `number` is outside `rule`'s range; `path` is its JSON path.
  func check(_ number: CGFloat, _ rule: NumberRule, at path: String) throws {
    let (low, high, name, what) = rule.limit
    guard number >= low, number <= high else {
      throw SceneError.outOfRange(
        file: file, path: path,
        expected: "\(what) from \(format(Double(low))) to \(format(Double(high))) (\(name))",
        found: format(Double(number)))
    }
  }

  /// Checks the numbers of a decoded `value` set at `keyPath` (JSON path
  /// `path`), and the length of its lists.
  func checkRanges(_ keyPath: String, _ value: LayerValue, at path: String) throws {
    let rule = Self.rule(forKeyPath: keyPath)
    let range = Self.range(ofKeyPath: keyPath)
    switch value {
    case .number(let v):
      try check(CGFloat(v), rule, at: path)
    case .point(let p):
      try check(p.x, rule, at: "\(path)[0]")
      try check(p.y, rule, at: "\(path)[1]")
    case .size(let s):
      try check(s.width, rule, at: "\(path)[0]")
      try check(s.height, rule, at: "\(path)[1]")
    case .rect(let r):
      // A whole bounds or frame: its origin is a coordinate, its size a side.
      let sizeRule: NumberRule = range == .box ? .side : rule
      try check(r.origin.x, rule, at: "\(path)[0]")
      try check(r.origin.y, rule, at: "\(path)[1]")
      try check(r.size.width, sizeRule, at: "\(path)[2]")
      try check(r.size.height, sizeRule, at: "\(path)[3]")
    case .transform(let t):
      let entries = [
        t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24,
        t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44,
      ]
      for (i, v) in entries.enumerated() where !(abs(v) <= Limits.maxTransformEntry) {
        throw SceneError.outOfRange(
          file: file, path: path,
          expected:
            "a transform whose entries are within ±\(format(Double(Limits.maxTransformEntry))) (maxTransformEntry)",
          found: "m\(i / 4 + 1)\(i % 4 + 1) = \(format(Double(v)))")
      }
    case .numbers(let list):
      let dashes = range == .dashes
      let limit = dashes ? Limits.maxDashPatternLength : Limits.maxGradientStops
      let name = dashes ? "maxDashPatternLength" : "maxGradientStops"
      if list.count > limit {
        throw SceneError.limitExceeded(
          file: file, path: path,
          exceeded: LimitExceeded(
            what: "numbers in the list", found: list.count, limit: limit, name: name))
      }
      for (i, v) in list.enumerated() { try check(CGFloat(v), rule, at: "\(path)[\(i)]") }
    case .colors(let colors) where colors.count > Limits.maxGradientStops:
      throw SceneError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(
          what: "gradient colors", found: colors.count, limit: Limits.maxGradientStops,
          name: "maxGradientStops"))
    case .filters(let filters) where filters.count > Limits.maxFiltersPerLayer:
      throw SceneError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(
          what: "filters on one layer", found: filters.count, limit: Limits.maxFiltersPerLayer,
          name: "maxFiltersPerLayer"))
    case .string(let text) where range == .text && !keyPath.contains("."):
      let count = text.unicodeScalars.count
      if count > Limits.maxGlyphsPerTextLayer {
        throw SceneError.limitExceeded(
          file: file, path: path,
          exceeded: LimitExceeded(
            what: "characters of one text layer", found: count,
            limit: Limits.maxGlyphsPerTextLayer, name: "maxGlyphsPerTextLayer"))
      }
    default:
      break
    }
  }

  /// Refuses a JSON list longer than `limit` before its items are decoded.
  func checkCount(
    _ items: [JSON], _ path: String, limit: Int, name: String, what: String
  ) throws {
    guard items.count <= limit else {
      throw SceneError.limitExceeded(
        file: file, path: path,
        exceeded: LimitExceeded(what: what, found: items.count, limit: limit, name: name))
    }
  }
}
