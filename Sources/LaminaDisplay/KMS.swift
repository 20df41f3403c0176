import CDRM
import Foundation
import Lamina
import LaminaFrame

/// A display mode of a DRM connector.
public struct DisplayMode: Equatable, Sendable, CustomStringConvertible {
  public let width: Int
  public let height: Int
  /// Vertical refresh in Hz (fractional rates such as 59.94 kept).
  public let refreshRate: Double
  /// The mode the monitor says it prefers (its native one).
  public let preferred: Bool

  public init(width: Int, height: Int, refreshRate: Double, preferred: Bool = false) {
    self.width = width
    self.height = height
    self.refreshRate = refreshRate
    self.preferred = preferred
  }

  /// The mode the kernel describes with `info`; the rate is computed from
  /// the pixel clock and totals, because `vrefresh` is rounded to whole Hz
  /// and would make 59.94 and 60 look alike.
  public init(info: drmModeModeInfo) {
    let total = Double(info.htotal) * Double(info.vtotal)
    let rate = total > 0 ? Double(info.clock) * 1000 / total : Double(info.vrefresh)
    self.init(
      width: Int(info.hdisplay), height: Int(info.vdisplay),
      refreshRate: (rate * 100).rounded() / 100,
      preferred: info.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
  }

  public var description: String { "\(width)x\(height)@\(Self.rate(refreshRate))" }

  /// `60` or `59.94`.
  static func rate(_ hz: Double) -> String {
    hz.rounded() == hz ? "\(Int(hz))" : String(format: "%.2f", hz)
  }
}

/// A connector (an output) of a DRM card.
public struct KMSConnector: Equatable, Sendable {
  public let id: UInt32
  /// The kernel's name: `HDMI-A-1`, `DP-2`, `eDP-1`.
  public let name: String
  public let connected: Bool
  public let modes: [DisplayMode]

  public init(id: UInt32, name: String, connected: Bool, modes: [DisplayMode]) {
    self.id = id
    self.name = name
    self.connected = connected
    self.modes = modes
  }
}

/// What the KMS path needs from a card; a fake stands in for it in tests.
public protocol KMSDevice {
  /// The device node (`/dev/dri/card0`).
  var path: String { get }
  func connectors() throws -> [KMSConnector]
}

/// `--mode WIDTHxHEIGHT[@RATE]`.
public struct ModeRequest: Equatable, Sendable {
  public let width: Int
  public let height: Int
  public let refreshRate: Double?

  /// Parses `1920x1080` or `1920x1080@60`; nil when malformed.
  public init?(_ text: String) {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count <= 2 else { return nil }
    let size = parts[0].split(separator: "x", omittingEmptySubsequences: false)
    guard size.count == 2, let w = Int(size[0]), let h = Int(size[1]), w > 0, h > 0 else {
      return nil
    }
    width = w
    height = h
    if parts.count == 2 {
      guard let rate = Double(parts[1]), rate > 0 else { return nil }
      refreshRate = rate
    } else {
      refreshRate = nil
    }
  }
}

/// Why a DRM/KMS display could not be opened or driven; each message names
/// the device and what failed.
public enum KMSError: Error, Equatable, CustomStringConvertible {
  /// No connector of the card has a display with modes.
  case noConnectedConnector(device: String)
  /// `--connector` names a connector the card does not have.
  case connectorNotFound(device: String, name: String, available: [String])
  /// `--connector` names a connector with nothing plugged in.
  case connectorDisconnected(device: String, name: String)
  /// `--mode` asks for a mode the display does not offer.
  case modeNotAvailable(connector: String, requested: String, available: [String])
  /// The device node could not be opened (missing, permissions).
  case cannotOpen(device: String, reason: String)
  /// No card (of `tried`, each `path (why)`) has a connected display.
  case noCard(folder: String, tried: [String])
  /// Every CRTC that could drive the connector drives another display.
  case noCRTC(device: String, connector: String)
  /// A step of driving the display failed; `reason` is the system's answer.
  case failed(device: String, step: String, reason: String)

  public var description: String {
    switch self {
    case .noConnectedConnector(let d): "\(d): no connector has a display connected"
    case .connectorNotFound(let d, let n, let a):
      "\(d): no connector named '\(n)'; the card has \(a.map { "'\($0)'" }.joined(separator: ", "))"
    case .connectorDisconnected(let d, let n): "\(d): connector '\(n)' has no display connected"
    case .modeNotAvailable(let c, let r, let a):
      "\(c): no mode \(r); the display offers \(a.joined(separator: ", "))"
    case .cannotOpen(let d, let r): "\(d): cannot open the DRM device: \(r)"
    case .noCard(let f, let t):
      t.isEmpty
        ? "\(f): no DRM card found (is a GPU driver loaded? --drm names a card)"
        : "no DRM card has a connected display: \(t.joined(separator: "; "))"
    case .noCRTC(let d, let c):
      "\(d): no free CRTC can drive connector '\(c)' (each one drives another display)"
    case .failed(let d, let s, let r): "\(d): \(s) failed: \(r)"
    }
  }
}

/// Which connector and mode `lamina show` drives.
public enum KMSSelection {
  /// The named connector (it must be connected), else the first connected
  /// one; the requested mode (at that size the highest refresh unless a
  /// rate is given, the closest within 0.5 Hz), else the preferred mode, else the
  /// largest and fastest.
  public static func choose(
    on device: KMSDevice, connector name: String? = nil, mode request: ModeRequest? = nil
  ) throws -> (connector: KMSConnector, mode: DisplayMode) {
    let all = try device.connectors()
    let connector: KMSConnector
    if let name {
      guard let found = all.first(where: { $0.name == name }) else {
        throw KMSError.connectorNotFound(
          device: device.path, name: name, available: all.map(\.name))
      }
      guard found.connected, !found.modes.isEmpty else {
        throw KMSError.connectorDisconnected(device: device.path, name: name)
      }
      connector = found
    } else {
      guard let found = all.first(where: { $0.connected && !$0.modes.isEmpty }) else {
        throw KMSError.noConnectedConnector(device: device.path)
      }
      connector = found
    }
    let ranked = connector.modes.sorted {
      ($0.width * $0.height, $0.refreshRate) > ($1.width * $1.height, $1.refreshRate)
    }
    guard let request else {
      return (connector, connector.modes.first(where: \.preferred) ?? ranked[0])
    }
    var matches = ranked.filter { m in
      m.width == request.width && m.height == request.height
        && (request.refreshRate.map { abs(m.refreshRate - $0) < 0.5 } ?? true)
    }
    if let rate = request.refreshRate {
      // 59.94 and 60 are both within reach of each other: the closest wins.
      matches.sort { abs($0.refreshRate - rate) < abs($1.refreshRate - rate) }
    }
    guard let mode = matches.first else {
      var seen: [String] = []
      for m in ranked where !seen.contains(m.description) { seen.append(m.description) }
      let requested =
        "\(request.width)x\(request.height)"
        + (request.refreshRate.map { "@\(DisplayMode.rate($0))" } ?? "")
      throw KMSError.modeNotAvailable(
        connector: connector.name, requested: requested, available: seen)
    }
    return (connector, mode)
  }
}

/// `--rotate`: a portrait kiosk screen is a landscape panel turned; the
/// compositor draws the canvas turned so that it reads upright.
public enum DisplayRotation: Int, Sendable, CaseIterable {
  case none = 0, quarter = 90, half = 180, threeQuarters = 270

  /// The canvas size (in pixels) for a panel of `width`×`height`.
  public func canvasSize(panelWidth width: Int, height: Int) -> (width: Int, height: Int) {
    self == .none || self == .half ? (width, height) : (height, width)
  }

  /// Maps canvas pixels to panel pixels (clockwise turns, y down), for a
  /// panel of `width`×`height`.
  public func canvasToPanel(panelWidth width: Int, height: Int) -> CGAffineTransform {
    let w = CGFloat(width)
    let h = CGFloat(height)
    switch self {
    case .none: return .identity
    case .quarter: return CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: w, ty: 0)
    case .half: return CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
    case .threeQuarters: return CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: h)
    }
  }
}

/// A DRM card through libdrm.
public final class DRMCard: KMSDevice {
  public let path: String
  public let fd: Int32

  public init(path: String) throws {
    self.path = path
    fd = open(path, O_RDWR | O_CLOEXEC)
    guard fd >= 0 else {
      throw KMSError.cannotOpen(device: path, reason: String(cString: strerror(errno)))
    }
  }

  deinit { close(fd) }

  /// The card nodes present (`/dev/dri/card*`), in order.
  public static func cardPaths(in folder: String = "/dev/dri") -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    return names.filter { $0.hasPrefix("card") }.sorted().map { "\(folder)/\($0)" }
  }

  public func connectors() throws -> [KMSConnector] {
    guard let resources = drmModeGetResources(fd) else {
      throw KMSError.cannotOpen(device: path, reason: "not a modesetting device")
    }
    defer { drmModeFreeResources(resources) }
    var result: [KMSConnector] = []
    for i in 0..<Int(resources.pointee.count_connectors) {
      let id = resources.pointee.connectors[i]
      guard let c = drmModeGetConnector(fd, id) else { continue }
      defer { drmModeFreeConnector(c) }
      let type = drmModeGetConnectorTypeName(c.pointee.connector_type).map { String(cString: $0) }
      let name = "\(type ?? "Unknown")-\(c.pointee.connector_type_id)"
      let modes = (0..<Int(c.pointee.count_modes)).map { DisplayMode(info: c.pointee.modes[$0]) }
      result.append(
        KMSConnector(
          id: id, name: name, connected: c.pointee.connection == DRM_MODE_CONNECTED, modes: modes))
    }
    return result
  }
}
