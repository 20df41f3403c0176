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
/// **When the implicit transaction commits.** Core Animation opens an
/// implicit transaction at the first change outside `begin()`/`commit()`
/// and commits it at the end of the run loop turn. Lamina has no run loop:
/// the implicit transaction stays open until `CATransaction.flush()`, which
/// a display loop calls once per frame before it renders (an explicit
/// `commit()` of an outermost transaction commits only that transaction).
///
/// **Which layers animate.** As in Core Animation, a layer that did not
/// exist at the last commit (one being built) gets no implicit animations:
/// changes animate once a transaction has committed since the layer was
/// made. Presentation layers never animate.
///
/// **Finishing.** `flush()` also reads the clock (`CACurrentMediaTime()`)
/// and, for the animations added since transactions began tracking them,
/// calls their delegates' `animationDidStart` / `animationDidStop(_:finished:)`,
/// removes finished ones with `isRemovedOnCompletion`, and runs each
/// committed transaction's completion block, once, when all its animations
/// are done (at commit when it has none).
///
/// Transactions are process-wide; use layers from one thread at a time.
open class CATransaction {
  /// The settings of one open transaction.
  final class Frame {
    var duration: CFTimeInterval?
    var timingFunction: CAMediaTimingFunction?
    var disableActions: Bool?
    var completion: (() -> Void)?
    var values: [String: Any] = [:]
    /// Animations added while this transaction was open.
    var animations: [Tracked] = []
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

  nonisolated(unsafe) static var stack: [Frame] = []
  nonisolated(unsafe) static var tracked: [Tracked] = []
  nonisolated(unsafe) static var pending: [Pending] = []
  /// Counts commits; layers made before the latest one are live.
  nonisolated(unsafe) static var generation = 0

  private static let transactionLock = NSRecursiveLock()

  /// Takes the transaction lock (recursive), as Core Animation's `lock()`:
  /// for code that changes layers from more than one thread.
  public class func lock() { transactionLock.lock() }

  /// Releases the transaction lock.
  public class func unlock() { transactionLock.unlock() }

  /// Opens a transaction (nested in the current one, if any).
  public class func begin() {
    stack.append(Frame(implicit: false))
  }

  /// Commits the innermost explicit transaction. Its completion block runs
  /// when the animations added inside it have finished (see `flush()`).
  public class func commit() {
    guard let i = stack.lastIndex(where: { !$0.isImplicit }) else { return }
    let frame = stack.remove(at: i)
    finish(frame)
  }

  /// Commits every open transaction, the implicit one included, then
  /// processes animations that started or finished by `CACurrentMediaTime()`.
  public class func flush() {
    while let frame = stack.popLast() { finish(frame) }
    generation += 1
    poll()
  }

  private class func finish(_ frame: Frame) {
    generation += 1
    // An inner transaction's animations count for the outer one too.
    if let outer = stack.last { outer.animations += frame.animations }
    guard let block = frame.completion else { return }
    if frame.animations.isEmpty || frame.animations.allSatisfy(\.done) {
      block()
    } else {
      pending.append(Pending(animations: frame.animations, block: block))
    }
  }

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
    if stack.isEmpty { stack.append(Frame(implicit: true)) }
  }

  /// Records an animation added to `layer` in the current transaction.
  static func track(_ animation: CAAnimation, on layer: CALayer) {
    noteChange()
    let item = Tracked(layer: layer, animation: animation)
    tracked.append(item)
    stack.last?.animations.append(item)
  }

  private class func setting<T>(_ keyPath: KeyPath<Frame, T?>) -> T? {
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
  /// transaction (from here on) has finished or been removed.
  public class func setCompletionBlock(_ block: (() -> Void)?) {
    noteChange()
    stack.last?.completion = block
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
