import Foundation
import Lamina
import LaminaDisplay
import LaminaRender
import LaminaScene

/// `lamina show SCENE.json`: the scene full-screen, animated, until
/// SIGINT/SIGTERM (or `--frames`/`--duration`). Output: a Wayland window
/// when `WAYLAND_DISPLAY` is set (or `--wayland`), else KMS on a card
/// (`--drm`, `--connector`, `--mode`).
func runShow(_ arguments: [String]) -> Int32 {
  exitStatus {
    let options = try Options(
      arguments,
      valued: ["--drm", "--connector", "--mode", "--rotate", "--frames", "--duration"],
      switches: ["--wayland", "--kms", "--show-damage", "--events", "--stats"])
    guard options.positional.count == 1 else {
      throw UsageError("show needs one scene file\n" + usage)
    }
    let rotation = try rotationOption(options.string("--rotate"))
    let mode = try options.string("--mode").map { text in
      guard let request = ModeRequest(text) else {
        throw UsageError("--mode expects WIDTHxHEIGHT or WIDTHxHEIGHT@HZ, got '\(text)'")
      }
      return request
    }
    let kmsAsked =
      options.has("--kms") || options.string("--drm") != nil
      || options.string("--connector") != nil || mode != nil
    if options.has("--wayland") && kmsAsked {
      throw UsageError("--wayland does not go with --kms, --drm, --connector or --mode")
    }
    let useWayland =
      options.has("--wayland")
      || (!kmsAsked && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil)
    var loopOptions = DisplayLoop.Options(showDamage: options.has("--show-damage"))
    loopOptions.maxFrames = try options.integer("--frames", range: 1...Int(Int32.max))
    loopOptions.duration = try options.number("--duration", range: 0...1e9)
    if options.has("--stats") { loopOptions.statsInterval = 10 }

    let watcher = try SceneWatcher(url: URL(fileURLWithPath: options.positional[0]))
    let stop = try StopSignal()
    let canvas = watcher.scene.canvas
    let output: DisplayOutput
    if useWayland {
      output = try WaylandOutput.open(
        preferredWidth: canvas.pixelWidth, preferredHeight: canvas.pixelHeight,
        rotation: rotation)
    } else {
      output = try KMSOutput.open(
        device: options.string("--drm"), connector: options.string("--connector"), mode: mode,
        rotation: rotation)
    }
    // The display is given back however the loop ends: a signal, an error.
    defer { output.close() }
    // The retained canvas is one tile: as large as the panel (an 8K
    // screen), within the GPU's limits.
    let renderer = try Renderer(
      context: output.context,
      maxTileSize: max(4096, output.bufferWidth, output.bufferHeight))
    let loop = DisplayLoop(
      output: output, watcher: watcher, renderer: renderer, options: loopOptions)
    if options.has("--events") {
      loop.eventHandler = { line in
        print(line)
        fflush(stdout)
      }
      // Under KMS no display server reads the touchscreen or mouse. Without
      // udev the scene still shows, only without taps.
      if !useWayland {
        do {
          loop.inputSources = [try LibinputSource.open()]
        } catch {
          printError("\(error); showing without input")
        }
      }
    }
    loop.log = { printError($0) }
    let age =
      output.presentsDamageOnly
      ? "only damage is redrawn and presented"
      : "only damage is redrawn; no buffer age, so each frame copies the whole panel"
    printError("showing \(watcher.url.lastPathComponent) on \(output.summary); \(age)")
    try loop.run(stop: stop)
    printError("presented \(loop.framesPresented) frames; display released")
    return 0
  }
}

/// `--rotate 0|90|180|270`.
func rotationOption(_ text: String?) throws -> DisplayRotation {
  guard let text else { return .none }
  guard let degrees = Int(text), let rotation = DisplayRotation(rawValue: degrees) else {
    throw UsageError("--rotate expects 0, 90, 180 or 270, got '\(text)'")
  }
  return rotation
}
