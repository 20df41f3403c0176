import Foundation
import LaminaScene

// Relations that change the tree in ways Core Animation draws the same.
extension Relation {
  static let structure: [Relation] = [wrapContainer, splitSiblings, insertInvisible]

  /// Layers whose sublayers may be regrouped under identity containers
  /// without changing what Core Animation draws:
  /// - not a CATransformLayer: its sublayers share its 3D context, and a
  ///   container would flatten them into a plane of their own;
  /// - not a CAReplicatorLayer: it replicates its sublayers, so a container
  ///   changes what is replicated (and the order instances draw in);
  /// - no sublayerTransform (set or animated): it applies to the direct
  ///   sublayers only, so a container would take it and hide it from them;
  /// - no sublayer with an animated zPosition: containers are ordered by
  ///   their own zPosition, which stands for the static order only.
  /// Inside such a layer every sublayer is flattened into its plane, so a
  /// container at z = zPosition of its first member, holding a run of the
  /// sublayers in drawing order, draws them exactly as before: it is not
  /// a group (opacity 1, no effects) and maps its space to the parent's
  /// one-to-one.
  static func regroupable(_ root: JSON, minimumSublayers: Int) -> [LayerPath] {
    root.layerPaths().compactMap { path, layer in
      guard !["CATransformLayer", "CAReplicatorLayer"].contains(layer.layerClass),
        !layer.members.contains(where: { $0.key.hasPrefix("sublayerTransform") }),
        !animates(layer, "sublayerTransform")
      else { return nil }
      let children = layer["sublayers"]?.elements ?? []
      guard children.count >= minimumSublayers,
        !children.contains(where: { animates($0, "zPosition") })
      else { return nil }
      return path
    }
  }

  /// Whether `layer` has an animation of `key` or one of its components.
  static func animates(_ layer: JSON, _ key: String) -> Bool {
    (layer["animations"]?.elements ?? []).contains {
      guard let keyPath = $0["keyPath"]?.string else { return false }
      return keyPath == key || keyPath.hasPrefix(key + ".")
    }
  }

  /// The sublayers in the order they are drawn (stable by zPosition).
  static func drawingOrder(_ children: [JSON]) -> [JSON] {
    children.enumerated().sorted {
      let a = $0.element["zPosition"]?.number ?? 0
      let b = $1.element["zPosition"]?.number ?? 0
      return a != b ? a < b : $0.offset < $1.offset
    }.map(\.element)
  }

  /// A layer that maps its space onto its parent's one to one and draws
  /// nothing, in one of several spellings (a zero-size layer at the origin,
  /// a frame at the origin, an anchor at the corner); at `z`.
  static func container(_ members: [JSON], z: Double, _ random: inout RandomSource) -> JSON {
    let w = Double(random.int(0...80))
    let h = Double(random.int(0...80))
    var m: [(String, JSON)]
    switch random.int(0...3) {
    case 0:
      m = [
        ("bounds", .array([0, 0, 0, 0].map(JSON.number))),
        ("position", .array([0, 0].map(JSON.number))),
      ]
    case 1: m = [("frame", .array([0, 0, w, h].map(JSON.number)))]
    case 2:
      m = [
        ("anchorPoint", .array([0, 0].map(JSON.number))),
        ("bounds", .array([0, 0, w, h].map(JSON.number))),
        ("position", .array([0, 0].map(JSON.number))),
      ]
    default:
      m = [
        ("class", .string("CALayer")), ("frame", .array([0, 0, w, h].map(JSON.number))),
        ("opacity", .number(1)),
        ("transform", .array([.object([("scale", .array([1, 1, 1].map(JSON.number)))])])),
      ]
    }
    if z != 0 { m.append(("zPosition", .number(z))) }
    m.append(("sublayers", .array(members)))
    return .object(m)
  }

  /// The case with the sublayers of one regroupable layer (in drawing
  /// order) replaced by what `regroup` makes of them, compared with the case.
  static func regrouped(
    _ s: Subject, _ name: String, stream: UInt64, minimumSublayers: Int,
    _ regroup: ([JSON], inout RandomSource) -> [JSON]
  ) -> Outcome {
    var random = s.random(stream)
    let parents = regroupable(s.testCase.root, minimumSublayers: minimumSublayers)
    guard !parents.isEmpty else { return .notApplicable }
    let path = random.pick(parents)
    let root = s.testCase.root.replacingLayer(at: path) { layer in
      let ordered = drawingOrder(layer["sublayers"]?.elements ?? [])
      return layer.setting("sublayers", .array(regroup(ordered, &random)))
    }
    return s.compareScene(name, s.testCase.withRoot(root).scene, .structural)
  }

  /// A run of sublayers (in drawing order) moved into an identity container.
  static let wrapContainer = Relation(
    name: "wrap-container",
    summary: "a run of sublayers moved into an identity container layer",
    transformsScene: true
  ) { s in
    regrouped(s, "wrap-container", stream: 5, minimumSublayers: 1) { ordered, random in
      let start = random.int(0...(ordered.count - 1))
      let end = random.int(start...(ordered.count - 1))
      let run = Array(ordered[start...end])
      let z = run[0]["zPosition"]?.number ?? 0
      return Array(ordered[..<start]) + [container(run, z: z, &random)] + ordered[(end + 1)...]
    }
  }

  /// A sibling list (in drawing order) split under two identity containers.
  static let splitSiblings = Relation(
    name: "split-siblings", summary: "a sibling list split under two identity containers",
    transformsScene: true
  ) { s in
    regrouped(s, "split-siblings", stream: 6, minimumSublayers: 2) { ordered, random in
      let k = random.int(1...(ordered.count - 1))
      let first = Array(ordered[..<k])
      let second = Array(ordered[k...])
      return [
        container(first, z: first[0]["zPosition"]?.number ?? 0, &random),
        container(second, z: second[0]["zPosition"]?.number ?? 0, &random),
      ]
    }
  }

  /// Layers that draw nothing, inserted anywhere (in transform layers,
  /// replicators and masks too): a hidden subtree, a subtree at opacity 0
  /// (its own animations dropped, so that none brings the opacity back),
  /// and empty layers of several classes. Core Animation draws none of
  /// them, whatever their geometry, and a layer that draws nothing changes
  /// nothing for its siblings, its parent's group, clip, shadow or mask.
  static let insertInvisible = Relation(
    name: "insert-invisible",
    summary: "hidden, opacity-0 and empty layers inserted anywhere",
    transformsScene: true
  ) { s in
    var random = s.random(7)
    var root = s.testCase.root
    for _ in 0..<random.int(1...3) {
      let layers = root.layerPaths()
      let (path, parent) = random.pick(layers)
      let children = parent["sublayers"]?.elements ?? []
      let invisible = invisibleLayer(&random, seed: s.testCase.seed)
      let at = random.int(0...children.count)
      root = root.replacingLayer(at: path) { layer in
        var list = children
        list.insert(invisible, at: at)
        return layer.setting("sublayers", .array(list))
      }
    }
    return s.compareScene("insert-invisible", s.testCase.withRoot(root).scene, .structural)
  }

  static func invisibleLayer(_ random: inout RandomSource, seed: UInt64) -> JSON {
    let subtree = SceneGenerator.subtree(
      seed: seed &+ random.next(), width: Double(random.int(8...80)),
      height: Double(random.int(8...80)))
    let frame = JSON.array(
      [random.int(-10...60), random.int(-10...60), random.int(0...60), random.int(0...60)].map {
        JSON.number(Double($0))
      })
    switch random.int(0...5) {
    case 0: return subtree.settingLast("isHidden", .bool(true))
    case 1: return subtree.removing("animations").settingLast("opacity", .number(0))
    case 2: return .object([("frame", frame)])
    case 3:
      return .object([
        ("frame", frame), ("zPosition", .number(Double(random.int(-20...20)))),
        ("transform.rotation.y", .number(Double(random.int(-3...3)))),
        ("masksToBounds", .bool(true)), ("cornerRadius", .number(4)),
      ])
    case 4:
      // Classes that draw nothing without their content keys.
      return .object([
        (
          "class",
          .string(
            random.pick([
              "CAShapeLayer", "CATextLayer", "CAReplicatorLayer", "CATransformLayer",
              "CAGradientLayer",
            ]))
        ),
        ("frame", frame),
      ])
    default:
      return .object([("frame", frame), ("backgroundColor", .null), ("borderWidth", .number(0))])
    }
  }
}
