import Foundation
import LaminaRender

/// `lamina show` full screen on a DRM/KMS connector: the kiosk path, with no
/// display server. The scene is drawn with EGL into a GBM surface and each
/// frame is scanned out by a page flip (atomic when the driver has it); on
/// `close()` the CRTC gets back the mode and framebuffer it had (the text
/// console, usually).
///
/// `show` (and `use`) close the output however the body ends (return,
/// error, or a SIGINT/SIGTERM that made the loop return), and `deinit`
/// closes it too:
///
///     let stop = try StopSignal()
///     try KMSOutput.show(device: nil, connector: "HDMI-A-1", mode: ModeRequest("1920x1080@60"),
///                        rotation: .none, log: { print($0) }) { output in
///       let loop = DisplayLoop(output: output, watcher: watcher,
///                              renderer: try Renderer(context: output.context))
///       try loop.run(stop: stop)
///     }
public final class KMSOutput: DisplayOutput {
  /// The DRM state machine: connector, mode, CRTC, flips, restore.
  public let scanout: KMSScanout
  public let context: GPUContext
  public let rotation: DisplayRotation
  public let presentFramebuffer: UInt32

  /// An output over `scanout`, drawn with `context` into `presentFramebuffer`
  /// (0: the window surface). `open` makes the real one; tests pass fakes.
  public init(
    scanout: KMSScanout, context: GPUContext, rotation: DisplayRotation,
    presentFramebuffer: UInt32 = 0
  ) {
    self.scanout = scanout
    self.context = context
    self.rotation = rotation
    self.presentFramebuffer = presentFramebuffer
  }

  deinit { close() }

  /// Opens `device` (nil: the first card in `/dev/dri` with a connected
  /// display), takes `connector` (nil: the first connected) in `mode` (nil:
  /// the display's preferred mode) and makes a GBM surface and EGL context
  /// of that size. The screen is untouched until the first `present`.
  ///
  /// - Throws: `KMSError` naming the device and the failing step (a missing
  ///   card, an unknown connector or mode, no free CRTC, GBM), or the EGL
  ///   context's error. Whatever was taken is given back first.
  public static func open(
    device: String?, connector: String?, mode: ModeRequest?, rotation: DisplayRotation,
    log: @escaping (String) -> Void = { _ in }
  ) throws -> KMSOutput {
    let driver: DRMDriver =
      try device.map { try DRMDriver(path: $0) }
      ?? firstCard(in: "/dev/dri", paths: DRMCard.cardPaths()) { try DRMDriver(path: $0) }
    let (chosen, chosenMode) = try KMSSelection.choose(on: driver, connector: connector, mode: mode)
    var made: GBMSurface?
    let scanout = try KMSScanout(driver: driver, connector: chosen, mode: chosenMode, log: log) {
      let surface = try GBMSurface(card: driver.card, width: $0, height: $1)
      made = surface
      return surface
    }
    guard let made else {
      throw KMSError.failed(
        device: driver.path, step: "making the GBM surface", reason: "none made")
    }
    return KMSOutput(scanout: scanout, context: made.context, rotation: rotation)
  }

  /// Opens an output (see `open`), runs `body` with it and closes it
  /// however `body` ends, so that the console comes back after an error or
  /// a stop signal as after a normal return.
  public static func show<Result>(
    device: String?, connector: String?, mode: ModeRequest?, rotation: DisplayRotation,
    log: @escaping (String) -> Void = { _ in }, _ body: (KMSOutput) throws -> Result
  ) throws -> Result {
    try open(device: device, connector: connector, mode: mode, rotation: rotation, log: log)
      .use(body)
  }

  /// Runs `body` with this output and closes it however `body` ends.
  public func use<Result>(_ body: (KMSOutput) throws -> Result) rethrows -> Result {
    defer { close() }
    return try body(self)
  }

  /// The first of `paths` that opens and has a connected display.
  ///
  /// - Throws: `KMSError.noCard` listing each card tried and why it was passed over.
  public static func firstCard<Driver: KMSDriver>(
    in folder: String, paths: [String], open: (String) throws -> Driver
  ) throws -> Driver {
    var tried: [String] = []
    for path in paths {
      do {
        let driver = try open(path)
        if try driver.connectors().contains(where: { $0.connected && !$0.modes.isEmpty }) {
          return driver
        }
        tried.append("\(path) (no display connected)")
      } catch let error as KMSError {
        // Its message starts with the path already.
        tried.append("\(error)")
      } catch {
        tried.append("\(path) (\(error))")
      }
    }
    throw KMSError.noCard(folder: folder, tried: tried)
  }

  public var bufferWidth: Int { scanout.mode.width }
  public var bufferHeight: Int { scanout.mode.height }
  public var refreshRate: Double { scanout.mode.refreshRate }

  /// `HDMI-A-1 1920x1080@60 on /dev/dri/card0 (atomic)`.
  public var summary: String {
    "\(scanout.connector.name) \(scanout.mode) on \(scanout.driver.path) "
      + "(\(scanout.usesAtomic ? "atomic" : "legacy"))"
  }

  public func present(damage: [PixelRect]) throws {
    try scanout.present(damage: damage)
  }

  public func waitForEvents(timeout: Double?, alsoWatching: [Int32]) throws -> (
    events: [DisplayEvent], readable: Set<Int32>
  ) {
    scanout.waitForEvents(timeout: timeout, alsoWatching: alsoWatching)
  }

  public func close() {
    scanout.close()
  }
}
