import Foundation
import Lamina

/// The canvas region whose pixels can differ between two frames: the
/// bounds, old and new, of every draw command that is not drawn exactly as
/// it was. A command is identified by everything that decides its pixels
/// (material, geometry, matrix, color, clips, blending), so a moved,
/// recolored, added or removed layer damages where it was and where it is,
/// and an unchanged frame damages nothing. Commands are matched by what they draw, not by position, so an
/// added or removed layer does not damage the layers after it; a change of
/// drawing order damages the commands that moved in the order.
public struct Damage: Equatable, Sendable {
  /// Disjoint-enough rectangles covering the damage (each clipped to the target).
  public private(set) var rects: [PixelRect]

  /// No damage.
  public static let none = Damage(rects: [])

  /// The whole target.
  public static func full(width: Int, height: Int) -> Damage {
    Damage(rects: [PixelRect(x: 0, y: 0, width: width, height: height)])
  }

  public var isEmpty: Bool { rects.isEmpty }

  /// One rectangle holding all the damage.
  public var bounds: PixelRect {
    rects.reduce(PixelRect(x: 0, y: 0, width: 0, height: 0)) { $0.union($1) }
  }

  /// Pixels covered (rects may overlap slightly after merging: an upper bound).
  public var area: Int { rects.reduce(0) { $0 + $1.area } }

  /// The damage between `old` and `new` (the whole target when there is no
  /// old frame or its size differs). At most `maxRects` rectangles are kept:
  /// nearby ones merge, so a few clusters of change stay a few rectangles.
  public init(from old: DrawList?, to new: DrawList, maxRects: Int = 8) {
    guard let old, old.width == new.width, old.height == new.height,
      old.background == new.background
    else {
      self = .full(width: new.width, height: new.height)
      return
    }
    // Match commands by what they draw; unmatched ones changed. What the
    // render tree kept matches without hashing: an item by its serial, a
    // group by identity (kept groups are never changed).
    var keptCommands: [Identity: [Int]] = [:]
    for (index, command) in old.commands.enumerated().reversed() {
      if let identity = Self.identity(command) { keptCommands[identity, default: []].append(index) }
    }
    var oldMatched = [Bool](repeating: false, count: old.commands.count)
    var newMatch = [Int?](repeating: nil, count: new.commands.count)
    if !keptCommands.isEmpty {
      for (i, command) in new.commands.enumerated() {
        if let identity = Self.identity(command), let index = keptCommands[identity]?.popLast() {
          newMatch[i] = index
          oldMatched[index] = true
        }
      }
    }
    var queues: [Int: [Int]] = [:]
    for index in old.commands.indices.reversed() where !oldMatched[index] {
      queues[Self.signature(old.commands[index]), default: []].append(index)
    }
    var changed: [PixelRect] = []
    var matched: [(old: Int, bounds: PixelRect)] = []
    for (i, command) in new.commands.enumerated() {
      if let index = newMatch[i] ?? queues[Self.signature(command)]?.popLast() {
        matched.append((index, command.bounds))
      } else {
        changed.append(command.bounds)
      }
    }
    for indices in queues.values { changed += indices.map { old.commands[$0].bounds } }
    // Matched commands drawn in a new relative order (a zPosition change)
    // changed too: all but a longest run that kept its order.
    let kept = Self.longestIncreasingRun(matched.map(\.old))
    for (i, pair) in matched.enumerated() where !kept.contains(i) { changed.append(pair.bounds) }
    let target = PixelRect(x: 0, y: 0, width: new.width, height: new.height)
    self.init(
      rects: Self.merge(
        changed.map { $0.intersection(target) }.filter { !$0.isEmpty }, maxRects: maxRects))
  }

  init(rects: [PixelRect]) { self.rects = rects }

  /// A hash of a top-level command's pixel-deciding values.
  private static func signature(_ command: DrawCommand) -> Int {
    // Groups hash by what they draw, not by their ids.
    var hasher = Hasher()
    RasterSignature.combine([command], groupBase: 0, into: &hasher)
    return hasher.finalize()
  }

  /// What identifies a command kept from an earlier frame.
  private enum Identity: Hashable {
    case item(UInt64)
    case group(ObjectIdentifier)
  }

  private static func identity(_ command: DrawCommand) -> Identity? {
    switch command {
    case .item(let item): return item.serial == 0 ? nil : .item(item.serial)
    case .group(let group): return .group(ObjectIdentifier(group))
    }
  }

  /// Positions in `values` of one longest strictly increasing subsequence
  /// (patience sorting, O(n log n)).
  public static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
    var tails: [Int] = []  // positions of the smallest tail of each length
    var previous = [Int](repeating: -1, count: values.count)
    for (i, v) in values.enumerated() {
      var lo = 0
      var hi = tails.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
      }
      if lo > 0 { previous[i] = tails[lo - 1] }
      if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var run = Set<Int>()
    var i = tails.last ?? -1
    while i >= 0 {
      run.insert(i)
      i = previous[i]
    }
    return run
  }

  /// Merges rectangles until at most `maxRects` remain, always joining the
  /// pair whose union adds the least area. Each join scans every pair, so
  /// a frame where hundreds of layers moved first bins them by center into
  /// a coarse grid (`maxPairwise` cells at most) and joins each cell's.
  public static func merge(
    _ input: [PixelRect], maxRects: Int, maxPairwise: Int = 32
  ) -> [PixelRect] {
    var rects = input.count > maxPairwise ? binned(input, cells: maxPairwise) : []
    if rects.isEmpty {
      // Duplicates and rects inside others add nothing.
      for r in input where !rects.contains(r) { rects.append(r) }
    }
    rects = rects.filter { r in !rects.contains { $0 != r && $0.union(r) == $0 } }
    while rects.count > max(1, maxRects) {
      var best = (0, 1, Int.max)
      for i in rects.indices {
        for j in rects.indices where j > i {
          let cost = rects[i].union(rects[j]).area - rects[i].area - rects[j].area
          if cost < best.2 { best = (i, j, cost) }
        }
      }
      let joined = rects[best.0].union(rects[best.1])
      rects.remove(at: best.1)
      rects[best.0] = joined
    }
    return rects
  }

  /// The union of the rects whose centers fall in each cell of a grid of
  /// at most `cells` cells over their bounds.
  private static func binned(_ input: [PixelRect], cells: Int) -> [PixelRect] {
    let bounds = input.reduce(input[0]) { $0.union($1) }
    let columns = max(1, Int(saturating: Double(cells).squareRoot(), rounding: .down))
    let rows = max(1, cells / columns)
    var grid = [PixelRect?](repeating: nil, count: columns * rows)
    for r in input where !r.isEmpty {
      let cx = (r.x + r.width / 2 - bounds.x) * columns / max(bounds.width, 1)
      let cy = (r.y + r.height / 2 - bounds.y) * rows / max(bounds.height, 1)
      let cell = min(cy, rows - 1) * columns + min(cx, columns - 1)
      grid[cell] = grid[cell].map { $0.union(r) } ?? r
    }
    return grid.compactMap { $0 }
  }
}
