import Foundation
import XCTest

@testable import Lamina

/// The property descriptions (Sources/Lamina/LayerProperty.swift) are the
/// one place a layer property's key is spelled, and what KVC, implicit
/// actions, the animation evaluator and the range rules read.
final class LayerPropertyTests: XCTestCase {
  static let sources = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Sources")

  /// Literals that name something else than a layer property, by file
  /// (relative to Sources/), with why.
  static let otherMeanings: [String: Set<String>] = [
    // CAEmitterCell's own keys (its class's description).
    "Lamina/CAEmitterCell.swift": [
      "name", "birthRate", "lifetime", "velocity", "scale", "spin", "color", "contents",
      "contentsRect", "contentsScale", "minificationFilterBias", "emitterCells", "style",
      "magnificationFilter", "minificationFilter",
    ],
    // CAAnimation's keys (a keyframe animation's `path`, a transition's `type`).
    "Lamina/CAAnimation+KeyValueCoding.swift": ["path", "type"],
    // A filter's name.
    "Lamina/CIFilter.swift": ["name"],
    // Transform components and value function names.
    "Lamina/CATransform3D+Decomposition.swift": ["scale"],
    "Lamina/CAValueFunctionName.swift": ["scale"],
    "Lamina/AnimationEvaluator.swift": ["scale"],
    // The scene format's keys of animations, images and the canvas.
    "LaminaScene/SceneDecoder+Animations.swift": ["path"],
    "LaminaScene/SceneDecoder.swift": ["name", "scale"],
    "LaminaScene/SceneDecoder+Values.swift": ["scale"],
    // The command's job and document keys; a device check's label; DRM.
    "lamina/Batch.swift": ["frame", "scale"],
    "LaminaBatch/Batch.swift": ["frame", "scale"],
    "LaminaBatch/BatchJob.swift": ["frame", "scale"],
    "lamina/Bench.swift": ["scale"],
    "lamina/DocumentInfo.swift": ["name", "path", "scale"],
    "LaminaLottie/FontTable.swift": ["style"],
    // The control protocol's own words: a frame event, an error's JSON path,
    // a change to frame (applied through bounds and position).
    "LaminaDisplay/ControlServer.swift": ["frame", "path"],
    "LaminaDisplay/ControlCommands.swift": ["frame"],
    "LaminaDisplay/DRMDriver.swift": ["type"],
  ]

  /// Every key and alias of the descriptions.
  static var spellings: Set<String> {
    var keys = Set(LayerKey.allCases.map(\.rawValue))
    for k in LayerKey.allCases { keys.formUnion(k.aliases) }
    return keys
  }

  /// The string literals of `line` outside comments.
  static func literals(in line: String) -> [String] {
    var found: [String] = []
    var current: String? = nil
    var previous: Character = " "
    let chars = Array(line)
    var i = 0
    while i < chars.count {
      let c = chars[i]
      if current == nil, c == "/", i + 1 < chars.count, chars[i + 1] == "/" { break }
      if c == "\"", previous != "\\" {
        if let s = current {
          found.append(s)
          current = nil
        } else {
          current = ""
        }
      } else if current != nil {
        current?.append(c)
      }
      previous = c
      i += 1
    }
    return found
  }

  /// "file:line: key" for every spelling of a property key outside the
  /// descriptions; LaminaMetamorphic (the generator and its relations,
  /// which write scenes from the spec's own key list, SpecKeys) aside.
  static func spellingsOutsideDescriptions() throws -> [String: [String]] {
    let keys = spellings
    var places: [String: [String]] = [:]
    let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    while let url = files?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let relative = url.path.replacingOccurrences(of: sources.path + "/", with: "")
      if relative.hasPrefix("LaminaMetamorphic/") { continue }
      let allowed = otherMeanings[relative] ?? []
      let text = try String(contentsOf: url, encoding: .utf8)
      for (number, line) in text.components(separatedBy: "\n").enumerated() {
        for literal in literals(in: line) where keys.contains(literal) && !allowed.contains(literal)
        {
          places[literal, default: []].append("\(relative):\(number + 1)")
        }
      }
    }
    return places
  }

  /// The done-when of issue 20: each key is spelled in one place (the
  /// description: `LayerKey`'s case, or the alias in `LayerKey.aliases`).
  func testEachKeyIsSpelledInOnePlace() throws {
    let places = try Self.spellingsOutsideDescriptions()
    XCTAssertFalse(Self.spellings.isEmpty)
    for (key, list) in places.sorted(by: { $0.key < $1.key }) {
      let outside = list.filter { !$0.hasPrefix("Lamina/LayerProperty.swift:") }
      XCTAssert(
        outside.isEmpty,
        "\"\(key)\" is spelled outside the property descriptions: \(outside.joined(separator: ", ")); use LayerKey.\(key)"
      )
      XCTAssertLessThanOrEqual(list.count, 1, "\"\(key)\" is spelled \(list.count) times: \(list)")
    }
  }

  /// The lint finds a spelling it should: a line with a key literal.
  func testLintSeesKeyLiterals() {
    XCTAssertEqual(Self.literals(in: #"x == "cornerRadius" // "opacity""#), ["cornerRadius"])
    XCTAssertEqual(Self.literals(in: #"f("a", "b\"c")"#), ["a", #"b\"c"#])
  }

  /// Every key is described by a class, once per class.
  func testEveryKeyIsDescribed() {
    var described: Set<LayerKey> = []
    for table in LayerProperty.tables {
      let keys = table.map(\.key)
      XCTAssertEqual(Set(keys).count, keys.count, "a key described twice in one class")
      described.formUnion(keys)
    }
    XCTAssertEqual(described, Set(LayerKey.allCases))
    XCTAssertEqual(
      CAShapeLayer.propertyKeys.filter { LayerKey(rawValue: $0) != nil }.count,
      CALayer.layerProperties.count + CAShapeLayer.shapeProperties.count)
  }

  /// The implicit actions read from the descriptions are Core Animation's
  /// animatable properties (the list this replaced).
  func testImplicitActionEvents() {
    let expected: Set<String> = [
      "bounds", "position", "zPosition", "anchorPoint", "anchorPointZ", "transform",
      "sublayerTransform", "hidden", "opacity", "backgroundColor", "cornerRadius",
      "borderWidth", "borderColor", "masksToBounds", "contents", "contentsRect", "contentsCenter",
      "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius", "shadowPath", "filters",
      "backgroundFilters", "compositingFilter",
      "path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase",
      "strokeStart", "strokeEnd",
      "colors", "locations", "startPoint", "endPoint",
      "fontSize", "foregroundColor",
      "instanceDelay", "instanceTransform", "instanceColor", "instanceRedOffset",
      "instanceGreenOffset", "instanceBlueOffset", "instanceAlphaOffset",
      "emitterPosition", "emitterZPosition", "emitterSize", "emitterDepth", "birthRate",
      "lifetime", "velocity", "scale", "spin", "seed",
    ]
    XCTAssertEqual(CALayer.implicitlyAnimatedKeys, expected)
    XCTAssertNotNil(CALayer.defaultAction(forKey: "hidden"))
    XCTAssertNil(CALayer.defaultAction(forKey: "isHidden"))
    XCTAssertNil(CALayer.defaultAction(forKey: "maskedCorners"))
    // "doubleSided: There is no default implied animation" (Table B-1).
    XCTAssertNil(CALayer.defaultAction(forKey: "doubleSided"))
  }

  /// The evaluator's fast paths come from the descriptions (plus the
  /// components of position, bounds and transform).
  func testAnimationFastPaths() {
    let whole = [
      "opacity", "cornerRadius", "borderWidth", "zPosition", "shadowOpacity",
      "shadowRadius", "position", "bounds", "transform", "backgroundColor",
    ]
    for key in whole { XCTAssertNotNil(AnimatedProperty.named(key), key) }
    for key in ["position.x", "bounds.size.width", "transform.rotation.z", "transform.scale"] {
      XCTAssertNotNil(AnimatedProperty.named(key), key)
    }
    let layer = CALayer()
    _ = AnimatedProperty.named("cornerRadius")?.set(layer, .number(7))
    XCTAssertEqual(layer.cornerRadius, 7)
    // Every other stored value of every class is read and written typed,
    // by key and by its Objective-C spelling; images, names, filters and
    // the tree are not.
    let shape = CAShapeLayer()
    XCTAssertEqual(AnimatedProperty.named("lineWidth")?.set(shape, .number(3)), true)
    XCTAssertEqual(shape.lineWidth, 3)
    let path = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil)
    XCTAssertEqual(AnimatedProperty.named("path")?.set(shape, .path(path)), true)
    XCTAssertTrue(shape.path === path)
    for key in ["hidden", "isHidden"] {
      XCTAssertEqual(AnimatedProperty.named(key)?.set(layer, .bool(true)), true, key)
      XCTAssertEqual(AnimatedProperty.named(key)?.get(layer).isSame(as: .bool(true)), true, key)
      layer.isHidden = false
    }
    // A shape's key on a plain layer: not its property there.
    XCTAssertEqual(AnimatedProperty.named("lineWidth")?.set(layer, .number(3)), false)
    for key in ["contents", "name", "filters", "sublayers", "mask", "string", "fillRule"] {
      XCTAssertNil(AnimatedProperty.named(key), key)
    }
  }

  /// The text keys, `contentsScale` and `bounds` redraw a drawing text layer.
  func testDrawnTextKeys() {
    XCTAssertEqual(
      LayerProperty.drawnTextKeys,
      [
        "string", "font", "fontSize", "foregroundColor", "isWrapped", "alignmentMode",
        "truncationMode", "contentsScale", "bounds",
      ])
    final class Drawn: CATextLayer {}
    XCTAssertTrue(Drawn.needsDisplay(forKey: "fontSize"))
    XCTAssertTrue(Drawn.needsDisplay(forKey: "bounds"))
    XCTAssertFalse(Drawn.needsDisplay(forKey: "opacity"))
    XCTAssertFalse(CATextLayer.needsDisplay(forKey: "fontSize"))
  }

  /// Ranges by key, as the scene decoder reads them.
  func testRanges() {
    XCTAssertEqual(CALayer.valueRange(forKey: "cornerRadius"), .side)
    XCTAssertEqual(CALayer.valueRange(forKey: "bounds"), .box)
    XCTAssertEqual(CALayer.valueRange(forKey: "frame"), .box)
    XCTAssertEqual(CALayer.valueRange(forKey: "lineDashPattern"), .dashes)
    XCTAssertEqual(CALayer.valueRange(forKey: "shadowRadius"), .blur)
    XCTAssertEqual(CALayer.valueRange(forKey: "fontSize"), .fontSize)
    XCTAssertEqual(CALayer.valueRange(forKey: "instanceTransform"), .transform)
    XCTAssertEqual(CALayer.valueRange(forKey: "emitterSize"), .coordinate)
    XCTAssertEqual(CALayer.valueRange(forKey: "instanceCount"), .count)
    XCTAssertEqual(CALayer.valueRange(forKey: "opacity"), .magnitude)
    XCTAssertNil(CALayer.valueRange(forKey: "noSuchKey"))
  }

  /// A value of `p`'s kind that differs from `fresh`'s, or nil for kinds
  /// not set here (the tree: mask, sublayers).
  static func sample(for p: LayerProperty, on fresh: CALayer) -> Any? {
    switch p.kind {
    case .number: return 0.375
    case .integer: return 3
    case .bool: return !((p.accessor.get(fresh) as? Bool) ?? false)
    case .point: return CGPoint(x: 0.25, y: 0.75)
    case .size: return CGSize(width: 3, height: 4)
    case .rect: return CGRect(x: 1, y: 2, width: 3, height: 4)
    case .transform: return CATransform3DMakeScale(2, 3, 1)
    case .color: return CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
    case .colors: return [CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1), CGColor.black]
    case .numbers: return [0.5, 1.5]
    case .image: return NSString(string: "an image stand-in")
    case .path: return CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 6))
    case .string, .text: return "sample"
    case .enumeration(let values):
      let current = String(describing: p.accessor.get(fresh) ?? "")
      return values.last { !current.contains($0) } ?? values.first
    case .cornerMask: return CACornerMask(rawValue: 1)
    case .filters: return [CIFilter(name: "CIGaussianBlur") as Any]
    case .blendMode: return "multiplyBlendMode"
    case .emitterCells: return [CAEmitterCell()]
    case .object: return ["sample": CABasicAnimation()]
    case .layer, .layers: return nil
    }
  }

  /// `copyValues(from:)` copies every stored property the descriptions
  /// list, for each class (a property added to a table but not to the
  /// copy fails here).
  func testCopyValuesCopiesEveryDescribedProperty() {
    let classes: [CALayer.Type] = [
      CALayer.self, CAShapeLayer.self, CAGradientLayer.self, CATextLayer.self,
      CAReplicatorLayer.self, CAEmitterLayer.self, CAScrollLayer.self, CATiledLayer.self,
      CAOpenGLLayer.self,
    ]
    for cls in classes {
      let fresh = cls.makeInstance()
      let source = cls.makeInstance()
      var checked = 0
      for p in cls.properties where p.accessor.isStored {
        guard let v = Self.sample(for: p, on: fresh) else { continue }
        p.accessor.set(source, v)
        let set = String(describing: p.accessor.get(source))
        if p.key == .style { continue }  // a dictionary of Any: compared below by count
        XCTAssertNotEqual(
          set, String(describing: p.accessor.get(fresh)), "\(cls).\(p.key.rawValue) not set")
      }
      let copy = cls.makeInstance()
      copy.copyValues(from: source)
      for p in cls.properties where p.accessor.isStored {
        guard Self.sample(for: p, on: fresh) != nil else { continue }
        XCTAssertEqual(
          String(describing: p.accessor.get(copy)), String(describing: p.accessor.get(source)),
          "\(cls).\(p.key.rawValue) not copied")
        checked += 1
      }
      XCTAssertGreaterThanOrEqual(checked, CALayer.layerProperties.count - 4, "\(cls)")
    }
  }

  /// `LayerTreeLimits` holds every number a description gives a bounded
  /// range to its range's limit: a value past it is refused, naming the
  /// key and the limit.
  func testLayerTreeLimitsFollowTheRanges() {
    let bounds: [LayerValueRange: (CGFloat, String)] = [
      .coordinate: (Limits.maxCoordinate, "maxCoordinate"),
      .side: (Limits.maxLayerSide, "maxLayerSide"),
      .blur: (Limits.maxBlurRadius, "maxBlurRadius"),
      .fontSize: (Limits.maxFontSize, "maxFontSize"),
    ]
    let classes: [CALayer.Type] = [
      CALayer.self, CAShapeLayer.self, CATextLayer.self, CAEmitterLayer.self,
    ]
    var checked = 0
    for cls in classes {
      let own =
        cls == CALayer.self
        ? cls.properties : Array(cls.properties.dropFirst(CALayer.layerProperties.count))
      for p in own where p.kind == .number {
        guard let (limit, name) = bounds[p.range] else { continue }
        let layer = cls.makeInstance()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        p.accessor.set(layer, Double(limit) * 2)
        XCTAssertThrowsError(try LayerTreeLimits.check(layer), "\(cls).\(p.key.rawValue)") {
          error in
          guard let v = error as? LimitViolation else { return XCTFail("\(error)") }
          XCTAssertEqual(v.key, p.key.rawValue)
          XCTAssertEqual(v.exceeded.name, name, "\(cls).\(p.key.rawValue)")
        }
        checked += 1
      }
    }
    XCTAssertGreaterThanOrEqual(checked, 10)
  }
}
