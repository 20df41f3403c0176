import Foundation

/// Groups layer changes, sets how their implicit animations run, and
/// reports when those animations are done.
///
/// ```swift
/// CATransaction.begin()
/// CATransaction.setAnimationDuration(1)
/// CATransaction.setCompletionBlock { print("faded") }
/// layer.opacity = 0          // animates from 1 to 0 over 1 s
/// CATransaction.commit()
/// ```
///
/// **The implicit transaction.** As in Core Animation, any change to a
/// layer (a property, its sublayers, its animations, `setNeedsLayout()`,
/// `setNeedsDisplay()`) made while no transaction is open opens the
/// implicit transaction, and so do the setters of `CATransaction`. Core
/// Animation commits it at the end of the run loop turn; Lamina has no run
/// loop: it commits at `CATransaction.flush()`, which a display loop calls
/// once per frame (made while an explicit transaction is open, the flush
/// waits for it to commit). A `begin()`/`commit()` pair made while a
/// transaction is open is nested in it: its `commit()` ends its settings
/// (duration, disabled actions) but commits nothing. Only the outermost
/// transaction, explicit or implicit, commits, and its commit lays out and
/// displays the layers marked for it first (see `commitPhases()`).
///
/// **Which layers animate.** A layer is *committed* once an outermost
/// transaction has committed since the layer was made. A change to a layer
/// that was never committed runs no action (no implicit animation), as in
/// Core Animation: the values given while building a tree, and the first
/// values of a layer added to a committed tree in the same transaction,
/// show at once. Presentation layers never animate.
///
/// **Finishing.** `flush()` also reads the clock (`CACurrentMediaTime()`)
/// and, for the animations added since transactions began tracking them,
/// calls their delegates' `animationDidStart` / `animationDidStop(_:finished:)`,
/// removes finished ones with `isRemovedOnCompletion`, and runs completion
/// blocks, once, when all the animations added in their transaction after
/// the block was set are done (a replaced block too, for the animations
/// added while it was set). A nested transaction's block waits for the
/// outermost commit (its animations start then); a block whose transaction
/// added no animation runs at that commit.
///
/// Transactions are process-wide; use layers from one thread at a time.
open class CATransaction {
  /// The settings of one open transaction, a level of the nesting.
  final class Level {
    var duration: CFTimeInterval?
    var timingFunction: CAMediaTimingFunction?
    var disableActions: Bool?
    var completion: (() -> Void)?
    /// Where the animations `completion` waits for start in `animations`:
    /// those added after it was set ("subsequently added").
    var completionStart = 0
    var values: [String: Any] = [:]
    /// Animations added while this transaction was open.
    var animations: [Tracked] = []
    /// Completion blocks of transactions nested in this one, and blocks
    /// this one replaced, waiting for the outermost commit.
    var nestedCompletions: [Pending] = []
    let isImplicit: Bool
    init(implicit: Bool) { isImplicit = implicit }
  }

  /// An animation added by an action or inside a transaction, watched until it ends.
  final class Tracked {
    weak var layer: CALayer?
    let animation: CAAnimation
    var started = false
    var done = false
    init(layer: CALayer, animation: CAAnimation) {
      self.layer = layer
      self.animation = animation
    }
  }

  /// A committed completion block waiting for its animations.
  struct Pending {
    let animations: [Tracked]
    let block: () -> Void
  }

  nonisolated(unsafe) static var stack: [Level] = []
  nonisolated(unsafe) static var tracked: [Tracked] = []
  nonisolated(unsafe) static var pending: [Pending] = []
  /// Counts outermost commits; layers made before the latest one are
  /// committed (see `CALayer.isLive`).
  nonisolated(unsafe) static var generation = 0
  /// While above 0, changes open no implicit transaction: presentation
  /// copies being made (see `CALayer.valueCopy()`).
  nonisolated(unsafe) static var copying = 0
  /// A `flush()` made while an explicit transaction was open, done when
  /// the last explicit one commits.
  nonisolated(unsafe) static var flushWaiting = false
  /// Layers marked for layout or display since the last outermost commit,
  /// whose trees that commit lays out and displays.
  nonisolated(unsafe) static var invalidated: [WeakLayer] = []
  /// While the commit's layout and display phases run.
  nonisolated(unsafe) static var inCommitPhases = false

  struct WeakLayer {
    weak var layer: CALayer?
  }

  private static let transactionLock = NSRecursiveLock()

  /// Takes the transaction lock (recursive), as Core Animation's `lock()`:
  /// for code that changes layers from more than one thread.
  public class func lock() { transactionLock.lock() }

  /// Releases the transaction lock.
  public class func unlock() { transactionLock.unlock() }

  /// Opens a transaction (nested in the current one, if any).
  public class func begin() {
    stack.append(Level(implicit: false))
  }

  /// Ends the innermost explicit transaction. When it is the outermost
  /// one it commits: layers become committed and its completion block runs
  /// when the animations added inside it have finished (see `flush()`).
  /// Nested in another transaction (the implicit one included), it commits
  /// nothing: its animations and completion block join the enclosing one.
  public class func commit() {
    guard let i = stack.lastIndex(where: { !$0.isImplicit }) else { return }
    // The outermost transaction: Core Animation's commit lays out and
    // displays before the layers are committed (see `commitPhases()`).
    if i == 0 { commitPhases() }
    guard let j = stack.lastIndex(where: { !$0.isImplicit }) else { return }
    let frame = stack.remove(at: j)
    end(frame)
    if flushWaiting && !stack.contains(where: { !$0.isImplicit }) {
      flushWaiting = false
      flush()
    }
  }

  /// Commits the implicit transaction, then processes animations that
  /// started or finished by `CACurrentMediaTime()`. As in Core Animation
  /// ("Delays the commit until any nested explicit transactions have
  /// completed"), while an explicit transaction is open it commits
  /// nothing: the implicit transaction commits when the last explicit one
  /// does.
  public class func flush() {
    if stack.contains(where: { !$0.isImplicit }) {
      flushWaiting = true
      poll()
      return
    }
    if !stack.isEmpty { commitPhases() }
    while let frame = stack.popLast() { end(frame) }
    generation += 1
    poll()
  }

  /// Ends `frame`, just taken off the stack: the outermost commits, a
  /// nested one hands what it collected to the transaction around it.
  private class func end(_ frame: Level) {
    var completions = frame.nestedCompletions
    if let block = frame.completion {
      completions.append(
        Pending(animations: Array(frame.animations[frame.completionStart...]), block: block))
    }
    if let outer = stack.last {
      outer.animations += frame.animations
      outer.nestedCompletions += completions
      return
    }
    generation += 1
    var ready: [() -> Void] = []
    for p in completions {
      if p.animations.allSatisfy(\.done) { ready.append(p.block) } else { pending.append(p) }
    }
    for block in ready { block() }
  }

  /// The layout and display phases of an outermost commit, run while its
  /// transaction is still open (what they change belongs to it): the
  /// trees of the layers marked with `setNeedsLayout()` or
  /// `setNeedsDisplay()` since the last commit are laid out
  /// (`layoutIfNeeded()`, top-down) and displayed (`displayIfNeeded()`),
  /// as Core Animation's commit does before it commits the layers, so
  /// that what `layoutSublayers()` and `display()` set for a layer made in
  /// this transaction is its first value, not animated. Display waits for
  /// a drawing backend (`CGContext.bitmapContextMaker`): without one (a
  /// program that flushes before its first render, which installs
  /// LaminaDraw's), the renderer's commit displays (see
  /// `commitFrame(root:)`), and a layer that was new to this commit is
  /// displayed then as a new layer, so that what `display()` sets still
  /// shows at once in the first frame, as on iOS, where this flush would
  /// have displayed it.
  static func commitPhases() {
    guard !inCommitPhases, !invalidated.isEmpty else { return }
    inCommitPhases = true
    defer { inCommitPhases = false }
    var passes = 0
    while !invalidated.isEmpty && passes < 4 {
      passes += 1
      let marked = invalidated
      invalidated = []
      var roots: [CALayer] = []
      var seen = Set<ObjectIdentifier>()
      for entry in marked {
        guard var root = entry.layer else { continue }
        while let parent = root.parentLayer { root = parent }
        if seen.insert(ObjectIdentifier(root)).inserted { roots.append(root) }
      }
      for root in roots {
        if CGContext.bitmapContextMaker != nil {
          root.layoutAndDisplayIfNeeded()
        } else {
          root.layoutIfNeeded()
          root.deferDisplayOfNewLayers()
        }
      }
    }
  }

  /// Records that `layer` was marked for layout or display, for the next
  /// outermost commit's phases.
  static func noteInvalidated(_ layer: CALayer) {
    invalidated.append(WeakLayer(layer: layer))
  }

  /// Core Animation's commit as a frame runs it, for the tree of `root`:
  /// layout (`layoutIfNeeded()`, top-down), display (`displayIfNeeded()`
  /// on every layer that needs it, so that what `layoutSublayers()`,
  /// `display()` and `draw(in:)` set, animations included, is in the
  /// frame), then `flush()`. A renderer calls it before it evaluates the
  /// presentation tree of a frame; a drawing backend must be registered
  /// for `draw(in:)` to have a context (see `CGContext.bitmap`).
  package static func commitFrame(root: CALayer) {
    root.layoutAndDisplayIfNeeded()
    flush()
  }

  /// Whether a transaction is open (the implicit one included).
  static var isOpen: Bool { !stack.isEmpty }

  /// Delegates told, finished animations removed, completion blocks run.
  static func poll() {
    let now = CACurrentMediaTime()
    for item in tracked where !item.done {
      let animation = item.animation
      guard let layer = item.layer,
        layer.storedAnimations.contains(where: { $0.animation === animation })
      else {
        item.done = true
        animation.delegate?.animationDidStop(animation, finished: false)
        continue
      }
      let local = layer.localTime(fromAbsolute: now)
      let elapsed = (local - animation.beginTime) * Double(animation.speed)
      if !item.started && elapsed >= 0 {
        item.started = true
        animation.delegate?.animationDidStart(animation)
      }
      if elapsed >= animation.activeDuration {
        item.done = true
        if !item.started {
          item.started = true
          animation.delegate?.animationDidStart(animation)
        }
        if animation.isRemovedOnCompletion {
          layer.storedAnimations.removeAll { $0.animation === animation }
        }
        animation.delegate?.animationDidStop(animation, finished: true)
      }
    }
    tracked.removeAll(where: \.done)
    var waiting: [Pending] = []
    var ready: [() -> Void] = []
    for p in pending {
      if p.animations.allSatisfy(\.done) { ready.append(p.block) } else { waiting.append(p) }
    }
    pending = waiting
    for block in ready { block() }
  }

  /// A change happened: opens the implicit transaction when none is open.
  static func noteChange() {
    if stack.isEmpty { stack.append(Level(implicit: true)) }
  }

  /// Records an animation added to `layer` in the current transaction.
  static func track(_ animation: CAAnimation, on layer: CALayer) {
    noteChange()
    let item = Tracked(layer: layer, animation: animation)
    tracked.append(item)
    stack.last?.animations.append(item)
  }

  private class func setting<T>(_ keyPath: KeyPath<Level, T?>) -> T? {
    for frame in stack.reversed() { if let v = frame[keyPath: keyPath] { return v } }
    return nil
  }

  /// The duration of implicit animations: the innermost transaction's
  /// setting, else 0.25 s.
  public class func animationDuration() -> CFTimeInterval {
    setting(\.duration) ?? 0.25
  }

  /// Sets the duration of implicit animations in the current transaction.
  public class func setAnimationDuration(_ dur: CFTimeInterval) {
    noteChange()
    stack.last?.duration = dur
  }

  /// The timing function of implicit animations, or nil (linear).
  public class func animationTimingFunction() -> CAMediaTimingFunction? {
    setting(\.timingFunction)
  }

  /// Sets the timing function of implicit animations in the current transaction.
  public class func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
    noteChange()
    stack.last?.timingFunction = function
  }

  /// Whether property changes skip their actions (no implicit animations).
  public class func disableActions() -> Bool {
    setting(\.disableActions) ?? false
  }

  /// Turns actions off (or on) for changes in the current transaction.
  public class func setDisableActions(_ flag: Bool) {
    noteChange()
    stack.last?.disableActions = flag
  }

  /// The completion block of the current transaction.
  public class func completionBlock() -> (() -> Void)? {
    stack.last?.completion
  }

  /// Sets the block run once when every animation added in the current
  /// transaction from here on has finished or been removed (at the commit
  /// when none is). A block this one replaces still runs, once the
  /// animations added while it was set are done, as Apple documents it.
  public class func setCompletionBlock(_ block: (() -> Void)?) {
    noteChange()
    guard let level = stack.last else { return }
    if let old = level.completion {
      level.nestedCompletions.append(
        Pending(animations: Array(level.animations[level.completionStart...]), block: old))
    }
    level.completion = block
    level.completionStart = level.animations.count
  }

  /// A transaction property: `animationDuration`, `animationTimingFunction`,
  /// `disableActions`, `completionBlock`, or any other key stored on the
  /// current transaction.
  public class func value(forKey key: String) -> Any? {
    switch key {
    case kCATransactionAnimationDuration: return animationDuration()
    case kCATransactionAnimationTimingFunction: return animationTimingFunction()
    case kCATransactionDisableActions: return disableActions()
    case kCATransactionCompletionBlock: return completionBlock()
    default:
      for frame in stack.reversed() { if let v = frame.values[key] { return v } }
      return nil
    }
  }

  /// Sets a transaction property (see `value(forKey:)`).
  public class func setValue(_ anObject: Any?, forKey key: String) {
    switch key {
    case kCATransactionAnimationDuration:
      if let d = Convert.double(anObject) { setAnimationDuration(d) }
    case kCATransactionAnimationTimingFunction:
      setAnimationTimingFunction(anObject as? CAMediaTimingFunction)
    case kCATransactionDisableActions:
      setDisableActions(Convert.bool(anObject) ?? false)
    case kCATransactionCompletionBlock:
      setCompletionBlock(anObject as? () -> Void)
    default:
      noteChange()
      stack.last?.values[key] = anObject
    }
  }
}

/// `CATransaction` key of the implicit animations' duration.
public let kCATransactionAnimationDuration = "animationDuration"
/// `CATransaction` key of the implicit animations' timing function.
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
/// `CATransaction` key of disabling actions.
public let kCATransactionDisableActions = "disableActions"
/// `CATransaction` key of the completion block.
public let kCATransactionCompletionBlock = "completionBlock"
