import Foundation
import LaminaScene

// Scenes are generated, transformed and shrunk as JSON (LaminaScene's
// ordered `JSON`, so that keys stay in the order they are set, as the
// loader requires), and written as scene files that `lamina render` reads.

extension JSON {
  /// The members of an object (empty for anything else).
  package var members: [(key: String, value: JSON)] {
    guard case .object(let m) = self else { return [] }
    return m
  }

  /// The elements of an array (empty for anything else).
  package var elements: [JSON] {
    guard case .array(let items) = self else { return [] }
    return items
  }

  package var number: Double? {
    guard case .number(let v) = self else { return nil }
    return v
  }

  package var string: String? {
    guard case .string(let s) = self else { return nil }
    return s
  }

  /// This object with `key` set to `value`: replaced where it is, or
  /// appended (keys are applied in order, so an appended key wins).
  package func setting(_ key: String, _ value: JSON) -> JSON {
    var m = members
    if let i = m.firstIndex(where: { $0.key == key }) {
      m[i].value = value
    } else {
      m.append((key, value))
    }
    return .object(m)
  }

  /// This object with `key` moved to the end and set to `value`, so that it
  /// is applied after every other key.
  package func settingLast(_ key: String, _ value: JSON) -> JSON {
    .object(members.filter { $0.key != key } + [(key, value)])
  }

  /// This object without `key`.
  package func removing(_ key: String) -> JSON { .object(members.filter { $0.key != key }) }

  /// This object without the keys `drop` accepts.
  package func removingKeys(where drop: (String) -> Bool) -> JSON {
    .object(members.filter { !drop($0.key) })
  }

  // MARK: Writing

  /// The scene-file text: objects one key a line where they hold objects,
  /// lists of numbers on one line, numbers as short as they read back.
  package func serialized() -> String {
    var out = ""
    write(into: &out, indent: "")
    out += "\n"
    return out
  }

  /// Compact text (for hashing and quick comparisons).
  package func compact() -> String {
    var out = ""
    writeCompact(into: &out)
    return out
  }

  private var isFlat: Bool {
    switch self {
    case .object(let m): return m.allSatisfy { $0.value.isScalar }
    case .array(let items): return items.allSatisfy { $0.isScalar } || items.isEmpty
    default: return true
    }
  }

  private var isScalar: Bool {
    switch self {
    case .object, .array: return false
    default: return true
    }
  }

  private func write(into out: inout String, indent: String) {
    if isFlat || compact().count <= 72 {
      writeCompact(into: &out)
      return
    }
    let inner = indent + "  "
    switch self {
    case .object(let m):
      out += "{\n"
      for (i, (key, value)) in m.enumerated() {
        out += inner + jsonString(key) + ": "
        value.write(into: &out, indent: inner)
        out += i + 1 < m.count ? ",\n" : "\n"
      }
      out += indent + "}"
    case .array(let items):
      out += "[\n"
      for (i, item) in items.enumerated() {
        out += inner
        item.write(into: &out, indent: inner)
        out += i + 1 < items.count ? ",\n" : "\n"
      }
      out += indent + "]"
    default:
      writeCompact(into: &out)
    }
  }

  private func writeCompact(into out: inout String) {
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .number(let v): out += Self.format(v)
    case .string(let s): out += jsonString(s)
    case .array(let items):
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += ", " }
        item.writeCompact(into: &out)
      }
      out += "]"
    case .object(let m):
      out += "{ "
      for (i, (key, value)) in m.enumerated() {
        if i > 0 { out += ", " }
        out += jsonString(key) + ": "
        value.writeCompact(into: &out)
      }
      out += m.isEmpty ? "}" : " }"
    }
  }

  /// Whole numbers without a fraction; others as Swift prints them (the
  /// shortest text that reads back as the same double).
  package static func format(_ v: Double) -> String {
    if v == v.rounded(), abs(v) < 1e15, let whole = Int(exactly: v) { return String(whole) }
    return String(v)
  }

  /// Parses scene-file text (strict JSON, keys in order).
  package static func parse(_ text: String) throws -> JSON { try JSONParser.parse(Data(text.utf8)) }
}

/// Where a layer sits in a scene: the steps from the root, each a sublayer
/// index or the mask.
package struct LayerPath: Hashable, CustomStringConvertible, Sendable {
  package enum Step: Hashable, Sendable {
    case sublayer(Int)
    case mask
  }
  package var steps: [Step]

  package init(_ steps: [Step] = []) { self.steps = steps }

  package static let root = LayerPath()

  package func appending(_ step: Step) -> LayerPath { LayerPath(steps + [step]) }

  package var parent: LayerPath? { steps.isEmpty ? nil : LayerPath(Array(steps.dropLast())) }

  /// Whether the path passes through a mask.
  package var isInMask: Bool { steps.contains(.mask) }

  /// The JSON path the loader names in its errors: `root.sublayers[1].mask`.
  package var description: String {
    steps.reduce("root") { text, step in
      switch step {
      case .sublayer(let i): return text + ".sublayers[\(i)]"
      case .mask: return text + ".mask"
      }
    }
  }
}

extension JSON {
  /// The layer object at `path` below this layer.
  package func layer(at path: LayerPath) -> JSON? {
    var node = self
    for step in path.steps {
      switch step {
      case .sublayer(let i):
        let items = node["sublayers"]?.elements ?? []
        guard i < items.count else { return nil }
        node = items[i]
      case .mask:
        guard let m = node["mask"], case .object = m else { return nil }
        node = m
      }
    }
    return node
  }

  /// This layer with the layer at `path` replaced by what `change` makes of it.
  package func replacingLayer(at path: LayerPath, _ change: (JSON) -> JSON) -> JSON {
    guard let step = path.steps.first else { return change(self) }
    let rest = LayerPath(Array(path.steps.dropFirst()))
    switch step {
    case .sublayer(let i):
      var items = self["sublayers"]?.elements ?? []
      guard i < items.count else { return self }
      items[i] = items[i].replacingLayer(at: rest, change)
      return setting("sublayers", .array(items))
    case .mask:
      guard let m = self["mask"], case .object = m else { return self }
      return setting("mask", m.replacingLayer(at: rest, change))
    }
  }

  /// Every layer below this one (itself first), depth first, with its path.
  package func layerPaths(from base: LayerPath = .root) -> [(path: LayerPath, layer: JSON)] {
    var result: [(LayerPath, JSON)] = [(base, self)]
    for (i, child) in (self["sublayers"]?.elements ?? []).enumerated() {
      result += child.layerPaths(from: base.appending(.sublayer(i)))
    }
    if let m = self["mask"], case .object = m {
      result += m.layerPaths(from: base.appending(.mask))
    }
    return result
  }

  /// The layer's class name (`CALayer` when it names none).
  package var layerClass: String { self["class"]?.string ?? "CALayer" }

  /// How many layers this subtree holds (masks included).
  package var layerCount: Int { layerPaths().count }
}
