import Foundation
import Lamina
import LaminaBatch
import LaminaDisplay
import LaminaRender
import LaminaScene

let showUsage = """
  usage: lamina show FILE.json [--wayland | --kms] [--drm /dev/dri/cardN] [--connector NAME]
                    [--mode WxH[@HZ]] [--rotate 0|90|180|270] [--show-damage] [--events]
                    [--stats] [--frames N] [--duration SECONDS] [--assets DIR]...
                    [--allow-any-path] [--headless WxH [--rate HZ]]
                    [--control ADDRESS [--control-allow-remote] [--control-token FILE]]
                    [--output-root DIR] [--memory-budget BYTES]

  Shows a scene full-screen, animated at the display's refresh rate, until
  SIGINT or SIGTERM (or --frames / --duration); redraws only what changed,
  and nothing while nothing moves. The scene file is reloaded when it
  changes (a bad edit is reported and the old scene stays; a reload reads
  what the first load may). A Lottie animation (recognised by its content)
  loops over its frames ip..op. Output: a Wayland window when
  WAYLAND_DISPLAY is set (or --wayland), else DRM/KMS.

  options:
    --wayland               show in a Wayland window (full-screen)
    --kms                   show on a DRM/KMS display, with no display server
    --drm PATH              the DRM card for KMS (default: the first that has a
                            connected display)
    --connector NAME        the connector for KMS (HDMI-A-1, eDP-1, …; default: the
                            first connected one)
    --mode WxH[@HZ]         the KMS display mode (default: the preferred mode)
    --rotate DEGREES        turn the scene on the panel: 0, 90, 180 or 270
    --show-damage           tint the areas redrawn in each frame
    --events                print 'tap NAME X Y' for each press on a named layer
                            (libinput under KMS, the seat under Wayland)
    --stats                 print frame statistics every 10 seconds
    --frames N              stop after N frames (1...2147483647)
    --duration SECONDS      stop after SECONDS (0...1e9)
    --headless WxH          no screen: draw into an offscreen panel of WxH pixels,
                            paced at --rate (default 60 Hz); for servers and tests
    --rate HZ               the headless panel's refresh rate (1...1000)
    --control ADDRESS       take commands while showing: unix:PATH (a socket made
                            0600 in a folder only you can write) or
                            tcp:127.0.0.1:PORT; see docs/display.md
    --control-allow-remote  allow a TCP address that is not loopback (needs
                            --control-token)
    --control-token FILE    every client first sends {"auth": TOKEN}, the file's
                            first line (16 bytes or more; the file mode 600)
    --output-root DIR       where the control channel's snapshots may be written
    --memory-budget BYTES   decoded images and the renderer's caches (textures,
                            drawn bitmaps, meshes), half each, least recently used
                            dropped first (suffixes K, M, G; default 256M, for a
                            small kiosk board)
  \(AccessOptions.usage)
  \(ExpressionOptions.usage)
    -h, --help              print this help
  """

/// What `lamina show` keeps of decoded images and the renderer's caches
/// unless `--memory-budget` says otherwise: 256 MiB, which a small kiosk
/// board (1 GiB of memory) holds beside the display's buffers.
let showMemoryBudget = 256 << 20

/// `lamina show SCENE.json`: the scene full-screen, animated, until
/// SIGINT/SIGTERM (or `--frames`/`--duration`). Output: a Wayland window
/// when `WAYLAND_DISPLAY` is set (or `--wayland`), else KMS on a card
/// (`--drm`, `--connector`, `--mode`).
func runShow(_ arguments: [String]) -> Int32 {
  Allocator.keepLargeBlocksMapped()
  return exitStatus {
    let options = try Options(
      arguments,
      valued: AccessOptions.valued.union(ExpressionOptions.valued).union([
        "--drm", "--connector", "--mode", "--rotate", "--frames", "--duration", "--headless",
        "--rate", "--control", "--control-token", "--output-root", "--memory-budget",
      ]),
      switches: AccessOptions.switches.union([
        "--wayland", "--kms", "--show-damage", "--events", "--stats", "--control-allow-remote",
      ]),
      command: "show", usage: showUsage)
    guard options.positional.count == 1 else {
      throw UsageError("show needs one scene file\n" + showUsage)
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
    let headless = try options.size("--headless")
    if headless != nil && (kmsAsked || options.has("--wayland")) {
      throw UsageError("--headless does not go with --wayland, --kms, --drm, --connector or --mode")
    }
    let rate = try options.number("--rate", range: 1...1000)
    if rate != nil && headless == nil {
      throw UsageError("--rate is the --headless panel's refresh rate; give --headless WxH too")
    }
    let control = try options.string("--control").map { text in
      do {
        return try ControlAddress(text)
      } catch {
        throw UsageError("\(error)")
      }
    }
    if control == nil {
      for flag in ["--control-token", "--output-root"] where options.string(flag) != nil {
        throw UsageError("\(flag) goes with --control ADDRESS")
      }
      if options.has("--control-allow-remote") {
        throw UsageError("--control-allow-remote goes with --control ADDRESS")
      }
    }
    let useWayland =
      headless == nil
      && (options.has("--wayland")
        || (!kmsAsked && ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil))
    var loopOptions = DisplayLoop.Options(showDamage: options.has("--show-damage"))
    loopOptions.maxFrames = try options.integer("--frames", range: 1...Int(Int32.max))
    loopOptions.duration = try options.number("--duration", range: 0...1e9)
    if options.has("--stats") { loopOptions.statsInterval = 10 }

    let budget = try options.string("--memory-budget").map(parseByteCount) ?? showMemoryBudget
    let access = try AccessOptions.policy(options)
    let expressions = try ExpressionOptions.policy(options)
    let watcher = try SceneWatcher(
      url: URL(fileURLWithPath: options.positional[0]),
      imageCache: ImageCache(budgetBytes: budget / 2), access: access
    ) { url, side, images in
      try Document.load(
        contentsOf: url, maxImageDimension: side, images: images, access: access,
        expressions: expressions)
        .loopingScene()
    }
    let stop = try StopSignal()
    let canvas = watcher.scene.canvas
    // The channel's settings are checked before the display is taken.
    var policy: ControlPolicy?
    if let control {
      if !control.isLocal && !options.has("--control-allow-remote") {
        throw UsageError(
          "--control: \(control) is not a loopback address; anyone who can reach it could change the display. Pass --control-allow-remote and --control-token FILE to allow it"
        )
      }
      let token = try options.string("--control-token").map { try ControlListener.token(at: $0) }
      if !control.isLocal && token == nil {
        throw UsageError(
          "--control: \(control) is not a loopback address: --control-token FILE is required with --control-allow-remote"
        )
      }
      let root = options.string("--output-root").map { URL(fileURLWithPath: $0, isDirectory: true) }
      if let root {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder),
          isFolder.boolValue
        else { throw UsageError("--output-root: '\(root.path)' is not a folder") }
      }
      policy = ControlPolicy(outputRoot: root, access: access, token: token) { url in
        try Document.load(
          contentsOf: url, maxImageDimension: SceneLoader.defaultMaxImageDimension,
          images: watcher.imageCache, access: access, expressions: expressions
        ).loopingScene()
      }
    }
    let output: DisplayOutput
    if let (width, height) = headless {
      output = try HeadlessOutput(
        width: width, height: height, refreshRate: rate ?? 60, rotation: rotation)
    } else if useWayland {
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
      maxTileSize: max(4096, output.bufferWidth, output.bufferHeight),
      cacheBytes: budget - budget / 2)
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
    var server: ControlServer?
    if let control, let policy {
      let made = try ControlServer(
        address: control, loop: loop, policy: policy,
        allowRemote: options.has("--control-allow-remote"))
      made.log = { printError($0) }
      made.start()
      printError("control: listening on \(made.address)")
      server = made
    }
    defer { server?.stop() }
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
