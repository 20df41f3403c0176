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
  /// The model layer that made the largest offscreen pass
  /// (`GroupPass.source`), when one did and it matters to this limit.
  public let largestSource: ObjectIdentifier?
  /// The model layer whose drawing fills the most pixels
  /// (`FrameLimits.Totals.costliest`), for the fill limit.
  public let costliest: LayerCost?
  /// Where in its scene file the largest pass's layer is (its JSON path),
  /// filled in by whoever knows the scene (the command).
  public var largestPlace: String?
  /// Where the costliest layer is (its JSON path, and how many times
  /// replicators draw it), filled in by whoever knows the scene.
  public var costliestPlace: String?

  public init(
    exceeded: LimitExceeded, largest: String?, largestSource: ObjectIdentifier? = nil,
    costliest: LayerCost? = nil
  ) {
    self.exceeded = exceeded
    self.largest = largest
    self.largestSource = largestSource
    self.costliest = costliest
  }

  public var description: String {
    var text = "\(exceeded)"
    if let largest {
      text += "; the largest pass is the \(largest)" + (largestPlace.map { " at \($0)" } ?? "")
    }
    if let costliest {
      text +=
        "; the layer that costs most is \(costliestPlace ?? "a layer")"
        + " (\(costliest.fill) pixels filled)"
    }
    return text
  }
}

/// What one layer's drawing costs in a frame: the pixels its items and
/// passes fill, every instance a replicator makes of it together.
public struct LayerCost: Equatable {
  /// `ObjectIdentifier` of the model layer.
  public let layer: ObjectIdentifier
  /// Pixels covered × passes and filter stages.
  public let fill: Int
}

/// The limits of a built frame: offscreen passes, the pixels their targets
/// take, the pixels their filters run over, the pixels the frame fills,
/// and draw items. They bound what drawing the frame costs in GPU
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
    /// Pixels filled: each item's pixels (in the target it is drawn into),
    /// each offscreen pass's once more where it is drawn back, and the
    /// filtered pixels: the fill the GPU does for the frame, a count that
    /// does not depend on the machine.
    public var fill = 0
    /// The layer whose items and passes fill the most (the first in
    /// drawing order of equals).
    public var costliest: LayerCost?
  }

  /// Counts `frame`'s passes, offscreen pixels and items, and the largest
  /// pass. A group drawn from several places counts each time (so does its
  /// drawing): nested shadows double the passes at every level, so the walk
  /// stops as soon as a count is past its limit.
  public static func totals(_ frame: DrawList) -> (Totals, largest: GroupPass?) {
    var totals = Totals()
    var largest: (GroupPass, Int)?
    func past() -> Bool {
      totals.passes > Limits.maxOffscreenPasses || totals.items > Limits.maxDrawItems
    }
    func add(filtered work: Int) {
      let (filtered, overflowed) = totals.filtered.addingReportingOverflow(work)
      totals.filtered = overflowed ? .max : filtered
    }
    // The fill of each layer, and the order layers are first met in.
    var costs: [ObjectIdentifier: (fill: Int, order: Int)] = [:]
    func add(fill work: Int, of source: ObjectIdentifier?) {
      let (fill, overflowed) = totals.fill.addingReportingOverflow(work)
      totals.fill = overflowed ? .max : fill
      guard let source else { return }
      let cost = costs[source] ?? (0, costs.count)
      let (sum, over) = cost.fill.addingReportingOverflow(work)
      costs[source] = (over ? .max : sum, cost.order)
    }
    var rasters: Set<ObjectIdentifier> = []
    func walk(_ commands: [DrawCommand], in enclosing: ObjectIdentifier?) {
      for command in commands {
        if past() { return }
        switch command {
        case .item(let item):
          totals.items += 1
          add(fill: item.bounds.area, of: item.source ?? enclosing)
          // A closed-form blurred shadow evaluates its blur at every pixel of
          // its quad: as one filter stage over it.
          if let shape = item.shape, case .blur = shape.mode {
            add(filtered: item.bounds.area)
            add(fill: item.bounds.area, of: item.source ?? enclosing)
          }
          // A rasterized subtree is drawn into its own target (once a frame).
          if case .raster(let pass) = item.material,
            rasters.insert(ObjectIdentifier(pass)).inserted
          {
            totals.passes += 1
            let (sum, overflow) = totals.pixels.addingReportingOverflow(pass.region.area)
            totals.pixels = overflow ? .max : sum
            walk(pass.commands, in: item.source ?? enclosing)
          }
        case .group(let group): visit(group, in: enclosing)
        }
      }
    }
    func visit(_ group: GroupPass, in enclosing: ObjectIdentifier?) {
      let source = group.source ?? enclosing
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
      // Drawn back where it is composited, and filtered before.
      add(fill: group.bounds.area, of: source)
      add(fill: work.overflow ? .max : work.partialValue, of: source)
      walk(group.commands, in: source)
      if let mask = group.mask { visit(mask, in: source) }
    }
    walk(frame.commands, in: nil)
    // The most fill; of equals, the first met.
    let top = costs.min { a, b in
      a.value.fill != b.value.fill ? a.value.fill > b.value.fill : a.value.order < b.value.order
    }
    if let top {
      totals.costliest = LayerCost(layer: top.key, fill: top.value.fill)
    }
    return (totals, largest?.0)
  }

  /// `check(_:)`, its error naming the layers it blames by `place` (a
  /// scene's JSON paths: `Scene.place(ofLayerWith:)`).
  public static func check(_ frame: DrawList, naming place: (ObjectIdentifier) -> String?) throws {
    do {
      try check(frame)
    } catch var error as FrameLimitError {
      error.largestPlace = error.largestSource.flatMap(place)
      error.costliestPlace = error.costliest.flatMap { place($0.layer) }
      throw error
    }
  }

  /// Throws a `FrameLimitError` when `frame` exceeds `Limits.maxOffscreenPasses`,
  /// `Limits.maxOffscreenPixels`, `Limits.maxFilteredPixels`,
  /// `Limits.maxFramePixelFill` or `Limits.maxDrawItems`.
  public static func check(_ frame: DrawList) throws {
    let (totals, largest) = totals(frame)
    let reason = largest?.reason
    let source = largest?.source
    if totals.passes > Limits.maxOffscreenPasses {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "offscreen passes in one frame", found: "more than \(Limits.maxOffscreenPasses)",
          limit: String(Limits.maxOffscreenPasses), name: "maxOffscreenPasses"),
        largest: reason, largestSource: source)
    }
    if totals.pixels > Limits.maxOffscreenPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "pixels of offscreen targets in one frame", found: totals.pixels,
          limit: Limits.maxOffscreenPixels, name: "maxOffscreenPixels"),
        largest: reason, largestSource: source)
    }
    if totals.filtered > Limits.maxFilteredPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "filtered pixels in one frame (pixels × filter stages)", found: totals.filtered,
          limit: Limits.maxFilteredPixels, name: "maxFilteredPixels"),
        largest: reason, largestSource: source)
    }
    if totals.fill > Limits.maxFramePixelFill {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "pixels filled in one frame (pixels covered × passes and filter stages)",
          found: totals.fill, limit: Limits.maxFramePixelFill, name: "maxFramePixelFill"),
        largest: nil, costliest: totals.costliest)
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
