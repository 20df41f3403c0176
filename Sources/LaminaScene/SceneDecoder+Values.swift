import Foundation
import Lamina

// Values decoded by kind, per the spec's Values table.
extension SceneDecoder {
  /// A number within ±`magnitude` (`Limits.maxMagnitude` unless a key
  /// allows more, as `repeatCount` does).
  func number(_ json: JSON, _ path: String, magnitude: Double = Limits.maxMagnitude) throws
    -> CGFloat
  {
    guard case .number(let v) = json else { throw wrongType(path, "a number", json) }
    guard abs(v) <= magnitude else {
      throw SceneError.outOfRange(
        file: file, path: path,
        expected: "a number from \(format(-magnitude)) to \(format(magnitude)) (maxMagnitude)",
        found: format(v))
    }
    return CGFloat(v)
  }

  func numbers(_ json: JSON, _ path: String, count: Int? = nil) throws -> [CGFloat] {
    let expected = count.map { "\($0) numbers" } ?? "a list of numbers"
    guard case .array(let items) = json else { throw wrongType(path, expected, json) }
    if let count, items.count != count {
      throw SceneError.wrongType(
        file: file, path: path, expected: expected, found: "\(items.count) values")
    }
    try checkCount(
      items, path, limit: Limits.maxKeyframes, name: "maxKeyframes", what: "numbers in the list")
    return try items.enumerated().map { i, item in try number(item, "\(path)[\(i)]") }
  }

  func string(_ json: JSON, _ path: String) throws -> String {
    guard case .string(let s) = json else { throw wrongType(path, "a string", json) }
    return s
  }

  func color(_ json: JSON, _ path: String) throws -> CGColor? {
    switch json {
    case .null: return nil
    case .string(let s):
      guard let c = CGColor(hex: s) else {
        throw SceneError.invalidColor(
          file: file, path: path, found: MessageText.quoted(s, mark: "\""))
      }
      return c
    case .array(let items):
      guard items.count == 4 else {
        throw SceneError.invalidColor(file: file, path: path, found: "\(items.count) components")
      }
      let c = try numbers(json, path, count: 4)
      for (i, v) in c.enumerated() where v < 0 || v > 1 {
        throw SceneError.outOfRange(
          file: file, path: "\(path)[\(i)]", expected: "a color component from 0 to 1",
          found: format(Double(v)))
      }
      return CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    default:
      throw SceneError.invalidColor(file: file, path: path, found: json.kindDescription)
    }
  }

  func enumeration(_ json: JSON, _ path: String, _ allowed: [String]) throws -> String {
    guard case .string(let s) = json else {
      throw wrongType(path, "one of \(SceneError.list(allowed))", json)
    }
    guard allowed.contains(s) else {
      throw SceneError.invalidEnumValue(file: file, path: path, value: s, allowed: allowed)
    }
    return s
  }

  func path(_ json: JSON, _ path: String) throws -> CGPath? {
    if json == .null { return nil }
    let text = try string(json, path)
    do {
      return try CGPath.parseSVG(text)
    } catch let e as PathError {
      throw SceneError.invalidPath(file: file, path: path, error: e)
    }
  }

  func image(_ json: JSON, _ path: String) throws -> CGImage? {
    if json == .null { return nil }
    guard case .string(let name) = json else { throw wrongType(path, "an image name", json) }
    guard let image = try decodedImage(named: name, at: path) else {
      throw SceneError.unknownImage(
        file: file, path: path, name: name, known: state.imageFiles.keys.sorted())
    }
    return image
  }

  /// Decodes `json` as a value of `kind`, typed as the layer property (or
  /// emitter cell key) of that kind takes it; `.none` stands for JSON null
  /// where the kind allows it.
  func value(_ json: JSON, kind: CAValueKind, at path: String) throws -> LayerValue {
    switch kind {
    case .number:
      return .number(Double(try number(json, path)))
    case .integer:
      let v = try number(json, path, magnitude: .infinity)
      guard v == v.rounded(), abs(v) <= 4_294_967_295 else {
        throw SceneError.wrongType(
          file: file, path: path, expected: "a whole number", found: format(Double(v)))
      }
      if path.hasSuffix(".seed") && v < 0 {
        throw SceneError.outOfRange(
          file: file, path: path, expected: "a seed from 0 to 4294967295", found: format(Double(v)))
      }
      return .integer(Int(saturating: v))
    case .bool:
      guard case .bool(let b) = json else { throw wrongType(path, "true or false", json) }
      return .bool(b)
    case .point:
      let v = try numbers(json, path, count: 2)
      return .point(CGPoint(x: v[0], y: v[1]))
    case .size:
      let v = try numbers(json, path, count: 2)
      return .size(CGSize(width: v[0], height: v[1]))
    case .rect:
      let v = try numbers(json, path, count: 4)
      return .rect(CGRect(x: v[0], y: v[1], width: v[2], height: v[3]))
    case .transform:
      return .transform(try transform(json, path))
    case .color:
      return try color(json, path).map { .color($0) } ?? .none
    case .colors:
      if json == .null { return .none }
      guard case .array(let items) = json else { throw wrongType(path, "a list of colors", json) }
      try checkCount(
        items, path, limit: Limits.maxGradientStops, name: "maxGradientStops",
        what: "colors in the list")
      return .colors(
        try items.enumerated().map { i, item -> CGColor in
          guard let c = try color(item, "\(path)[\(i)]") else {
            throw wrongType("\(path)[\(i)]", "a color", item)
          }
          return c
        })
    case .numbers:
      if json == .null { return .none }
      return .numbers(try numbers(json, path).map { Double($0) })
    case .image:
      return try image(json, path).map { .image($0) } ?? .none
    case .path:
      return try self.path(json, path).map { .path($0) } ?? .none
    case .string, .text:
      if json == .null { return .none }
      return .string(try string(json, path))
    case .enumeration(let allowed):
      return .string(try enumeration(json, path, allowed))
    case .cornerMask:
      guard case .array(let items) = json else {
        throw wrongType(path, "a list of corner names", json)
      }
      var mask: CACornerMask = []
      for (i, item) in items.enumerated() {
        let name = try enumeration(item, "\(path)[\(i)]", CACornerMask.names.map(\.0))
        if let corner = CACornerMask.names.first(where: { $0.0 == name }) {
          mask.insert(corner.1)
        }
      }
      return .cornerMask(mask)
    case .filters:
      if json == .null { return .none }
      guard case .array(let items) = json else {
        throw wrongType(path, "a list of filter objects", json)
      }
      try checkCount(
        items, path, limit: Limits.maxFiltersPerLayer, name: "maxFiltersPerLayer",
        what: "filters on one layer")
      return .filters(
        try items.enumerated().map { i, item in try filter(item, at: "\(path)[\(i)]") })
    case .blendMode:
      if json == .null { return .none }
      return .string(try enumeration(json, path, CIFilter.blendModeNames))
    case .emitterCells:
      if json == .null { return .none }
      guard case .array(let items) = json else {
        throw wrongType(path, "a list of emitter cell objects", json)
      }
      return .emitterCells(
        try items.enumerated().map { i, item in try emitterCell(item, at: "\(path)[\(i)]") })
    case .layer, .layers, .object:
      throw SceneError.invalidValue(file: file, path: path, message: "cannot be set here")
    }
  }

  // MARK: Transforms

  /// 16 numbers `m11 … m44`, or a list of steps applied as Swift code chains them.
  func transform(_ json: JSON, _ path: String) throws -> CATransform3D {
    let shape = "a transform: 16 numbers or a list of steps"
    guard case .array(let items) = json else { throw wrongType(path, shape, json) }
    if items.count == 16, items.allSatisfy({ if case .number = $0 { true } else { false } }) {
      return CATransform3D(try numbers(json, path))
    }
    guard items.allSatisfy({ if case .object = $0 { true } else { false } }) else {
      throw SceneError.invalidTransform(
        file: file, path: path,
        message:
          "expected \(shape), found an array of \(items.count) values that are not all steps")
    }
    var t = CATransform3DIdentity
    for (i, item) in items.enumerated() {
      let stepPath = "\(path)[\(i)]"
      guard case .object(let m) = item, m.count == 1, let (name, arg) = m.first else {
        throw SceneError.invalidTransform(
          file: file, path: stepPath, message: "a transform step has exactly one key")
      }
      let argPath = "\(stepPath).\(name)"
      switch name {
      case "translate":
        let v = try numbers(arg, argPath, count: 3)
        t = CATransform3DTranslate(t, v[0], v[1], v[2])
      case "rotate":
        let v = try numbers(arg, argPath, count: 4)
        t = CATransform3DRotate(t, v[0], v[1], v[2], v[3])
      case "scale":
        let v = try numbers(arg, argPath, count: 3)
        t = CATransform3DScale(t, v[0], v[1], v[2])
      case "perspective":
        let d = try number(arg, argPath)
        guard d != 0 else {
          throw SceneError.outOfRange(
            file: file, path: argPath, expected: "a non-zero distance", found: "0")
        }
        t.m34 = -1 / d
      case "matrix":
        let v = try numbers(arg, argPath, count: 16)
        t = CATransform3DConcat(CATransform3D(v), t)
      default:
        throw SceneError.unknownTransformStep(file: file, path: stepPath, name: name)
      }
    }
    return t
  }
}
