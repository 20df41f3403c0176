import Foundation
import Lamina

/// A built frame that exceeds one of the `Limits` on what a frame may ask
/// of the GPU, found before anything is drawn.
public struct FrameLimitError: Error, Equatable, CustomStringConvertible {
  /// Which limit, and what the frame asks for.
  public let exceeded: LimitExceeded
  /// What made the largest offscreen pass, as the frame builder says
  /// ("shadow of card12 (blurred offscreen)"), when one did.
  public let largest: String?

  public var description: String {
    "\(exceeded)" + (largest.map { "; the largest pass is the \($0)" } ?? "")
  }
}

/// The limits of a built frame: offscreen passes, the pixels their targets
/// take, the pixels their filters run over, and draw items. They bound what drawing the frame costs in GPU
/// memory and time, and are checked on the draw list before any GL call.
public enum FrameLimits {
  /// What `frame` asks for.
  public struct Totals: Equatable {
    /// Offscreen passes (groups, masks, filters, blurred shadows, rasterized
    /// subtrees).
    public var passes = 0
    /// Pixels of offscreen targets (a blurred shadow renders its whole
    /// blur canvas).
    public var pixels = 0
    /// Draw items, in groups too.
    public var items = 0
    /// Pixels times filter stages (a blurred shadow: its canvas once; a
    /// closed-form shadow: its quad once).
    public var filtered = 0
  }

  /// Counts `frame`'s passes, offscreen pixels and items, and the largest
  /// pass. A group drawn from several places counts each time (so does its
  /// drawing): nested shadows double the passes at every level, so the walk
  /// stops as soon as a count is past its limit.
  public static func totals(_ frame: Frame) -> (Totals, largest: GroupPass?) {
    var totals = Totals()
    var largest: (GroupPass, Int)?
    func past() -> Bool {
      totals.passes > Limits.maxOffscreenPasses || totals.items > Limits.maxDrawItems
    }
    func add(filtered work: Int) {
      let (filtered, overflowed) = totals.filtered.addingReportingOverflow(work)
      totals.filtered = overflowed ? .max : filtered
    }
    var rasters: Set<ObjectIdentifier> = []
    func walk(_ commands: [DrawCommand]) {
      for command in commands {
        if past() { return }
        switch command {
        case .item(let item):
          totals.items += 1
          // A closed-form blurred shadow evaluates its blur at every pixel of
          // its quad: as one filter stage over it.
          if let shape = item.shape, case .blur = shape.mode { add(filtered: item.bounds.area) }
          // A rasterized subtree is drawn into its own target (once a frame).
          if case .raster(let pass) = item.material,
            rasters.insert(ObjectIdentifier(pass)).inserted
          {
            totals.passes += 1
            let (sum, overflow) = totals.pixels.addingReportingOverflow(pass.region.area)
            totals.pixels = overflow ? .max : sum
            walk(pass.commands)
          }
        case .group(let group): visit(group)
        }
      }
    }
    func visit(_ group: GroupPass) {
      totals.passes += 1
      var area = group.bounds.area
      if let shadow = group.shadow { area = max(area, shadow.canvas.area) }
      // Saturating: a canvas of absurd size must still count as absurd.
      let (sum, overflow) = totals.pixels.addingReportingOverflow(area)
      totals.pixels = overflow ? .max : sum
      if area > (largest?.1 ?? -1) { largest = (group, area) }
      let stages = group.filter?.stages.count ?? 0
      let work = area.multipliedReportingOverflow(by: max(stages, group.shadow == nil ? 0 : 1))
      add(filtered: work.overflow ? .max : work.partialValue)
      walk(group.commands)
      if let mask = group.mask { visit(mask) }
    }
    walk(frame.commands)
    return (totals, largest?.0)
  }

  /// Throws a `FrameLimitError` when `frame` exceeds `Limits.maxOffscreenPasses`,
  /// `Limits.maxOffscreenPixels` or `Limits.maxDrawItems`.
  public static func check(_ frame: Frame) throws {
    let (totals, largest) = totals(frame)
    let reason = largest?.reason
    if totals.passes > Limits.maxOffscreenPasses {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "offscreen passes in one frame", found: "more than \(Limits.maxOffscreenPasses)",
          limit: String(Limits.maxOffscreenPasses), name: "maxOffscreenPasses"),
        largest: reason)
    }
    if totals.pixels > Limits.maxOffscreenPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "pixels of offscreen targets in one frame", found: totals.pixels,
          limit: Limits.maxOffscreenPixels, name: "maxOffscreenPixels"),
        largest: reason)
    }
    if totals.filtered > Limits.maxFilteredPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "filtered pixels in one frame (pixels × filter stages)", found: totals.filtered,
          limit: Limits.maxFilteredPixels, name: "maxFilteredPixels"),
        largest: reason)
    }
    if totals.items > Limits.maxDrawItems {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "draw items in one frame", found: "more than \(Limits.maxDrawItems)",
          limit: String(Limits.maxDrawItems), name: "maxDrawItems"),
        largest: nil)
    }
  }
}
