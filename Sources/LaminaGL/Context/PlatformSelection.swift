import Foundation
import LaminaFrame
import LaminaPlan

/// Which EGL display Lamina opens, decided apart from the EGL calls.
///
/// The policy lives here; `EGLProbe` makes the calls. Keeping them apart
/// lets the order, the override and the fallbacks be tested without a GPU.
///
/// Order, unless `LAMINA_EGL_PLATFORM` names one platform:
/// 1. GBM on each `/dev/dri/renderD*` node, first that works;
/// 2. hardware EGL devices (`EGL_EXT_device_enumeration`), which is how
///    NVIDIA servers render headlessly;
/// 3. Mesa's surfaceless platform;
/// 4. a GBM node or device from steps 1–2 that came up with a software
///    renderer (Mesa's kms_swrast on a GPU it has no driver for), kept open;
/// 5. software EGL devices (`EGL_MESA_device_software`): the same llvmpipe as
///    surfaceless, kept as a last resort.

/// How one probe step ended.
enum ProbeOutcome<Opened> {
  /// The display opened and a context was made; `summary` says what it is;
  /// `software` when its renderer is a software rasterizer (llvmpipe).
  case opened(Opened, summary: String, software: Bool = false)
  /// The step failed; `driverMissing` when the cause is a driver that is not
  /// installed (so the final error can say what to install).
  case failed(String, driverMissing: Bool)

  static func failed(_ reason: String) -> ProbeOutcome { .failed(reason, driverMissing: false) }
}

/// An EGL device as `eglQueryDevicesEXT` lists it.
struct ProbedDevice: Equatable {
  /// Position in the list `eglQueryDevicesEXT` returned.
  var index: Int
  /// For the log: DRM node when known, and the device's extensions.
  var name: String
  /// Mesa's software rasterizer (`EGL_MESA_device_software`).
  var isSoftware: Bool
}

/// The EGL calls selection needs; `EGLProbe` makes them, tests fake them.
protocol PlatformProbe {
  associatedtype Opened
  /// `eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS)`; nil when libEGL gives
  /// none (no vendor library, or no `EGL_EXT_client_extensions`).
  func clientExtensions() -> Set<String>?
  /// The `/dev/dri/renderD*` nodes, in order.
  func renderNodes() -> [String]
  /// GBM display on `node`, initialized, with an ES 3 context.
  func tryGBM(node: String) -> ProbeOutcome<Opened>
  /// The EGL devices, or why they could not be listed.
  func devices() -> Result<[ProbedDevice], ProbeError>
  /// Device-platform display on device `index`, with an ES 3 context.
  func tryDevice(_ index: Int) -> ProbeOutcome<Opened>
  /// Mesa surfaceless display, with an ES 3 context.
  func trySurfaceless() -> ProbeOutcome<Opened>
  /// Closes a display a `try…` opened that selection did not keep.
  func release(_ opened: Opened)
}

/// A failure a probe reports outside of a `ProbeOutcome`.
struct ProbeError: Error, Equatable {
  var message: String
  init(_ message: String) { self.message = message }
}

/// What selection chose, and how.
struct PlatformSelection<Opened> {
  var platform: EGLPlatformKind
  var opened: Opened
  var log: [String]
}

enum PlatformSelector {
  /// The environment variable that restricts selection to one platform.
  static let overrideVariable = "LAMINA_EGL_PLATFORM"

  /// The platform `LAMINA_EGL_PLATFORM` names, nil when unset or empty.
  static func platformOverride(_ environment: [String: String]) throws -> EGLPlatformKind? {
    guard let raw = environment[overrideVariable] else { return nil }
    let value = raw.trimmingCharacters(in: .whitespaces).lowercased()
    if value.isEmpty { return nil }
    guard let kind = EGLPlatformKind(rawValue: value), EGLPlatformKind.headless.contains(kind)
    else {
      throw GPUContextError.unknownPlatform(
        raw, allowed: EGLPlatformKind.headless.map(\.rawValue))
    }
    return kind
  }

  /// Client extensions each platform needs (any one of a group will do).
  static let requiredExtensions: [EGLPlatformKind: [String]] = [
    .gbm: ["EGL_KHR_platform_gbm", "EGL_MESA_platform_gbm"],
    .device: ["EGL_EXT_platform_device"],
    .surfaceless: ["EGL_MESA_platform_surfaceless"],
  ]

  /// Tries the platforms in order and returns the first that works.
  /// Throws `GPUContextError` with the whole log when none does.
  static func select<Probe: PlatformProbe>(
    probe: Probe, environment: [String: String]
  ) throws -> PlatformSelection<Probe.Opened> {
    let only = try platformOverride(environment)
    var log: [String] = []
    var driverMissing = false
    if let only {
      log.append("\(overrideVariable)=\(only.rawValue): only \(only.rawValue) is tried")
    }

    guard let client = probe.clientExtensions() else {
      log.append(
        "EGL: no client extensions (libEGL found no vendor driver, or it is too old"
          + " for platform displays)")
      throw GPUContextError.driverMissing(tried: log)
    }

    /// Whether the client extensions allow `kind`; logs when they do not.
    func available(_ kind: EGLPlatformKind) -> Bool {
      let needed = requiredExtensions[kind] ?? []
      if needed.contains(where: client.contains) {
        if kind == .device, !client.contains("EGL_EXT_device_enumeration"),
          !client.contains("EGL_EXT_device_base")
        {
          log.append("device: EGL_EXT_device_enumeration absent from client extensions, skipped")
          return false
        }
        return true
      }
      log.append(
        "\(kind.rawValue): \(needed.joined(separator: "/")) absent from client extensions, skipped")
      if kind == .surfaceless { driverMissing = true }
      return false
    }

    // A GBM node or a device that is meant to be hardware can still come up
    // with a software renderer (Mesa falls back to kms_swrast on a GPU it has
    // no driver for). Such a one is kept, open, in case nothing better works.
    var fallback: (kind: EGLPlatformKind, opened: Probe.Opened)?

    /// Logs one attempt; returns the selection when it worked. Software
    /// renderers are taken only where `acceptSoftware`.
    func record(
      _ kind: EGLPlatformKind, _ subject: String?, _ outcome: ProbeOutcome<Probe.Opened>,
      acceptSoftware: Bool
    ) -> PlatformSelection<Probe.Opened>? {
      let prefix = subject.map { "\(kind.rawValue): \($0): " } ?? "\(kind.rawValue): "
      switch outcome {
      case .opened(let opened, let summary, let software):
        if software, !acceptSoftware {
          if fallback == nil {
            fallback = (kind, opened)
            log.append(prefix + summary + ": software renderer, kept as a fallback")
          } else {
            probe.release(opened)
            log.append(prefix + summary + ": software renderer, closed")
          }
          return nil
        }
        if let kept = fallback {
          probe.release(kept.opened)
          fallback = nil
        }
        log.append(prefix + summary + " (selected)")
        return PlatformSelection(platform: kind, opened: opened, log: log)
      case .failed(let reason, let missing):
        log.append(prefix + reason)
        if missing { driverMissing = true }
        return nil
      }
    }

    func wanted(_ kind: EGLPlatformKind) -> Bool { only == nil || only == kind }

    // 1. GBM, each render node in turn.
    if wanted(.gbm), available(.gbm) {
      let nodes = probe.renderNodes()
      if nodes.isEmpty {
        log.append(
          "gbm: no /dev/dri/renderD* node (no GPU with a DRM driver is visible;"
            + " a container needs /dev/dri passed through)")
      }
      for node in nodes {
        let outcome = probe.tryGBM(node: node)
        if let chosen = record(.gbm, node, outcome, acceptSoftware: false) { return chosen }
      }
    }

    // 2. Hardware EGL devices; software ones wait until after surfaceless.
    var softwareDevices: [ProbedDevice] = []
    if wanted(.device), available(.device) {
      switch probe.devices() {
      case .failure(let error):
        log.append("device: \(error.message)")
      case .success(let devices):
        if devices.isEmpty { log.append("device: eglQueryDevicesEXT listed no device") }
        for device in devices where !device.isSoftware {
          let subject = "device \(device.index) (\(device.name))"
          let outcome = probe.tryDevice(device.index)
          if let chosen = record(.device, subject, outcome, acceptSoftware: false) {
            return chosen
          }
        }
        softwareDevices = devices.filter(\.isSoftware)
        if only == nil {
          for device in softwareDevices {
            log.append(
              "device: device \(device.index) (\(device.name)): deferred until surfaceless fails")
          }
        }
      }
    }

    // 3. Mesa surfaceless.
    if wanted(.surfaceless), available(.surfaceless) {
      let outcome = probe.trySurfaceless()
      if let chosen = record(.surfaceless, nil, outcome, acceptSoftware: true) { return chosen }
    }

    // 4. A software renderer found on a GBM node or device.
    if let kept = fallback {
      log.append("\(kept.kind.rawValue): the software renderer kept as a fallback (selected)")
      return PlatformSelection(platform: kept.kind, opened: kept.opened, log: log)
    }

    // 5. Software EGL devices.
    for device in softwareDevices {
      let subject = "device \(device.index) (\(device.name))"
      let outcome = probe.tryDevice(device.index)
      if let chosen = record(.device, subject, outcome, acceptSoftware: true) { return chosen }
    }

    if driverMissing { throw GPUContextError.driverMissing(tried: log) }
    throw GPUContextError.noEGLDisplay(tried: log)
  }
}
