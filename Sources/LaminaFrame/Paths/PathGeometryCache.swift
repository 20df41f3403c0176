import Foundation
import Lamina

/// Fill and stroke meshes, built once per path and style and kept across
/// frames. The key is what decides the geometry: the path, the fill rule
/// or the join and miter limit, and the flattening level (one per octave
/// of on-screen scale). Line width, caps, dashes, `strokeStart` and
/// `strokeEnd` are not in it: they are evaluated on the GPU, so animating
/// them builds nothing. Keyed by content rather than by layer, so that the
/// presentation copies animations make hit the same entries.
final class PathGeometryCache: @unchecked Sendable {
  enum Key: Hashable {
    case fill(CGPath, evenOdd: Bool, level: Int)
    case stroke(CGPath, join: CAShapeLayerLineJoin, miterLimit: Double, level: Int)
  }

  private enum Value {
    case mesh(PathMesh)
    /// The path is beyond the GPU path's budget (Cairo draws it).
    case refused
  }

  private struct Entry {
    var value: Value
    var lastUsedFrame: Int
  }

  static let shared = PathGeometryCache()
  /// Frames an unused mesh is kept.
  static let retainFrames = 120
  /// Bytes of meshes kept at most; the least recently used go first.
  static let byteLimit = 128 << 20

  private let lock = NSLock()
  private var entries: [Key: Entry] = [:]
  private var frame = 0
  private var bytes = 0
  /// Meshes built since the process started (tests count them).
  private(set) var builds = 0

  /// The fill mesh of `path` (nil when it is beyond the budget).
  func fill(_ path: CGPath, evenOdd: Bool, level: Int) -> FillMesh? {
    mesh(.fill(path, evenOdd: evenOdd, level: level)) {
      guard
        let contours = PathFlattening.contours(
          path, tolerance: PathFlattening.tolerance(level: level))
      else { return nil }
      return FillTessellator.mesh(contours, evenOdd: evenOdd)
    } as? FillMesh
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
    lock.lock()
    if var entry = entries[key] {
      entry.lastUsedFrame = frame
      entries[key] = entry
      lock.unlock()
      if case .mesh(let mesh) = entry.value { return mesh }
      return nil
    }
    lock.unlock()
    let built = build()
    lock.lock()
    defer { lock.unlock() }
    builds += 1
    entries[key] = Entry(value: built.map { .mesh($0) } ?? .refused, lastUsedFrame: frame)
    bytes += built?.byteCount ?? 0
    if bytes > Self.byteLimit { evict { $0.lastUsedFrame < frame } }
    return built
  }

  /// Called once per frame built: drops meshes unused for `retainFrames`.
  func beginFrame() {
    lock.lock()
    defer { lock.unlock() }
    frame += 1
    if frame % 30 == 0 { evict { frame - $0.lastUsedFrame > Self.retainFrames } }
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return entries.count
  }

  private func evict(_ stale: (Entry) -> Bool) {
    for (key, entry) in entries where stale(entry) {
      if case .mesh(let mesh) = entry.value { bytes -= mesh.byteCount }
      entries[key] = nil
    }
  }
}
