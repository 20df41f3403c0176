import Foundation
import Lamina

/// A vertex of a fill mesh (64 bytes). Boundary-ribbon vertices carry the
/// lines of their boundary edge and of its two neighbours (`a·x + b·y + c`,
/// positive inside, unit normal; the neighbours' `w` holds their corner
/// weight, see `FillTessellator`); the lines a piece does not use (the
/// smooth ribbon's neighbours, all of the interior's) are
/// `FillTessellator.everywhere`, of coverage 1, so that one program draws
/// every piece.
package struct FillVertex: Equatable {
  /// The vertex in the layer's plane (points).
  package var position: SIMD2<Float>
  /// Where the vertex moves, in screen pixels along this direction of the
  /// plane (the vertex shader turns pixels into points through the
  /// layer's transform): the ribbon's reach around the edge, or the
  /// interior's overlap of its neighbours.
  package var extrude: SIMD2<Float>
  package var own: SIMD4<Float>
  package var prev: SIMD4<Float>
  package var next: SIMD4<Float>
}

/// A vertex of a stroke mesh (72 bytes). The vertex shader places it from
/// the line width, the caps and the trim of the frame, so that one mesh
/// serves every width, cap, dash pattern, `strokeStart` and `strokeEnd`.
package struct StrokeVertex: Equatable {
  /// The point of the path the piece is built around: a segment's end,
  /// or the vertex of a join or a dot.
  package var base: SIMD2<Float>
  /// A segment's direction (unit); a join's incoming direction.
  package var tangent: SIMD2<Float>
  /// A join's incoming and outgoing directions; a segment's neighbours'
  /// directions, the one before it and the one after it (zero where there
  /// is none: the segment's end is the subpath's).
  package var tangents: SIMD4<Float>
  /// A segment's corner: along (-1 start, +1 end) and across (±1); a
  /// wedge's fan point (0 the vertex, 1…5 around it); a dot's corner.
  package var corner: SIMD2<Float>
  /// Arc lengths: a segment's start and end, or a join's or dot's position.
  package var range: SIMD2<Float>
  /// The arc lengths where the vertex's subpath starts and ends.
  package var subpath: SIMD2<Float>
  /// `StrokePiece` raw value, and flags (`StrokeMesher.closedFlag` and,
  /// for segments, the ends cut along a bisector and the corner flag).
  package var kind: SIMD2<Float>
  /// A segment's path direction at its start and end, as angles (radians)
  /// from its own direction toward its left normal: a cap where a trim or
  /// a dash cuts the segment is square to the direction interpolated
  /// between them (the curve's tangent, not the chord's). Zero elsewhere.
  package var capAngles: SIMD2<Float>
}

/// What a stroke vertex belongs to.
enum StrokePiece: Float {
  case segment = 0
  case roundJoin = 1
  case bevelJoin = 3
  /// A subpath of zero length: a dot with round or square caps.
  case dot = 4
}

/// Geometry of one path, built once and drawn in any frame at any scale in
/// its octave: the vertices and triangles the GPU keeps in a buffer.
package protocol PathMesh: AnyObject {
  /// A number no other mesh has had (`Serials`): what signatures and
  /// caches that outlive a frame name the mesh by, never its address.
  var serial: UInt64 { get }
  /// Bytes of vertices and indices (for the cache's budget).
  var byteCount: Int { get }
  var indices: [UInt32] { get }
  /// The bytes of the vertices as the GPU takes them.
  func withVertexBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R
}

/// The fill of a path: a ribbon around the boundary of the filled region
/// (antialiased, drawn first) and the region's interior (drawn after, where
/// the ribbon did not draw).
///
/// A mesh made from a path's flattened contours (`init(contours:evenOdd:)`)
/// is tessellated when its vertices or indices are first asked for: where
/// paths are drawn on the CPU (`PathGeometryCache.defersFills`) the
/// planner reads only the mesh's identity and bounds, and a path that
/// changes every frame would otherwise be tessellated every frame for
/// nothing.
package final class FillMesh: PathMesh {
  /// The parts, drawn in this order by a program each.
  package enum Group: Int, CaseIterable {
    /// Ribbon pieces whose corners turn little: their own edge decides.
    case smoothRibbon
    /// Ribbon pieces at corners: combined with the neighbouring edges.
    case cornerRibbon
    case interior
  }

  struct Geometry {
    var vertices: [FillVertex]
    var indices: [UInt32]
    var groups: [Range<Int>]
    /// The filled region's bounds.
    var bounds: CGRect
    /// The tessellator refused the contours (beyond its budget): no triangles.
    var refused = false
  }

  package let serial = Serials.next()
  /// The filled region when it is one axis-aligned rectangle of the
  /// layer's plane (a mask of that shape is a clip: `applyMask`).
  package internal(set) var rect: CGRect?
  /// What the tessellator is given when the geometry is first asked for.
  private var source: (contours: [FlatContour], evenOdd: Bool)?
  private var built: Geometry?
  private let lock = NSLock()
  /// The bounds of the contours' points, for a mesh made from contours.
  private let contourBounds: CGRect
  /// Points of the contours a mesh not yet tessellated holds.
  private let sourcePoints: Int

  init(vertices: [FillVertex], indices: [UInt32], groups: [Range<Int>], bounds: CGRect) {
    built = Geometry(vertices: vertices, indices: indices, groups: groups, bounds: bounds)
    contourBounds = bounds
    sourcePoints = 0
  }

  /// A mesh of `contours`, tessellated when first asked for its geometry.
  init(contours: [FlatContour], evenOdd: Bool) {
    var lower = SIMD2(repeating: Double.infinity)
    var upper = SIMD2(repeating: -Double.infinity)
    for contour in contours {
      for p in contour.points {
        lower = pointwiseMin(lower, p)
        upper = pointwiseMax(upper, p)
      }
    }
    contourBounds =
      lower.x <= upper.x
      ? CGRect(x: lower.x, y: lower.y, width: upper.x - lower.x, height: upper.y - lower.y)
      : .null
    source = (contours, evenOdd)
    sourcePoints = contours.reduce(0) { $0 + $1.points.count }
  }

  /// The tessellation, made on first use (under a lock: planners of tiles
  /// may ask at once).
  var geometry: Geometry {
    lock.lock()
    defer { lock.unlock() }
    if let built { return built }
    // A refused tessellation keeps the contours' bounds: a fill drawn on
    // the CPU still covers them.
    let geometry =
      source.flatMap { FillTessellator.mesh($0.contours, evenOdd: $0.evenOdd)?.geometry }
      ?? Geometry(
        vertices: [], indices: [], groups: Group.allCases.map { _ in 0..<0 },
        bounds: contourBounds, refused: true)
    built = geometry
    source = nil
    if let tessellated = onTessellated {
      onTessellated = nil
      // Told outside the lock (the cache charges the mesh its new size).
      lock.unlock()
      defer { lock.lock() }
      tessellated(self)
    }
    return geometry
  }

  /// Called once, when a mesh made from contours is tessellated (its
  /// cache charges it its bytes again).
  var onTessellated: ((FillMesh) -> Void)?

  /// Whether the tessellation has been made (tests).
  var isTessellated: Bool {
    lock.lock()
    defer { lock.unlock() }
    return built != nil
  }

  /// The filled region's bounds in the layer's plane once tessellated;
  /// before, the bounds of the contours' points (which hold the region).
  var bounds: CGRect {
    lock.lock()
    defer { lock.unlock() }
    return built?.bounds ?? contourBounds
  }

  package var vertices: [FillVertex] { geometry.vertices }
  package var indices: [UInt32] { geometry.indices }
  /// Each group's range of `indices`, in `Group` order.
  package var groups: [Range<Int>] { geometry.groups }

  package var byteCount: Int {
    lock.lock()
    defer { lock.unlock() }
    // A contour point: its position, tangents and flags (about 48 bytes).
    guard let built else { return sourcePoints * 48 }
    return built.vertices.count * MemoryLayout<FillVertex>.stride + built.indices.count * 4
  }

  /// The triangles of the tessellation, or before it an estimate that
  /// does not make it (`FrameCost`): four a contour point (a ribbon piece
  /// and a corner's along each edge, the interior's share).
  var triangleEstimate: Int {
    lock.lock()
    defer { lock.unlock() }
    guard let built else { return sourcePoints * 4 }
    return built.indices.count / 3
  }

  package func withVertexBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try geometry.vertices.withUnsafeBytes(body)
  }
}

/// The stroke of a path: a quad per segment, a fan per wedge, a quad per
/// dot, each vertex carrying its arc length, so that trims and dashes are
/// decided per fragment.
package final class StrokeMesh: PathMesh {
  /// The pieces of one kind, drawn by one program each (llvmpipe runs
  /// every side of a branch, so a shader does one kind's work only).
  package enum Group: Int, CaseIterable {
    case segments, cornerSegments, roundJoins, bevelJoins, dots
  }

  package let serial = Serials.next()
  package let vertices: [StrokeVertex]
  package let indices: [UInt32]
  /// Each group's range of `indices`, in `Group` order.
  package let groups: [Range<Int>]
  /// The path's length (all subpaths, closing segments included).
  package let length: Double
  /// The bounds of the path's points (the stroke reaches `reach(halfWidth:)` beyond).
  let pointBounds: CGRect
  /// The longest miter of the mesh's joins, in half line widths (1 without miters).
  let miterFactor: Double
  /// Where each subpath starts and ends along the path, and whether it is closed.
  let subpaths: [(start: Double, end: Double, closed: Bool)]
  /// Whether every subpath is closed.
  package var isClosed: Bool { subpaths.allSatisfy(\.closed) }
  /// The tightest bend inside a curve (`FlatContour.tightestBend`): a
  /// stroke wider than twice it folds over itself there, which the
  /// per-segment coverage does not draw as one union (Cairo draws those).
  var tightestBend = Double.infinity

  init(
    vertices: [StrokeVertex], indices: [UInt32], groups: [Range<Int>], length: Double,
    pointBounds: CGRect, miterFactor: Double, subpaths: [(start: Double, end: Double, closed: Bool)]
  ) {
    self.vertices = vertices
    self.indices = indices
    self.groups = groups
    self.length = length
    self.pointBounds = pointBounds
    self.miterFactor = miterFactor
    self.subpaths = subpaths
  }

  /// What the stroke can cover, for a half line width: the points grown
  /// by the longest miter (or the caps, which reach a half width past any
  /// point; a square cap's corner √2 of it).
  func bounds(halfWidth r: Double) -> CGRect {
    let reach = r * max(miterFactor, 2.0.squareRoot())
    return pointBounds.insetBy(dx: -reach, dy: -reach)
  }

  package var byteCount: Int {
    vertices.count * MemoryLayout<StrokeVertex>.stride + indices.count * 4
  }

  package func withVertexBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try vertices.withUnsafeBytes(body)
  }
}
