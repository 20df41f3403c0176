import Foundation
@_spi(Caches) import Lamina
import Synchronization

/// Fill and stroke meshes, built once per path and style and kept across
/// frames. The key is what decides the geometry: the path, the fill rule
/// or the join and miter limit, and the flattening level (one per octave
/// of on-screen scale). Line width, caps, dashes, `strokeStart` and
/// `strokeEnd` are not in it: they are evaluated on the GPU, so animating
/// them builds nothing. Keyed by content rather than by layer, so that the
/// presentation copies animations make hit the same entries. One of a
/// renderer's `RenderCaches`, within their CPU budget.
final class PathGeometryCache: Sendable {
  enum Key: Hashable {
    case fill(CGPath, evenOdd: Bool, level: Int)
    case stroke(CGPath, join: CAShapeLayerLineJoin, miterLimit: Double, level: Int)
  }

  enum Value {
    case mesh(PathMesh)
    /// The path is beyond the GPU path's budget (Cairo draws it).
    case refused
  }

  /// The meshes, and the paths refused.
  let entries: LRUCache<Key, Value>

  init(budget: CacheBudget) {
    entries = LRUCache(budget: budget) { value in
      if case .mesh(let mesh) = value { return mesh.byteCount }
      return 0
    }
  }

  /// Meshes built since the cache was made (tests count them).
  var builds: Int { entries.insertions }

  var count: Int { entries.count }

  /// Whether fills go untessellated until first drawn on the GPU: set
  /// where paths are drawn on the CPU (a renderer's `cpuPaths`), where the
  /// planner reads only a fill mesh's identity and bounds and a path that
  /// changes every frame would be tessellated every frame for nothing.
  let defersFills = Atomic(false)

  /// The fill mesh of `path` (nil when its flattening is beyond the budget,
  /// or, when `tessellated`, its tessellation is). Tessellated now when
  /// `tessellated`, else when its geometry is first asked for (a path the
  /// tessellator then refuses has no triangles).
  func fill(_ path: CGPath, evenOdd: Bool, level: Int, tessellated: Bool = true) -> FillMesh? {
    let key = Key.fill(path, evenOdd: evenOdd, level: level)
    let mesh = mesh(key) {
      guard
        let contours = PathFlattening.contours(
          path, tolerance: PathFlattening.tolerance(level: level))
      else { return nil }
      // Tessellated now (charged its bytes when stored), or when first
      // drawn on the GPU (`FillMesh`), and charged its bytes again then.
      let mesh = FillMesh(contours: contours, evenOdd: evenOdd)
      mesh.rect = FlatContour.rectangle(contours)
      if tessellated {
        _ = mesh.geometry
      } else {
        mesh.onTessellated = { [weak self] mesh in
          guard let self, case .mesh(let held)? = self.entries.peek(key), held === mesh else {
            return
          }
          self.entries.insert(.mesh(mesh), forKey: key)
        }
      }
      return mesh
    } as? FillMesh
    if tessellated, mesh?.geometry.refused == true { return nil }
    return mesh
  }

  /// The stroke mesh of `path` with `join` (nil when it is beyond the budget).
  func stroke(
    _ path: CGPath, join: CAShapeLayerLineJoin, miterLimit: CGFloat, level: Int
  ) -> StrokeMesh? {
    // The limit decides only between miters and bevels.
    let limit = join == .miter && miterLimit.isFinite ? Double(miterLimit) : 0
    return mesh(.stroke(path, join: join, miterLimit: limit, level: level)) {
      guard
        let contours = PathFlattening.contours(
          path, tolerance: PathFlattening.tolerance(level: level))
      else { return nil }
      let mesh = StrokeMesher.mesh(contours, join: join, miterLimit: limit)
      mesh.tightestBend = contours.map(\.tightestBend).min() ?? .infinity
      return mesh
    } as? StrokeMesh
  }

  private func mesh(_ key: Key, build: () -> PathMesh?) -> PathMesh? {
    let value = entries.value(forKey: key) { build().map { .mesh($0) } ?? .refused }
    if case .mesh(let mesh) = value { return mesh }
    return nil
  }
}
