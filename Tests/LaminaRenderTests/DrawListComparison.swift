import Foundation
import Lamina
@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// Compares two draw lists field by field: the first difference, described
/// with where it is, or nil when they are the same. Group ids may differ (a
/// retained builder keeps counting across frames) but must correspond one
/// to one; images are the same object, or the same pixels (a glyph atlas
/// page made again holds the same glyphs); serials are not compared.
struct DrawListComparison {
  private var ids: [Int: Int] = [:]
  private var reverse: [Int: Int] = [:]

  static func difference(_ a: DrawList, _ b: DrawList) -> String? {
    guard a.width == b.width, a.height == b.height, a.background == b.background else {
      return "frame size or background"
    }
    var comparison = DrawListComparison()
    return comparison.difference(a.commands, b.commands, at: "commands")
  }

  mutating func difference(_ a: [DrawCommand], _ b: [DrawCommand], at path: String) -> String? {
    guard a.count == b.count else { return "\(path): \(a.count) commands vs \(b.count)" }
    for (i, (x, y)) in zip(a, b).enumerated() {
      let here = "\(path)[\(i)]"
      switch (x, y) {
      case (.item(let p), .item(let q)):
        if let d = difference(p, q) { return "\(here) (\(p.layerName ?? "-")): \(d)" }
      case (.group(let g), .group(let h)):
        if let d = difference(g, h, at: here) { return d }
      default:
        return "\(here): an item vs a group"
      }
    }
    return nil
  }

  private mutating func difference(_ g: GroupPass, _ h: GroupPass, at path: String) -> String? {
    if let known = ids[g.id], known != h.id { return "\(path): group ids do not correspond" }
    if let known = reverse[h.id], known != g.id { return "\(path): group ids do not correspond" }
    ids[g.id] = h.id
    reverse[h.id] = g.id
    if g.bounds != h.bounds { return "\(path): group bounds \(g.bounds) vs \(h.bounds)" }
    if g.opacity != h.opacity { return "\(path): group opacity \(g.opacity) vs \(h.opacity)" }
    if g.clipPlanes != h.clipPlanes { return "\(path): group clip planes" }
    if !Self.same(g.clip, h.clip) { return "\(path): group clip" }
    if g.filter != h.filter { return "\(path): group filter" }
    if g.blend != h.blend { return "\(path): group blend" }
    if g.backdrop != h.backdrop { return "\(path): group backdrop" }
    switch (g.shadow, h.shadow) {
    case (nil, nil): break
    case (let s?, let t?):
      if s.sigma != t.sigma || s.canvas != t.canvas || s.offset != t.offset || s.color != t.color {
        return "\(path): group shadow"
      }
    default: return "\(path): one group has a shadow"
    }
    switch (g.mask, h.mask) {
    case (nil, nil): break
    case (let m?, let n?): if let d = difference(m, n, at: path + ".mask") { return d }
    default: return "\(path): one group has a mask"
    }
    return difference(g.commands, h.commands, at: path + ".commands")
  }

  private func difference(_ p: DrawItem, _ q: DrawItem) -> String? {
    if !Self.same(p.material, q.material) { return "material \(p.material) vs \(q.material)" }
    if p.clippedPolygon != q.clippedPolygon { return "clipped polygon" }
    if p.rect != q.rect { return "rect \(p.rect) vs \(q.rect)" }
    if p.uv != q.uv { return "uv \(p.uv) vs \(q.uv)" }
    if p.matrix != q.matrix { return "matrix \(p.matrix) vs \(q.matrix)" }
    if p.color != q.color { return "color \(p.color) vs \(q.color)" }
    if p.bounds != q.bounds { return "bounds \(p.bounds) vs \(q.bounds)" }
    if p.layerName != q.layerName { return "layer name" }
    if p.antialiased != q.antialiased { return "antialiasing" }
    if p.clipPlanes != q.clipPlanes { return "clip planes" }
    if p.blend != q.blend { return "blend" }
    if p.edgeMask != q.edgeMask { return "edge mask" }
    if p.shape != q.shape { return "shape" }
    if !Self.same(p.clip, q.clip) { return "clip" }
    return nil
  }

  static func same(_ a: Material, _ b: Material) -> Bool {
    if case .image(let x, let s) = a, case .image(let y, let t) = b, s == t, x !== y {
      return x.width == y.width && x.height == y.height && x.pixels == y.pixels
    }
    if case .raster(let x) = a, case .raster(let y) = b { return x.key == y.key }
    return a == b
  }

  static func same(_ a: ClipEffect?, _ b: ClipEffect?) -> Bool {
    switch (a, b) {
    case (nil, nil): return true
    case (let c?, let d?):
      let m = c.itemToClip.m
      let n = d.itemToClip.m
      return c.shape == d.shape
        && [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8]
          == [n.0, n.1, n.2, n.3, n.4, n.5, n.6, n.7, n.8]
    default: return false
    }
  }
}
