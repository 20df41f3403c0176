import XCTest

@testable import LaminaFrame
@testable import LaminaGL
@testable import LaminaOutput
@testable import LaminaPlan
@testable import LaminaRender

/// A probe that answers from tables and records what selection asked.
private final class FakeProbe: PlatformProbe {
  typealias Opened = String

  static let allClientExtensions: Set<String> = [
    "EGL_EXT_platform_base", "EGL_KHR_platform_gbm", "EGL_MESA_platform_gbm",
    "EGL_EXT_device_enumeration", "EGL_EXT_platform_device", "EGL_MESA_platform_surfaceless",
  ]

  var client: Set<String>? = FakeProbe.allClientExtensions
  var nodes: [String] = []
  var gbm: [String: ProbeOutcome<String>] = [:]
  var deviceList: Result<[ProbedDevice], ProbeError> = .success([])
  var device: [Int: ProbeOutcome<String>] = [:]
  var surfaceless: ProbeOutcome<String> = .failed("surfaceless refused")
  private(set) var calls: [String] = []

  func clientExtensions() -> Set<String>? { client }
  func renderNodes() -> [String] {
    calls.append("renderNodes")
    return nodes
  }
  func tryGBM(node: String) -> ProbeOutcome<String> {
    calls.append("gbm \(node)")
    return gbm[node] ?? .failed("eglInitialize failed (EGL_NOT_INITIALIZED)")
  }
  func devices() -> Result<[ProbedDevice], ProbeError> {
    calls.append("devices")
    return deviceList
  }
  func tryDevice(_ index: Int) -> ProbeOutcome<String> {
    calls.append("device \(index)")
    return device[index] ?? .failed("eglInitialize failed (EGL_NOT_INITIALIZED)")
  }
  func trySurfaceless() -> ProbeOutcome<String> {
    calls.append("surfaceless")
    return surfaceless
  }
  private(set) var released: [String] = []
  func release(_ opened: String) { released.append(opened) }

  /// Only the attempts, without the listing calls.
  var attempts: [String] { calls.filter { $0 != "renderNodes" && $0 != "devices" } }
}

private let hardware = ProbedDevice(
  index: 1, name: "NVIDIA H100, /dev/dri/renderD129", isSoftware: false)
private let software = ProbedDevice(index: 0, name: "software", isSoftware: true)

final class PlatformSelectionTests: XCTestCase {
  private func select(_ probe: FakeProbe, _ environment: [String: String] = [:]) throws
    -> PlatformSelection<String>
  {
    try PlatformSelector.select(probe: probe, environment: environment)
  }

  /// The error `select` throws, or a test failure when it does not throw.
  private func selectionError(
    _ probe: FakeProbe, _ environment: [String: String] = [:], line: UInt = #line
  ) -> GPUContextError? {
    do {
      let chosen = try select(probe, environment)
      XCTFail("selected \(chosen.platform) unexpectedly", line: line)
    } catch let error as GPUContextError {
      return error
    } catch {
      XCTFail("unexpected error \(error)", line: line)
    }
    return nil
  }

  func testGBMComesFirstAndFallsBackToTheNextNode() throws {
    let probe = FakeProbe()
    probe.nodes = ["/dev/dri/renderD128", "/dev/dri/renderD129"]
    probe.gbm["/dev/dri/renderD129"] = .opened("gbm129", summary: "EGL 1.5, OpenGL ES 3.2 context")
    probe.deviceList = .success([hardware])
    probe.device[1] = .opened("device1", summary: "ok")
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .gbm)
    XCTAssertEqual(chosen.opened, "gbm129")
    XCTAssertEqual(probe.attempts, ["gbm /dev/dri/renderD128", "gbm /dev/dri/renderD129"])
    XCTAssertEqual(
      chosen.log,
      [
        "gbm: /dev/dri/renderD128: eglInitialize failed (EGL_NOT_INITIALIZED)",
        "gbm: /dev/dri/renderD129: EGL 1.5, OpenGL ES 3.2 context (selected)",
      ])
  }

  func testHardwareDeviceComesBeforeSurfaceless() throws {
    let probe = FakeProbe()
    probe.deviceList = .success([software, hardware])
    probe.device = [0: .opened("device0", summary: "ok"), 1: .opened("device1", summary: "ok")]
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .device)
    XCTAssertEqual(chosen.opened, "device1")
    XCTAssertEqual(probe.attempts, ["device 1"])
    XCTAssertTrue(chosen.log[0].hasPrefix("gbm: no /dev/dri/renderD* node"), chosen.log[0])
  }

  func testSurfacelessComesBeforeSoftwareDevice() throws {
    let probe = FakeProbe()
    probe.deviceList = .success([software])
    probe.device[0] = .opened("device0", summary: "ok")
    probe.surfaceless = .opened("surfaceless", summary: "EGL 1.5")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .surfaceless)
    XCTAssertEqual(probe.attempts, ["surfaceless"])
    XCTAssertTrue(
      chosen.log.contains("device: device 0 (software): deferred until surfaceless fails"))
    XCTAssertEqual(chosen.log.last, "surfaceless: EGL 1.5 (selected)")
  }

  func testSoftwareDeviceIsTheLastResort() throws {
    let probe = FakeProbe()
    probe.deviceList = .success([software])
    probe.device[0] = .opened("device0", summary: "ok")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .device)
    XCTAssertEqual(probe.attempts, ["surfaceless", "device 0"])
  }

  func testEverythingFailingTriesAllInOrderAndLogsEachStep() {
    let probe = FakeProbe()
    probe.nodes = ["/dev/dri/renderD128", "/dev/dri/renderD129"]
    probe.deviceList = .success([software, hardware])

    guard case .noEGLDisplay(let tried)? = selectionError(probe) else {
      return XCTFail("expected noEGLDisplay")
    }
    XCTAssertEqual(
      probe.attempts,
      ["gbm /dev/dri/renderD128", "gbm /dev/dri/renderD129", "device 1", "surfaceless", "device 0"])
    XCTAssertEqual(tried.count, 6)
    XCTAssertEqual(tried[4], "surfaceless: surfaceless refused")
    let message = GPUContextError.noEGLDisplay(tried: tried).description
    XCTAssertTrue(message.contains("gbm: /dev/dri/renderD129: eglInitialize failed"), message)
    XCTAssertTrue(message.contains("device: device 1 (NVIDIA H100"), message)
  }

  func testMissingDriverNamesWhatToInstall() {
    let probe = FakeProbe()
    probe.surfaceless = .failed("eglInitialize failed (EGL_NOT_INITIALIZED)", driverMissing: true)

    let error = selectionError(probe)
    guard case .driverMissing? = error else {
      return XCTFail("expected driverMissing, got \(String(describing: error))")
    }
    let message = error?.description ?? ""
    XCTAssertTrue(
      message.contains("surfaceless: eglInitialize failed (EGL_NOT_INITIALIZED)"), message)
    XCTAssertTrue(message.contains("apt-get install libegl-mesa0 libgl1-mesa-dri"), message)
    XCTAssertTrue(message.contains("NVIDIA"), message)
  }

  func testNoClientExtensionsMeansNoDriver() {
    let probe = FakeProbe()
    probe.client = nil

    let error = selectionError(probe)
    guard case .driverMissing? = error else { return XCTFail("expected driverMissing") }
    XCTAssertEqual(probe.calls, [])
    XCTAssertTrue(error?.description.contains("libgl1-mesa-dri") ?? false)
  }

  func testAbsentClientExtensionSkipsThePlatform() throws {
    let probe = FakeProbe()
    probe.client = ["EGL_EXT_platform_base", "EGL_MESA_platform_surfaceless"]
    probe.nodes = ["/dev/dri/renderD128"]
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .surfaceless)
    XCTAssertEqual(probe.calls, ["surfaceless"])
    XCTAssertEqual(
      chosen.log.prefix(2),
      [
        "gbm: EGL_KHR_platform_gbm/EGL_MESA_platform_gbm absent from client extensions, skipped",
        "device: EGL_EXT_platform_device absent from client extensions, skipped",
      ])
  }

  func testDeviceEnumerationFailureIsLogged() throws {
    let probe = FakeProbe()
    probe.deviceList = .failure(ProbeError("eglQueryDevicesEXT failed (EGL_BAD_ALLOC)"))
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .surfaceless)
    XCTAssertTrue(chosen.log.contains("device: eglQueryDevicesEXT failed (EGL_BAD_ALLOC)"))
  }

  func testOverrideTriesOnlyThatPlatform() throws {
    let probe = FakeProbe()
    probe.nodes = ["/dev/dri/renderD128"]
    probe.gbm["/dev/dri/renderD128"] = .opened("gbm", summary: "ok")
    probe.deviceList = .success([hardware])
    probe.device[1] = .opened("device1", summary: "ok")
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let chosen = try select(probe, ["LAMINA_EGL_PLATFORM": "surfaceless"])
    XCTAssertEqual(chosen.platform, .surfaceless)
    XCTAssertEqual(probe.calls, ["surfaceless"])
    XCTAssertEqual(chosen.log.first, "LAMINA_EGL_PLATFORM=surfaceless: only surfaceless is tried")
  }

  func testDeviceOverrideTriesHardwareThenSoftwareButNotSurfaceless() {
    let probe = FakeProbe()
    probe.deviceList = .success([software, hardware])
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    guard case .noEGLDisplay? = selectionError(probe, ["LAMINA_EGL_PLATFORM": "device"]) else {
      return XCTFail("expected noEGLDisplay")
    }
    XCTAssertEqual(probe.attempts, ["device 1", "device 0"])
  }

  func testGBMOverrideWithoutRenderNodeNamesIt() {
    let probe = FakeProbe()
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let error = selectionError(probe, ["LAMINA_EGL_PLATFORM": "gbm"])
    XCTAssertEqual(probe.calls, ["renderNodes"])
    XCTAssertTrue(
      error?.description.contains("gbm: no /dev/dri/renderD* node") ?? false,
      String(describing: error))
  }

  func testSoftwareGBMGivesWayToAHardwareDevice() throws {
    let probe = FakeProbe()
    probe.nodes = ["/dev/dri/renderD128"]
    probe.gbm["/dev/dri/renderD128"] = .opened("gbm128", summary: "kms_swrast", software: true)
    probe.deviceList = .success([hardware])
    probe.device[1] = .opened("device1", summary: "NVIDIA")

    let chosen = try select(probe)
    XCTAssertEqual(chosen.opened, "device1")
    XCTAssertEqual(probe.released, ["gbm128"])
    XCTAssertTrue(
      chosen.log.contains(
        "gbm: /dev/dri/renderD128: kms_swrast: software renderer, kept as a fallback"))
  }

  func testSoftwareGBMComesAfterSurfacelessButBeforeSoftwareDevices() throws {
    let probe = FakeProbe()
    probe.nodes = ["/dev/dri/renderD128"]
    probe.gbm["/dev/dri/renderD128"] = .opened("gbm128", summary: "kms_swrast", software: true)
    probe.deviceList = .success([software])
    probe.device[0] = .opened("device0", summary: "ok", software: true)

    let chosen = try select(probe)
    XCTAssertEqual(chosen.platform, .gbm)
    XCTAssertEqual(chosen.opened, "gbm128")
    XCTAssertEqual(probe.attempts, ["gbm /dev/dri/renderD128", "surfaceless"])
    XCTAssertEqual(probe.released, [])

    let second = FakeProbe()
    second.nodes = probe.nodes
    second.gbm = probe.gbm
    second.surfaceless = .opened("surfaceless", summary: "ok", software: true)
    XCTAssertEqual(try select(second).opened, "surfaceless")
    XCTAssertEqual(second.released, ["gbm128"])
  }

  func testOverrideParsing() throws {
    XCTAssertNil(try PlatformSelector.platformOverride([:]))
    XCTAssertNil(try PlatformSelector.platformOverride(["LAMINA_EGL_PLATFORM": ""]))
    XCTAssertEqual(try PlatformSelector.platformOverride(["LAMINA_EGL_PLATFORM": " GBM "]), .gbm)
    XCTAssertEqual(
      try PlatformSelector.platformOverride(["LAMINA_EGL_PLATFORM": "device"]), .device)
  }

  func testUnknownOverrideIsRejectedWithTheAllowedValues() {
    let probe = FakeProbe()
    probe.surfaceless = .opened("surfaceless", summary: "ok")

    let error = selectionError(probe, ["LAMINA_EGL_PLATFORM": "wayland"])
    guard case .unknownPlatform("wayland", let allowed)? = error else {
      return XCTFail("expected unknownPlatform, got \(String(describing: error))")
    }
    XCTAssertEqual(allowed, ["gbm", "device", "surfaceless"])
    XCTAssertEqual(probe.calls, [])
    XCTAssertEqual(
      error?.description,
      "LAMINA_EGL_PLATFORM=wayland is not an EGL platform Lamina knows;"
        + " use one of: gbm, device, surfaceless")
  }
}
