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
  /// Which copy of its replicators the largest pass was made for: the
  /// instance index of each enclosing replicator, outermost first
  /// (`GroupPass.instances`); empty when no replicator encloses it.
  public let largestCopy: [Int]
  /// The model layer whose drawing costs the most (`FrameLimits.Totals`'s
  /// `costliest` for the fill limit, `slowest` for the time limit,
  /// `mostItems` for the item limit).
  package let costliest: LayerCost?
  /// What `costliest` is named by.
  package let measure: LayerCost.Measure
  /// Where in its scene file the largest pass's layer is (its JSON path,
  /// and which copy of its replicators), filled in by whoever knows the
  /// scene (the command).
  public var largestPlace: String?
  /// Where the costliest layer is (its JSON path, and how many times
  /// replicators draw it), filled in by whoever knows the scene.
  public var costliestPlace: String?

  package init(
    exceeded: LimitExceeded, largest: String?, largestSource: ObjectIdentifier? = nil,
    largestCopy: [Int] = [], costliest: LayerCost? = nil, measure: LayerCost.Measure = .fill
  ) {
    self.exceeded = exceeded
    self.largest = largest
    self.largestSource = largestSource
    self.largestCopy = largestCopy
    self.costliest = costliest
    self.measure = measure
  }

  public var description: String {
    var text = "\(exceeded)"
    if let largest {
      text += "; the largest pass is the \(largest)" + (largestPlace.map { " at \($0)" } ?? "")
    }
    if let costliest {
      let place = costliestPlace ?? "a layer"
      switch measure {
      case .fill:
        text += "; the layer that costs most is \(place) (\(costliest.fill) pixels filled)"
      case .seconds:
        text +=
          "; the layer that costs most is \(place)"
          + " (\(FrameLimits.seconds(costliest.seconds)) s predicted)"
      case .items:
        text += "; the layer with the most items is \(place) (\(costliest.items) items)"
      }
    }
    return text
  }
}

/// What one layer's drawing costs in a frame: the pixels its items and
/// passes fill and the seconds they are predicted to take, every instance
/// a replicator makes of it together.
package struct LayerCost: Equatable {
  /// `ObjectIdentifier` of the model layer.
  package let layer: ObjectIdentifier
  /// Pixels covered × passes and filter stages.
  package let fill: Int
  /// Predicted seconds (`FrameCost`).
  package var seconds = 0.0
  /// Draw items.
  package var items = 0

  /// What a layer's cost is told by, in a message.
  package enum Measure {
    case fill, seconds, items
  }
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
    package var costliest: LayerCost?
    /// Seconds drawing the frame is predicted to take (`FrameCost`): on
    /// llvmpipe at one thread, erring high.
    public var seconds = 0.0
    /// The layer whose items and passes are predicted to take the longest
    /// (the first in drawing order of equals).
    package var slowest: LayerCost?
    /// `slowest`'s model layer, when there is one.
    public var slowestLayer: ObjectIdentifier? { slowest?.layer }
    /// `slowest`'s predicted seconds (0 when there is none).
    public var slowestSeconds: Double { slowest?.seconds ?? 0 }
    /// The layer that makes the most draw items (the first in drawing
    /// order of equals).
    package var mostItems: LayerCost?
    /// Which copy of its replicators the largest pass was made for
    /// (`GroupPass.instances`).
    package var largestCopy: [Int] = []
  }

  /// Counts `frame`'s passes, offscreen pixels and items, and the largest
  /// pass. A group drawn from several places counts each time (so does its
  /// drawing): nested shadows double the passes at every level, so the walk
  /// stops as soon as a count is past its limit. Without `attributing`,
  /// the layers are not found (`costliest`, `slowest` and `mostItems` nil):
  /// a table entry for every item, which a frame within its limits does
  /// not need.
  package static func totals(_ frame: DrawList, attributing: Bool = true) -> (
    Totals, largest: GroupPass?
  ) {
    var totals = Totals()
    var largest: (GroupPass, Int)?
    func past() -> Bool {
      totals.passes > Limits.maxOffscreenPasses || totals.items > Limits.maxDrawItems
    }
    func add(filtered work: Int) {
      let (filtered, overflowed) = totals.filtered.addingReportingOverflow(work)
      totals.filtered = overflowed ? .max : filtered
    }
    // The fill, time and items of each layer, and the order layers are
    // first met in.
    var costs: [ObjectIdentifier: (fill: Int, seconds: Double, items: Int, order: Int)] = [:]
    func add(fill work: Int, of source: ObjectIdentifier?) {
      let (fill, overflowed) = totals.fill.addingReportingOverflow(work)
      totals.fill = overflowed ? .max : fill
      guard attributing, let source else { return }
      let cost = costs[source] ?? (0, 0, 0, costs.count)
      let (sum, over) = cost.fill.addingReportingOverflow(work)
      costs[source] = (over ? .max : sum, cost.seconds, cost.items, cost.order)
    }
    func add(seconds: Double, items: Int = 0, of source: ObjectIdentifier?) {
      totals.seconds += seconds
      guard attributing, let source else { return }
      let cost = costs[source] ?? (0, 0, 0, costs.count)
      costs[source] = (cost.fill, cost.seconds + seconds, cost.items + items, cost.order)
    }
    // The copy of its replicators the largest pass was made for.
    var largestCopy: [Int] = []
    var rasters: Set<ObjectIdentifier> = []
    func walk(_ commands: [DrawCommand], in enclosing: ObjectIdentifier?) {
      for command in commands {
        if past() { return }
        switch command {
        case .item(let item):
          totals.items += 1
          add(fill: item.bounds.area, of: item.source ?? enclosing)
          add(seconds: FrameCost.seconds(of: item), items: 1, of: item.source ?? enclosing)
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
            add(
              seconds: (FrameCost.perPass + Double(pass.region.area) * FrameCost.clearPixel) / 1e9,
              of: item.source ?? enclosing)
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
      if area > (largest?.1 ?? -1) {
        largest = (group, area)
        largestCopy = group.instances
      }
      let stages = group.filter?.stages.count ?? 0
      let work = area.multipliedReportingOverflow(by: max(stages, group.shadow == nil ? 0 : 1))
      add(filtered: work.overflow ? .max : work.partialValue)
      // Drawn back where it is composited, and filtered before.
      add(fill: group.bounds.area, of: source)
      add(fill: work.overflow ? .max : work.partialValue, of: source)
      add(seconds: FrameCost.seconds(ofPass: group), of: source)
      walk(group.commands, in: source)
      if let mask = group.mask { visit(mask, in: source) }
    }
    totals.seconds += FrameCost.seconds(ofCanvas: frame.width * frame.height)
    walk(frame.commands, in: nil)
    // The most fill, time and items; of equals, the first met.
    let top = costs.min { a, b in
      a.value.fill != b.value.fill ? a.value.fill > b.value.fill : a.value.order < b.value.order
    }
    func cost(
      _ entry: (key: ObjectIdentifier, value: (fill: Int, seconds: Double, items: Int, order: Int))
    ) -> LayerCost {
      LayerCost(
        layer: entry.key, fill: entry.value.fill, seconds: entry.value.seconds,
        items: entry.value.items)
    }
    totals.costliest = top.map(cost)
    totals.slowest = costs.min { a, b in
      a.value.seconds != b.value.seconds
        ? a.value.seconds > b.value.seconds : a.value.order < b.value.order
    }.map(cost)
    totals.mostItems = costs.min { a, b in
      a.value.items != b.value.items
        ? a.value.items > b.value.items : a.value.order < b.value.order
    }.map(cost)
    totals.largestCopy = largestCopy
    return (totals, largest?.0)
  }

  /// `seconds` as messages write a predicted time: three significant
  /// digits, whole seconds from 100 on.
  package static func seconds(_ seconds: Double) -> String {
    guard seconds.isFinite else { return "more than \(Int.max)" }
    if seconds >= 100 { return String(Int(saturating: seconds.rounded())) }
    return String(format: "%.3g", seconds)
  }

  /// `check(_:)`, its error naming the layers it blames by `place` (a
  /// scene's JSON paths: `Scene.place(ofLayerWith:)`), and a pass made for
  /// one copy of its replicators by `copy` (the layer and the instance index
  /// of each enclosing replicator, outermost first:
  /// `Scene.place(ofLayerWith:copy:)`).
  @discardableResult
  public static func check(
    _ frame: DrawList, naming place: (ObjectIdentifier) -> String?,
    copy: ((ObjectIdentifier, [Int]) -> String?)? = nil
  ) throws -> Totals {
    do {
      return try check(frame)
    } catch var error as FrameLimitError {
      if let source = error.largestSource {
        let indices = error.largestCopy
        error.largestPlace =
          (indices.isEmpty ? nil : copy.flatMap { $0(source, indices) }) ?? place(source)
      }
      error.costliestPlace = error.costliest.flatMap { place($0.layer) }
      throw error
    }
  }

  /// Throws a `FrameLimitError` when `frame` exceeds `Limits.maxOffscreenPasses`,
  /// `Limits.maxOffscreenPixels`, `Limits.maxFilteredPixels`,
  /// `Limits.maxFramePixelFill`, `Limits.maxDrawItems` or
  /// `Limits.maxPredictedFrameSeconds`; else returns the frame's totals.
  /// Without `attributing`, a frame within its limits is walked without
  /// finding the layers that cost most (the totals' `costliest`, `slowest`
  /// and `mostItems` nil); one past them is walked again to name them.
  @discardableResult
  public static func check(_ frame: DrawList, attributing: Bool = true) throws -> Totals {
    let (totals, largest) = totals(frame, attributing: attributing)
    do {
      return try verdict(totals, largest)
    } catch  where !attributing {
      return try check(frame)
    }
  }

  /// `totals` against the limits, in `check`'s order.
  private static func verdict(_ totals: Totals, _ largest: GroupPass?) throws -> Totals {
    let reason = largest?.reason
    let source = largest?.source
    let copy = totals.largestCopy
    if totals.passes > Limits.maxOffscreenPasses {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "offscreen passes in one frame", found: "more than \(Limits.maxOffscreenPasses)",
          limit: String(Limits.maxOffscreenPasses), name: "maxOffscreenPasses"),
        largest: reason, largestSource: source, largestCopy: copy)
    }
    if totals.pixels > Limits.maxOffscreenPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "pixels of offscreen targets in one frame", found: totals.pixels,
          limit: Limits.maxOffscreenPixels, name: "maxOffscreenPixels"),
        largest: reason, largestSource: source, largestCopy: copy)
    }
    if totals.filtered > Limits.maxFilteredPixels {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "filtered pixels in one frame (pixels × filter stages)", found: totals.filtered,
          limit: Limits.maxFilteredPixels, name: "maxFilteredPixels"),
        largest: reason, largestSource: source, largestCopy: copy)
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
        largest: nil, costliest: totals.mostItems, measure: .items)
    }
    if totals.seconds > Limits.maxPredictedFrameSeconds {
      throw FrameLimitError(
        exceeded: LimitExceeded(
          what: "predicted seconds to draw one frame (llvmpipe at one thread)",
          found: seconds(totals.seconds), limit: seconds(Limits.maxPredictedFrameSeconds),
          name: "maxPredictedFrameSeconds"),
        largest: nil, costliest: totals.slowest, measure: .seconds)
    }
    return totals
  }
}
