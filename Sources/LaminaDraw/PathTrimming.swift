import Foundation
import Lamina

/// `strokeStart` and `strokeEnd`: the part of a path between two fractions
/// of its length, measured on the flattened path (subpaths one after the
/// other, a closed subpath's closing segment included), as Core Animation does.
enum PathTrimming {
  /// The polylines of `path` between `start` and `end` (fractions of its length).
  static func trim(_ path: CGPath, start: CGFloat, end: CGFloat, tolerance: CGFloat) -> [[CGPoint]]
  {
    let polylines = path.flattened(tolerance: tolerance).map { line -> [CGPoint] in
      line.isClosed && line.points.count > 1 ? line.points + [line.points[0]] : line.points
    }
    var total: CGFloat = 0
    for line in polylines { total += length(line) }
    guard total > 0 else { return [] }
    let from = max(0, min(start, 1)) * total
    let to = max(0, min(end, 1)) * total
    guard to > from else { return [] }
    var result: [[CGPoint]] = []
    var walked: CGFloat = 0
    for line in polylines {
      var piece: [CGPoint] = []
      for i in 1..<max(line.count, 1) {
        let a = line[i - 1]
        let b = line[i]
        let d = hypot(b.x - a.x, b.y - a.y)
        let s0 = walked
        let s1 = walked + d
        walked = s1
        guard s1 > from, s0 < to, d > 0 else { continue }
        let t0 = max(0, (from - s0) / d)
        let t1 = min(1, (to - s0) / d)
        let p0 = CGPoint(x: a.x + (b.x - a.x) * t0, y: a.y + (b.y - a.y) * t0)
        let p1 = CGPoint(x: a.x + (b.x - a.x) * t1, y: a.y + (b.y - a.y) * t1)
        if piece.isEmpty { piece.append(p0) }
        piece.append(p1)
      }
      if piece.count > 1 { result.append(piece) }
    }
    return result
  }

  private static func length(_ line: [CGPoint]) -> CGFloat {
    var sum: CGFloat = 0
    for i in line.indices.dropFirst() {
      sum += hypot(line[i].x - line[i - 1].x, line[i].y - line[i - 1].y)
    }
    return sum
  }
}
