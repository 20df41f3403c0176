import Foundation
import Lamina

/// `strokeStart` and `strokeEnd`: the part of a path between two fractions
/// of its length, cut out of the curves themselves (`CGPath.trimmed(from:to:)`):
/// the piece ends exactly on the curve with the curve's own tangent, so a
/// wide stroke's cap at a cut stands square to the path, as if the path had
/// been drawn that far.
enum PathTrimming {
  /// The part of `path` between `start` and `end` (fractions of its
  /// length), as open subpaths of lines and cubic curves.
  static func trimmedPath(_ path: CGPath, start: CGFloat, end: CGFloat) -> CGPath {
    path.trimmed(from: start, to: end)
  }

  /// The polylines of `path` between `start` and `end` (fractions of its
  /// length): the trimmed path flattened within `tolerance`.
  static func trim(_ path: CGPath, start: CGFloat, end: CGFloat, tolerance: CGFloat) -> [[CGPoint]]
  {
    trimmedPath(path, start: start, end: end).flattened(tolerance: tolerance).map(\.points)
      .filter { $0.count > 1 }
  }
}
