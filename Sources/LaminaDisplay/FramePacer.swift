import Foundation
import Lamina
import LaminaFrame

/// The page-flip state machine of a display loop paced by vblank (DRM/KMS
/// flip events, Wayland frame callbacks): at most one flip is ever pending,
/// a frame is drawn only when none is, and each completed flip is counted
/// with the vblanks it missed. Pure bookkeeping, so that it is tested
/// without a display.
public struct FramePacer: Sendable {
  public enum State: Equatable, Sendable {
    /// Nothing queued: the next frame may be drawn and flipped.
    case idle
    /// A flip was queued and its completion has not arrived.
    case flipPending
  }

  public enum PacingError: Error, Equatable, CustomStringConvertible {
    /// A second flip was queued while one is pending (it would tear or fail).
    case flipWhilePending
    /// A completion arrived with no flip pending.
    case unexpectedCompletion

    public var description: String {
      switch self {
      case .flipWhilePending: "a page flip was queued while another is pending"
      case .unexpectedCompletion: "a flip completed that was never queued"
      }
    }
  }

  /// The display's refresh period in seconds (1/60 at 60 Hz).
  public let refreshPeriod: Double
  public private(set) var state = State.idle
  public private(set) var statistics = PresentationStatistics()
  private var lastPresented: Double?

  public init(refreshRate: Double) {
    refreshPeriod = 1 / max(refreshRate, 1)
  }

  /// Whether a frame may be drawn now.
  public var canDraw: Bool { state == .idle }

  /// A frame was drawn and its flip queued; `damageArea` is the pixels it
  /// redrew.
  public mutating func flipQueued(damageArea: Int) throws {
    guard state == .idle else { throw PacingError.flipWhilePending }
    state = .flipPending
    statistics.damageAreas.append(damageArea)
  }

  /// The pending flip completed at `time` (the vblank's timestamp).
  public mutating func flipCompleted(at time: Double) throws {
    guard state == .flipPending else { throw PacingError.unexpectedCompletion }
    state = .idle
    if let last = lastPresented {
      let interval = time - last
      statistics.frameTimes.append(interval)
      // A frame that took n periods missed n − 1 vblanks.
      statistics.missedVblanks += max(0, Int(clamping: interval / refreshPeriod, to: 0...Int(Int32.max), rounding: .toNearestOrAwayFromZero) - 1)
    }
    statistics.presented += 1
    lastPresented = time
  }

  /// Nothing changed this vblank: no frame is drawn, and the gap until the
  /// next presented frame is idleness, not missed vblanks.
  public mutating func idle() {
    if state == .idle { lastPresented = nil }
  }
}

/// What a display presented, as `--stats` prints it: presented frames,
/// missed vblanks, frame-time percentiles and the damage redrawn per frame
/// (how frames were built is counted in `FrameBuildStats`).
public struct PresentationStatistics: Sendable, CustomStringConvertible {
  public var presented = 0
  public var missedVblanks = 0
  /// Seconds between consecutive presented frames.
  public var frameTimes: [Double] = []
  /// Pixels redrawn by each frame.
  public var damageAreas: [Int] = []

  /// The frame time below which `fraction` of the frames fall (nearest
  /// rank), in seconds; nil without frame times.
  public func frameTime(percentile fraction: Double) -> Double? {
    guard !frameTimes.isEmpty else { return nil }
    let sorted = frameTimes.sorted()
    let rank = Int(saturating: fraction * Double(sorted.count), rounding: .up)
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }

  /// Presented frames per second over the measured intervals.
  public var fps: Double? {
    let total = frameTimes.reduce(0, +)
    return total > 0 ? Double(frameTimes.count) / total : nil
  }

  public var description: String {
    func ms(_ v: Double?) -> String { v.map { String(format: "%.2f", $0 * 1000) } ?? "-" }
    let meanDamage = damageAreas.isEmpty ? 0 : damageAreas.reduce(0, +) / damageAreas.count
    return "presented \(presented) frames, \(fps.map { String(format: "%.1f", $0) } ?? "-") fps, "
      + "missed vblanks \(missedVblanks), frame ms p50 \(ms(frameTime(percentile: 0.5))) "
      + "p95 \(ms(frameTime(percentile: 0.95))) p99 \(ms(frameTime(percentile: 0.99))), "
      + "mean damage \(meanDamage) px"
  }
}

/// The old name of `PresentationStatistics`.
@available(*, deprecated, renamed: "PresentationStatistics")
public typealias FrameStatistics = PresentationStatistics
