import Foundation

/// A vector of numbers, Core Image's `CIVector` (used for color-matrix rows).
public struct CIVector: Equatable, Hashable, Sendable, CustomStringConvertible {
  public var values: [CGFloat]

  public init(values: [CGFloat]) { self.values = values }

  public init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { values = [x, y, z, w] }

  public init(x: CGFloat, y: CGFloat) { values = [x, y] }

  public var count: Int { values.count }

  /// The value at `index`, or 0 past the end (as Core Image does).
  public func value(at index: Int) -> CGFloat { index < values.count ? values[index] : 0 }

  public var x: CGFloat { value(at: 0) }
  public var y: CGFloat { value(at: 1) }
  public var z: CGFloat { value(at: 2) }
  public var w: CGFloat { value(at: 3) }

  public var description: String {
    "[" + values.map { "\($0)" }.joined(separator: " ") + "]"
  }
}

/// A Core Image filter as data: a name and its inputs, for a layer's
/// `filters`, `backgroundFilters` or `compositingFilter`. The renderer
/// applies it; only the filters and blend modes Lamina renders exist.
///
/// ```swift
/// let blur = CIFilter(name: "CIGaussianBlur")!
/// blur.setValue(4, forKey: kCIInputRadiusKey)
/// layer.filters = [blur]
/// ```
public final class CIFilter: @unchecked Sendable, CustomStringConvertible {
  /// The kind of value an input takes.
  public enum InputKind: Equatable, Sendable {
    /// A number.
    case number
    /// A `CIVector` of four numbers.
    case vector
  }

  /// The filter's kind (`CIGaussianBlur`, `CIMultiplyBlendMode`, …): the
  /// name it was created with.
  public let filterName: String
  /// The name that key paths use for this filter in a layer's `filters`
  /// (`filters.<name>.inputRadius`); the kind's name until set, as in Core
  /// Animation.
  public var name: String
  private var inputs: [String: Any]

  /// The inputs of each filter Lamina knows, with their kinds and defaults.
  public static let inputDefaults: [String: [(key: String, kind: InputKind, value: Any)]] = [
    "CIGaussianBlur": [("inputRadius", .number, CGFloat(10))],
    "CIColorMatrix": [
      ("inputRVector", .vector, CIVector(x: 1, y: 0, z: 0, w: 0)),
      ("inputGVector", .vector, CIVector(x: 0, y: 1, z: 0, w: 0)),
      ("inputBVector", .vector, CIVector(x: 0, y: 0, z: 1, w: 0)),
      ("inputAVector", .vector, CIVector(x: 0, y: 0, z: 0, w: 1)),
      ("inputBiasVector", .vector, CIVector(x: 0, y: 0, z: 0, w: 0)),
    ],
    "CIColorControls": [
      ("inputSaturation", .number, CGFloat(1)), ("inputBrightness", .number, CGFloat(0)),
      ("inputContrast", .number, CGFloat(1)),
    ],
    "CIHueAdjust": [("inputAngle", .number, CGFloat(0))],
    "CIColorInvert": [],
    "CISepiaTone": [("inputIntensity", .number, CGFloat(1))],
  ]

  /// The blend modes a layer's `compositingFilter` may name.
  public static let blendModeNames: [String] = [
    "CIMultiplyBlendMode", "CIScreenBlendMode", "CIOverlayBlendMode", "CIDarkenBlendMode",
    "CILightenBlendMode", "CIColorDodgeBlendMode", "CIColorBurnBlendMode",
    "CIHardLightBlendMode", "CISoftLightBlendMode", "CIDifferenceBlendMode",
    "CIExclusionBlendMode", "CIHueBlendMode", "CISaturationBlendMode", "CIColorBlendMode",
    "CILuminosityBlendMode",
  ]

  /// Core Animation's own spellings of the blend modes a `compositingFilter`
  /// takes (`multiplyBlendMode`, `screenBlendMode`, …), each with the
  /// `CIFilter` name it means.
  public static let coreAnimationBlendModeNames: [String: String] = Dictionary(
    uniqueKeysWithValues: blendModeNames.map { ci in
      let bare = ci.dropFirst(2)
      return (bare.prefix(1).lowercased() + bare.dropFirst(), ci)
    })

  /// The Porter–Duff operators (and the other compositing formulas of GL's
  /// blend functions) a `compositingFilter` takes, by each name they go by:
  /// Core Animation's (`xor`, `sourceIn`, `destOut`, `plusL`, …) and Core
  /// Image's (`CISourceAtopCompositing`, …), each with Core Animation's name.
  public static let compositingOperatorNames: [String: String] = {
    let ca = [
      "clear", "copy", "sourceOver", "sourceIn", "sourceOut", "sourceAtop", "destOver",
      "destIn", "destOut", "destAtop", "xor", "plusL", "multiply", "minimum", "maximum",
    ]
    var names = Dictionary(uniqueKeysWithValues: ca.map { ($0, $0) })
    names["CISourceOverCompositing"] = "sourceOver"
    names["CISourceInCompositing"] = "sourceIn"
    names["CISourceOutCompositing"] = "sourceOut"
    names["CISourceAtopCompositing"] = "sourceAtop"
    names["CIAdditionCompositing"] = "plusL"
    names["CIMultiplyCompositing"] = "multiply"
    names["CIMinimumCompositing"] = "minimum"
    names["CIMaximumCompositing"] = "maximum"
    return names
  }()

  /// The `CIFilter` blend mode or Core Animation operator a
  /// `compositingFilter` name means (`"multiplyBlendMode"` →
  /// `"CIMultiplyBlendMode"`, `"CISourceInCompositing"` → `"sourceIn"`), or
  /// nil for a name Lamina does not know.
  public static func compositingMode(named name: String) -> String? {
    if blendModeNames.contains(name) { return name }
    return coreAnimationBlendModeNames[name] ?? compositingOperatorNames[name]
  }

  /// The names of the filters (not blend modes), sorted.
  public static var filterNames: [String] { inputDefaults.keys.sorted() }

  /// True for a blend mode's name.
  public var isBlendMode: Bool { Self.blendModeNames.contains(filterName) }

  /// The filter named `name` with its default inputs, or nil when Lamina
  /// does not know the name.
  public init?(name: String) {
    if let defaults = Self.inputDefaults[name] {
      inputs = Dictionary(uniqueKeysWithValues: defaults.map { ($0.key, $0.value) })
    } else if Self.blendModeNames.contains(name) {
      inputs = [:]
    } else {
      return nil
    }
    self.filterName = name
    self.name = name
  }

  /// A copy with the same kind, name and inputs.
  public func copy() -> CIFilter {
    let c = CIFilter(name: filterName)!
    c.name = name
    c.inputs = inputs
    return c
  }

  /// The filter's input keys (the implicit `inputImage` and, for blend
  /// modes, `inputBackgroundImage` included).
  public var inputKeys: [String] {
    var keys = ["inputImage"]
    if isBlendMode { keys.append("inputBackgroundImage") }
    return keys + (Self.inputDefaults[filterName] ?? []).map(\.key)
  }

  /// The kind of value `key` takes on this filter, or nil when it has no such input.
  public func inputKind(forKey key: String) -> InputKind? {
    Self.inputDefaults[filterName]?.first { $0.key == key }?.kind
  }

  /// Sets an input (numbers as any numeric type; vectors as `CIVector` or
  /// an array of numbers).
  public func setValue(_ value: Any?, forKey key: String) {
    guard let value = Convert.unwrap(value) else {
      inputs[key] = nil
      return
    }
    switch inputKind(forKey: key) {
    case .number: if let v = Convert.cgFloat(value) { inputs[key] = v }
    case .vector:
      if let v = value as? CIVector {
        inputs[key] = v
      } else if let n = Convert.numbers(value) {
        inputs[key] = CIVector(values: n)
      }
    case nil: inputs[key] = value
    }
  }

  /// The value of an input (numbers as CGFloat, vectors as CIVector), or
  /// `name` for the key "name".
  public func value(forKey key: String) -> Any? {
    key == "name" ? name : inputs[key]
  }

  /// The kind of the input `key` of any filter Lamina knows (how a key path
  /// `filters.<name>.<key>` is typed before the filter is known).
  static func anyInputKind(forKey key: String) -> InputKind? {
    for list in inputDefaults.values {
      if let d = list.first(where: { $0.key == key }) { return d.kind }
    }
    return nil
  }

  /// Resets every input to its default.
  public func setDefaults() {
    for d in Self.inputDefaults[filterName] ?? [] { inputs[d.key] = d.value }
  }

  public var description: String {
    name == filterName ? "CIFilter(\(name))" : "CIFilter(\(filterName), name: \(name))"
  }
}

/// The key of a filter's radius input.
public let kCIInputRadiusKey = "inputRadius"
/// The key of a filter's angle input.
public let kCIInputAngleKey = "inputAngle"
/// The key of a filter's intensity input.
public let kCIInputIntensityKey = "inputIntensity"
/// The key of a filter's saturation input.
public let kCIInputSaturationKey = "inputSaturation"
/// The key of a filter's brightness input.
public let kCIInputBrightnessKey = "inputBrightness"
/// The key of a filter's contrast input.
public let kCIInputContrastKey = "inputContrast"
