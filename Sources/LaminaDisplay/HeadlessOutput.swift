import Foundation
import LaminaPlan
import LaminaRender

/// A display with no screen (`lamina show --headless WxH`): the loop draws
/// and presents into an offscreen panel of `width`×`height` pixels on the
/// headless context, paced at `refreshRate` as a screen's vblanks would
/// pace it. Servers and tests run the same loop there: the control
/// channel, snapshots and frame statistics work as on a screen.
public final class HeadlessOutput: DisplayOutput {
  public let context: GPUContext
  public let bufferWidth: Int
  public let bufferHeight: Int
  public let rotation: DisplayRotation
  public let refreshRate: Double
  public var summary: String {
    let rate =
      refreshRate == refreshRate.rounded()
      ? String(Int(saturating: refreshRate)) : String(format: "%.2f", refreshRate)
    return "headless \(bufferWidth)x\(bufferHeight)@\(rate)"
  }
  /// Whether a presented frame is on "screen" one refresh period after the
  /// last one (true), or at once (false: tests that step the loop by hand).
  public var paced: Bool
  /// The clock vblanks are timed by.
  public var clock: () -> Double = monotonicSeconds

  private let panel: RenderTarget
  private var presents = 0
  /// When the frame in flight reaches the "screen".
  private var due: Double?
  private var lastVblank: Double?
  private var queued: [DisplayEvent] = []

  /// A `width`×`height` panel at `refreshRate` Hz on `context` (the
  /// process's shared headless context by default).
  public init(
    width: Int, height: Int, refreshRate: Double = 60, rotation: DisplayRotation = .none,
    paced: Bool = true, context: GPUContext? = nil
  ) throws {
    let context = try context ?? GPUContext.shared()
    context.makeCurrent()
    self.context = context
    bufferWidth = width
    bufferHeight = height
    self.refreshRate = refreshRate
    self.rotation = rotation
    self.paced = paced
    panel = try RenderTarget(width: width, height: height, samples: 1, device: context.device)
  }

  public var presentFramebuffer: UInt32 { panel.resolveFramebuffer }
  public var presentsTopDown: Bool { true }
  public var presentsDamageOnly: Bool { true }
  /// The panel is one retained target: it holds the last frame.
  public func bufferAge() -> Int { presents == 0 ? 0 : 1 }

  public func present(damage: [PixelRect]) throws {
    presents += 1
    guard paced else {
      queued.append(.frameDone(time: clock()))
      return
    }
    // The next vblank after the last one, or now when the panel idled.
    let period = 1 / refreshRate
    let now = clock()
    var next = (lastVblank ?? now) + period
    if next < now { next = now + period - (now - next).truncatingRemainder(dividingBy: period) }
    due = next
  }

  public func waitForEvents(timeout: Double?, alsoWatching: [Int32]) throws -> (
    events: [DisplayEvent], readable: Set<Int32>
  ) {
    if !queued.isEmpty {
      defer { queued.removeAll() }
      return (queued, pollReadable(alsoWatching, timeout: 0))
    }
    var wait = timeout
    if let due { wait = min(wait ?? .infinity, max(0, due - clock())) }
    let readable = pollReadable(alsoWatching, timeout: wait)
    if let due, clock() >= due {
      self.due = nil
      lastVblank = due
      return ([.frameDone(time: due)], readable)
    }
    return ([], readable)
  }

  public func close() {}

  /// The panel as last presented, rows top-down, premultiplied RGBA.
  public func panelImage() -> RenderedImage {
    context.makeCurrent()
    var pixels = [UInt8](repeating: 0, count: bufferWidth * bufferHeight * 4)
    pixels.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      panel.read(PixelRect(x: 0, y: 0, width: bufferWidth, height: bufferHeight), into: base)
    }
    return RenderedImage(width: bufferWidth, height: bufferHeight, premultipliedPixels: pixels)
  }
}
