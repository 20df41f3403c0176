import Foundation
import LaminaScene

/// Reduces a failing case while it still fails the same way: drops
/// subtrees, masks, animations, filters and keys, hoists sublayers, rounds
/// numbers and the time, one change at a time, keeping each change that
/// still fails, until a pass over the tree changes nothing (or the budget of
/// checks runs out). Cases that no longer load simply do not fail.
package struct Shrinker {
  /// Whether a candidate still fails (the same relation, the same kind of failure).
  let fails: (GeneratedCase) -> Bool
  /// The most candidates checked.
  package var maxChecks: Int
  package private(set) var checks = 0

  package init(maxChecks: Int = 600, fails: @escaping (GeneratedCase) -> Bool) {
    self.maxChecks = maxChecks
    self.fails = fails
  }

  /// A shrinker for `relation` failing on a case the way `failure` did,
  /// checked after `earlier` as the runner checked it.
  package static func forRelation(
    _ relation: Relation, like failure: Failure, after earlier: [Relation], harness: Harness,
    maxChecks: Int = 600
  ) -> Shrinker {
    Shrinker(maxChecks: maxChecks) { candidate in
      let subject: Subject
      do {
        subject = try Subject(candidate, harness: harness)
      } catch is InvalidScene {
        return false
      } catch {
        return relation.name == Runner.renderRelation
      }
      guard relation.name != Runner.renderRelation,
        case .failed(let f) = relation.checked(subject, after: earlier)
      else { return false }
      return f.threw == failure.threw
    }
  }

  /// The smallest case found that still fails.
  package mutating func shrink(_ start: GeneratedCase) -> GeneratedCase {
    var current = start
    var progress = true
    while progress, checks < maxChecks {
      progress = false
      for candidate in candidates(current) {
        guard checks < maxChecks else { break }
        checks += 1
        if fails(candidate) {
          current = candidate
          progress = true
          break
        }
      }
    }
    return current
  }

  /// Smaller variants of `c`, the biggest reductions first.
  func candidates(_ c: GeneratedCase) -> [GeneratedCase] {
    let root = c.root
    var out: [GeneratedCase] = []
    // Whole subtrees, largest first.
    let layers = root.layerPaths().filter { !$0.path.steps.isEmpty }
      .sorted { $0.layer.layerCount > $1.layer.layerCount }
    for (path, _) in layers {
      out.append(c.withRoot(Self.removing(path, from: root)))
    }
    // A layer replaced by one of its sublayers (one level less).
    for (path, layer) in root.layerPaths() where !path.steps.isEmpty {
      for child in layer["sublayers"]?.elements ?? [] {
        out.append(c.withRoot(root.replacingLayer(at: path) { _ in child }))
      }
    }
    // Lists inside layers: animations, filters, cells, gradient colors.
    for (path, layer) in root.layerPaths() {
      for (key, value) in layer.members {
        guard case .array(let items) = value, key != "sublayers", items.count > 0,
          ["animations", "filters", "backgroundFilters", "emitterCells"].contains(key)
        else { continue }
        for i in items.indices {
          var fewer = items
          fewer.remove(at: i)
          out.append(c.withRoot(root.replacingLayer(at: path) { $0.setting(key, .array(fewer)) }))
        }
      }
    }
    // Keys, one at a time.
    for (path, layer) in root.layerPaths() {
      for (key, _) in layer.members where key != "sublayers" {
        out.append(c.withRoot(root.replacingLayer(at: path) { $0.removing(key) }))
      }
    }
    // Keys of animations and filters.
    for (path, layer) in root.layerPaths() {
      for listKey in ["animations", "filters", "backgroundFilters"] {
        let items = layer[listKey]?.elements ?? []
        for (i, item) in items.enumerated() {
          for (key, _) in item.members where key != "keyPath" && key != "name" {
            var changed = items
            changed[i] = item.removing(key)
            out.append(
              c.withRoot(root.replacingLayer(at: path) { $0.setting(listKey, .array(changed)) }))
          }
        }
      }
    }
    // The time, then the canvas background.
    if c.time != 0 { out.append(GeneratedCase(seed: c.seed, scene: c.scene, time: 0)) }
    if c.time != c.time.rounded() {
      out.append(GeneratedCase(seed: c.seed, scene: c.scene, time: c.time.rounded()))
    }
    if let canvas = c.scene["canvas"], canvas["background"] != nil {
      out.append(
        GeneratedCase(
          seed: c.seed, scene: c.scene.setting("canvas", canvas.removing("background")),
          time: c.time))
    }
    // Numbers made rounder.
    for variant in Self.simplerNumbers(root) { out.append(c.withRoot(variant)) }
    return out
  }

  static func removing(_ path: LayerPath, from root: JSON) -> JSON {
    guard let parentPath = path.parent, let last = path.steps.last else { return root }
    return root.replacingLayer(at: parentPath) { parent in
      switch last {
      case .mask: return parent.removing("mask")
      case .sublayer(let i):
        var items = parent["sublayers"]?.elements ?? []
        guard i < items.count else { return parent }
        items.remove(at: i)
        return items.isEmpty
          ? parent.removing("sublayers") : parent.setting("sublayers", .array(items))
      }
    }
  }

  /// Variants of `json` with one number rounded to a whole number (or
  /// from a whole number to a multiple of 10 closer to 0).
  static func simplerNumbers(_ json: JSON) -> [JSON] {
    switch json {
    case .number(let v):
      var out: [JSON] = []
      if v != v.rounded() { out.append(.number(v.rounded())) }
      let tens = (v / 10).rounded(.towardZero) * 10
      if v == v.rounded(), tens != v { out.append(.number(tens)) }
      return out
    case .array(let items):
      return items.indices.flatMap { i in
        simplerNumbers(items[i]).map { variant -> JSON in
          var copy = items
          copy[i] = variant
          return .array(copy)
        }
      }
    case .object(let members):
      return members.indices.flatMap { i in
        // Sublayers are visited as layers; names and versions stay.
        simplerNumbers(members[i].value).map { variant -> JSON in
          var copy = members
          copy[i].value = variant
          return .object(copy)
        }
      }
    default:
      return []
    }
  }
}
