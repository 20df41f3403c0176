import Foundation
import LaminaScene

/// One generated test case: a scene file and the time it is rendered at.
package struct GeneratedCase {
  /// The seed the scene was generated from (relations derive their own
  /// choices from it).
  package var seed: UInt64
  /// The scene file, as JSON.
  package var scene: JSON
  /// Seconds after scene time 0.
  package var time: Double

  package init(seed: UInt64, scene: JSON, time: Double) {
    self.seed = seed
    self.scene = scene
    self.time = time
  }

  /// The root layer object.
  var root: JSON { scene["root"] ?? .object([]) }

  /// This case with its root layer replaced.
  func withRoot(_ root: JSON) -> GeneratedCase {
    GeneratedCase(seed: seed, scene: scene.setting("root", root), time: time)
  }

  /// The canvas size in points.
  var canvasSize: (width: Double, height: Double) {
    let canvas = scene["canvas"]
    return (canvas?["width"]?.number ?? 64, canvas?["height"]?.number ?? 64)
  }
}

/// Makes random layer trees that use every key of the scene format: every
/// layer class, effect, filter, blend mode, mask, shadow, 3D context and
/// animation, at a random time, on small canvases (48–128 points, scale 1)
/// so that hundreds render in seconds. The same seed gives the same scene.
///
/// ```swift
/// let scene = SceneGenerator.generate(seed: 42)
/// print(scene.scene.serialized())   // a scene file `lamina render` reads
/// ```
package struct SceneGenerator {
  /// The images a scene may use, as named in its `images` entry (files in
  /// this module's `images` folder).
  package static let images: [(name: String, file: String, width: Double, height: Double)] = [
    ("photo", "images/photo.png", 160, 120),
    ("quads", "images/alphaquads.png", 64, 64),
    ("nine", "images/nineslice.png", 48, 48),
    ("oriented", "images/oriented.png", 64, 48),
    ("dot", "images/dot.png", 16, 16),
    ("stripes", "images/stripes.jpg", 48, 32),
  ]

  /// The `images` entry of every generated scene.
  static var imageTable: JSON { .object(images.map { ($0.name, JSON.string($0.file)) }) }

  var random: RandomSource
  /// Layers still to make (keeps every scene cheap to render).
  var budget: Int
  var names = 0

  init(seed: UInt64) {
    random = RandomSource(seed: seed)
    budget = 0
  }

  /// The scene of `seed`; `maxLayers` bounds its size (scenes drawn only
  /// to leave state behind are smaller).
  package static func generate(seed: UInt64, maxLayers: Int = 14) -> GeneratedCase {
    var g = SceneGenerator(seed: seed)
    return g.scene(seed: seed, maxLayers: maxLayers)
  }

  mutating func scene(seed: UInt64, maxLayers: Int) -> GeneratedCase {
    budget = random.int(min(4, maxLayers)...maxLayers)
    let width = Double(random.int(48...128))
    let height = Double(random.int(48...128))
    var canvas: [(String, JSON)] = [("width", .number(width)), ("height", .number(height))]
    if random.chance(0.3) { canvas.append(("scale", .number(1))) }
    if random.chance(0.8) { canvas.append(("background", opaqueColor())) }
    let root = rootLayer(width: width, height: height)
    var top: [(String, JSON)] = [("lamina", .number(1)), ("canvas", .object(canvas))]
    // Every scene names every image, so that relations may add layers that
    // show any of them.
    top.append(("images", Self.imageTable))
    top.append(("root", root))
    // Times land on frames of a 60 Hz sequence, and often at 0 (where
    // most scenes are looked at).
    let time = random.chance(0.25) ? 0 : Double(random.int(0...180)) / 60
    return GeneratedCase(seed: seed, scene: .object(top), time: time)
  }

  /// The root: the canvas-sized layer that holds the tree, sometimes with
  /// effects of its own, a perspective or another class.
  mutating func rootLayer(width: Double, height: Double) -> JSON {
    var m: [(String, JSON)] = []
    let cls = random.weighted([
      ("CALayer", 8), ("CATransformLayer", 1), ("CAGradientLayer", 0.6), ("CAScrollLayer", 0.4),
    ])
    if cls != "CALayer" { m.append(("class", .string(cls))) }
    if random.chance(0.08) {
      m.append(("bounds", .array([0, 0, width, height].map(JSON.number))))
      m.append(("position", .array([width / 2, height / 2].map(JSON.number))))
    }
    var perspective = false
    if cls == "CATransformLayer" || random.chance(0.15) {
      m.append(("sublayerTransform", perspectiveTransform()))
      perspective = true
    }
    if cls == "CAGradientLayer" { gradientKeys(&m, width: width, height: height) }
    if cls == "CALayer", random.chance(0.35) { m.append(("backgroundColor", color())) }
    if random.chance(0.08) { m.append(("cornerRadius", .number(random.number(2...16, step: 1)))) }
    if random.chance(0.1) { m.append(("masksToBounds", .bool(true))) }
    if random.chance(0.06) { m.append(("opacity", .number(random.number(0.4...0.95)))) }
    if random.chance(0.05) { m.append(("filters", filters(blur: true))) }
    if random.chance(0.05) {
      m.append(("borderWidth", .number(random.number(1...4, step: 0.5))))
      m.append(("borderColor", color()))
    }
    if random.chance(0.15) { m.append(("name", .string("root"))) }
    let context = Context(
      depth: 1, width: width, height: height, inTransformLayer: cls == "CATransformLayer",
      perspective: perspective, isMask: false)
    var children: [JSON] = []
    let count = random.int(1...5)
    for _ in 0..<count where budget > 0 { children.append(layer(context)) }
    m.append(("sublayers", .array(children)))
    return .object(m)
  }

  /// Where a layer is made: its parent's size and what the parent does to it.
  struct Context {
    var depth: Int
    var width: Double
    var height: Double
    /// The parent is a CATransformLayer: the layer keeps its depth.
    var inTransformLayer: Bool
    /// The parent's sublayerTransform has a perspective.
    var perspective: Bool
    /// The layer is (in) a mask: only its alpha counts.
    var isMask: Bool
  }

  static let maxDepth = 4

  mutating func layerClass(_ c: Context) -> String {
    if c.isMask {
      return random.weighted([
        ("CALayer", 4), ("CAGradientLayer", 2), ("CAShapeLayer", 2), ("CATextLayer", 0.5),
      ])
    }
    var choices: [(String, Double)] = [
      ("CALayer", 8), ("CAGradientLayer", 2), ("CAShapeLayer", 2), ("CATextLayer", 1.2),
      ("CAReplicatorLayer", 1), ("CATransformLayer", 1.2), ("CAScrollLayer", 0.8),
    ]
    if c.depth <= 2 { choices.append(("CAEmitterLayer", 0.9)) }
    return random.weighted(choices)
  }

  /// A random layer of a random class, with its keys, sublayers, mask and
  /// animations.
  mutating func layer(_ c: Context) -> JSON {
    budget -= 1
    let cls = layerClass(c)
    var m: [(String, JSON)] = []
    if cls != "CALayer" || random.chance(0.05) { m.append(("class", .string(cls))) }
    if random.chance(0.3) {
      names += 1
      m.append(("name", .string("layer\(names)")))
    }
    let (w, h) = geometry(&m, c, cls)
    effects(&m, c, cls, width: w, height: h)
    switch cls {
    case "CAGradientLayer": gradientKeys(&m, width: w, height: h)
    case "CAShapeLayer": shapeKeys(&m, width: w, height: h)
    case "CATextLayer": textKeys(&m)
    case "CAReplicatorLayer": replicatorKeys(&m, width: w, height: h)
    case "CAScrollLayer": scrollKeys(&m)
    case "CAEmitterLayer": emitterKeys(&m, width: w, height: h)
    default: break
    }
    let isTransformLayer = cls == "CATransformLayer"
    var perspective = false
    if !isTransformLayer, random.chance(c.depth == 1 ? 0.12 : 0.06) {
      m.append(("sublayerTransform", perspectiveTransform()))
      perspective = true
    } else if isTransformLayer, random.chance(0.4) {
      m.append(("sublayerTransform", perspectiveTransform()))
      perspective = true
    }
    // Sublayers: a transform layer always has some (it draws nothing of its
    // own), a replicator usually.
    let wanted =
      isTransformLayer
      ? random.int(2...5) : cls == "CAReplicatorLayer" ? random.int(1...2) : random.int(0...3)
    if c.depth < Self.maxDepth, budget > 0, wanted > 0 {
      let inner = Context(
        depth: c.depth + 1, width: w, height: h, inTransformLayer: isTransformLayer,
        perspective: perspective, isMask: c.isMask)
      var children: [JSON] = []
      for _ in 0..<wanted where budget > 0 || (isTransformLayer && children.count < 2) {
        children.append(layer(inner))
      }
      if !children.isEmpty { m.append(("sublayers", .array(children))) }
    }
    if !c.isMask, !isTransformLayer, c.depth < Self.maxDepth, random.chance(0.09) {
      let maskContext = Context(
        depth: c.depth + 1, width: w, height: h, inTransformLayer: false, perspective: false,
        isMask: true)
      budget -= 1
      m.append(("mask", layer(maskContext)))
    }
    if random.chance(c.isMask ? 0.1 : 0.18) {
      m.append(("animations", animations(cls, c, width: w, height: h)))
    }
    return .object(m)
  }

  // MARK: Geometry

  /// Sets the layer's place and size (through `frame`, or `bounds` and
  /// `position` with an anchor point) and its transform; returns its size.
  mutating func geometry(_ m: inout [(String, JSON)], _ c: Context, _ cls: String) -> (
    Double, Double
  ) {
    let step = random.chance(0.7) ? 1 : 0.25
    let minSide = cls == "CATextLayer" ? 20.0 : 4
    let minHeight = cls == "CATextLayer" ? 12.0 : 4
    let w = random.number(
      max(minSide, c.width * 0.2)...max(minSide + 2, c.width * 0.85), step: step)
    let h = random.number(
      max(minHeight, c.height * 0.2)...max(minHeight + 2, c.height * 0.85), step: step)
    let x = random.number(-w * 0.2...max(0, c.width - w * 0.8), step: step)
    let y = random.number(-h * 0.2...max(0, c.height - h * 0.8), step: step)
    if c.inTransformLayer || random.chance(0.4) {
      // bounds + position, possibly with a bounds origin and an anchor.
      var origin = (0.0, 0.0)
      if random.chance(0.15) {
        origin = (random.number(-10...10, step: 1), random.number(-10...10, step: 1))
      }
      m.append(("bounds", .array([origin.0, origin.1, w, h].map(JSON.number))))
      var anchor = (0.5, 0.5)
      if random.chance(0.25) {
        anchor = (random.pick([0, 0.25, 0.5, 1]), random.pick([0, 0.5, 0.75, 1]))
        m.append(("anchorPoint", .array([anchor.0, anchor.1].map(JSON.number))))
      }
      let px =
        c.inTransformLayer ? c.width / 2 + random.number(-20...20, step: 1) : x + anchor.0 * w
      let py =
        c.inTransformLayer ? c.height / 2 + random.number(-20...20, step: 1) : y + anchor.1 * h
      m.append(("position", .array([px, py].map(JSON.number))))
    } else {
      m.append(("frame", .array([x, y, w, h].map(JSON.number))))
    }
    if random.chance(c.inTransformLayer ? 0.3 : 0.06) {
      m.append(("anchorPointZ", .number(random.number(-20...20, step: 1))))
    }
    if random.chance(c.inTransformLayer ? 0.5 : 0.12) {
      m.append(("zPosition", .number(random.number(-30...30, step: 1))))
    }
    if c.inTransformLayer || (c.perspective && random.chance(0.6)) {
      let (key, value) = transform3D()
      m.append((key, value))
    } else if random.chance(0.22) {
      let (key, value) = transform2D()
      m.append((key, value))
    } else if random.chance(0.05) {
      // An identity written out (rotation by 0, scale 1): same as none.
      m.append(("transform", .array([.object([("scale", .array([1, 1, 1].map(JSON.number)))])])))
    }
    return (w, h)
  }

  mutating func transform2D() -> (String, JSON) {
    switch random.int(0...6) {
    case 0: return ("transform.rotation.z", .number(random.number(-3.2...3.2)))
    case 1: return ("transform.rotation", .number(random.number(-1.6...1.6)))
    case 2: return ("transform.scale", .number(random.number(0.5...1.5)))
    case 3: return ("transform.scale.x", .number(random.number(0.5...1.5)))
    case 4: return ("transform.translation.x", .number(random.number(-10...10, step: 0.5)))
    case 5:
      // 16 numbers: an affine matrix (rotation, scale, shear, translation).
      let a = random.number(-1.6...1.6)
      let s = random.number(0.6...1.3)
      let shear = random.chance(0.3) ? random.number(-0.4...0.4) : 0
      let tx = random.number(-8...8, step: 0.5)
      let ty = random.number(-8...8, step: 0.5)
      let values = [
        s * cos(a), s * sin(a), 0, 0, -s * sin(a) + shear, s * cos(a), 0, 0, 0, 0, 1, 0, tx, ty,
        0, 1,
      ].map { ($0 * 1e4).rounded() / 1e4 }
      return ("transform", .array(values.map(JSON.number)))
    default:
      var steps: [JSON] = []
      for _ in 0..<random.int(1...3) {
        switch random.int(0...2) {
        case 0:
          steps.append(
            .object([
              (
                "translate",
                .array(
                  [random.number(-10...10, step: 0.5), random.number(-10...10, step: 0.5), 0].map(
                    JSON.number))
              )
            ]))
        case 1:
          steps.append(
            .object([("rotate", .array([random.number(-3.2...3.2), 0, 0, 1].map(JSON.number)))]))
        default:
          steps.append(
            .object([
              (
                "scale",
                .array([random.number(0.6...1.4), random.number(0.6...1.4), 1].map(JSON.number))
              )
            ]))
        }
      }
      return ("transform", .array(steps))
    }
  }

  /// A 3D transform, as a key path (`transform.rotation.y`) or as steps.
  mutating func transform3D() -> (String, JSON) {
    if random.chance(0.2) {
      let key = random.pick(["transform.rotation.y", "transform.rotation.x"])
      return (key, .number(random.number(-3.2...3.2)))
    }
    if random.chance(0.05) {
      return ("transform.translation.z", .number(random.number(-30...30, step: 1)))
    }
    return ("transform", steps3D())
  }

  /// Rotations about x and y, a depth offset, sometimes a matrix step or a
  /// perspective of its own.
  mutating func steps3D() -> JSON {
    var steps: [JSON] = []
    if random.chance(0.5) {
      steps.append(
        .object([
          ("translate", .array([0, 0, random.number(-40...40, step: 1)].map(JSON.number)))
        ]))
    }
    let axis = random.pick([[0.0, 1, 0], [1.0, 0, 0], [1.0, 1, 0], [0.0, 0, 1]])
    steps.append(
      .object([("rotate", .array(([random.number(-3.2...3.2)] + axis).map(JSON.number)))]))
    if random.chance(0.3) {
      steps.append(
        .object([
          ("translate", .array([0, 0, random.number(-30...30, step: 1)].map(JSON.number)))
        ]))
    }
    if random.chance(0.1) {
      steps.append(.object([("perspective", .number(random.number(150...600, step: 10)))]))
    }
    if random.chance(0.1) {
      let s = random.number(0.7...1.2)
      steps.append(
        .object([
          ("matrix", .array([s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1].map(JSON.number)))
        ]))
    }
    return .array(steps)
  }

  mutating func perspectiveTransform() -> JSON {
    var steps: [JSON] = [.object([("perspective", .number(random.number(120...600, step: 10)))])]
    if random.chance(0.3) {
      steps.append(
        .object([
          ("rotate", .array([random.number(-0.8...0.8), 0, 1, 0].map(JSON.number)))
        ]))
    }
    return .array(steps)
  }

  // MARK: Effects

  /// The CALayer keys every class has: background, corners, border, clip,
  /// contents, shadow, rasterization, filters, blending, visibility.
  mutating func effects(
    _ m: inout [(String, JSON)], _ c: Context, _ cls: String, width w: Double, height h: Double
  ) {
    let plain = cls == "CALayer" || cls == "CAScrollLayer" || cls == "CAReplicatorLayer"
    // A transform layer ignores these; setting some checks that it does.
    let ignoredOnly = cls == "CATransformLayer"
    if random.chance(plain ? 0.7 : ignoredOnly ? 0.15 : 0.2) {
      m.append(("backgroundColor", c.isMask ? maskColor() : color()))
    }
    if random.chance(0.2) {
      m.append(("cornerRadius", .number(random.number(0...min(w, h) / 2, step: 0.5))))
      if random.chance(0.4) { m.append(("maskedCorners", corners())) }
    }
    if random.chance(0.14) {
      m.append(("borderWidth", .number(random.number(0.5...4, step: 0.5))))
      if random.chance(0.8) { m.append(("borderColor", color())) }
    }
    if random.chance(0.18) { m.append(("masksToBounds", .bool(true))) }
    if random.chance(plain || ignoredOnly ? 0.16 : 0.04) { contentsKeys(&m) }
    if random.chance(0.03) { m.append(("isHidden", .bool(true))) }
    if random.chance(0.2) {
      m.append(("opacity", .number(random.chance(0.08) ? 0 : random.number(0.2...0.95))))
    }
    if random.chance(c.perspective || c.inTransformLayer ? 0.35 : 0.05) {
      m.append(("isDoubleSided", .bool(false)))
    }
    if random.chance(0.05) { m.append(("isGeometryFlipped", .bool(true))) }
    if !c.isMask, random.chance(0.13) {
      m.append(("shadowOpacity", .number(random.number(0.3...1))))
      if random.chance(0.8) { m.append(("shadowRadius", .number(random.number(0...6, step: 0.5)))) }
      if random.chance(0.7) {
        m.append(
          (
            "shadowOffset",
            .array(
              [random.number(-4...4, step: 1), random.number(-4...4, step: 1)].map(JSON.number))
          ))
      }
      if random.chance(0.5) { m.append(("shadowColor", color())) }
      if random.chance(0.3) { m.append(("shadowPath", .string(svgPath(width: w, height: h)))) }
    }
    if random.chance(0.07) {
      m.append(("shouldRasterize", .bool(true)))
      if random.chance(0.5) {
        m.append(("rasterizationScale", .number(random.pick([0.5, 1, 2]))))
      }
    }
    if random.chance(0.09) { m.append(("filters", filters(blur: true))) }
    if !c.isMask, random.chance(0.05) { m.append(("backgroundFilters", filters(blur: true))) }
    if !c.isMask, random.chance(0.09) {
      m.append(("compositingFilter", .string(random.pick(SpecKeys.blendModes))))
    }
  }

  mutating func contentsKeys(_ m: inout [(String, JSON)]) {
    m.append(("contents", .string(random.pick(Self.images).name)))
    if random.chance(0.6) {
      m.append(("contentsGravity", .string(random.pick(SpecKeys.gravities))))
    }
    if random.chance(0.2) {
      let x = random.number(0...0.5, step: 0.125)
      let y = random.number(0...0.5, step: 0.125)
      m.append(
        (
          "contentsRect",
          .array(
            [
              x, y, random.number(0.25...1 - x, step: 0.125),
              random.number(0.25...1 - y, step: 0.125),
            ].map(JSON.number))
        ))
    }
    if random.chance(0.2) {
      m.append(("contentsCenter", .array([0.25, 0.25, 0.5, 0.5].map(JSON.number))))
    }
    if random.chance(0.2) { m.append(("contentsScale", .number(random.pick([0.5, 1, 2, 3])))) }
    if random.chance(0.15) {
      m.append(("magnificationFilter", .string(random.pick(SpecKeys.contentsFilters))))
    }
    if random.chance(0.15) {
      m.append(("minificationFilter", .string(random.pick(SpecKeys.contentsFilters))))
    }
  }

  mutating func corners() -> JSON {
    let chosen = SpecKeys.corners.filter { _ in random.chance(0.5) }
    return .array(chosen.map(JSON.string))
  }
}

extension SceneGenerator {
  /// A random subtree of at most `layers` layers for a parent of the given
  /// size (what relations insert as hidden or transparent layers).
  static func subtree(seed: UInt64, width: Double, height: Double, layers: Int = 3) -> JSON {
    var g = SceneGenerator(seed: seed)
    g.budget = layers
    return g.layer(
      Context(
        depth: maxDepth - 1, width: width, height: height, inTransformLayer: false,
        perspective: false, isMask: false))
  }
}
