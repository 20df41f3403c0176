import Foundation
import Lamina
import LaminaPlan
import LaminaRender
import LaminaScene

/// Shows a scene on a `DisplayOutput` until stopped, for months:
///
/// - each frame is the scene at the time since it was loaded, and only its
///   damage (what changed since the last frame) is drawn, into a canvas
///   the renderer keeps between frames;
/// - the window buffer gets that damage plus whatever it missed since it
///   was last shown (`EGL_EXT_buffer_age`), or all of it when its age is
///   unknown;
/// - at most one frame is in flight: the next is drawn when the display
///   reports the last one on screen (`FramePacer`);
/// - when nothing changed nothing is drawn or presented, and once every
///   animation has ended (`CALayer.settledTime()`) no frame is even built
///   until the file changes or input arrives;
/// - the scene file is watched: a valid edit replaces the scene, an
///   invalid one is reported and the old scene stays; an edit that loads
///   but cannot be drawn, at its first frame or at any later frame's time
///   (a limit an animation passes, a frame the renderer refuses), is
///   reported too and the scene shown before it comes back; a scene with
///   none before it keeps its last frame on screen until the file changes;
/// - taps are hit-tested against the presentation tree and reported by the
///   name of the layer hit (or its nearest named ancestor).
///
///     let loop = DisplayLoop(output: window, watcher: watcher, renderer: renderer)
///     loop.eventHandler = { print($0) }        // "tap playButton 120.0 48.5"
///     try loop.run(stop: try StopSignal())
///
/// Other threads change the scene through `schedule(_:)`: each
/// `DisplayChange` runs at the next frame boundary as one transaction, and
/// animates as Core Animation's implicit animations do (see
/// `DisplayChange`; the control channel of `lamina show --control` is
/// built on it).
public final class DisplayLoop {
  public struct Options {
    /// Tints the rects each frame redraws (`--show-damage`).
    public var showDamage = false
    /// Writes frame statistics every so many seconds (`--stats`), and at the end.
    public var statsInterval: Double?
    /// Stops after presenting this many frames (tests, demos).
    public var maxFrames: Int?
    /// Stops after this many seconds.
    public var duration: Double?
    /// How often the scene file is checked, in seconds.
    public var reloadInterval = 0.25
    /// The most changes `schedule` holds before the loop takes them.
    public var maxPendingChanges = 4096

    public init(
      showDamage: Bool = false, statsInterval: Double? = nil, maxFrames: Int? = nil,
      duration: Double? = nil
    ) {
      self.showDamage = showDamage
      self.statsInterval = statsInterval
      self.maxFrames = maxFrames
      self.duration = duration
    }
  }

  public let output: DisplayOutput
  public let watcher: SceneWatcher
  public let renderer: Renderer
  public var options: Options
  /// Receives `tap NAME X Y` lines (`--events`).
  public var eventHandler: (String) -> Void = { _ in }
  /// Receives diagnostics: reload errors, statistics.
  public var log: (String) -> Void = { _ in }
  /// Told of each scene the file (or a change) replaced the shown one
  /// with: the file's name.
  public var reloadHandler: (String) -> Void = { _ in }
  /// Told after each frame is presented: the frame's scene time and the
  /// panel pixels it redrew.
  public var frameHandler: (_ time: Double, _ damageArea: Int) -> Void = { _, _ in }
  /// Input read beside the output's own (libinput devices under KMS).
  public var inputSources: [InputSource] = []
  /// The clock frames are timed by (seconds); tests replace it.
  public var clock: () -> Double = monotonicSeconds

  public private(set) var pacer: FramePacer
  /// Frames built (a frame with no damage is built and not drawn).
  public private(set) var framesBuilt = 0
  /// Frames drawn and presented.
  public private(set) var framesPresented = 0
  /// What the last presented frame redrew, in panel pixels.
  public private(set) var lastDamage: [PixelRect] = []
  /// What the last presented frame copied into the window buffer (its damage
  /// and what the buffer missed), in panel pixels.
  public private(set) var lastRepair: [PixelRect] = []

  private var presentation: PresentationTree
  /// The scene on screen: the watcher's last, or the last one drawn when
  /// that one failed.
  private var shown: Scene
  /// Whether a frame of `shown` was drawn.
  private var shownWasDrawn = false
  /// The scene shown before `shown`, which comes back if `shown` fails: one
  /// scene at most, replaced at each reload.
  private var fallback: Shown?
  /// `shown` failed at a frame: no frames are built until the file changes.
  private var halted = false
  /// Kept across frames (each derives only what changed), made again when
  /// the scale or the scene changes.
  private var builder: FrameBuilder?
  private var sceneStart = 0.0
  private var settled: Double?

  /// What showing a scene needs, to come back to it.
  private struct Shown {
    let scene: Scene
    let presentation: PresentationTree
    let settled: Double?
    let sceneStart: Double
  }

  /// The scene on screen (the watcher's last scene unless that one could
  /// not be drawn).
  public var scene: Scene { shown }
  private var previousFrame: DrawList?
  private var previousTime = -Double.infinity
  private var placement: DisplayPlacement?
  /// Panel damage of the last frames presented, newest first.
  private var history: [[PixelRect]] = []
  private var lastReloadCheck = -Double.infinity
  /// Changes from other threads (`schedule`), applied at frame boundaries.
  private let changes: ChangeQueue
  /// A change altered the model since the last frame was built: the next
  /// is built even when the scene had settled.
  private var changed = false
  /// Reads that wait for this boundary's frame (`DisplayEditor.afterFrame`).
  private var afterFrame: [(DisplayEditor) -> Void] = []
  private var afterFrameEditor: DisplayEditor?
  /// The most changes one frame boundary applies (the rest wait a frame).
  public static let maxChangesPerFrame = 256

  public init(
    output: DisplayOutput, watcher: SceneWatcher, renderer: Renderer, options: Options = Options()
  ) {
    self.output = output
    self.watcher = watcher
    self.renderer = renderer
    self.options = options
    changes = ChangeQueue(capacity: options.maxPendingChanges)
    pacer = FramePacer(refreshRate: output.refreshRate)
    shown = watcher.scene
    presentation = PresentationTree(root: watcher.scene.root)
    settled = watcher.scene.root.settledTime()
  }

  /// Runs until `stop` is raised, the window closes, or `options` says.
  public func run(stop: StopSignal? = nil) throws {
    let start = clock()
    sceneStart = start
    var lastStats = start
    defer {
      if options.statsInterval != nil { log("stats: \(pacer.statistics)") }
    }
    while true {
      if stop?.isRaised == true { return }
      let now = clock()
      if let duration = options.duration, now - start >= duration { return }
      if let maxFrames = options.maxFrames, framesPresented >= maxFrames, pacer.canDraw { return }
      if let interval = options.statsInterval, now - lastStats >= interval {
        log("stats: \(pacer.statistics)")
        lastStats = now
      }
      checkForReload(now: now)
      var presented = false
      if pacer.canDraw { presented = try step(now: now) }
      // Wait: for the frame on screen, else the next vblank while the scene
      // moves, else (idle) only for the file, input or a signal.
      let timeout: Double
      if !pacer.canDraw {
        timeout = 1
      } else if changes.count > 0 {
        timeout = 0
      } else if isSettled {
        timeout = options.reloadInterval
      } else {
        timeout = presented ? 0 : pacer.refreshPeriod
      }
      var watched = (stop.map { [$0.descriptor] } ?? []) + inputSources.map(\.descriptor)
      // Waiting changes wake the loop only when it may draw: a frame in
      // flight is waited for first.
      if changes.descriptor >= 0 && pacer.canDraw { watched.append(changes.descriptor) }
      var (events, readable) = try output.waitForEvents(timeout: timeout, alsoWatching: watched)
      for source in inputSources where readable.contains(source.descriptor) {
        events += source.readEvents(
          panelWidth: output.bufferWidth, panelHeight: output.bufferHeight)
      }
      if try handle(events) { return }
    }
  }

  /// Acts on display events: a frame on screen lets the next be drawn, a
  /// tap is reported, a resize redraws everything. True when the display
  /// closed.
  @discardableResult
  public func handle(_ events: [DisplayEvent]) throws -> Bool {
    for event in events {
      switch event {
      case .frameDone(let time):
        if !pacer.canDraw { try pacer.flipCompleted(at: time) }
      case .tap(let x, let y): report(tapAtPanelX: x, y: y)
      case .resized: placement = nil
      case .closed: return true
      }
    }
    return false
  }

  /// Applies the changes waiting (`schedule`), then draws and presents one
  /// frame at `now` if it differs from the last; true when one was
  /// presented. Reads the changes deferred (`afterFrame`) run last.
  @discardableResult
  public func step(now: Double) throws -> Bool {
    applyChanges(now: now)
    defer { runAfterFrame() }
    let presented = try drawFrame(now: now)
    if presented { frameHandler(now - sceneStart, lastDamage.reduce(0) { $0 + $1.area }) }
    return presented
  }

  private func drawFrame(now: Double) throws -> Bool {
    let scene = shown
    let place = DisplayPlacement(
      sceneWidth: Double(scene.canvas.width), sceneHeight: Double(scene.canvas.height),
      panelWidth: output.bufferWidth, panelHeight: output.bufferHeight, rotation: output.rotation)
    if place != placement {
      placement = place
      previousFrame = nil
      history = []
      builder = nil
    }
    let time = now - sceneStart
    if isSettled {
      pacer.idle()
      return false
    }
    changed = false
    let frame: DrawList
    let drawn: [PixelRect]
    do {
      // At the scene's time: the commit's poll ends the animations that are over
      // by it (the clock of `schedule`'s changes), not by the process's.
      withMediaTime(time) { Renderer.commit(scene.root) }
      let root = presentation.update(time: time)
      // Animations move values past what the file says: the tree at this
      // time meets the limits before a frame is built from it.
      try scene.checkLimits(root, time: time)
      // Scaled uniformly, as `lamina render --scale` would draw it.
      var builder =
        self.builder
        ?? FrameBuilder(
          size: CGSize(width: scene.canvas.width, height: scene.canvas.height),
          scale: CGFloat(place.scale), caches: renderer.caches)
      builder.time = time
      frame = builder.build(root: root, background: scene.canvas.background)
      self.builder = builder
      framesBuilt += 1
      // Before anything walks the draw list (damage does): a frame past its
      // limits can be exponentially long to walk (nested shadows). Its
      // layers are named by their places in the file.
      try FrameLimits.check(
        frame, naming: scene.place(ofLayerWith:), copy: scene.place(ofLayerWith:copy:))
      let damage = Damage(from: previousFrame, to: frame)
      previousFrame = frame
      previousTime = time
      if damage.isEmpty {
        // What is on screen is this frame already.
        shownWasDrawn = true
        pacer.idle()
        return false
      }
      drawn = try renderer.drawRetained(frame, damage: damage)
    } catch {
      try failed(scene, error, time: time)
      return false
    }
    let whole = PixelRect(x: 0, y: 0, width: frame.width, height: frame.height)
    // A whole canvas redraw (every first frame) also paints the letterbox.
    let panelDamage = drawn == [whole] ? [place.panel] : drawn.map { place.panelRect($0) }
    // An output reading the canvas back takes it straight from the
    // renderer when the canvas is the panel; the canvas is always whole, so
    // only this frame's damage is new to it.
    let reader = (output as? CanvasReadingOutput).flatMap { $0.readsCanvas ? $0 : nil }
    let canvas = renderer.canvasFramebuffer
    let direct = reader != nil && canvas != nil && place.isIdentity && !options.showDamage
    let age = direct ? 1 : output.bufferAge()
    var repair = panelDamage
    if age >= 1 && age - 1 <= history.count {
      repair += history.prefix(age - 1).flatMap { $0 }
      repair = Damage.merge(repair, maxRects: 8)
    } else {
      repair = [place.panel]
    }
    if direct, let reader, let canvas {
      try reader.present(damage: repair, fromCanvas: canvas)
    } else {
      try renderer.present(
        repair, placement: place, framebuffer: output.presentFramebuffer,
        topDownRows: output.presentsTopDown, tinted: options.showDamage ? panelDamage : [])
      try output.present(damage: repair)
    }
    try pacer.flipQueued(damageArea: panelDamage.reduce(0) { $0 + $1.area })
    history.insert(panelDamage, at: 0)
    if history.count > 4 { history.removeLast() }
    lastDamage = panelDamage
    lastRepair = repair
    framesPresented += 1
    shownWasDrawn = true
    return true
  }

  /// A frame of `scene` could not be drawn: reported, and the scene shown
  /// before it comes back; without one, its last frame stays until the file
  /// changes. Only the first scene's first frame, with nothing to show
  /// instead, ends the loop with the error.
  private func failed(_ scene: Scene, _ error: Error, time: Double) throws {
    // A display's context is its window's: the renderer cannot replace it
    // alone, and nothing more would be drawn. Ending lets a service manager
    // start the display anew (docs/display.md, "A lost GL context").
    if case .contextLost = error as? RendererError, !renderer.replacesLostContext {
      throw error
    }
    // What the canvas holds is no longer known: the next frame is drawn
    // whole, by a new builder (the failed scene's retained state goes).
    previousFrame = nil
    previousTime = -.infinity
    builder = nil
    let message =
      error is SceneError
      ? "\(error)" : "\(scene.fileName): frame at t=\(Scene.seconds(time)) s: \(error)"
    if let fallback {
      log("\(message); still showing the last scene that was drawn")
      shown = fallback.scene
      presentation = fallback.presentation
      settled = fallback.settled
      sceneStart = fallback.sceneStart
      shownWasDrawn = true
      self.fallback = nil
      return
    }
    guard shownWasDrawn else { throw error }
    log("\(message); showing its last frame until the file changes")
    halted = true
  }

  /// Whether the frame on screen is past the scene's last change: no
  /// later frame can differ from it.
  private var isSettled: Bool {
    if halted { return true }
    if changed { return false }
    guard previousFrame != nil, let settled else { return false }
    return previousTime > settled
  }

  /// Loads the scene again when its file changed (at most every
  /// `reloadInterval`).
  public func checkForReload(now: Double) {
    guard now - lastReloadCheck >= options.reloadInterval else { return }
    lastReloadCheck = now
    switch watcher.poll() {
    case .unchanged: break
    case .reloaded(let scene):
      replaceScene(with: scene, now: now)
      log("reloaded \(watcher.url.lastPathComponent)")
      reloadHandler(watcher.url.lastPathComponent)
    case .failed(let error):
      log("\(error); still showing the last scene that loaded")
    }
  }

  /// Shows `scene` from `now` on, keeping the scene shown until now at hand
  /// in case the new one fails.
  private func replaceScene(with scene: Scene, now: Double) {
    // The scene shown until now stays at hand in case the new one fails
    // (one that failed itself is no better than none).
    if shownWasDrawn && !halted {
      fallback = Shown(
        scene: shown, presentation: presentation, settled: settled, sceneStart: sceneStart)
    }
    shown = scene
    shownWasDrawn = false
    halted = false
    presentation = PresentationTree(root: scene.root)
    builder = nil
    settled = scene.root.settledTime()
    sceneStart = now
    previousTime = -.infinity
    // The old frame stays: only what differs from it is drawn.
  }

  // MARK: Changes from other threads

  /// Queues `change` for the next frame boundary; safe from any thread.
  /// False (and nothing queued) when `Options.maxPendingChanges` wait already.
  @discardableResult
  public func schedule(_ change: DisplayChange) -> Bool { changes.push(change) }

  /// Queues a change made by `body` at the next frame boundary, animated
  /// over `duration` (nil: Core Animation's 0.25 s) unless `disableActions`.
  @discardableResult
  public func schedule(
    duration: Double? = nil, timingFunction: CAMediaTimingFunction? = nil,
    disableActions: Bool = false, _ body: @escaping (DisplayEditor) throws -> Void
  ) -> Bool {
    schedule(
      DisplayChange(
        duration: duration, timingFunction: timingFunction, disableActions: disableActions,
        body: body))
  }

  /// Changes waiting for the next frame boundary.
  public var pendingChanges: Int { changes.count }

  /// A descriptor readable while changes wait (for loops that drive
  /// `step` themselves and wait on their own).
  public var changeDescriptor: Int32 { changes.descriptor }

  /// Applies up to `maxChangesPerFrame` waiting changes, each as one
  /// transaction at the scene time of `now`, then commits the implicit
  /// transaction (layers built since become live; completions run).
  public func applyChanges(now: Double) {
    var batch = changes.take()
    if batch.count > Self.maxChangesPerFrame {
      changes.putBack(Array(batch[Self.maxChangesPerFrame...]))
      batch.removeSubrange(Self.maxChangesPerFrame...)
    }
    let time = now - sceneStart
    let editor = DisplayEditor(loop: self, time: time)
    withMediaTime(time) {
      for change in batch {
        CATransaction.begin()
        if let duration = change.duration { CATransaction.setAnimationDuration(duration) }
        if let function = change.timingFunction {
          CATransaction.setAnimationTimingFunction(function)
        }
        CATransaction.setDisableActions(change.disableActions)
        if let finished = change.finished { CATransaction.setCompletionBlock(finished) }
        var failure: Error?
        do {
          try change.body(editor)
        } catch {
          failure = error
        }
        CATransaction.commit()
        change.applied?(failure)
      }
      // Every frame: layers made since become live (their later changes
      // animate), finished animations end and completions run.
      CATransaction.flush()
    }
    if let scene = editor.replacement {
      replaceScene(with: scene, now: now)
      reloadHandler(scene.fileName)
    } else if !batch.isEmpty {
      changed = true
      halted = false
      settled = shown.root.settledTime()
    }
    if !editor.deferred.isEmpty {
      afterFrame += editor.deferred
      afterFrameEditor = editor
    }
  }

  private func runAfterFrame() {
    guard let editor = afterFrameEditor else { return }
    let reads = afterFrame
    afterFrame = []
    afterFrameEditor = nil
    for read in reads { read(editor) }
  }

  /// The presentation layer of a model layer as of the last frame built.
  func presentationLayer(for layer: CALayer) -> CALayer? {
    presentation.presentationLayer(for: layer)
  }

  /// The canvas as last drawn, rows top-down; nil before the first frame
  /// (or when no target for it can be made).
  ///
  /// Copied out the way frames reach a panel (`Renderer.present`, into an
  /// offscreen target of the canvas's size) rather than read from
  /// `canvasFramebuffer`: under load that framebuffer was seen to hold an
  /// earlier frame than the one `present` copied (llvmpipe; see the
  /// branch's report).
  func snapshot() -> RenderedImage? {
    guard let frame = previousFrame, renderer.canvasFramebuffer != nil else { return nil }
    let (width, height) = (frame.width, frame.height)
    guard width > 0, height > 0 else { return nil }
    renderer.context.makeCurrent()
    guard
      let target = try? RenderTarget(
        width: width, height: height, samples: 1, device: renderer.context.device)
    else { return nil }
    let place = DisplayPlacement(
      sceneWidth: Double(width), sceneHeight: Double(height), panelWidth: width,
      panelHeight: height, rotation: .none)
    do {
      try renderer.present(
        [place.panel], placement: place, framebuffer: target.resolveFramebuffer,
        topDownRows: true)
    } catch {
      return nil
    }
    // Through the device: its cache of the read binding and pack state
    // stays true.
    var pixels = [UInt8](repeating: 0, count: width * height * 4)
    pixels.withUnsafeMutableBytes { raw in
      guard let base = raw.baseAddress else { return }
      target.read(PixelRect(x: 0, y: 0, width: width, height: height), into: base)
    }
    return RenderedImage(width: width, height: height, premultipliedPixels: pixels)
  }

  /// Hit-tests a tap and reports the named layer under it.
  public func report(tapAtPanelX x: Double, y: Double) {
    guard let placement, let point = placement.scenePoint(panelX: x, panelY: y) else { return }
    var layer = presentation.hitTest(point)
    while let current = layer, current.name == nil { layer = current.superlayer }
    guard let name = layer?.name else { return }
    eventHandler(String(format: "tap %@ %.1f %.1f", name, Double(point.x), Double(point.y)))
  }
}
